package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// step is one recorded transition of a seeded order.
type step struct {
	action   string
	from, to int
	t        time.Time
	comment  string
}

// manualOrders are routine jobs opened by hand.
var manualOrders = []string{
	"Quarterly inverter inspection", "Module cleaning, rows 1-20", "Vegetation control around the arrays",
	"Thermal imaging of the combiner boxes", "Replace the weather station's pyranometer", "Fence repair at the north gate",
	"Check the transformer oil level", "Tighten the string connectors",
}

// SeedOperations gives the demo organisation a history of work orders, some opened from
// its faults (most finished, some late, some rejected, the newest still open), and marks
// the seeded plans of this year and last as approved proposals. It does nothing when work
// orders exist, and runs in one transaction of plain inserts (a fraction of a second).
func SeedOperations(ctx context.Context, db *store.DB, acc *Accounts, seed int64, now time.Time) error {
	var n int
	if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM work_orders WHERE org_id = ?", acc.OrgID).Scan(&n); err != nil || n > 0 {
		return err
	}
	rnd := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
	operator := &httpapi.Principal{UserID: acc.OperatorID, OrgID: acc.OrgID, DeptID: acc.OpsDeptID, Role: "user", StationAuthority: "authorized"}
	type alarmRow struct {
		id, station     int64
		desc            string
		start           int64
		recovered, open bool
		recoveredAt     int64
		link            alarmLink
	}
	rows, err := db.Query(ctx, `SELECT id, station_id, description, start_at, status, COALESCE(recovered_at, 0),
		COALESCE(device_id, 0), device_name, device_sn, msg_key, msg_args FROM alarms
		WHERE org_id = ? AND level >= 1 AND start_at >= ? ORDER BY start_at DESC LIMIT 40`, acc.OrgID, now.AddDate(0, 0, -120).UnixMilli())
	if err != nil {
		return fmt.Errorf("demo: alarms for work orders: %w", err)
	}
	var alarms []alarmRow
	for rows.Next() {
		var a alarmRow
		var status int
		if err := rows.Scan(&a.id, &a.station, &a.desc, &a.start, &status, &a.recoveredAt,
			&a.link.deviceID, &a.link.deviceName, &a.link.deviceSN, &a.link.titleKey, &a.link.titleArgs); err != nil {
			rows.Close()
			return err
		}
		a.recovered, a.open = status == 2, status == 1
		alarms = append(alarms, a)
	}
	rows.Close()
	var stations []int64
	if rows, err = db.Query(ctx, "SELECT id FROM stations WHERE org_id = ? AND parent_id IS NULL ORDER BY id", acc.OrgID); err != nil {
		return err
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		stations = append(stations, id)
	}
	rows.Close()
	if len(stations) == 0 {
		return nil
	}
	return db.InTx(ctx, func(tx *store.Tx) error {
		order := func(stationID, alarmID int64, link alarmLink, title string, created time.Time, openEnded bool) error {
			assignee := acc.AdminID
			if _, err := station.Get(ctx, db, operator, stationID); err == nil {
				assignee = acc.OperatorID
			}
			planned := time.Duration(4+rnd.IntN(44)) * time.Hour
			pStart := created.Add(time.Duration(rnd.IntN(120)) * time.Minute)
			pEnd := pStart.Add(planned)
			// what happened: 1 in 7 rejected, the open ones stop midway, the rest finished,
			// a third of those late
			status, late := 4, rnd.IntN(3) == 0
			switch {
			case rnd.IntN(7) == 0:
				status = 5
			case openEnded:
				status = 1 + rnd.IntN(3)
			}
			at := func(t time.Time) int64 { return t.UnixMilli() }
			var aStart, aEnd any
			steps := []step{{"create", 0, 1, created, ""}}
			accept := created.Add(time.Duration(10+rnd.IntN(90)) * time.Minute)
			if status == 5 {
				steps = append(steps, step{"reject", 1, 5, accept, "Duplicate of an order already in progress"})
			}
			if status >= 2 && status <= 4 {
				steps = append(steps, step{"accept", 1, 2, accept, ""})
			}
			if status >= 3 && status <= 4 {
				begin := pStart.Add(time.Duration(rnd.IntN(60)) * time.Minute)
				aStart = at(begin)
				steps = append(steps, step{"start", 2, 3, begin, ""})
				if status == 4 {
					work := time.Duration(float64(planned) * (0.6 + rnd.Float64()*0.5))
					if late {
						work = planned + time.Duration(1+rnd.IntN(20))*time.Hour
					}
					end := begin.Add(work)
					if end.After(now) {
						end = now.Add(-time.Minute)
					}
					aEnd = at(end)
					steps = append(steps, step{"finish", 3, 4, end, "Fault cleared and the device back in service"})
				}
			}
			last := steps[len(steps)-1].t
			var openAlarm any
			if alarmID != 0 && status <= 3 {
				openAlarm = alarmID
			}
			var alarm any
			if alarmID != 0 {
				alarm = alarmID
			}
			var device any
			if link.deviceID != 0 {
				device = link.deviceID
			}
			if link.titleArgs == "" {
				link.titleArgs = "[]"
			}
			id, err := tx.Insert(ctx, `INSERT INTO work_orders (org_id, station_id, number, title, description, status, priority, alarm_id,
				open_alarm_id, submitter_id, assignee_user_id, planned_start, planned_end, actual_start, actual_end, created_at, updated_at,
				device_id, device_name, device_sn, title_key, title_args)
				VALUES (?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				acc.OrgID, stationID, fmt.Sprintf("pending-%d", rnd.Int64()), title, status, 1+rnd.IntN(4), alarm, openAlarm,
				acc.AdminID, assignee, at(pStart), at(pEnd), aStart, aEnd, at(created), at(last),
				device, link.deviceName, link.deviceSN, link.titleKey, link.titleArgs)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, "UPDATE work_orders SET number = ? WHERE id = ?",
				fmt.Sprintf("WO-%s-%06d", created.UTC().Format("20060102"), id), id); err != nil {
				return err
			}
			for _, s := range steps {
				user := assignee
				if s.action == "create" {
					user = acc.AdminID
				}
				if _, err := tx.Exec(ctx, `INSERT INTO work_order_events (order_id, action, from_status, to_status, user_id, comment, created_at)
					VALUES (?, ?, ?, ?, ?, ?, ?)`, id, s.action, s.from, s.to, user, s.comment, at(s.t)); err != nil {
					return err
				}
			}
			return nil
		}
		for i, a := range alarms {
			if i >= 24 {
				break
			}
			created := time.UnixMilli(a.start).Add(time.Duration(10+rnd.IntN(50)) * time.Minute)
			if created.After(now) {
				created = now.Add(-time.Minute)
			}
			if err := order(a.station, a.id, a.link, truncateTitle(a.desc), created, a.open || i < 4); err != nil {
				return fmt.Errorf("demo: work order: %w", err)
			}
		}
		for i, title := range manualOrders {
			created := now.Add(-time.Duration(2+i*9) * 24 * time.Hour).Add(time.Duration(rnd.IntN(600)) * time.Minute)
			if err := order(stations[i%len(stations)], 0, alarmLink{}, title, created, i < 2); err != nil {
				return fmt.Errorf("demo: work order: %w", err)
			}
		}
		if err := seedSite(ctx, tx, acc, rnd, now); err != nil {
			return err
		}
		return approvePlans(ctx, tx, acc, now)
	})
}

func truncateTitle(s string) string {
	r := []rune(s)
	if len(r) > 100 {
		r = r[:100]
	}
	if len(r) == 0 {
		return "Fault"
	}
	return string(r)
}

// approvePlans records the seeded plans as proposals the administrator approved.
func approvePlans(ctx context.Context, tx *store.Tx, acc *Accounts, now time.Time) error {
	rows, err := tx.Query(ctx, `SELECT p.station_id, p.year, p.month, p.plan_kwh FROM plans p JOIN stations s ON s.id = p.station_id
		WHERE s.org_id = ? AND NOT EXISTS (SELECT 1 FROM plan_proposals q WHERE q.station_id = p.station_id AND q.year = p.year)
		ORDER BY p.station_id, p.year, p.month`, acc.OrgID)
	if err != nil {
		return err
	}
	type key struct {
		station int64
		year    int
	}
	months := map[key][]float64{}
	var order []key
	for rows.Next() {
		var k key
		var m int
		var kwh float64
		if err := rows.Scan(&k.station, &k.year, &m, &kwh); err != nil {
			rows.Close()
			return err
		}
		if months[k] == nil {
			months[k] = make([]float64, 12)
			order = append(order, k)
		}
		months[k][m-1] = kwh
	}
	rows.Close()
	for _, k := range order {
		b, _ := json.Marshal(months[k])
		decided := time.Date(k.year, 1, 5, 9, 0, 0, 0, time.UTC)
		if decided.After(now) {
			decided = now
		}
		if _, err := tx.Exec(ctx, `INSERT INTO plan_proposals (org_id, station_id, year, months, status, submitter_id, approver_id,
			submitted_at, decided_at, created_at, updated_at) VALUES (?, ?, ?, ?, 3, ?, ?, ?, ?, ?, ?)`,
			acc.OrgID, k.station, k.year, string(b), acc.OperatorID, acc.AdminID, decided.Add(-48*time.Hour).UnixMilli(),
			decided.UnixMilli(), decided.Add(-72*time.Hour).UnixMilli(), decided.UnixMilli()); err != nil {
			return err
		}
	}
	return nil
}

// alarmLink is what an order opened from an alarm keeps of it: the device, and the
// description's message key and arguments (the title in the reader's language).
type alarmLink struct {
	deviceID             int64
	deviceName, deviceSN string
	titleKey, titleArgs  string
}
