package analysis

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Bucket is one roll-up bucket's Totals.
type Bucket struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	Totals
}

// Rollups is the one way analysis reads figures: each station's (sub-stations included)
// or device's buckets of resolution res that start in [from, to) of its own calendar,
// oldest first, absent where nothing was measured. FromReader implements it on the
// telemetry roll-ups; persisted aggregates can replace it without touching the KPIs.
type Rollups interface {
	Stations(ctx context.Context, ids []int64, res telemetry.Resolution, from, to time.Time) (map[int64][]Bucket, error)
	Devices(ctx context.Context, kinds map[int64]string, res telemetry.Resolution, from, to time.Time) (map[int64][]Bucket, error)
}

// ReaderRollups reads the telemetry roll-ups.
type ReaderRollups struct{ Reader *telemetry.Reader }

// Stations implements Rollups.
func (r ReaderRollups) Stations(ctx context.Context, ids []int64, res telemetry.Resolution, from, to time.Time) (map[int64][]Bucket, error) {
	roll, err := r.Reader.StationRollups(ctx, ids, res, from, to)
	if err != nil {
		return nil, err
	}
	out := make(map[int64][]Bucket, len(roll))
	for id, kinds := range roll {
		out[id] = merge(kinds)
	}
	return out, nil
}

// Devices implements Rollups; kinds maps each device to its kind ("inverter", "battery",
// "storage", "meter:grid", "meter:load").
func (r ReaderRollups) Devices(ctx context.Context, kinds map[int64]string, res telemetry.Resolution, from, to time.Time) (map[int64][]Bucket, error) {
	ids := make([]int64, 0, len(kinds))
	for id := range kinds {
		ids = append(ids, id)
	}
	roll, err := r.Reader.DeviceRollups(ctx, ids, res, from, to)
	if err != nil {
		return nil, err
	}
	out := make(map[int64][]Bucket, len(roll))
	for id, pts := range roll {
		out[id] = merge(map[string][]telemetry.Point{kinds[id]: pts})
	}
	return out, nil
}

// merge folds the kinds' points into buckets by start.
func merge(kinds map[string][]telemetry.Point) []Bucket {
	index := map[int64]int{}
	var out []Bucket
	for kind, pts := range kinds {
		for _, pt := range pts {
			i, ok := index[pt.Start.UnixMilli()]
			if !ok {
				i = len(out)
				index[pt.Start.UnixMilli()] = i
				out = append(out, Bucket{Start: pt.Start, End: pt.End})
			}
			addKind(&out[i].Totals, kind, &pt.Stats)
		}
	}
	sortBuckets(out)
	return out
}

// addKind adds one kind's roll-up figures into t.
func addKind(t *Totals, kind string, s *telemetry.Stats) {
	switch kind {
	case "inverter":
		t.PVKWh += s.EnergyKWh
		t.RefEnergyKWh += s.RefEnergyKWh
		f := 1.0
		if s.Samples > 0 {
			f = TempFactor(s.TempSum / float64(s.Samples))
		}
		t.TempRefKWh += s.RefEnergyKWh * f
		t.OnlineMin += s.OnlineMin
		t.FaultMin += s.FaultMin
	case "battery", "storage":
		t.DischargeKWh += s.EnergyKWh
		t.ChargeKWh += s.Energy2KWh
	case "meter", "meter:grid":
		t.ImportKWh += s.EnergyKWh
		t.ExportKWh += s.Energy2KWh
		t.GridMeter = true
	case "meter:load":
		t.LoadKWh += s.EnergyKWh
		t.LoadMeter = true
	}
}

func sortBuckets(b []Bucket) {
	sort.Slice(b, func(i, j int) bool { return b[i].Start.Before(b[j].Start) })
}

// Station is a top-level station as analysis sees it.
type Station struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	Timezone  string `json:"timezone"`
	Country   string `json:"country" doc:"ISO 3166-1 alpha-2: its grid CO₂ factor"`
	Inverters int    `json:"inverters"`
	Site
}

// Stations lists the top-level stations the caller may see (ids empty) or the named ones
// (any other id is store.ErrNotFound), with their inverter counts, by name.
func Stations(ctx context.Context, db *store.DB, p *httpapi.Principal, ids []int64) ([]Station, error) {
	where, args := station.Scope(p)
	q := `SELECT s.id, s.name, s.timezone, s.country, s.capacity_kwp, s.price_per_kwh, s.subsidy_per_kwh, s.currency, s.system_type,
		(SELECT COUNT(*) FROM devices d JOIN stations ds ON ds.id = d.station_id
		 WHERE d.type = 'inverter' AND (ds.id = s.id OR ds.parent_id = s.id))
		FROM stations s WHERE s.parent_id IS NULL AND ` + where
	if len(ids) > 0 {
		q += " AND s.id IN (" + strings.TrimSuffix(strings.Repeat("?,", len(ids)), ",") + ")"
		for _, id := range ids {
			args = append(args, id)
		}
	}
	rows, err := db.Query(ctx, q+" ORDER BY s.name, s.id", args...)
	if err != nil {
		return nil, fmt.Errorf("analysis: unable to list stations: %w", err)
	}
	defer rows.Close()
	var out []Station
	for rows.Next() {
		var s Station
		var sys string
		if err := rows.Scan(&s.ID, &s.Name, &s.Timezone, &s.Country, &s.CapacityKWp, &s.PricePerKWh, &s.SubsidyPerKWh, &s.Currency, &sys, &s.Inverters); err != nil {
			return nil, fmt.Errorf("analysis: unable to list stations: %w", err)
		}
		s.Storage = sys == "pv_storage"
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(ids) > 0 && len(out) != len(dedupe(ids)) {
		return nil, store.ErrNotFound
	}
	return out, nil
}

func dedupe(ids []int64) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
