package report

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/helio-energy/helio/internal/analysis"
)

// NextRun is the first run of the schedule strictly after t, in its time zone (zero for
// no schedule). A local hour that a DST change skips runs at the hour after it.
func NextRun(s Schedule, t time.Time) time.Time {
	if s.Frequency == "" || s.Frequency == "none" {
		return time.Time{}
	}
	loc, err := time.LoadLocation(s.Timezone)
	if err != nil {
		loc = time.UTC
	}
	lt := t.In(loc)
	day := time.Date(lt.Year(), lt.Month(), lt.Day(), 0, 0, 0, 0, loc)
	for i := 0; i < 62; i++ {
		d := day.AddDate(0, 0, i)
		switch s.Frequency {
		case "weekly":
			wd := int(d.Weekday())
			if wd == 0 {
				wd = 7
			}
			if wd != s.Weekday {
				continue
			}
		case "monthly":
			if d.Day() != s.MonthDay {
				continue
			}
		}
		at := time.Date(d.Year(), d.Month(), d.Day(), s.Hour, 0, 0, 0, loc)
		if at.After(t) {
			return at
		}
	}
	return time.Time{}
}

// RunPeriod is the period a run at `at` reports on: the previous local day (daily), the
// seven days before (weekly) or the previous month (monthly).
func RunPeriod(s Schedule, at time.Time) (Params, error) {
	loc, err := time.LoadLocation(s.Timezone)
	if err != nil {
		loc = time.UTC
	}
	lt := at.In(loc)
	today := time.Date(lt.Year(), lt.Month(), lt.Day(), 0, 0, 0, 0, time.UTC)
	var p Params
	switch s.Frequency {
	case "daily":
		p.Period, p.Date = analysis.PeriodDay, today.AddDate(0, 0, -1).Format(time.DateOnly)
	case "weekly":
		p.Period, p.From, p.To = analysis.PeriodCustom, today.AddDate(0, 0, -7).Format(time.DateOnly), today.AddDate(0, 0, -1).Format(time.DateOnly)
	case "monthly":
		p.Period, p.Date = analysis.PeriodMonth, today.AddDate(0, 0, -today.Day()+1).AddDate(0, -1, 0).Format("2006-01")
	default:
		return p, fmt.Errorf("report: no schedule")
	}
	return p, nil
}

// Scheduler queues the runs of scheduled templates when they fall due. Replicas advance a
// template's next run with a compare-and-set, so each run is queued once.
type Scheduler struct {
	Service *Service
	// Every is how often due templates are looked for (default 30 s).
	Every time.Duration
}

// Run looks for due templates until ctx ends.
func (s *Scheduler) Run(ctx context.Context) {
	every := s.Every
	if every <= 0 {
		every = 30 * time.Second
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := s.Service.RunDue(ctx); err != nil && ctx.Err() == nil {
			slog.Error("report schedule failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// RunDue queues every template run that is due and returns how many it queued.
func (s *Service) RunDue(ctx context.Context) (int, error) {
	now := s.now()
	rows, err := s.DB.Query(ctx, "SELECT id, next_run_at FROM report_templates WHERE next_run_at IS NOT NULL AND next_run_at <= ? ORDER BY next_run_at LIMIT 100",
		now.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("report: unable to find due templates: %w", err)
	}
	type due struct{ id, at int64 }
	var list []due
	for rows.Next() {
		var d due
		if err := rows.Scan(&d.id, &d.at); err != nil {
			rows.Close()
			return 0, err
		}
		list = append(list, d)
	}
	rows.Close()
	n := 0
	for _, d := range list {
		t, err := s.templates.GetAny(ctx, d.id)
		if err != nil {
			return n, err
		}
		next := NextRun(t.Config.Schedule, now)
		var nextArg any
		if !next.IsZero() {
			nextArg = next.UnixMilli()
		}
		res, err := s.DB.Exec(ctx, "UPDATE report_templates SET next_run_at = ? WHERE id = ? AND next_run_at = ?", nextArg, d.id, d.at)
		if err != nil {
			return n, fmt.Errorf("report: unable to advance schedule: %w", err)
		}
		if c, _ := res.RowsAffected(); c != 1 {
			continue // another replica queued this run
		}
		if _, err := s.queueRun(ctx, t.OrgID, t.UserID, t.ID, t.Name, t.Config, time.UnixMilli(d.at)); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// queueRun queues a scheduled run of a template for its owner, reporting on the period
// before `at`.
func (s *Service) queueRun(ctx context.Context, orgID, userID, tplID int64, name string, cfg TemplateConfig, at time.Time) (int64, error) {
	per, err := RunPeriod(cfg.Schedule, at)
	if err != nil {
		return 0, err
	}
	p := cfg.Params
	p.Period, p.Date, p.From, p.To = per.Period, per.Date, per.From, per.To
	id, err := s.Records.Queue(ctx, orgID, userID, tplID, name, p, true)
	if err != nil {
		return 0, err
	}
	s.kick()
	return id, nil
}
