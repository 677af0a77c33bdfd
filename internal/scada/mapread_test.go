package scada

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/sunspec/sunspectest"
	"github.com/helio-energy/helio/internal/telemetry"
	"github.com/simonvetter/modbus"
)

// lockedBuf is a log destination the poller's goroutines and the test share.
type lockedBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuf) count(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.b.String(), s)
}

func (l *lockedBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A read the device refuses names the registers it was for; the poll error keeps its
// kind (the device answered, the link is fine).
func TestMapReadErrorNamesRegisters(t *testing.T) {
	srv := sunspectest.Serve(t, map[uint8]*sunspectest.Unit{1: {Image: sunspectest.NewImage(), Exception: modbus.ErrIllegalDataAddress}})
	regs := []Register{{Name: "active_power", Address: 32080, Function: "holding", DataType: "int32", Scale: 0.001, Target: "power"},
		{Name: "device_status", Address: 32089, Function: "holding", DataType: "uint16", Target: "status"}}
	p := NewPoller(Options{})
	defer p.Close()
	p.Apply([]Target{{DeviceID: 1, DeviceType: "inverter", Addr: srv.Addr, Unit: 1, Interval: 100 * time.Millisecond, Timeout: time.Second, MapID: 1, Registers: regs}})
	var st Status
	waitFor(t, func() bool { st, _ = p.Status(1); return len(st.Errors) > 0 })
	e := st.Errors[0]
	if e.Kind != "device" || !strings.Contains(e.Message, "active_power, device_status") || !strings.Contains(e.Message, "32080-32089") {
		t.Fatalf("poll error %+v", e)
	}
}

// Losing and regaining a device is written to the log once per transition, with the
// device, the endpoint and the reason.
func TestConnectionLostAndRestoredLogged(t *testing.T) {
	im := sunspectest.NewImage()
	im.Set(0, 1000)
	units := map[uint8]*sunspectest.Unit{1: {Image: im}}
	srv := sunspectest.Serve(t, units)
	addr := srv.Addr
	var logs lockedBuf
	c := &collector{got: map[int64][]telemetry.Sample{}}
	p := NewPoller(Options{Sink: c.sink, MinBackoff: 20 * time.Millisecond, MaxBackoff: 50 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	defer p.Close()
	p.Apply([]Target{{DeviceID: 42, DeviceType: "inverter", Addr: addr, Unit: 1, Interval: 50 * time.Millisecond, Timeout: 200 * time.Millisecond,
		MapID: 1, Registers: []Register{{Name: "p", Address: 0, Function: "holding", DataType: "uint16", Scale: 0.001, Target: "power"}}}})
	waitFor(t, func() bool { return p.Comm(42) == StateOnline })
	srv.Stop()
	waitFor(t, func() bool { return logs.count("connection lost") == 1 })
	polls := func() int64 { st, _ := p.Status(42); return st.Polls }
	n := polls()
	waitFor(t, func() bool { return polls() >= n+4 }) // several more failed polls: no new line
	if logs.count("connection lost") != 1 || logs.count("connection restored") != 0 {
		t.Fatalf("log:\n%s", logs.String())
	}
	line := logs.String()
	for _, want := range []string{"device=42", "endpoint=" + addr, "reason="} {
		if !strings.Contains(line, want) {
			t.Fatalf("the lost line lacks %s:\n%s", want, line)
		}
	}
	var again *sunspectest.Server
	waitFor(t, func() bool {
		var err error
		again, err = sunspectest.Start(addr, units)
		return err == nil
	})
	defer again.Stop()
	waitFor(t, func() bool { return logs.count("connection restored") == 1 })
	n = polls()
	waitFor(t, func() bool { return polls() >= n+3 })
	if logs.count("connection restored") != 1 || logs.count("connection lost") != 1 {
		t.Fatalf("log:\n%s", logs.String())
	}
}
