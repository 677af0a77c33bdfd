package importer

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// devices are an organisation's devices by serial number or name (a name two devices
// share matches neither: the row would be a guess), with their stations' zones.
type devices struct {
	by      map[string]int64
	zones   map[int64]*time.Location // device → its station's zone
	orgZone *time.Location
}

func loadDevices(ctx context.Context, db *store.DB, orgID int64, match string) (*devices, error) {
	d := &devices{by: map[string]int64{}, zones: map[int64]*time.Location{}, orgZone: time.UTC}
	rows, err := db.Query(ctx, `SELECT d.id, d.sn, d.name, s.timezone FROM devices d JOIN stations s ON s.id = d.station_id
		WHERE d.org_id = ?`, orgID)
	if err != nil {
		return nil, fmt.Errorf("importer: unable to read devices: %w", err)
	}
	defer rows.Close()
	zones := map[string]*time.Location{}
	count := map[string]int{}
	ambiguous := map[string]bool{}
	for rows.Next() {
		var id int64
		var sn, name, tz string
		if err := rows.Scan(&id, &sn, &name, &tz); err != nil {
			return nil, fmt.Errorf("importer: unable to read devices: %w", err)
		}
		key := strings.TrimSpace(sn)
		if match == MatchName {
			key = strings.TrimSpace(name)
		}
		if _, seen := d.by[key]; seen {
			ambiguous[key] = true
		}
		d.by[key] = id
		loc, ok := zones[tz]
		if !ok {
			if loc, err = time.LoadLocation(tz); err != nil {
				loc = time.UTC
			}
			zones[tz] = loc
		}
		d.zones[id] = loc
		count[tz]++
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("importer: unable to read devices: %w", err)
	}
	for k := range ambiguous {
		delete(d.by, k)
	}
	var orgTZ sql.NullString
	_ = db.QueryRow(ctx, "SELECT timezone FROM organizations WHERE id = ?", orgID).Scan(&orgTZ)
	if l, err := time.LoadLocation(orgTZ.String); err == nil && orgTZ.String != "" {
		d.orgZone = l
	} else {
		// the zone most of the organisation's stations keep
		best := 0
		for tz, n := range count {
			if n > best {
				best, d.orgZone = n, zones[tz]
			}
		}
	}
	return d, nil
}

func (d *devices) find(key string) (int64, bool) {
	id, ok := d.by[strings.TrimSpace(key)]
	return id, ok
}

// zone is the default zone of a file: its device's station's, else the organisation's.
func (d *devices) zone(fileDev int64) *time.Location {
	if l := d.zones[fileDev]; l != nil {
		return l
	}
	return d.orgZone
}

// tailCache holds the devices' latest stored samples, read once per device and kept up to
// date by the slices (the live writes of this process wait during a slice; see slice.go).
type tailCache struct {
	db   *store.DB
	rd   *telemetry.Reader
	tail map[int64]telemetry.Sample
}

func newTails(db *store.DB) *tailCache {
	return &tailCache{db: db, rd: telemetry.NewReader(db, telemetry.Options{}), tail: map[int64]telemetry.Sample{}}
}

// get answers the device's latest stored sample (zero Time: none).
func (c *tailCache) get(ctx context.Context, dev int64) (telemetry.Sample, error) {
	if s, ok := c.tail[dev]; ok {
		return s, nil
	}
	if err := c.load(ctx, []int64{dev}); err != nil {
		return telemetry.Sample{}, err
	}
	return c.tail[dev], nil
}

// load reads the devices' latest samples again.
func (c *tailCache) load(ctx context.Context, ids []int64) error {
	m, err := c.rd.Latest(ctx, ids)
	if err != nil {
		return err
	}
	for _, id := range ids {
		c.tail[id] = m[id]
	}
	return nil
}

// countersBefore answers a device's stored counters just before t (telemetry's
// CountersBefore, with the cached latest sample; what cannot be read counts as zero).
func (c *tailCache) countersBefore(ctx context.Context, dev int64, t time.Time) [2]float64 {
	last, err := c.get(ctx, dev)
	if err != nil {
		return [2]float64{}
	}
	out, _ := c.rd.CountersBefore(ctx, dev, last, t)
	return out
}
