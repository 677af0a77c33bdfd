package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// demoChecklists are the demo organisation's checklist templates (docs/workorders.md, "On
// site").
var demoChecklists = []struct {
	name  string
	items []map[string]any
}{
	{"Inverter service", []map[string]any{
		{"key": "isolate", "label": "Isolate the inverter (AC and DC) and lock out", "kind": "check", "required": true},
		{"key": "filters", "label": "Clean the air filters and fans", "kind": "check", "required": true},
		{"key": "cabinet", "label": "Photo of the open cabinet", "kind": "photo", "required": false},
		{"key": "voc", "label": "String 1 open-circuit voltage", "kind": "reading", "unit": "V", "required": true},
		{"key": "riso", "label": "Insulation resistance to earth", "kind": "reading", "unit": "MΩ", "required": true},
	}},
	{"Array inspection", []map[string]any{
		{"key": "soiling", "label": "Soiling and shading checked", "kind": "check", "required": true},
		{"key": "damage", "label": "No cracked or burnt modules", "kind": "check", "required": true},
		{"key": "connectors", "label": "Connectors and cable ties checked", "kind": "check", "required": false},
	}},
}

// seedSite gives the demo its checklist templates, a checklist on most work orders (answered
// on the finished ones, half-way on those being worked) and the crew's check-ins and -outs a
// few dozen metres from the station.
func seedSite(ctx context.Context, tx *store.Tx, acc *Accounts, rnd *rand.Rand, now time.Time) error {
	var tplIDs []int64
	var tplItems [][]map[string]any
	for _, c := range demoChecklists {
		b, _ := json.Marshal(c.items)
		id, err := tx.Insert(ctx, "INSERT INTO checklist_templates (org_id, name, items, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
			acc.OrgID, c.name, string(b), now.AddDate(0, -6, 0).UnixMilli(), now.AddDate(0, -6, 0).UnixMilli())
		if err != nil {
			return fmt.Errorf("demo: checklist template: %w", err)
		}
		tplIDs, tplItems = append(tplIDs, id), append(tplItems, c.items)
	}
	rows, err := tx.Query(ctx, `SELECT o.id, o.status, COALESCE(o.assignee_user_id, 0), COALESCE(o.actual_start, o.planned_start),
		COALESCE(o.actual_end, 0), s.lat, s.lng FROM work_orders o JOIN stations s ON s.id = o.station_id WHERE o.org_id = ? ORDER BY o.id`, acc.OrgID)
	if err != nil {
		return err
	}
	type order struct {
		id, user, start, end int64
		status               int
		lat, lng             float64
	}
	var orders []order
	for rows.Next() {
		var o order
		if err := rows.Scan(&o.id, &o.status, &o.user, &o.start, &o.end, &o.lat, &o.lng); err != nil {
			rows.Close()
			return err
		}
		orders = append(orders, o)
	}
	rows.Close()
	for i, o := range orders {
		if o.status == 1 || o.status == 5 || i%5 == 4 {
			continue // not taken on (pending accept, rejected), and some orders need no list
		}
		k := i % len(tplIDs)
		items, _ := json.Marshal(tplItems[k])
		if _, err := tx.Exec(ctx, "INSERT INTO work_order_checklists (order_id, template_id, name, items, created_at) VALUES (?, ?, ?, ?, ?)",
			o.id, tplIDs[k], demoChecklists[k].name, string(items), o.start); err != nil {
			return err
		}
		if o.status < 3 {
			continue // accepted, not started: nothing done on site yet
		}
		// the crew checks in at the start, a few dozen metres from the station's point
		at := o.start
		lat, lng := o.lat+(rnd.Float64()-0.5)*0.0008, o.lng+(rnd.Float64()-0.5)*0.0008
		if err := checkIn(ctx, tx, o.id, o.user, "in", at, lat, lng, o.lat, o.lng); err != nil {
			return err
		}
		done := len(tplItems[k])
		if o.status == 3 {
			done = len(tplItems[k]) / 2 // being worked: half-way
		}
		for j, it := range tplItems[k] {
			if j >= done || it["kind"] == "photo" {
				continue
			}
			var value any
			if it["kind"] == "reading" {
				value = map[string]float64{"V": 780 + float64(rnd.IntN(80)), "MΩ": 1.5 + float64(rnd.IntN(40))/10}[it["unit"].(string)]
			}
			if _, err := tx.Exec(ctx, `INSERT INTO work_order_checklist_answers (order_id, item_key, done, value, note, attachment_id, user_id, answered_at)
				VALUES (?, ?, 1, ?, '', 0, ?, ?)`, o.id, it["key"], value, o.user, at+int64(j+1)*10*60000); err != nil {
				return err
			}
		}
		if o.status == 4 && o.end > at {
			if err := checkIn(ctx, tx, o.id, o.user, "out", o.end, lat, lng, o.lat, o.lng); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkIn(ctx context.Context, tx *store.Tx, order, user int64, kind string, at int64, lat, lng, sLat, sLng float64) error {
	// an equirectangular distance is exact enough at tens of metres
	const m = 111320.0
	dLat, dLng := (lat-sLat)*m, (lng-sLng)*m*math.Cos(sLat*math.Pi/180)
	dist := math.Round(math.Hypot(dLat, dLng))
	_, err := tx.Exec(ctx, `INSERT INTO work_order_checkins (order_id, user_id, kind, at, lat, lng, accuracy_m, distance_m)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, order, user, kind, at, lat, lng, 6.0, dist)
	return err
}
