package plan

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// The build list: a station's monthly plan for a year, read, checked and saved.

func (s *Service) buildGet(r *http.Request) (any, error) {
	q := httpapi.Query[BuildQuery](r)
	year, id := s.year(q.Year), q.StationID
	if _, err := s.visibleStation(r, id); err != nil {
		return nil, err
	}
	rows, err := s.DB.Query(r.Context(), "SELECT month, plan_kwh FROM plans WHERE station_id = ? AND year = ? ORDER BY month", id, year)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	defer rows.Close()
	out := BuildList{StationID: id, Year: year, Months: []MonthPlan{}}
	for rows.Next() {
		var m MonthPlan
		if err := rows.Scan(&m.Month, &m.PlanKWh); err != nil {
			return nil, httpapi.Internal(err)
		}
		out.Months = append(out.Months, m)
	}
	return out, rows.Err()
}

// Validate checks a build list.
func (b *BuildList) Validate() error {
	var v httpapi.Validator
	if b.StationID <= 0 {
		v.Add("stationId", "required")
	}
	if b.Year < 2000 || b.Year > 2100 {
		v.Add("year", "out_of_range", 2000, 2100)
	}
	if len(b.Months) == 0 || len(b.Months) > 12 {
		v.Add("months", "out_of_range", 1, 12)
	}
	seen := map[int]bool{}
	for i, m := range b.Months {
		if m.Month < 1 || m.Month > 12 || seen[m.Month] {
			v.Add(fmt.Sprintf("months[%d].month", i), "out_of_range", 1, 12)
		}
		seen[m.Month] = true
		v.Range(fmt.Sprintf("months[%d].planKwh", i), m.PlanKWh, 0, 1e10)
	}
	return v.Err()
}

func (s *Service) buildPut(r *http.Request) (any, error) {
	var b BuildList
	if err := httpapi.Decode(r, &b); err != nil {
		return nil, err
	}
	if err := b.Validate(); err != nil {
		return nil, err
	}
	if _, err := station.Get(r.Context(), s.DB, httpapi.Caller(r), b.StationID); err != nil {
		return nil, httpapi.InvalidField("stationId", "not_found")
	}
	// A plan takes effect only when approved: the months given are laid over the station's
	// proposal for the year (or the plan in force) and saved as a draft, which the caller
	// submits to an approver other than themselves.
	months, err := s.draftMonths(r.Context(), b.StationID, b.Year)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	for _, m := range b.Months {
		months[m.Month-1] = m.PlanKWh
	}
	return s.draft(r, b.StationID, b.Year, months)
}

// draftMonths are the twelve months a revision starts from: the station's proposal for the
// year, or the plan in force (0 for a month without one).
func (s *Service) draftMonths(ctx context.Context, stationID int64, year int) ([]float64, error) {
	months := make([]float64, 12)
	var saved string
	err := s.DB.QueryRow(ctx, "SELECT months FROM plan_proposals WHERE station_id = ? AND year = ?", stationID, year).Scan(&saved)
	if err == nil {
		var m []float64
		if json.Unmarshal([]byte(saved), &m) == nil && len(m) == 12 {
			return m, nil
		}
	} else if !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	rows, err := s.DB.Query(ctx, "SELECT month, plan_kwh FROM plans WHERE station_id = ? AND year = ?", stationID, year)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var month int
		var kwh float64
		if err := rows.Scan(&month, &kwh); err != nil {
			return nil, err
		}
		if month >= 1 && month <= 12 {
			months[month-1] = kwh
		}
	}
	return months, rows.Err()
}

// Put stores a station's monthly plans for a year (replacing the months given).
func Put(ctx context.Context, db *store.DB, b BuildList, userID int64) error {
	return db.InTx(ctx, func(tx *store.Tx) error { return putTx(ctx, tx, b, userID, time.Now().UnixMilli()) })
}

func putTx(ctx context.Context, tx *store.Tx, b BuildList, userID, at int64) error {
	var by any
	if userID != 0 {
		by = userID
	}
	for _, m := range b.Months {
		_, err := tx.Exec(ctx, `INSERT INTO plans (station_id, year, month, plan_kwh, updated_by, updated_at) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (station_id, year, month) DO UPDATE SET plan_kwh = excluded.plan_kwh,
			updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
			b.StationID, b.Year, m.Month, m.PlanKWh, by, at)
		if err != nil {
			return fmt.Errorf("plan: unable to store: %w", err)
		}
	}
	return nil
}
