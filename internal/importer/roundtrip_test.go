package importer

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

var testNow = time.Date(2026, 3, 20, 12, 0, 0, 0, time.UTC)

// importFile detects the file's layout and imports it with the suggested mapping.
func importFile(t *testing.T, db *store.DB, f *fleet, w *telemetry.Writer, text string, slice int) Report {
	t.Helper()
	ctx := context.Background()
	rr, _ := NewCSV(stringsReader(text))
	d, err := Detect(rr)
	if err != nil {
		t.Fatal(err)
	}
	im := &Importer{DB: db, Writer: w, SliceSize: slice}
	p := Plan{OrgID: f.org, Files: []FileRef{{ID: 1, Name: "history.csv"}}, Mapping: d.Mapping}
	cp, err := im.Run(ctx, p, csvOpener(map[int64]string{1: text}), Checkpoint{}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cp.Report
}

func writeLive(t *testing.T, w *telemetry.Writer, samples []telemetry.Sample) {
	t.Helper()
	for i := 0; i < len(samples); i += 3 { // one time step of the three devices per write
		if _, err := w.Write(context.Background(), "test", samples[i:i+3]); err != nil {
			t.Fatal(err)
		}
	}
}

// TestImportMatchesLive imports two days of per-interval energy (inside and beyond the raw
// window) and compares every roll-up and latest row with the same samples written live.
func TestImportMatchesLive(t *testing.T) {
	for _, age := range []struct {
		name string
		days int
	}{{"recent", 4}, {"old", 60}} {
		t.Run(age.name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, db *store.DB) {
				live := openLike(t, db)
				f, fl := newFleet(t, db), newFleet(t, live)
				loc, _ := time.LoadLocation("Europe/Berlin")
				day := testNow.In(loc).AddDate(0, 0, -age.days)
				from := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, loc)
				text, samples := f.history(from, 2)
				opt := telemetry.Options{Now: func() time.Time { return testNow }, RollupDelay: -1}
				w := telemetry.NewWriter(db, opt)
				rep := importFile(t, db, f, w, text, 700)
				if rep.Stored != int64(len(samples)) || rep.RejectedRows != 0 {
					t.Fatalf("report %+v, want %d stored", rep, len(samples))
				}
				wl := telemetry.NewWriter(live, opt)
				if age.days > 30 {
					// older than the raw window: live writes would be too_old, so the
					// comparison is with the back-fill of the same samples in one go
					if _, err := wl.Backfill(context.Background(), slices.Values([][]telemetry.Sample{samples})); err != nil {
						t.Fatal(err)
					}
				} else {
					writeLive(t, wl, samples)
				}
				got, want := figures(t, db), figures(t, live)
				if len(want) < 15 {
					t.Fatalf("only %d roll-up rows", len(want))
				}
				diffFigures(t, got, want)

				// the same file again changes nothing
				again := importFile(t, db, f, w, text, 700)
				if again.Stored != 0 || again.RejectedRows != 0 {
					t.Errorf("second import: %+v", again)
				}
				diffFigures(t, figures(t, db), want)
				_ = fl
			})
		})
	}
}
