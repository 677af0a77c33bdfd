package telemetry

import (
	"context"
	"fmt"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Opening counters (table device_openings): a device's energy counters when its recorded
// history begins, the energy it produced before Helio saw it. Lifetime figures are the
// opening plus the recorded roll-ups: a station's lifetime flows add the openings of its
// devices and of its sub-stations' devices (those it counts, as the station roll-ups do:
// not the packs inside an all-in-one unit), by the devices' current station.

// Opening is one device's opening counters.
type Opening struct {
	DeviceID   int64
	EnergyKWh  float64 // main counter: produced, discharged, imported (grid meter), consumed (load meter)
	Energy2KWh float64 // second counter: charged, exported
	AsOf       time.Time
	// Basis says where the figure comes from ("simulator" for the demo's solar model).
	Basis string
}

// SetOpenings stores the openings of devices that have none yet (a device's opening is
// set once: a later call does not move it). It returns how many it stored.
func SetOpenings(ctx context.Context, db *store.DB, list []Opening) (int, error) {
	n := 0
	err := db.InTx(ctx, func(tx *store.Tx) error {
		for _, o := range list {
			res, err := tx.Exec(ctx, `INSERT INTO device_openings (device_id, energy_kwh, energy2_kwh, as_of, basis)
				VALUES (?, ?, ?, ?, ?) ON CONFLICT (device_id) DO NOTHING`,
				o.DeviceID, o.EnergyKWh, o.Energy2KWh, o.AsOf.UnixMilli(), o.Basis)
			if err != nil {
				return err
			}
			if k, _ := res.RowsAffected(); k > 0 {
				n++
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("telemetry: unable to store opening counters: %w", err)
	}
	return n, nil
}

// OpeningKind is the station roll-up kind a device's counters count as.
func OpeningKind(typ, meterPosition string) string {
	if typ == "meter" && meterPosition != "" {
		return "meter:" + meterPosition
	}
	return typ
}

// AddOpening adds a device's opening counters of the given kind to flows.
func (f *Flows) AddOpening(kind string, energy, energy2 float64) {
	f.add(kind, &Stats{EnergyKWh: energy, Energy2KWh: energy2})
}

// StationOpenings returns, per station of ids, the openings of the devices it counts:
// its own and its sub-stations'.
func (r *Reader) StationOpenings(ctx context.Context, ids []int64) (map[int64]Flows, error) {
	out := map[int64]Flows{}
	listed := make(map[int64]bool, len(ids))
	for _, id := range ids {
		listed[id] = true
	}
	for _, chunk := range chunks(ids, 400) {
		ph := placeholders(len(chunk))
		args := append(int64Args(chunk), int64Args(chunk)...)
		rows, err := r.db.Query(ctx, `SELECT d.station_id, COALESCE(s.parent_id, 0), d.type, d.meter_position, o.energy_kwh, o.energy2_kwh
			FROM device_openings o JOIN devices d ON d.id = o.device_id JOIN stations s ON s.id = d.station_id
			WHERE d.parent_id IS NULL AND (d.station_id IN (`+ph+`) OR s.parent_id IN (`+ph+`))`, args...)
		if err != nil {
			return nil, fmt.Errorf("telemetry: unable to read opening counters: %w", err)
		}
		for rows.Next() {
			var st, parent int64
			var typ, pos string
			var e1, e2 float64
			if err := rows.Scan(&st, &parent, &typ, &pos, &e1, &e2); err != nil {
				rows.Close()
				return nil, fmt.Errorf("telemetry: unable to read opening counters: %w", err)
			}
			for _, id := range []int64{st, parent} {
				if id != 0 && listed[id] {
					f := out[id]
					f.AddOpening(OpeningKind(typ, pos), e1, e2)
					out[id] = f
				}
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("telemetry: unable to read opening counters: %w", err)
		}
	}
	return out, nil
}

// DeviceOpenings returns the main opening counter (kWh) of each device of ids that has one.
func (r *Reader) DeviceOpenings(ctx context.Context, ids []int64) (map[int64]float64, error) {
	out := map[int64]float64{}
	for _, chunk := range chunks(ids, 400) {
		rows, err := r.db.Query(ctx, "SELECT device_id, energy_kwh FROM device_openings WHERE device_id IN ("+placeholders(len(chunk))+")", int64Args(chunk)...)
		if err != nil {
			return nil, fmt.Errorf("telemetry: unable to read opening counters: %w", err)
		}
		for rows.Next() {
			var id int64
			var e float64
			if err := rows.Scan(&id, &e); err != nil {
				rows.Close()
				return nil, fmt.Errorf("telemetry: unable to read opening counters: %w", err)
			}
			out[id] = e
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("telemetry: unable to read opening counters: %w", err)
		}
	}
	return out, nil
}

// SetOpenings is SetOpenings on the writer's database. The in-memory fleet state reads
// openings with the fleet's structure: a back-fill's reload, or after fleet.State.Changed.
func (w *Writer) SetOpenings(ctx context.Context, list []Opening) (int, error) {
	return SetOpenings(ctx, w.db, list)
}
