package telemetry

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// TestSamplesBeforeAcrossSparseBlocks asks for more samples than the two newest sealed
// days hold: the answer reaches into older blocks, newest first, and skips none.
func TestSamplesBeforeAcrossSparseBlocks(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		now := time.Date(2024, 6, 30, 12, 0, 0, 0, time.UTC)
		w := f.writer(Options{Now: clock(now), RawRetention: 30 * 24 * time.Hour}, 1<<30)
		var s []Sample
		for day := 10; day >= 1; day-- { // two samples a day, ten days back
			for _, h := range []int{6, 18} {
				at := now.Truncate(24 * time.Hour).Add(-time.Duration(day)*24*time.Hour + time.Duration(h)*time.Hour)
				s = append(s, Sample{DeviceID: f.inv1, Time: at, EnergyKWh: float64(len(s)), PowerKW: float64(len(s)) / 4})
			}
		}
		if res, err := w.Write(ctx, "test", s); err != nil || res.Accepted != len(s) {
			t.Fatalf("%+v, %v", res, err)
		}
		if n, err := w.SealBlocks(ctx); err != nil || n != 10 {
			t.Fatalf("sealed %d days: %v", n, err)
		}
		got, err := SamplesBefore(ctx, db, f.inv1, now, 7)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 7 {
			t.Fatalf("%d samples, want 7", len(got))
		}
		for i := range got {
			if want := s[len(s)-1-i]; !got[i].Time.Equal(want.Time) || got[i].PowerKW != want.PowerKW {
				t.Fatalf("sample %d: %v at %v, want %v at %v", i, got[i].PowerKW, got[i].Time, want.PowerKW, want.Time)
			}
		}
	})
}
