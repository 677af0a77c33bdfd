package alarm

import (
	"context"
	"fmt"
	"strings"
)

// What the open alarms say back: their last-seen instants, stored in batches, and the
// occurring alarm of each station.

// lastSeenRows bounds the alarms of one last-seen UPDATE.
const lastSeenRows = 500

// writeLastSeen stores the new last-seen instants of the open alarms observed again,
// a statement per lastSeenRows alarms (a sweep with the whole fleet offline observes
// every open alarm again: one statement each cost it a commit each).
func (e *Engine) writeLastSeen(ctx context.Context, nowMs int64) error {
	var dirty []*openAlarm
	for _, a := range e.open {
		if a.dirty {
			dirty = append(dirty, a)
		}
	}
	for start := 0; start < len(dirty); start += lastSeenRows {
		chunk := dirty[start:min(start+lastSeenRows, len(dirty))]
		args := make([]any, 0, 1+2*len(chunk))
		args = append(args, nowMs)
		for _, a := range chunk {
			args = append(args, a.id, a.lastAt)
		}
		if _, err := e.db.Exec(ctx, `UPDATE alarms SET last_alarm_at = v.column2, updated_at = CAST(? AS BIGINT)
			FROM (VALUES (CAST(? AS BIGINT), CAST(? AS BIGINT))`+strings.Repeat(", (?, ?)", len(chunk)-1)+`) AS v
			WHERE alarms.id = v.column1 AND alarms.last_alarm_at < v.column2 AND alarms.open_key IS NOT NULL`, args...); err != nil {
			return fmt.Errorf("alarm: unable to update: %w", err)
		}
		for _, a := range chunk {
			a.dirty = false
		}
	}
	return nil
}

// ActiveByStation reports, for each given station with an occurring alarm (its own or a
// sub-station's), the description of the latest one. It fits monitor.Figures.Alarms; the
// caller has already filtered the stations by authority.
func (e *Engine) ActiveByStation(ctx context.Context, stationIDs []int64) (map[int64]string, error) {
	out := map[int64]string{}
	if len(stationIDs) == 0 {
		return out, nil
	}
	listed := map[int64]bool{}
	args := make([]any, 0, 2*len(stationIDs))
	for _, id := range stationIDs {
		listed[id] = true
		args = append(args, id)
	}
	args = append(args, args...)
	ph := placeholders(len(stationIDs))
	rows, err := e.db.Query(ctx, `SELECT a.station_id, COALESCE(s.parent_id, 0), a.description, a.start_at, a.id
		FROM alarms a JOIN stations s ON s.id = a.station_id
		WHERE a.status = 1 AND (a.station_id IN (`+ph+`) OR s.parent_id IN (`+ph+`))`, args...)
	if err != nil {
		return nil, fmt.Errorf("alarm: unable to read occurring alarms: %w", err)
	}
	defer rows.Close()
	type best struct{ start, id int64 }
	latest := map[int64]best{}
	put := func(st int64, desc string, b best) {
		if cur, ok := latest[st]; !ok || b.start > cur.start || b.start == cur.start && b.id > cur.id {
			latest[st] = b
			out[st] = desc
		}
	}
	for rows.Next() {
		var st, parent, start, id int64
		var desc string
		if err := rows.Scan(&st, &parent, &desc, &start, &id); err != nil {
			return nil, err
		}
		if listed[st] {
			put(st, desc, best{start, id})
		}
		if parent != 0 && listed[parent] {
			put(parent, desc, best{start, id})
		}
	}
	return out, rows.Err()
}
