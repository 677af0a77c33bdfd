package scada

import (
	"sync/atomic"
	"time"

	"github.com/helio-energy/helio/internal/sunspec"
)

// Communication states of a polled device.
const (
	StateConnecting = "connecting" // not read successfully yet
	StateOnline     = "online"
	StateOffline    = "offline" // the last polls failed
)

// offlineAfter consecutive failed polls turn an online device offline (one lost answer is
// not an outage); a device never read goes offline after as many.
const offlineAfter = 2

// maxErrors is how many recent errors a device's status keeps.
const maxErrors = 10

// PollError is one failed poll.
type PollError struct {
	Time    time.Time `json:"time"`
	Message string    `json:"message"`
	Kind    string    `json:"kind" doc:"connect (no connection), link (connection broken, timed out or garbled), device (Modbus exception), decode"`
}

// Status is what the poller knows of a device.
type Status struct {
	State               string          `json:"state" doc:"connecting, online or offline"`
	LastPoll            *time.Time      `json:"lastPoll"`
	LastSuccess         *time.Time      `json:"lastSuccess"`
	LatencyMs           float64         `json:"latencyMs" doc:"duration of the last successful poll"`
	Polls               int64           `json:"polls"`
	Failures            int64           `json:"failures"`
	ConsecutiveFailures int             `json:"consecutiveFailures"`
	Errors              []PollError     `json:"errors,omitempty" doc:"most recent first, at most 10; left out when there are none"`
	Layout              *sunspec.Layout `json:"layout" doc:"SunSpec base and model chain (null for a register map)"`
	Manufacturer        string          `json:"manufacturer"`
	Model               string          `json:"model"`
	Serial              string          `json:"serial"`
}

// Status returns a copy of a device's poll status (ok false when it is not polled).
func (p *Poller) Status(deviceID int64) (Status, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	st, ok := p.status[deviceID]
	if !ok {
		return Status{}, false
	}
	c := *st
	c.Errors = append([]PollError(nil), st.Errors...)
	return c, true
}

// Comm reports a device's communication state ("" when the poller does not read it).
func (p *Poller) Comm(deviceID int64) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if st, ok := p.status[deviceID]; ok {
		return st.State
	}
	return ""
}

// CommStates returns every polled device's communication state and the snapshot's
// generation (a new one whenever a state changed). The map is shared and must not be
// changed: it is taken again only after a state changed, so a call that reads many
// devices costs one lock, not one per device.
func (p *Poller) CommStates() (map[int64]string, uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.comms == nil {
		m := make(map[int64]string, len(p.status))
		for id, st := range p.status {
			m[id] = st.State
		}
		p.comms = m
		p.commsGen = nextCommGen()
	}
	return p.comms, p.commsGen
}

// commGen numbers communication-state snapshots across pollers and caches, so that a
// generation never names two snapshots.
var commGen atomic.Uint64

func nextCommGen() uint64 { return commGen.Add(1) }

func (p *Poller) succeeded(id int64, addr string, at time.Time, latency time.Duration, layout *sunspec.Layout, ident [3]string) {
	var note func() // the log line, written once mu is released
	p.mu.Lock()
	defer func() {
		p.mu.Unlock()
		if note != nil {
			note()
		}
	}()
	st := p.status[id]
	if st == nil {
		return
	}
	if st.State == StateOffline {
		failedPolls := st.ConsecutiveFailures
		note = func() {
			p.opt.Logger.Info("field device connection restored", "device", id, "endpoint", addr, "failedPolls", failedPolls)
		}
	}
	p.touch(id, st.State, StateOnline)
	t := at.UTC()
	st.LastPoll, st.LastSuccess = &t, &t
	st.LatencyMs = float64(latency.Microseconds()) / 1000
	st.Polls++
	st.ConsecutiveFailures = 0
	st.State = StateOnline
	st.Layout = layout
	if ident[0] != "" || ident[1] != "" || ident[2] != "" {
		st.Manufacturer, st.Model, st.Serial = ident[0], ident[1], ident[2]
	}
}

func (p *Poller) failed(id int64, addr string, at time.Time, kind string, err error) {
	var note func() // the log line, written once mu is released
	p.mu.Lock()
	defer func() {
		p.mu.Unlock()
		if note != nil {
			note()
		}
	}()
	st := p.status[id]
	if st == nil {
		return
	}
	t := at.UTC()
	st.LastPoll = &t
	st.Polls++
	st.Failures++
	st.ConsecutiveFailures++
	if st.ConsecutiveFailures >= offlineAfter {
		if was := st.State; was != StateOffline { // once per transition, not per failed poll
			note = func() {
				p.opt.Logger.Warn("field device connection lost", "device", id, "endpoint", addr, "was", was, "kind", kind, "reason", err.Error())
			}
		}
		p.touch(id, st.State, StateOffline)
		st.State = StateOffline
	} else {
		p.touch(id, st.State, st.State)
	}
	e := PollError{Time: t, Message: err.Error(), Kind: kind}
	st.Errors = append([]PollError{e}, st.Errors...)
	if len(st.Errors) > maxErrors {
		st.Errors = st.Errors[:maxErrors]
	}
}

// touch marks a device's status as changed (p.mu held); a change of state is signalled so
// that it is written at once rather than with the next batch.
func (p *Poller) touch(id int64, from, to string) {
	p.dirty[id] = true
	if from != to {
		p.comms = nil
		select {
		case p.changed <- struct{}{}:
		default:
		}
	}
}

// takeDirty returns copies of the statuses changed since the last call and the devices
// dropped since then, and forgets both.
func (p *Poller) takeDirty() (map[int64]Status, []int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[int64]Status, len(p.dirty))
	for id := range p.dirty {
		if st, ok := p.status[id]; ok {
			c := *st
			c.Errors = append([]PollError(nil), st.Errors...)
			out[id] = c
		}
	}
	clear(p.dirty)
	gone := p.gone
	p.gone = nil
	return out, gone
}

// Changed is signalled when a device changes state.
func (p *Poller) Changed() <-chan struct{} { return p.changed }
