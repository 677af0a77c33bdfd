package cloud

import (
	"context"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// Batcher is implemented by a connector whose data call serves several devices of one site
// at once (FusionSolar and iSolarCloud: up to 10 inverters a call). The worker then asks for
// a site's devices together, so a round costs a call per BatchSize devices rather than per
// device.
type Batcher interface {
	// BatchSize is the most devices one DevicesData call may name.
	BatchSize() int
	// DevicesData returns each device's readings in (from, to], oldest first, keyed by the
	// device's DataKey, with Time set and DeviceID left 0.
	DevicesData(ctx context.Context, siteID string, keys []string, loc *time.Location, from, to time.Time) (map[string][]telemetry.Sample, error)
}

// single asks a connector without batches for one device at a time.
type single struct{ Connector }

func (single) BatchSize() int { return 1 }

func (s single) DevicesData(ctx context.Context, siteID string, keys []string, loc *time.Location, from, to time.Time) (map[string][]telemetry.Sample, error) {
	out := map[string][]telemetry.Sample{}
	for _, k := range keys {
		got, err := s.DeviceData(ctx, siteID, k, loc, from, to)
		if err != nil {
			return nil, err
		}
		out[k] = got
	}
	return out, nil
}

func batcherOf(conn Connector) Batcher {
	if b, ok := conn.(Batcher); ok && b.BatchSize() > 1 {
		return b
	}
	return single{conn}
}

// groups splits a connection's cursors into the calls' groups: devices of one site and zone,
// at most size each, in the cursors' order.
func groups(cursors []Cursor, size int) [][]Cursor {
	var out [][]Cursor
	open := map[string]int{} // site and zone → index of its group still filling
	for _, c := range cursors {
		key := c.SiteID + "\x00" + c.TimeZone
		i, ok := open[key]
		if !ok || len(out[i]) >= size {
			i = len(out)
			open[key] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], c)
	}
	return out
}

// earliest is the group's oldest cursor: the group's next call starts there.
func earliest(g []Cursor) time.Time {
	t := g[0].SyncedTo
	for _, c := range g[1:] {
		if c.SyncedTo.Before(t) {
			t = c.SyncedTo
		}
	}
	return t
}
