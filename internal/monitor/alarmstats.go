package monitor

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/fleet"
	"github.com/helio-energy/helio/internal/store"
)

// SQLAlarmStats reads the alarm tables for the rankings.
type SQLAlarmStats struct {
	DB *store.DB
	// Children names the stations and their sub-stations, each with its parent (nil:
	// read from the stations table).
	Children func(ctx context.Context, ids []int64) (map[int64]int64, error)
	// Fleet counts the alarms of a recent enough since from its alarm index (nil, or an
	// older since: SQL).
	Fleet *fleet.State
}

func idArgs(ids []int64) (string, []any) {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return strings.TrimSuffix(strings.Repeat("?,", len(ids)), ","), args
}

// StationCounts implements AlarmStats.
func (s SQLAlarmStats) StationCounts(ctx context.Context, stationIDs []int64, since time.Time) (map[int64]AlarmCount, error) {
	out := map[int64]AlarmCount{}
	if len(stationIDs) == 0 {
		return out, nil
	}
	if s.Fleet != nil {
		got, ok, err := s.Fleet.AlarmCounts(ctx, stationIDs, since)
		if err != nil {
			return nil, err
		}
		if ok {
			for id, c := range got {
				out[id] = AlarmCount{Total: c.Total, Processed: c.Dealt}
			}
			return out, nil
		}
	}
	// the listed stations and their sub-stations, each an index range of
	// alarms_station_start (an OR over the parent would read every alarm)
	children := s.Children
	if children == nil {
		children = func(ctx context.Context, ids []int64) (map[int64]int64, error) { return withChildren(ctx, s.DB, ids) }
	}
	parents, err := children(ctx, stationIDs)
	if err != nil {
		return nil, err
	}
	all := make([]int64, 0, len(parents))
	for id := range parents {
		all = append(all, id)
	}
	ph, args := idArgs(all)
	rows, err := s.DB.Query(ctx, `SELECT a.station_id, a.deal_status FROM alarms a
		WHERE a.station_id IN (`+ph+`) AND a.start_at >= ?`, append(args, since.UnixMilli())...)
	if err != nil {
		return nil, fmt.Errorf("monitor: unable to count alarms: %w", err)
	}
	defer rows.Close()
	listed := map[int64]bool{}
	for _, id := range stationIDs {
		listed[id] = true
	}
	add := func(id int64, dealt bool) {
		c := out[id]
		c.Total++
		if dealt {
			c.Processed++
		}
		out[id] = c
	}
	for rows.Next() {
		var id int64
		var deal int
		if err := rows.Scan(&id, &deal); err != nil {
			return nil, err
		}
		parent := parents[id]
		if listed[id] {
			add(id, deal == 1)
		}
		if parent != 0 && listed[parent] {
			add(parent, deal == 1)
		}
	}
	return out, rows.Err()
}

// DealCounts implements AlarmStats.
func (s SQLAlarmStats) DealCounts(ctx context.Context, stationIDs []int64, since time.Time) ([]UserCount, error) {
	out := []UserCount{}
	if len(stationIDs) == 0 {
		return out, nil
	}
	ph, args := idArgs(stationIDs)
	rows, err := s.DB.Query(ctx, `SELECT u.id, COALESCE(NULLIF(u.name, ''), u.username), COUNT(*) FROM alarm_deals d
		JOIN alarms a ON a.id = d.alarm_id JOIN users u ON u.id = d.user_id
		WHERE d.created_at >= ? AND a.station_id IN (`+ph+`) GROUP BY u.id, u.name, u.username`,
		append([]any{since.UnixMilli()}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("monitor: unable to count deals: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var u UserCount
		if err := rows.Scan(&u.UserID, &u.Name, &u.Count); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// withChildren returns the stations and their sub-stations, each with its parent (0 for
// a top-level station).
func withChildren(ctx context.Context, db *store.DB, ids []int64) (map[int64]int64, error) {
	out := make(map[int64]int64, len(ids))
	for start := 0; start < len(ids); start += 400 {
		chunk := ids[start:min(start+400, len(ids))]
		ph, args := idArgs(chunk)
		rows, err := db.Query(ctx, "SELECT id, COALESCE(parent_id, 0) FROM stations WHERE id IN ("+ph+
			") UNION ALL SELECT id, parent_id FROM stations WHERE parent_id IN ("+ph+")", append(args, args...)...)
		if err != nil {
			return nil, fmt.Errorf("monitor: unable to read sub-stations: %w", err)
		}
		for rows.Next() {
			var id, parent int64
			if err := rows.Scan(&id, &parent); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = parent
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// occurring returns, per listed station, the text of its latest occurring alarm (its own
// or a sub-station's): Alarms' answer. With the fleet state it is read from the state's
// alarm index (fleet.State.Occurring), which the alarm engine keeps by its committed
// changes: no SQL. With flagsOnly the texts are left empty: only which stations have an
// occurring alarm.
func (f *Figures) occurring(ctx context.Context, ids []int64, flagsOnly bool) (map[int64]string, error) {
	if f.Alarms == nil {
		return nil, nil
	}
	if f.Fleet != nil {
		return f.Fleet.Occurring(ctx, ids, !flagsOnly)
	}
	out, err := f.Alarms(ctx, ids)
	if flagsOnly {
		for id := range out {
			out[id] = ""
		}
	}
	return out, err
}
