package alarm

import (
	"context"
	"fmt"
	"sort"

	"github.com/helio-energy/helio/internal/telemetry"
)

// Replay judges back-filled history with the live rules: each sample is evaluated as if
// it had just arrived, every transition (opened, recovered) is dated by its sample, and
// nobody is notified or told of changed counters. Samples must be newer than anything the
// engine has judged for their device; they need not be in order. Rules that read the
// previous raw samples (string loss, low output) judge only where raw samples are kept,
// and silence (offline) is judged only live by Sweep. It returns the alarms opened.
func (e *Engine) Replay(ctx context.Context, samples []telemetry.Sample) (int, error) {
	if len(samples) == 0 {
		return 0, nil
	}
	sorted := make([]*telemetry.Sample, len(samples))
	for i := range samples {
		sorted[i] = &samples[i]
	}
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Time.Before(sorted[j].Time) })
	e.applyMu.Lock()
	defer e.applyMu.Unlock()
	if err := e.loadDevices(ctx); err != nil {
		return 0, err
	}
	if err := e.loadOpen(ctx); err != nil {
		return 0, err
	}
	opened := 0
	for _, s := range sorted {
		d := e.devs[s.DeviceID]
		if d == nil {
			continue
		}
		t := s.Time.UnixMilli()
		if last, ok := e.lastEval[d.id]; ok && t <= last {
			continue
		}
		e.lastEval[d.id] = t
		rules, err := e.rules.get(ctx, d.orgID)
		if err != nil {
			return opened, err
		}
		list, err := e.evaluate(ctx, d, s, rules)
		if err != nil {
			return opened, err
		}
		ids, err := e.apply(ctx, list, s.Time)
		if err != nil {
			return opened, err
		}
		for _, id := range ids {
			if _, err := e.db.Exec(ctx, "UPDATE alarms SET replayed = 1, notify_pending = 0 WHERE id = ?", id); err != nil {
				return opened, fmt.Errorf("alarm: unable to mark a replayed alarm: %w", err)
			}
		}
		opened += len(ids)
	}
	return opened, nil
}
