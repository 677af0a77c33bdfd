package alarm

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/metrics"
)

var (
	deferredTotal = metrics.Default.NewCounter("helio_alarm_notify_deferred_total",
		"Notification passes left to the sweep because the notifier was behind.")
	passesTotal = metrics.Default.NewCounter("helio_alarm_notify_passes_total",
		"Notification passes run by the notifier (each may merge several asked for).")
	framesLateTotal = metrics.Default.NewCounter("helio_alarm_notify_frames_late_total",
		"Notification passes whose frames were not all written on this replica within 250 ms of being announced (the rows were written anyway).")
)

// notifier runs the notification work of newly opened alarms (recipients, decisions,
// message rows, frames) on its own goroutine, so that the write path that observed the
// samples does not wait for it (Options.AsyncNotify).
type notifier struct {
	once sync.Once
	q    chan notifyJob
	wg   sync.WaitGroup
}

type notifyJob struct {
	ids []int64
	now time.Time
}

// notifyQueue bounds the passes waiting: beyond it a pass is left to the sweep, which
// notifies every occurring alarm that is due (nothing is lost, it is only later).
const notifyQueue = 1024

func (e *Engine) notifyLater(ids []int64, now time.Time) {
	e.async.once.Do(func() {
		e.async.q = make(chan notifyJob, notifyQueue)
		go e.runNotifier()
	})
	e.async.wg.Add(1)
	select {
	case e.async.q <- notifyJob{ids: ids, now: now}:
	default:
		e.async.wg.Done()
		deferredTotal.Inc()
	}
}

// maxMerged bounds the alarms of one merged pass.
const maxMerged = 1000

// burstGap: a pass asked for within this time of the previous pass's end waits as long
// for more to merge with (an alarm storm); a pass after a quiet spell starts at once.
const burstGap = 50 * time.Millisecond

// runNotifier runs the queued passes; those that queued up while one ran, or that come
// within burstGap during a burst, are merged into one pass (one transaction, on the
// latest clock), so that a storm costs fewer, larger transactions.
func (e *Engine) runNotifier() {
	var last time.Time
	for j := range e.async.q {
		ids, now, jobs := append([]int64(nil), j.ids...), j.now, 1
		var wait <-chan time.Time // nil: take only what is queued
		var timer *time.Timer
		if !last.IsZero() && time.Since(last) < burstGap {
			timer = time.NewTimer(burstGap)
			wait = timer.C
		}
	gather:
		for len(ids) < maxMerged {
			var k notifyJob
			select {
			case k = <-e.async.q:
			case <-wait:
				break gather
			default:
				if wait == nil {
					break gather
				}
				select {
				case k = <-e.async.q:
				case <-wait:
					break gather
				}
			}
			ids, jobs = append(ids, k.ids...), jobs+1
			if k.now.After(now) {
				now = k.now
			}
		}
		if timer != nil {
			timer.Stop()
		}
		passesTotal.Inc()
		if err := e.notifyOpened(context.Background(), ids, now); err != nil {
			slog.Error("alarm notification failed; the sweep retries", "err", err)
		}
		e.async.wg.Add(-jobs)
		last = time.Now()
	}
}

// Settle waits until the notification work queued so far is done (tests, shutdown).
func (e *Engine) Settle() { e.async.wg.Wait() }

// notifyOpened is the first notification pass of newly opened alarms, then the counters
// of the users it did not send a message to (when the counter counts alarms).
func (e *Engine) notifyOpened(ctx context.Context, ids []int64, now time.Time) error {
	receivers, err := e.notify(ctx, ids, now)
	e.openedChanged(ctx, ids, receivers)
	return err
}
