package demo

import (
	"context"
	"fmt"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// faultTap keeps, from the back-filled stream, the samples the alarm engine needs to
// judge the history: every sample that is not plain running or standby, and a device's
// next hour of samples after one (so that a fault's recovery, a temperature falling back
// under its hysteresis, is seen). Faults are rare, so this is a small share of the stream.
type faultTap struct {
	after map[int64]int // samples still to keep per device after an abnormal one
	kept  []telemetry.Sample
}

// tapTail is how many samples after an abnormal one are kept (an hour at 5 minutes).
const tapTail = 12

func newFaultTap() *faultTap { return &faultTap{after: map[int64]int{}} }

func (f *faultTap) add(batch []telemetry.Sample) {
	for i := range batch {
		s := &batch[i]
		if s.Status != telemetry.StatusRunning && s.Status != telemetry.StatusStandby {
			f.kept = append(f.kept, *s)
			f.after[s.DeviceID] = tapTail
			continue
		}
		if n := f.after[s.DeviceID]; n > 0 {
			f.kept = append(f.kept, *s)
			if n == 1 {
				delete(f.after, s.DeviceID)
			} else {
				f.after[s.DeviceID] = n - 1
			}
		}
	}
}

// dealNotes are what the demo users write when dealing an alarm of a rule, with the method.
var dealNotes = map[string][]struct {
	method int
	note   string
}{
	"inverter_fault": {{1, "Reset remotely; the inverter reconnected and is producing again."},
		{2, "On site: loose DC connector on MPPT 2 re-crimped, insulation test passed."}},
	"over_temperature": {{3, "Cooling fan replaced and the air filter cleaned; temperature back to normal."},
		{2, "Shade cloth over the inverter cabinet repaired."}},
	"grid_fault": {{4, "Grid operator confirmed a short excursion on the feeder; no action on our side."}},
	"battery_fault": {{2, "BMS restarted on site, cell balancing completed."},
		{5, "Logs sent to the manufacturer; the pack stays under watch."}},
}

// DealHistory has the demo users deal most of the back-filled alarms that recovered more
// than two days ago, with a method and a note, as operators would have: the operator for
// the stations granted to its department, the administrator of each organisation for the
// rest. One in four stays unprocessed, as do the recent ones. It is deterministic per
// alarm id and only touches replayed alarms still unprocessed.
func DealHistory(ctx context.Context, db *store.DB, acc *Accounts, now time.Time) (int, error) {
	rows, err := db.Query(ctx, `SELECT a.id, a.org_id, a.rule_key, a.recovered_at,
		CASE WHEN EXISTS (SELECT 1 FROM station_grants g JOIN users u ON u.dept_id = g.dept_id
			WHERE u.id = ? AND (g.station_id = a.station_id OR g.station_id = s.parent_id)) THEN 1 ELSE 0 END
		FROM alarms a JOIN stations s ON s.id = a.station_id
		WHERE a.replayed = 1 AND a.deal_status = 0 AND a.status = 2 AND a.recovered_at < ?`,
		acc.OperatorID, now.Add(-48*time.Hour).UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("demo: unable to list alarms to deal: %w", err)
	}
	type deal struct {
		id, user, at int64
		method       int
		note         string
	}
	var deals []deal
	for rows.Next() {
		var id, org, recovered int64
		var rule string
		var granted int
		if err := rows.Scan(&id, &org, &rule, &recovered, &granted); err != nil {
			rows.Close()
			return 0, err
		}
		h := uint64(id) * 0x9E3779B97F4A7C15
		if h>>62 == 0 { // one in four stays unprocessed
			continue
		}
		notes := dealNotes[rule]
		if len(notes) == 0 {
			notes = dealNotes["battery_fault"][1:]
		}
		n := notes[int(h>>40)%len(notes)]
		user := acc.AdminID
		switch {
		case org == acc.OtherOrgID:
			user = acc.OtherID
		case granted == 1 && h>>61&1 == 1:
			user = acc.OperatorID
		}
		// dealt within a working day of the recovery
		at := recovered + int64(30*time.Minute/time.Millisecond) + int64(h>>20)%int64(8*time.Hour/time.Millisecond)
		deals = append(deals, deal{id: id, user: user, at: at, method: n.method, note: n.note})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	err = db.InTx(ctx, func(tx *store.Tx) error {
		for _, d := range deals {
			if _, err := tx.Exec(ctx, "INSERT INTO alarm_deals (alarm_id, user_id, reason, method, created_at) VALUES (?, ?, ?, ?, ?)",
				d.id, d.user, d.note, d.method, d.at); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `UPDATE alarms SET deal_status = 1, deal_reason = ?, deal_method = ?, dealt_by = ?, dealt_at = ?,
				updated_at = ? WHERE id = ?`, d.note, d.method, d.user, d.at, d.at, d.id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("demo: unable to deal alarms: %w", err)
	}
	return len(deals), nil
}
