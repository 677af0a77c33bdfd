package enphase

import (
	"context"
	"sync"
	"time"
)

// Pacer keeps calls under a limit per rolling window (the plan's calls a minute): a call
// past it waits until the oldest of the window's calls is a window old.
type Pacer struct {
	Limit  int
	Window time.Duration
	Now    func() time.Time
	// Sleep waits d or until ctx ends (nil: a timer).
	Sleep func(ctx context.Context, d time.Duration) error

	mu    sync.Mutex
	calls []time.Time // the window's calls, oldest first
}

// PaceWindow is the window new pacers keep MinuteCalls over (a minute; tests shorten it).
var PaceWindow = time.Minute

// pacers are the pacers by API key: the plan's limit is the application's, whichever
// connection or replica round calls.
var pacers sync.Map

func pacerFor(apiKey string) *Pacer {
	p, _ := pacers.LoadOrStore(apiKey, &Pacer{Limit: MinuteCalls, Window: PaceWindow})
	return p.(*Pacer)
}

// Wait returns once a call may be made, or with ctx's error.
func (p *Pacer) Wait(ctx context.Context) error {
	if p == nil || p.Limit <= 0 {
		return nil
	}
	now, sleep := p.Now, p.Sleep
	if now == nil {
		now = time.Now
	}
	if sleep == nil {
		sleep = timerSleep
	}
	p.mu.Lock()
	defer p.mu.Unlock() // callers queue behind a waiting one, in order
	for {
		t := now()
		i := 0
		for i < len(p.calls) && !p.calls[i].After(t.Add(-p.Window)) {
			i++
		}
		p.calls = p.calls[i:]
		if len(p.calls) < p.Limit {
			p.calls = append(p.calls, t)
			return nil
		}
		if err := sleep(ctx, p.calls[0].Add(p.Window).Sub(t)); err != nil {
			return err
		}
	}
}

func timerSleep(ctx context.Context, d time.Duration) error {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-tm.C:
		return nil
	}
}
