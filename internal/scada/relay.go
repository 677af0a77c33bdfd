package scada

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/helio-energy/helio/internal/push"
)

// Remote debugging on several replicas: the replica that polls owns each device's
// connection, and many devices take one TCP client only. So a debug call that reaches a
// replica which does not poll goes to the one that does (Relay: NATS request and reply)
// and runs there between two polls, on the poll's connection. Only when no replica
// polls (no lock holder answers), or there is no relay (a single replica, or no NATS),
// does the replica open a short-lived connection of its own (docs/field.md).

// Debug operations.
const (
	opRead    = "read"
	opWrite   = "write"
	opPreview = "preview" // a map being edited, read once (preview.go)
)

// debugCall is a debug read or write as it travels to the polling replica.
type debugCall struct {
	Op       string  `json:"op"`
	DeviceID int64   `json:"deviceId"`
	Register string  `json:"register,omitempty"`
	Value    float64 `json:"value,omitempty"`
	// Registers is the map a preview reads (validated by the caller).
	Registers []Register `json:"registers,omitempty"`
}

// debugAnswer is its outcome, the error by kind so that it is told apart again here.
type debugAnswer struct {
	Live    *Live    `json:"live,omitempty"`
	Written []uint16 `json:"written,omitempty"` // the words written, nil when nothing was
	Reg     Register `json:"reg"`               // the register written
	Kind    string   `json:"kind,omitempty"`    // "" (no error), not_polled, input, range, timeout, device
	Message string   `json:"message,omitempty"`
}

func (a *debugAnswer) setErr(err error) {
	switch {
	case err == nil:
		return
	case errors.Is(err, ErrNotPolled):
		a.Kind = "not_polled"
	case errors.Is(err, errValueRange):
		a.Kind = "range"
	case isInput(err):
		a.Kind = "input"
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		a.Kind = "timeout"
	default:
		a.Kind = "device"
	}
	a.Message = err.Error()
}

func (a *debugAnswer) err() error {
	switch a.Kind {
	case "":
		return nil
	case "not_polled":
		return ErrNotPolled
	case "range":
		return errValueRange
	case "input":
		return inputError{a.Message}
	case "timeout":
		return context.DeadlineExceeded
	}
	return errors.New(a.Message)
}

// doFunc runs fn on a device's connection.
type doFunc func(ctx context.Context, deviceID int64, fn func(s *Session) error) error

// exec runs the call through do.
func (c debugCall) exec(ctx context.Context, do doFunc) debugAnswer {
	var a debugAnswer
	var err error
	switch c.Op {
	case opRead:
		err = do(ctx, c.DeviceID, func(ss *Session) error {
			var err error
			a.Live, err = liveRead(ss, c.DeviceID)
			return err
		})
	case opWrite:
		err = do(ctx, c.DeviceID, func(ss *Session) error {
			found := false
			for _, x := range ss.Target.Registers {
				if x.Name == c.Register {
					a.Reg, found = x, true
				}
			}
			if !found || !a.Reg.Writable {
				return inputError{"not writable"}
			}
			words, ok := encode(&a.Reg, c.Value)
			if !ok {
				return errValueRange
			}
			if err := ss.Write(uint16(a.Reg.Address), words); err != nil {
				return err
			}
			a.Written = words
			var err error
			a.Live, err = liveRead(ss, c.DeviceID)
			return err
		})
	case opPreview:
		err = do(ctx, c.DeviceID, func(ss *Session) error {
			var err error
			a.Live, err = previewRead(ss, c.DeviceID, c.Registers)
			return err
		})
	default:
		err = inputError{"unknown operation"}
	}
	a.setErr(err)
	return a
}

// debug runs a debug call where the device's connection is (see above).
func (s *Service) debug(ctx context.Context, c debugCall) debugAnswer {
	ctx, cancel := context.WithTimeout(ctx, debugTimeout)
	defer cancel()
	if p := s.poller.Load(); p != nil {
		return c.exec(ctx, p.Do)
	}
	s.shareMu.Lock()
	relay := s.relay
	s.shareMu.Unlock()
	if relay != nil {
		body, _ := json.Marshal(c)
		out, err := relay.Request(ctx, body)
		var a debugAnswer
		switch {
		case err == nil:
			if err := json.Unmarshal(out, &a); err != nil {
				a = debugAnswer{}
				a.setErr(err)
			}
			if a.Kind != "elsewhere" {
				return a
			}
		case !errors.Is(err, push.ErrNoResponders):
			a.setErr(err)
			return a
		}
		// nobody polls (the lock is changing hands): nobody holds the connection either
	}
	return c.exec(ctx, s.direct)
}

// answer serves another replica's debug call (Relay) on this replica's poller.
func (s *Service) answer(ctx context.Context, data []byte) []byte {
	var c debugCall
	var a debugAnswer
	if err := json.Unmarshal(data, &c); err != nil {
		a.setErr(inputError{err.Error()})
	} else if p := s.poller.Load(); p == nil {
		a.Kind = "elsewhere" // this replica stopped polling meanwhile
	} else {
		// answer before the caller gives up waiting
		ctx, cancel := context.WithTimeout(ctx, debugTimeout-2*time.Second)
		defer cancel()
		a = c.exec(ctx, p.Do)
	}
	out, _ := json.Marshal(a)
	return out
}

// direct runs fn on a short-lived connection of this replica's own.
func (s *Service) direct(ctx context.Context, deviceID int64, fn func(s *Session) error) error {
	ts, err := targets(ctx, s.DB, "WHERE f.device_id = ?", deviceID)
	if err != nil {
		return err
	}
	if len(ts) == 0 {
		return ErrNotPolled
	}
	t := ts[0]
	l, err := dial(t.Addr, max(t.Timeout, 100*time.Millisecond))
	if err != nil {
		return err
	}
	defer l.close()
	done := make(chan error, 1)
	go func() { done <- fn(&Session{Target: t, l: l, state: &tstate{Target: t}}) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		l.close() // the session's request fails at once
		<-done
		return ctx.Err()
	}
}
