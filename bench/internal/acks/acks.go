// Package acks waits for the acknowledgements of QoS 1 publishes in batches, so that a
// publisher keeps a bounded number of messages in flight without waiting for each one.
package acks

import mqtt "github.com/eclipse/paho.mqtt.golang"

// Batch is the size of a batch of publishes waited for together.
const Batch = 200

// Waiter holds the tokens of the publishes not yet waited for.
type Waiter struct{ toks []mqtt.Token }

// Add keeps a publish's token and, once Batch are kept, waits for them all.
func (w *Waiter) Add(t mqtt.Token) {
	w.toks = append(w.toks, t)
	if len(w.toks) >= Batch {
		w.Wait()
	}
}

// Wait waits for every kept publish.
func (w *Waiter) Wait() {
	for _, t := range w.toks {
		t.Wait()
	}
	w.toks = w.toks[:0]
}
