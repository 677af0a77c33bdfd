package cloud

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

func TestGroupsBySiteZoneAndSize(t *testing.T) {
	var cursors []Cursor
	for i := range 12 {
		cursors = append(cursors, Cursor{DeviceID: int64(i + 1), SiteID: "A", TimeZone: "Europe/Berlin"})
	}
	cursors = append(cursors, Cursor{DeviceID: 13, SiteID: "B", TimeZone: "Europe/Berlin"},
		Cursor{DeviceID: 14, SiteID: "A", TimeZone: "Asia/Shanghai"})
	got := groups(cursors, 10)
	sizes := []int{}
	for _, g := range got {
		sizes = append(sizes, len(g))
	}
	if fmt.Sprint(sizes) != "[10 2 1 1]" || got[1][0].DeviceID != 11 || got[2][0].DeviceID != 13 || got[3][0].DeviceID != 14 {
		t.Fatalf("groups of 10: sizes %v, %+v", sizes, got)
	}
	if n := len(groups(cursors, 1)); n != 14 {
		t.Fatalf("groups of 1: %d", n)
	}
	g := got[0]
	for i := range g {
		g[i].SyncedTo = time.Unix(int64(200-i), 0)
	}
	if e := earliest(g); !e.Equal(time.Unix(191, 0)) {
		t.Fatalf("earliest %v, want the last cursor's", e)
	}
}

// oneByOne is a connector without batches.
type oneByOne struct {
	Connector
	asked []string
}

func (o *oneByOne) DeviceData(_ context.Context, _, key string, _ *time.Location, _, to time.Time) ([]telemetry.Sample, error) {
	o.asked = append(o.asked, key)
	return []telemetry.Sample{{Time: to}}, nil
}

func TestConnectorWithoutBatchesIsAskedPerDevice(t *testing.T) {
	o := &oneByOne{}
	b := batcherOf(o)
	if b.BatchSize() != 1 {
		t.Fatalf("batch size %d", b.BatchSize())
	}
	got, err := b.DevicesData(context.Background(), "S", []string{"x", "y"}, time.UTC, time.Unix(0, 0), time.Unix(300, 0))
	if err != nil || len(got["x"]) != 1 || len(got["y"]) != 1 || fmt.Sprint(o.asked) != "[x y]" {
		t.Fatalf("%v %v, asked %v", got, err, o.asked)
	}
	if n := roundCalls(o, []Cursor{{SiteID: "S"}, {SiteID: "S"}, {SiteID: "T"}}); n != 3 {
		t.Fatalf("a round of three devices costs %d calls", n)
	}
}
