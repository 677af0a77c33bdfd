package demo

import (
	"context"
	"fmt"
	"iter"
	"log/slog"
	"runtime"
	"time"

	"github.com/helio-energy/helio/internal/sim"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Step is the simulator's reporting interval.
const Step = 5 * time.Minute

// Engine runs the simulator against the write path: it back-fills history on start and
// then feeds live samples, exactly as field devices would.
type Engine struct {
	Sim    *sim.Simulator
	Writer *telemetry.Writer
	Reader *telemetry.Reader
	// IDs maps simulator device keys to database ids.
	IDs map[string]int64
	// Interval is the wall time between live steps (Step ÷ the simulator speed).
	Interval time.Duration
	Now      func() time.Time
	// Progress is told how far the back-fill is (0..1).
	Progress func(done float64, detail string)
	// Judge, when set, judges the back-filled history's abnormal samples with the alarm
	// engine without notifying anyone (alarm.Engine.Replay).
	Judge func(ctx context.Context, samples []telemetry.Sample) (int, error)

	restored map[string]bool // devices resumed from a stored sample (Prepare)
}

func (e *Engine) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

// Prepare tells the simulator the device ids and resumes every device from its last
// stored sample. It returns the instant the stored history reaches (zero when none).
func (e *Engine) Prepare(ctx context.Context) (time.Time, error) {
	e.Sim.SetDeviceIDs(e.IDs)
	ids := make([]int64, 0, len(e.IDs))
	keyOf := make(map[int64]string, len(e.IDs))
	for k, id := range e.IDs {
		ids = append(ids, id)
		keyOf[id] = k
	}
	latest, err := e.Reader.Latest(ctx, ids)
	if err != nil {
		return time.Time{}, err
	}
	var last time.Time
	e.restored = map[string]bool{}
	for id, s := range latest {
		if err := e.Sim.Restore(keyOf[id], s); err != nil {
			return time.Time{}, err
		}
		e.restored[keyOf[id]] = true
		if s.Time.After(last) {
			last = s.Time
		}
	}
	return last, nil
}

// Backfill generates and stores the history from `from` to `to` (5-minute steps),
// stepping stations in parallel a day at a time while the previous day is written.
func (e *Engine) Backfill(ctx context.Context, from, to time.Time) (telemetry.BackfillResult, error) {
	from, to = from.Truncate(Step), to.Truncate(Step)
	if !to.After(from) {
		return telemetry.BackfillResult{}, nil
	}
	if err := e.seedOpenings(ctx, from); err != nil {
		return telemetry.BackfillResult{}, err
	}
	steppers := e.Sim.Steppers()
	workers := max(1, min(runtime.GOMAXPROCS(0), len(steppers)))
	chunks := make(chan []telemetry.Sample, 2)
	total := to.Sub(from)
	tap := newFaultTap()
	genCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		defer close(chunks)
		for day := from; day.Before(to); day = day.Add(24 * time.Hour) {
			end := min(day.Add(24*time.Hour).UnixNano(), to.UnixNano())
			batch := sim.StepAll(steppers, workers, day, end, Step)
			if e.Judge != nil {
				tap.add(batch)
			}
			select {
			case chunks <- batch:
			case <-genCtx.Done():
				return
			}
			if e.Progress != nil {
				done := float64(time.Unix(0, end).Sub(from)) / float64(total)
				e.Progress(done, fmt.Sprintf("history back-filled to %s", time.Unix(0, end).UTC().Format("2006-01-02")))
			}
		}
	}()
	seq := iter.Seq[[]telemetry.Sample](func(yield func([]telemetry.Sample) bool) {
		for b := range chunks {
			if !yield(b) {
				cancel()
				for range chunks {
				}
				return
			}
		}
	})
	res, err := e.Writer.Backfill(ctx, seq)
	if err != nil || e.Judge == nil {
		return res, err
	}
	start := time.Now()
	n, err := e.Judge(ctx, tap.kept)
	if err != nil {
		return res, fmt.Errorf("demo: unable to judge the history: %w", err)
	}
	slog.Info("history judged by the alarm engine", "samples", len(tap.kept), "alarms", n, "seconds", time.Since(start).Seconds())
	return res, nil
}

// seedOpenings stores the opening counter of each inverter whose history starts with this
// back-fill (not resumed from a stored sample): its lifetime counter at `from`, which the
// simulator dates back to grid connection with its solar model (sim.OpeningCounters). A
// station's lifetime figures are then its whole life, not the back-filled stretch.
func (e *Engine) seedOpenings(ctx context.Context, from time.Time) error {
	var list []telemetry.Opening
	for key, kwh := range e.Sim.OpeningCounters(from) {
		id, ok := e.IDs[key]
		if !ok || e.restored[key] {
			continue
		}
		list = append(list, telemetry.Opening{DeviceID: id, EnergyKWh: kwh, AsOf: from, Basis: "simulator"})
	}
	if len(list) == 0 {
		return nil
	}
	n, err := e.Writer.SetOpenings(ctx, list)
	if err != nil {
		return err
	}
	slog.Info("opening counters seeded", "devices", n)
	return nil
}

// StepNow steps the fleet to t and writes the samples through the normal write path.
func (e *Engine) StepNow(ctx context.Context, t time.Time) (telemetry.Result, error) {
	var batch []telemetry.Sample
	e.Sim.Step(t, func(_ string, s telemetry.Sample) {
		if s.DeviceID != 0 {
			batch = append(batch, s)
		}
	})
	return e.Writer.Write(ctx, "sim", batch)
}

// Run feeds live samples every Interval until ctx ends.
func (e *Engine) Run(ctx context.Context) {
	interval := e.Interval
	if interval <= 0 {
		interval = Step
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			res, err := e.StepNow(ctx, e.now().Truncate(time.Second))
			if err != nil && ctx.Err() == nil {
				slog.Error("simulator step failed", "err", err)
				continue
			}
			if res.Rejected > 0 {
				slog.Warn("simulator samples rejected", "rejected", res.Rejected, "reasons", res.Reasons)
			}
		}
	}
}
