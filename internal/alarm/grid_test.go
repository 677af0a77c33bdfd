package alarm_test

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/alarm"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// TestGridNominalAfterRestart: an engine started on stored history (a restart) judges a
// device's voltage against the nominal of its stored samples from its first sample on,
// for every device of a batch (their histories are read together), and an engine without
// history cannot judge it yet.
func TestGridNominalAfterRestart(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := newRig(t, db, perthNoon.Add(-3*time.Hour))
		ctx := context.Background()
		keys := []string{"au-perth-1-inv01", "au-perth-2-inv01", "au-perth-3-inv01"}
		var devs []inv
		for _, k := range keys {
			devs = append(devs, r.inverter(t, k))
		}
		// two hours of healthy history at 230 V, stored without the engine watching
		step := 5 * time.Minute
		var history []telemetry.Sample
		for at := perthNoon.Add(-2 * time.Hour); at.Before(perthNoon); at = at.Add(step) {
			for _, d := range devs {
				history = append(history, d.healthy(at, 800))
			}
		}
		r.clock.Set(perthNoon)
		if _, err := r.writer.Write(ctx, "test", history); err != nil {
			t.Fatal(err)
		}
		// a restarted engine: one batch, every inverter at 290 V
		var batch []telemetry.Sample
		for _, d := range devs {
			s := d.healthy(perthNoon, 800)
			s.ACVoltageV = 290
			batch = append(batch, s)
		}
		r.write(t, batch)
		grid := 0
		for _, a := range r.alarms(t) {
			if a.Rule == alarm.RuleGrid && a.Status == 1 {
				grid++
			}
		}
		if grid == 0 {
			t.Fatal("no grid alarm: the restarted engine did not take the nominal from the stored samples")
		}

		// no history: the first samples cannot be judged on voltage
		r2 := newRig(t, storetest.SQLite(t), perthNoon)
		var fresh []telemetry.Sample
		for _, k := range keys {
			s := r2.inverter(t, k).healthy(perthNoon, 800)
			s.ACVoltageV = 290
			fresh = append(fresh, s)
		}
		r2.write(t, fresh)
		for _, a := range r2.alarms(t) {
			if a.Rule == alarm.RuleGrid {
				t.Fatalf("a grid alarm without a nominal: %+v", a)
			}
		}
	})
}
