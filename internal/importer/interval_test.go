package importer

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// TestRejectedIntervalEnergyLeavesNoTrace: a row of per-interval energy rejected by the
// write path (power beyond the rating) adds nothing: the figures equal those of the other
// rows written live, with the counters they make without it.
func TestRejectedIntervalEnergyLeavesNoTrace(t *testing.T) {
	db, live := storetest.SQLite(t), storetest.SQLite(t)
	f := newFleet(t, db)
	newFleet(t, live)
	loc, _ := time.LoadLocation("Europe/Berlin")
	text, samples := f.history(time.Date(2026, 3, 16, 0, 0, 0, 0, loc), 1)
	lines := strings.Split(text, "\n")
	bad := 1 + 3*144 // INV-1 at noon (line 0 is the header)
	cells := strings.Split(lines[bad], ";")
	cells[2] = "900000" // W: far beyond the 10 kW rating
	lines[bad] = strings.Join(cells, ";")
	opt := telemetry.Options{Now: func() time.Time { return testNow }, RollupDelay: -1}
	rep := importFile(t, db, f, telemetry.NewWriter(db, opt), strings.Join(lines, "\n"), 200)
	if rep.RejectedRows != 1 || rep.Rejects[0].Row != int64(bad+1) || rep.Rejects[0].Reason != telemetry.ReasonPower {
		t.Fatalf("report %+v", rep)
	}
	// the reference: the same samples without the bad one, its energy out of the counter
	gone := samples[bad-1]
	prev := samples[bad-1-3] // the device's sample before it
	delta := gone.EnergyKWh - prev.EnergyKWh
	if delta <= 0 {
		t.Fatalf("the bad row has no energy (%v)", delta)
	}
	var want []telemetry.Sample
	for i, s := range samples {
		if i == bad-1 {
			continue
		}
		if s.DeviceID == gone.DeviceID && s.Time.After(gone.Time) {
			s.EnergyKWh -= delta
		}
		want = append(want, s)
	}
	wl := telemetry.NewWriter(live, opt)
	if _, err := wl.Write(context.Background(), "test", want); err != nil {
		t.Fatal(err)
	}
	diffFigures(t, figures(t, db), figures(t, live))
}
