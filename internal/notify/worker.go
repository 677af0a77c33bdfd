package notify

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// The sender's rules.
const (
	// RetryFor is how long a delivery is tried: after that it is given up (failed).
	RetryFor = 24 * time.Hour
	// firstRetry is the wait after the first failed attempt; it doubles after each, up to
	// maxRetry.
	firstRetry = 30 * time.Second
	maxRetry   = time.Hour
	// batch bounds the deliveries one pass takes; parallel the receivers sent to at once.
	batch    = 100
	parallel = 8
)

// Backoff is the wait after the n-th failed attempt (n from 1).
func Backoff(n int) time.Duration {
	d := firstRetry
	for i := 1; i < n && d < maxRetry; i++ {
		d *= 2
	}
	return min(d, maxRetry)
}

// Worker sends the outbox's due deliveries. One runs per cluster (the server starts it
// under store.RunExclusive).
type Worker struct {
	DB   *store.DB
	Mail *SMTP        // the relay of e-mails (nil or no address: e-mails are given up, saying why)
	Push *PushKeys    // the VAPID keys of app push (nil: no app push)
	HTTP *http.Client // default: 10 s timeout
	Now  func() time.Time
	// Base is the console's address, for the links in deliveries ("" leaves them out).
	Base string
	// Poll is how often the outbox is looked at without a wake-up (default 5 s).
	Poll time.Duration
	// Pace is the least time between the starts of two passes (default 1 s): in a storm the
	// notification passes wake the worker many times a second, and one pass then takes what
	// several wrote (fewer pushes, fewer writes beside ingest). A quiet outbox is looked at
	// at once.
	Pace time.Duration

	once sync.Once
	wake chan struct{}
	// round is the push sender's (pushsend.go), held by its pass
	pushMu sync.Mutex
	round  pushRound
}

func (w *Worker) init() { w.once.Do(func() { w.wake = make(chan struct{}, 1) }) }

func (w *Worker) now() time.Time {
	if w.Now == nil {
		return time.Now()
	}
	return w.Now()
}

// Wake makes the worker look at the outbox now.
func (w *Worker) Wake() {
	w.init()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Run sends due deliveries until ctx ends.
func (w *Worker) Run(ctx context.Context) {
	w.init()
	poll, pace := w.Poll, w.Pace
	if poll <= 0 {
		poll = 5 * time.Second
	}
	if pace <= 0 {
		pace = time.Second
	}
	var last time.Time
	for {
		for {
			if wait := pace - time.Since(last); wait > 0 {
				select {
				case <-ctx.Done():
					return
				case <-time.After(wait):
				}
			}
			last = time.Now()
			n, err := w.RunOnce(ctx)
			if err != nil && ctx.Err() == nil {
				slog.Warn("notify: sending deliveries failed", "err", err)
			}
			if err != nil || n == 0 {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-w.wake:
		case <-time.After(poll):
		}
	}
}

// due is a delivery with its webhook.
type due struct {
	Delivery
	webhookID                 int64
	url, format, lang, secret string
	enabled                   bool
	found                     bool
}

// RunOnce makes one attempt of the due deliveries (at most batch webhook deliveries, and an
// e-mail to each user something waits for) and returns how many it settled or tried.
func (w *Worker) RunOnce(ctx context.Context) (int, error) {
	n, err := w.webhookPass(ctx)
	if err != nil {
		return n, err
	}
	m, err := w.mailPass(ctx)
	if err != nil {
		return n + m, err
	}
	p, err := w.pushPass(ctx)
	return n + m + p, err
}

// webhookPass makes one attempt of each due webhook delivery (at most batch).
func (w *Worker) webhookPass(ctx context.Context) (int, error) {
	now := w.now().UnixMilli()
	rows, err := w.DB.Query(ctx, `SELECT o.id, o.org_id, o.event, o.subject_id, o.payload, o.created_at, o.attempts, o.target_id,
		COALESCE(h.url, ''), COALESCE(h.format, ''), COALESCE(h.language, ''), COALESCE(h.secret, ''), COALESCE(h.enabled, 0), h.id IS NOT NULL
		FROM notify_outbox o LEFT JOIN webhooks h ON h.id = o.target_id AND h.org_id = o.org_id
		WHERE o.state = 'pending' AND o.next_at <= ? AND o.channel = 'webhook' ORDER BY o.next_at, o.id LIMIT ?`, now, batch)
	if err != nil {
		return 0, fmt.Errorf("notify: unable to read the outbox: %w", err)
	}
	var list []due
	for rows.Next() {
		var d due
		var enabled int
		if err := rows.Scan(&d.ID, &d.OrgID, &d.Event, &d.SubjectID, &d.Payload, &d.CreatedAt, &d.Attempts, &d.webhookID,
			&d.url, &d.format, &d.lang, &d.secret, &enabled, &d.found); err != nil {
			rows.Close()
			return 0, err
		}
		d.enabled = enabled == 1
		list = append(list, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	// one goroutine per receiver (its deliveries in order), at most parallel at once
	byTarget := map[int64][]due{}
	var targets []int64
	for _, d := range list {
		if _, ok := byTarget[d.webhookID]; !ok {
			targets = append(targets, d.webhookID)
		}
		byTarget[d.webhookID] = append(byTarget[d.webhookID], d)
	}
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for _, t := range targets {
		sem <- struct{}{}
		wg.Add(1)
		go func(ds []due) {
			defer func() { <-sem; wg.Done() }()
			for _, d := range ds {
				if err := w.attempt(ctx, d); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					return
				}
			}
		}(byTarget[t])
	}
	wg.Wait()
	return len(list), firstErr
}

// attempt sends one delivery once and records the attempt and the delivery's new state
// together.
func (w *Worker) attempt(ctx context.Context, d due) error {
	if !d.found || !d.enabled {
		reason := "webhook deleted"
		if d.found {
			reason = "webhook disabled"
		}
		return w.settle(ctx, []Delivery{d.Delivery}, reason, 0, 0)
	}
	start := w.now()
	status, sendErr := w.send(ctx, d)
	if ctx.Err() != nil {
		return ctx.Err() // stopped mid-send: tried again at the next start
	}
	took := w.now().Sub(start)
	if sendErr != nil {
		return w.retry(ctx, []Delivery{d.Delivery}, sendErr, status, start, took)
	}
	return w.settle(ctx, []Delivery{d.Delivery}, "", status, took)
}

// send posts the delivery and returns the receiver's status (0 when none came).
func (w *Worker) send(ctx context.Context, d due) (int, error) {
	body, err := Render(d.Delivery, d.format, d.lang, w.Base)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Helio-Webhook/1")
	req.Header.Set(HeaderEvent, d.Event)
	req.Header.Set(HeaderDelivery, DeliveryID(d.ID))
	req.Header.Set(HeaderSignature, Sign(d.secret, w.now(), body))
	client := w.HTTP
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	text, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, fmt.Errorf("HTTP %d: %s", resp.StatusCode, bytes.TrimSpace(text))
	}
	return resp.StatusCode, nil
}

// SendTest writes a test delivery to one webhook (whatever it subscribed to) and wakes the
// worker; it returns the delivery's id.
func (w *Worker) SendTest(ctx context.Context, o *Outbox, orgID, webhookID int64) (string, error) {
	var id int64
	err := w.DB.InTx(ctx, func(tx *store.Tx) error {
		var err error
		id, err = o.insert(ctx, tx, orgID, webhookID, Test, 0, map[string]any{})
		return err
	})
	if err != nil {
		return "", err
	}
	w.Wake()
	return DeliveryID(id), nil
}
