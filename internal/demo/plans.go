package demo

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/helio-energy/helio/internal/plan"
	"github.com/helio-energy/helio/internal/pvmodel"
	"github.com/helio-energy/helio/internal/sim"
	"github.com/helio-energy/helio/internal/store"
)

// SeedPlans gives every demo station a monthly generation plan for last year and this
// year: the simulator's expected yield for the station's arrays in a typical year
// (another weather draw than the live fleet's), as an owner's plan would be. It does
// nothing when plans exist.
func SeedPlans(ctx context.Context, db *store.DB, f sim.Fleet, seed int64, now time.Time) error {
	var n int
	if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM plans").Scan(&n); err != nil || n > 0 {
		return err
	}
	ids := map[string]int64{}
	rows, err := db.Query(ctx, "SELECT sim_key, id FROM stations WHERE sim_key <> '' AND parent_id IS NULL")
	if err != nil {
		return err
	}
	for rows.Next() {
		var k string
		var id int64
		if err := rows.Scan(&k, &id); err != nil {
			rows.Close()
			return err
		}
		ids[k] = id
	}
	rows.Close()
	for _, st := range f.Stations {
		id, ok := ids[st.Key]
		if !ok {
			continue
		}
		req := pvmodel.YieldRequest{Lat: st.Lat, Lng: st.Lng, AltitudeM: st.AltitudeM,
			CapacityKWp: st.CapacityKWp, TiltDeg: st.TiltDeg, AzimuthDeg: st.AzimuthDeg, Year: now.Year() - 1,
			Seed: seed + 7919, Climate: st.Climate}
		est, err := pvmodel.EstimateYield(req, sim.YieldWeather(req))
		if err != nil {
			return fmt.Errorf("demo: plan for %s: %w", st.Key, err)
		}
		for _, year := range []int{now.Year() - 1, now.Year()} {
			b := plan.BuildList{StationID: id, Year: year}
			for m, kwh := range est.MonthlyKWh {
				b.Months = append(b.Months, plan.MonthPlan{Month: m + 1, PlanKWh: math.Round(kwh)})
			}
			if err := plan.Put(ctx, db, b, 0); err != nil {
				return err
			}
		}
	}
	return nil
}
