package ingest

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Counters a line does not carry. A collector may send a device's power and its energy
// counter on different lines at different instants; a sample without the counter would
// read as a counter at 0 (a reset). A sample whose request mapped no energyKwh (or
// energy2Kwh) for it takes the device's value before it: from an earlier sample of the
// same request, else from the device's latest stored sample. A device that never sends
// the counter keeps 0, as before.

// counterCarry fills missing counters (stateless: the latest stored sample is the memory,
// so every replica agrees).
type counterCarry struct{}

func (counterCarry) fill(ctx context.Context, db store.Querier, samples []telemetry.Sample, present []uint16) error {
	const energy, energy2 = 1 << telemetry.FieldEnergy, 1 << telemetry.FieldEnergy2
	need := map[int64]bool{}
	for i, s := range samples {
		if present[i]&energy == 0 || present[i]&energy2 == 0 {
			need[s.DeviceID] = true
		}
	}
	if len(need) == 0 {
		return nil
	}
	// in time order per device, the first sample of a device reads the stored value
	order := make([]int, len(samples))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(samples[a].DeviceID, samples[b].DeviceID), samples[a].Time.Compare(samples[b].Time))
	})
	ids := make([]any, 0, len(need))
	for id := range need {
		ids = append(ids, id)
	}
	last := map[int64][2]float64{}
	rows, err := db.Query(ctx, "SELECT device_id, energy_kwh, energy2_kwh FROM telemetry_latest WHERE device_id IN ("+
		listing.Placeholders(len(ids))+")", ids...)
	if err != nil {
		return fmt.Errorf("ingest: unable to read latest counters: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var e [2]float64
		if err := rows.Scan(&id, &e[0], &e[1]); err != nil {
			return fmt.Errorf("ingest: unable to read latest counters: %w", err)
		}
		last[id] = e
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("ingest: unable to read latest counters: %w", err)
	}
	for _, i := range order {
		s := &samples[i]
		e := last[s.DeviceID]
		if present[i]&energy == 0 {
			s.EnergyKWh = e[0]
		} else {
			e[0] = s.EnergyKWh
		}
		if present[i]&energy2 == 0 {
			s.Energy2KWh = e[1]
		} else {
			e[1] = s.Energy2KWh
		}
		last[s.DeviceID] = e
	}
	return nil
}

// UnknownSeries is a series that arrived without a rule or a device, as listed.
type UnknownSeries struct {
	Measurement string    `json:"measurement" validate:"required"`
	Field       string    `json:"field" validate:"required"`
	Reason      string    `json:"reason" validate:"required" doc:"no_rule, no_device_tag, unknown_device, not_numeric or more_series"`
	Tags        string    `json:"tags" validate:"required" doc:"the tag keys of the points, comma-separated"`
	Sample      string    `json:"sample" validate:"required" doc:"one line of it, as it arrived (shortened)"`
	Points      int64     `json:"points" validate:"required"`
	FirstAt     time.Time `json:"firstAt" validate:"required" doc:"RFC 3339"`
	LastAt      time.Time `json:"lastAt" validate:"required" doc:"RFC 3339"`
}

// MaxUnknownSeries bounds the series kept per organisation; beyond it, points are counted
// under more_series.
const MaxUnknownSeries = 500

// clean keeps text valid UTF-8 (PostgreSQL refuses anything else) and at most n bytes.
func clean(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// recordUnknown adds a request's unmapped series to the organisation's list.
func recordUnknown(ctx context.Context, db *store.DB, orgID int64, unknown map[unknownKey]*unknownSeries, now time.Time) error {
	if len(unknown) == 0 {
		return nil
	}
	at := now.UnixMilli()
	return db.InTx(ctx, func(tx *store.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM line_unknown WHERE org_id = ?", orgID).Scan(&n); err != nil {
			return fmt.Errorf("ingest: unable to record unmapped series: %w", err)
		}
		for k, u := range unknown {
			linePointsTotal.Add(float64(u.points), "unmapped")
			m, f, reason := clean(k.measurement, 128), clean(k.field, 128), k.reason
			var exists bool
			if err := tx.QueryRow(ctx, "SELECT COUNT(*) > 0 FROM line_unknown WHERE org_id = ? AND measurement = ? AND field = ? AND reason = ?",
				orgID, m, f, reason).Scan(&exists); err != nil {
				return fmt.Errorf("ingest: unable to record unmapped series: %w", err)
			}
			if !exists && n >= MaxUnknownSeries {
				m, f, reason = "*", "*", unknownOverflow
			} else if !exists {
				n++
			}
			if _, err := tx.Exec(ctx, `INSERT INTO line_unknown (org_id, measurement, field, reason, tags, sample, points, first_at, last_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (org_id, measurement, field, reason) DO UPDATE SET points = line_unknown.points + excluded.points,
				tags = excluded.tags, sample = excluded.sample, last_at = excluded.last_at`,
				orgID, m, f, reason, clean(u.tags, 512), clean(u.sample, 256), u.points, at, at); err != nil {
				return fmt.Errorf("ingest: unable to record unmapped series: %w", err)
			}
		}
		return nil
	})
}

// ListUnknown lists an organisation's unmapped series, most recent first.
func ListUnknown(ctx context.Context, db store.Querier, orgID int64) ([]UnknownSeries, error) {
	out := []UnknownSeries{}
	rows, err := db.Query(ctx, `SELECT measurement, field, reason, tags, sample, points, first_at, last_at FROM line_unknown
		WHERE org_id = ? ORDER BY last_at DESC, measurement, field, reason`, orgID)
	if err != nil {
		return nil, fmt.Errorf("ingest: unable to list unmapped series: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var u UnknownSeries
		var first, last int64
		if err := rows.Scan(&u.Measurement, &u.Field, &u.Reason, &u.Tags, &u.Sample, &u.Points, &first, &last); err != nil {
			return nil, fmt.Errorf("ingest: unable to list unmapped series: %w", err)
		}
		u.FirstAt, u.LastAt = time.UnixMilli(first).UTC(), time.UnixMilli(last).UTC()
		out = append(out, u)
	}
	return out, rows.Err()
}
