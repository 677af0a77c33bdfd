package message_test

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/message"
)

// Wait ends when every frame is queued and done, and not before: frames still pending,
// or not all queued yet, keep it waiting until its deadline.
func TestDeliveryWait(t *testing.T) {
	ctx := context.Background()
	soon := func() time.Time { return time.Now().Add(30 * time.Millisecond) }
	d := message.NewDelivery()
	d.Add()
	d.Done() // written before the rest is queued
	d.Add()
	if message.Wait(ctx, soon(), d) {
		t.Fatal("Wait ended before the frames were all queued")
	}
	d.Queued()
	if message.Wait(ctx, soon(), d) {
		t.Fatal("Wait ended with a frame pending")
	}
	go func() {
		time.Sleep(10 * time.Millisecond)
		d.Done()
	}()
	start := time.Now()
	if !message.Wait(ctx, time.Now().Add(5*time.Second), d) {
		t.Fatal("Wait did not end when the last frame was written")
	}
	if time.Since(start) > 2*time.Second {
		t.Fatal("Wait ran to its deadline")
	}
	empty := message.NewDelivery()
	empty.Queued()
	if !message.Wait(ctx, soon(), empty, nil) {
		t.Fatal("a delivery of no frames (and a nil one) kept Wait waiting")
	}
	var none *message.Delivery
	none.Add()
	none.Done()
	none.Queued()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if message.Wait(cancelled, time.Now().Add(time.Hour), d, message.NewDelivery()) {
		t.Fatal("Wait ignored its context")
	}
}
