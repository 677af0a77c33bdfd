package push

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/message"
)

// A batch frame, spliced from the message's encoding in a locale and the reader's id and
// counters, is byte for byte the frame encode gives.
func TestBatchFrameIsTheEncodedFrame(t *testing.T) {
	at := time.Date(2026, 3, 1, 8, 30, 0, 123e6, time.UTC)
	recs := []message.Record{
		{Kind: message.KindAlarm, Type: message.TypeNotice, Title: message.Text{Key: "alarm_rule_inverter_fault"},
			SubTitle: message.Plain(`Plant "A" <east> & 東`), Content: message.Text{Key: "alarm_desc_offline", Args: []any{15}},
			Priority: 3, ProcessStatus: "pending", AlarmID: 77, Created: at, Updated: at},
		{Kind: message.KindSystem, Type: message.TypeMessage, Title: message.Plain("plain"), Created: at, Updated: at},
	}
	for _, r := range recs {
		for _, locale := range []string{"en-US", "zh-CN", "ja-JP"} {
			tail := messageTail(&r, locale)
			for _, id := range []int64{1, 9007199254740993} {
				withID := r
				withID.ID = id
				cnt := message.Counts{Unread: 12, UnprocessedAlarm: 3, LastID: 5}
				want := encode(Frame{Type: "message", Data: withID.Render(locale), Counts: &cnt})
				if got := appendMessageFrame(nil, id, tail, cnt, true); string(got) != string(want) {
					t.Fatalf("%s, id %d:\n got %s\nwant %s", locale, id, got, want)
				}
				want = encode(Frame{Type: "message", Data: withID.Render(locale)})
				if got := appendMessageFrame(nil, id, tail, cnt, false); string(got) != string(want) {
					t.Fatalf("%s, id %d, no counts:\n got %s\nwant %s", locale, id, got, want)
				}
			}
		}
	}
}

// A followed frame counts as delivered once written, dropped because the connection is
// too far behind, or let go with a connection that is gone, so a slow or lost connection
// never holds a pass until its deadline.
func TestFollowedFramesAreAlwaysAccountedFor(t *testing.T) {
	h := &Hub{}
	c := &client{send: make(chan frame, 1), kick: make(chan struct{})}
	d := message.NewDelivery()
	h.enqueueFor(c, []byte("one"), d)
	h.enqueueFor(c, []byte("two"), d) // the queue is full: dropped, and the connection closed
	select {
	case <-c.kick:
	default:
		t.Fatal("a connection too far behind was not closed")
	}
	d.Queued()
	if message.Wait(context.Background(), time.Now().Add(50*time.Millisecond), d) {
		t.Fatal("the wait ended with a frame still queued")
	}
	c.drain()
	if !message.Wait(context.Background(), time.Now().Add(time.Second), d) {
		t.Fatal("frames let go with their connection still held the wait")
	}
}
