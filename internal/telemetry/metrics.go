package telemetry

import (
	"sync/atomic"

	"github.com/helio-energy/helio/internal/metrics"
)

// daysWaiting counts the day roll-up changes waiting to be written, over every writer.
var daysWaiting atomic.Int64

func init() {
	metrics.Default.NewGaugeFunc("helio_telemetry_rollup_days_waiting",
		"Day roll-up changes of committed streaming writes not written yet (written within the roll-up delay).",
		func() float64 { return float64(daysWaiting.Load()) })
}

var (
	samplesTotal = metrics.Default.NewCounter("helio_telemetry_samples_total",
		"Telemetry samples by source and result (accepted, duplicate, conflict, rejected).", "source", "result")
	rejectedTotal = metrics.Default.NewCounter("helio_telemetry_rejected_total",
		"Rejected telemetry samples by source and reason.", "source", "reason")
	lateTotal = metrics.Default.NewCounter("helio_telemetry_late_samples_total",
		"Samples that arrived before their device's latest sample (roll-ups corrected).", "source")
	counterEvents = metrics.Default.NewCounter("helio_telemetry_counter_events_total",
		"Energy counter readings that were not plain increments, by event (reset, rollover, resume, suspect, rebase, ignored).", "event")
	rollupFlushes = metrics.Default.NewCounter("helio_telemetry_rollup_flushes_total",
		"Writes of roll-up changes that streaming writes left waiting (deferred.go), with the writes that wrote them early.")
	commitSeconds = metrics.Default.NewHistogram("helio_telemetry_batch_commit_seconds",
		"Time to validate, store and commit one telemetry batch (with its roll-ups, unless a streaming write on SQLite leaves them waiting).",
		[]float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}, "source")
)

type eventCounts struct {
	byEvent [len(counterEventNames)]int
	late    int
}

func (e *eventCounts) count(ev CounterEvent) { e.byEvent[ev]++ }

func (e *eventCounts) add(o *eventCounts) {
	for i, n := range o.byEvent {
		e.byEvent[i] += n
	}
	e.late += o.late
}

// countResult adds a committed (or wholly rejected) batch to the metrics.
func countResult(source string, r *Result, ev *eventCounts) {
	for i, n := range []int{r.Accepted, r.Duplicates, r.Conflicts, r.Rejected} {
		if n > 0 {
			samplesTotal.Add(float64(n), source, outcomeNames[i])
		}
	}
	for i, o := range r.Outcomes {
		if o == Rejected {
			rejectedTotal.Inc(source, r.Reasons[i])
		}
	}
	if ev == nil {
		return
	}
	if ev.late > 0 {
		lateTotal.Add(float64(ev.late), source)
	}
	for i, n := range ev.byEvent {
		if n > 0 && CounterEvent(i) != EventNormal && CounterEvent(i) != EventFirst {
			counterEvents.Add(float64(n), CounterEvent(i).String())
		}
	}
}

// CountRejected counts a sample an ingest path rejected before it reached the writer
// (for example a device outside the caller's key or topic).
func CountRejected(source, reason string) {
	samplesTotal.Inc(source, "rejected")
	rejectedTotal.Inc(source, reason)
}

// RejectedCount is the number of samples refused so far by source and reason.
func RejectedCount(source, reason string) float64 { return rejectedTotal.Value(source, reason) }
