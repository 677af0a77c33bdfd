package scada

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/sunspec"
)

// LiveRegister is one register (or SunSpec point) as just read.
type LiveRegister struct {
	Name     string   `json:"name"`
	Model    int      `json:"model" doc:"SunSpec model id; 0 for a register map"`
	Group    int      `json:"group" doc:"repeating group from 1 (MPPT module, DC port); 0 otherwise"`
	Address  int      `json:"address"`
	Function string   `json:"function" doc:"holding or input"`
	DataType string   `json:"dataType"`
	Raw      []uint16 `json:"raw" doc:"the registers as read"`
	Value    *float64 `json:"value" doc:"decoded and scaled; null when not implemented, a string, or a code not in the table"`
	Text     string   `json:"text,omitempty" doc:"a string register's text, or the code table's name for the code read"`
	Error    string   `json:"error,omitempty" doc:"why the register has no value (a code not in the table, a bad scale register)"`
	Unit     string   `json:"unit"`
	Target   string   `json:"target"`
	Writable bool     `json:"writable"`
}

// Live is a live read of a device.
type Live struct {
	DeviceID   int64           `json:"deviceId"`
	Protocol   string          `json:"protocol" doc:"sunspec or map"`
	MapID      int64           `json:"mapId"`
	MapName    string          `json:"mapName" doc:"the register map in use ('' for SunSpec)"`
	MapVersion int             `json:"mapVersion" doc:"the version of the map the poller reads with"`
	ReadAt     time.Time       `json:"readAt"`
	LatencyMs  float64         `json:"latencyMs"`
	Layout     *sunspec.Layout `json:"layout"`
	Registers  []LiveRegister  `json:"registers"`
}

// WriteInput writes one register of a device's map.
type WriteInput struct {
	DeviceID int64   `json:"deviceId" validate:"required"`
	Register string  `json:"register" validate:"required" doc:"the register's name in the device's map"`
	Value    float64 `json:"value" doc:"in the register's unit (the scale is applied)"`
	Confirm  bool    `json:"confirm" doc:"must be true: the console asks first"`
}

// debugTimeout bounds a live read or write (it waits for the poll in progress).
const debugTimeout = 15 * time.Second

func (s *Service) deviceFailure(err error) error {
	switch {
	case errors.Is(err, ErrNotPolled):
		return httpapi.Conflict("scada_not_linked")
	case isInput(err):
		return httpapi.InvalidField("register", "scada_not_writable")
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return httpapi.Conflict("scada_device_error", "timeout")
	}
	return httpapi.Conflict("scada_device_error", err.Error())
}

// liveRead reads the whole device through the session.
func liveRead(ss *Session, id int64) (*Live, error) {
	start := time.Now()
	out := &Live{DeviceID: id, ReadAt: start.UTC().Truncate(time.Millisecond), Registers: []LiveRegister{}}
	tg := ss.Target
	if tg.Registers != nil {
		out.Protocol, out.MapID, out.MapName, out.MapVersion = "map", tg.MapID, tg.MapName, tg.MapVersion
		ss.l.setUnit(tg.Unit)
		rd, err := readMap(ss.l, tg.Registers)
		if err != nil {
			return nil, err
		}
		out.Registers = liveRegisters(tg.Registers, rd)
	} else {
		out.Protocol = "sunspec"
		l, err := ss.Layout()
		if err != nil {
			return nil, err
		}
		out.Layout = l
		blocks, err := sunspec.Read(ss.Reader(), l, false)
		if err != nil {
			return nil, err
		}
		for _, rd := range sunspec.Readings(blocks) {
			m, _ := sunspec.Lookup(rd.Model)
			typ := ""
			for _, pt := range append(append([]sunspec.Point(nil), m.Points...), repeatPoints(m)...) {
				if pt.Name == rd.Name {
					typ = pt.Type
				}
			}
			out.Registers = append(out.Registers, LiveRegister{Name: rd.Name, Model: rd.Model, Group: rd.Group, Address: int(rd.Addr),
				Function: "holding", DataType: typ, Raw: rd.Raw, Value: rd.Value, Unit: rd.Unit})
		}
	}
	out.LatencyMs = float64(time.Since(start).Microseconds()) / 1000
	return out, nil
}

// liveRegisters pairs a map's registers with their readings.
func liveRegisters(regs []Register, rd []reading) []LiveRegister {
	out := make([]LiveRegister, 0, len(regs))
	for i, r := range regs {
		v := rd[i].Value
		lr := LiveRegister{Name: r.Name, Address: r.Address, Function: r.Function, DataType: r.DataType, Raw: rd[i].Raw,
			Text: rd[i].Text, Error: rd[i].Err, Unit: r.Unit, Target: r.Target, Writable: r.Writable}
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			lr.Value = &v
		}
		out = append(out, lr)
	}
	return out
}

func repeatPoints(m *sunspec.Model) []sunspec.Point {
	if m.Repeat == nil {
		return nil
	}
	return m.Repeat.Points
}

func (s *Service) registers(r *http.Request) (any, error) {
	var in DeviceRef
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	d, err := s.device(r, in.DeviceID)
	if err != nil {
		return nil, err
	}
	a := s.debug(r.Context(), debugCall{Op: opRead, DeviceID: d.ID})
	if err := a.err(); err != nil {
		return nil, s.deviceFailure(err)
	}
	return a.Live, nil
}

func (s *Service) write(r *http.Request) (any, error) {
	var in WriteInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	d, err := s.device(r, in.DeviceID)
	if err != nil {
		return nil, err
	}
	var v httpapi.Validator
	v.Required("register", in.Register)
	v.MaxLen("register", in.Register, maxNameLen)
	if !in.Confirm {
		v.Add("confirm", "scada_confirm")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	a := s.debug(r.Context(), debugCall{Op: opWrite, DeviceID: d.ID, Register: in.Register, Value: in.Value})
	err = a.err()
	reg := a.Reg
	if errors.Is(err, errValueRange) {
		return nil, httpapi.InvalidField("value", "scada_value_range", reg.DataType)
	}
	if err != nil && a.Written == nil {
		return nil, s.deviceFailure(err)
	}
	p := httpapi.Caller(r)
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "scada.register.write", d.SN,
		fmt.Sprintf("%s @%d = %v %s (raw %v)", reg.Name, reg.Address, in.Value, reg.Unit, a.Written), httpapi.ClientAddr(r))
	if err != nil {
		return nil, s.deviceFailure(err) // written, but the read-back failed
	}
	return a.Live, nil
}

var errValueRange = inputError{"value out of range"}

// LiveRead reads the whole device through a session lent by Poller.Do (what the
// debugging page's live read does).
func LiveRead(ss *Session, id int64) (*Live, error) { return liveRead(ss, id) }
