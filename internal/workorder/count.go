package workorder

import (
	"context"
	"fmt"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// inScope keeps the rows whose station (column) the caller may see. With authority over
// every station of the organisation the organisation condition already says it.
func inScope(w *listing.Where, column string, p *httpapi.Principal) {
	if p.StationAuthority == "all" {
		return
	}
	scope, args := station.Scope(p)
	w.Add(column+" IN (SELECT s.id FROM stations s WHERE "+scope+")", args...)
}

// countable says whether f's totals can be read from the kept counts (work_order_counts):
// narrowed by station, status, priority and timeout only.
func (f *Filter) countable() bool {
	return f.Mine == "" && f.Query == "" && f.From.IsZero() && f.To.IsZero() && f.AlarmID == 0
}

// tally is, per status (1-5), how many visible orders match and how many of them are late:
// finished after their planned end (kept), or still open past it (counted at now).
type tally struct{ all, late [6]int64 }

// tally reads the kept counts of the caller's stations and counts the open orders past due.
func (f *Filter) tally(ctx context.Context, db *store.DB, p *httpapi.Principal, now time.Time) (tally, error) {
	var t tally
	var kept listing.Where
	kept.Add("c.org_id = ?", p.OrgID)
	inScope(&kept, "c.station_id", p)
	kept.In("c.station_id", f.StationIDs)
	kept.If(f.Priority > 0, "c.priority = ?", f.Priority)
	where, args := kept.SQL()
	if err := t.add(ctx, db, `SELECT c.status, c.late, SUM(c.n) FROM work_order_counts c WHERE `+where+
		` GROUP BY c.status, c.late`, args, false); err != nil {
		return t, err
	}
	var due listing.Where
	due.Add("o.org_id = ?", p.OrgID)
	due.Add("o.status IN (1, 2, 3) AND o.planned_end < ?", now.UnixMilli())
	inScope(&due, "o.station_id", p)
	due.In("o.station_id", f.StationIDs)
	due.If(f.Priority > 0, "o.priority = ?", f.Priority)
	where, args = due.SQL()
	err := t.add(ctx, db, `SELECT o.status, 1, COUNT(*) FROM work_orders o WHERE `+where+` GROUP BY o.status`, args, true)
	return t, err
}

func (t *tally) add(ctx context.Context, db *store.DB, q string, args []any, lateOnly bool) error {
	rows, err := db.Query(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("workorder: unable to count: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var status, late int
		var n int64
		if err := rows.Scan(&status, &late, &n); err != nil {
			return err
		}
		if status < 1 || status > 5 {
			continue
		}
		if !lateOnly {
			t.all[status] += n
		}
		if late == 1 {
			t.late[status] += n
		}
	}
	return rows.Err()
}

// of is how many orders of status s match the timeout filter (-1 any, 0 on time, 1 late).
func (t *tally) of(s, timeout int) int64 {
	switch timeout {
	case 1:
		return t.late[s]
	case 0:
		if s == Rejected {
			return 0
		}
		return t.all[s] - t.late[s]
	}
	return t.all[s]
}

// count is the total of a list filtered by status (0 any) and timeout.
func (t *tally) count(status, timeout int) int64 {
	var n int64
	for s := 1; s <= 5; s++ {
		if status == 0 || status == s {
			n += t.of(s, timeout)
		}
	}
	return n
}

func (t *tally) summary(timeout int) Summary {
	sum := Summary{ByStatus: map[int]int{}}
	for s := 1; s <= 5; s++ {
		n := int(t.of(s, timeout))
		sum.ByStatus[s] = n
		sum.Total += n
		if Open(s) {
			sum.Open += n
		}
		if timeout != 0 {
			sum.TimedOut += int(t.late[s])
		}
	}
	sum.ratio()
	return sum
}

func (s *Summary) ratio() {
	if s.Total > 0 {
		s.ProcessRatio = float64(int(float64(s.ByStatus[Finished])/float64(s.Total)*1000+0.5)) / 10
	}
}
