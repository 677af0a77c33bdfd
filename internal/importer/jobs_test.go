package importer

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// TestJobPauseResumeRestart runs an import job through its slices: paused after the first
// (it stops there, committed), resumed, then "crashed" after the third slice's commit but
// before its checkpoint; another runner takes the job once the lease runs out and finishes
// it from the checkpoint. The figures equal the same samples back-filled at once: nothing
// was doubled.
func TestJobPauseResumeRestart(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFleet(t, db)
		loc, _ := time.LoadLocation("Europe/Berlin")
		text, samples := f.history(time.Date(2026, 1, 10, 0, 0, 0, 0, loc), 2)
		opt := telemetry.Options{Now: func() time.Time { return testNow }, RollupDelay: -1}
		w := telemetry.NewWriter(db, opt)
		file, err := SaveFile(ctx, db, f.org, 1, "history.csv", strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		rr, _ := NewCSV(strings.NewReader(text))
		d, _ := Detect(rr)
		job, err := CreateJob(ctx, db, 1, Plan{OrgID: f.org, Files: []FileRef{{ID: file.ID}}, Mapping: d.Mapping})
		if err != nil {
			t.Fatal(err)
		}
		im := &Importer{DB: db, Writer: w, SliceSize: 400}
		slicesDone := 0
		runCtx, crash := context.WithCancel(ctx)
		im.afterSlice = func() {
			slicesDone++
			switch slicesDone {
			case 1:
				if _, err := Act(ctx, db, f.org, job.ID, "pause"); err != nil {
					t.Error(err)
				}
			case 3:
				crash()
			}
		}
		// a lease long enough that a loaded machine does not see it run out between the crash
		// and the other runner's first try
		run := &Runner{Importer: im, Lease: 2 * time.Second}
		if ran, err := run.RunOne(runCtx); !ran || err != nil {
			t.Fatalf("run: %v %v", ran, err)
		}
		j, _ := GetJob(ctx, db, f.org, job.ID)
		if j.State != StatePaused || j.Progress <= 0 || j.Progress >= 1 || j.Report.Stored != 400 {
			t.Fatalf("after the pause: %s %.2f %+v", j.State, j.Progress, j.Report)
		}
		if ran, _ := run.RunOne(runCtx); ran {
			t.Fatal("a paused job ran")
		}
		if _, err := Act(ctx, db, f.org, job.ID, "resume"); err != nil {
			t.Fatal(err)
		}
		if _, err := Act(ctx, db, f.org, job.ID, "resume"); err != ErrState {
			t.Errorf("resume twice: %v", err)
		}
		if ran, _ := run.RunOne(runCtx); !ran {
			t.Fatal("the resumed job did not run")
		}
		j, _ = GetJob(ctx, db, f.org, job.ID)
		if j.State != StateRunning || j.Report.Stored != 800 {
			t.Fatalf("after the crash: %s %+v", j.State, j.Report)
		}
		// the restart: a new runner, once the lease has run out
		other := &Runner{Importer: &Importer{DB: db, Writer: telemetry.NewWriter(db, opt), SliceSize: 400}}
		if ran, _ := other.RunOne(ctx); ran {
			t.Fatal("a job was taken under another's lease")
		}
		// the other runner takes the job as soon as the lease has run out, not before
		crashed := time.Now()
		for {
			ran, err := other.RunOne(ctx)
			if err != nil {
				t.Fatalf("restart: %v", err)
			}
			if ran {
				break
			}
			if time.Since(crashed) > 20*time.Second {
				t.Fatal("the job was not taken again once its lease ran out")
			}
			time.Sleep(50 * time.Millisecond)
		}
		j, _ = GetJob(ctx, db, f.org, job.ID)
		if j.State != StateDone || j.Progress != 1 || j.Report.Stored+j.Report.Skipped != int64(len(samples)) || j.Report.Skipped != 400 {
			t.Fatalf("done: %s %.2f %+v", j.State, j.Progress, j.Report)
		}
		ref := openLike(t, db)
		newFleet(t, ref)
		if _, err := telemetry.NewWriter(ref, opt).Backfill(ctx, slices.Values([][]telemetry.Sample{samples})); err != nil {
			t.Fatal(err)
		}
		diffFigures(t, figures(t, db), figures(t, ref))
	})
}
