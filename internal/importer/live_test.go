package importer

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// TestImportBesideLiveIngest: live samples of the same devices are written while an
// import of their recent history runs; whatever the interleaving, the end state equals the
// history imported first and the live samples written after.
func TestImportBesideLiveIngest(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFleet(t, db)
		loc, _ := time.LoadLocation("Europe/Berlin")
		text, hist := f.history(time.Date(2026, 3, 17, 0, 0, 0, 0, loc), 2) // inside the raw window
		// the live stream: the next six hours, counters going on from the history's
		var live []telemetry.Sample
		last := hist[len(hist)-3:]
		for i := 1; i <= 72; i++ {
			for d := range last {
				s := last[d]
				s.Time = s.Time.Add(time.Duration(i) * 5 * time.Minute)
				s.PowerKW = 1 + float64(i%4)
				s.EnergyKWh += float64(i) * s.PowerKW / 12
				s.Status = telemetry.StatusRunning
				live = append(live, s)
			}
		}
		opt := telemetry.Options{Now: func() time.Time { return testNow }, RollupDelay: -1}
		w := telemetry.NewWriter(db, opt)
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < len(live); i += 3 {
				if _, err := w.Write(ctx, "mqtt", live[i:i+3]); err != nil {
					t.Error(err)
					return
				}
				time.Sleep(time.Millisecond)
			}
		}()
		rep := importFile(t, db, f, w, text, 150)
		wg.Wait()
		if rep.RejectedRows != 0 || rep.Stored+rep.Duplicates != int64(len(hist)) {
			t.Errorf("report %+v", rep)
		}

		ref := openLike(t, db)
		fr := newFleet(t, ref)
		wr := telemetry.NewWriter(ref, opt)
		importFile(t, ref, fr, wr, text, 150)
		for i := 0; i < len(live); i += 3 {
			if _, err := wr.Write(ctx, "mqtt", live[i:i+3]); err != nil {
				t.Fatal(err)
			}
		}
		diffFigures(t, figures(t, db), figures(t, ref))
	})
}
