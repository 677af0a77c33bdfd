package message

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Delivery follows an announced batch's frames on this replica, so that the work that
// can wait (writing the batch's rows) does not compete with the frames for the CPU. The
// hub counts each frame it queues (Add) and each one written or dropped (Done), and says
// when it has queued them all (Queued). A nil Delivery does nothing.
type Delivery struct {
	pending atomic.Int64
	once    sync.Once
	queued  chan struct{} // closed by Queued
	idle    chan struct{} // a wake-up when pending reaches zero
}

// NewDelivery returns a Delivery whose frames are not queued yet.
func NewDelivery() *Delivery {
	return &Delivery{queued: make(chan struct{}), idle: make(chan struct{}, 1)}
}

// Add counts a frame queued.
func (d *Delivery) Add() {
	if d != nil {
		d.pending.Add(1)
	}
}

// Done counts a frame written, or dropped with its connection.
func (d *Delivery) Done() {
	if d != nil && d.pending.Add(-1) <= 0 {
		select {
		case d.idle <- struct{}{}:
		default:
		}
	}
}

// Queued says every frame of the batch is queued (or that none will be: a bus that
// carries the batch to other replicas, no live connection at all).
func (d *Delivery) Queued() {
	if d != nil {
		d.once.Do(func() { close(d.queued) })
	}
}

// Wait returns once every frame is queued and written, or when ctx ends or the deadline
// passes (a slow or lost connection holds no one up longer). It reports whether the
// frames were all written.
func Wait(ctx context.Context, deadline time.Time, ds ...*Delivery) bool {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for _, d := range ds {
		if d == nil {
			continue
		}
		select {
		case <-d.queued:
		case <-timer.C:
			return false
		case <-ctx.Done():
			return false
		}
		for d.pending.Load() > 0 {
			select {
			case <-d.idle:
			case <-timer.C:
				return false
			case <-ctx.Done():
				return false
			}
		}
	}
	return true
}
