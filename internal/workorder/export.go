package workorder

import (
	"net/http"
	"strconv"
	"time"

	"github.com/helio-energy/helio/internal/export"
	"github.com/helio-energy/helio/internal/httpapi"
)

func zoned(t *time.Time, zone string) any {
	if t == nil || t.IsZero() {
		return nil
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		loc = time.UTC
	}
	return t.In(loc).Format("2006-01-02 15:04:05-07:00")
}

func word(key string, v func(o *Order) int) func(*Order, string) any {
	return func(o *Order, loc string) any { return httpapi.T(loc, key+strconv.Itoa(v(o))) }
}

// exportColumns are the exported columns (SPEC.md section 3's work-order fields).
var exportColumns = []export.Column[Order]{
	{Key: "wo_col_number", Cell: func(o *Order, _ string) any { return o.Number }},
	{Key: "wo_col_title", Cell: func(o *Order, _ string) any { return o.Title }},
	{Key: "wo_col_station", Cell: func(o *Order, _ string) any { return o.StationName }},
	{Key: "wo_col_submit_time", Cell: func(o *Order, _ string) any { return zoned(&o.SubmitTime, o.Timezone) }},
	{Key: "wo_col_status", Cell: word("wo_status_", func(o *Order) int { return o.Status })},
	{Key: "wo_col_timeout", Cell: word("wo_timeout_", func(o *Order) int { return o.Timeout })},
	{Key: "wo_col_priority", Cell: word("wo_priority_", func(o *Order) int { return o.Priority })},
	{Key: "wo_col_overtime", Cell: func(o *Order, _ string) any { return o.OvertimeHours }},
	{Key: "wo_col_submitter", Cell: func(o *Order, _ string) any { return o.Submitter }},
	{Key: "wo_col_processor", Cell: func(o *Order, _ string) any {
		if o.Processor == "" {
			return o.AssigneeDept
		}
		return o.Processor
	}},
	{Key: "wo_col_planned_start", Cell: func(o *Order, _ string) any { return zoned(&o.PlannedStart, o.Timezone) }},
	{Key: "wo_col_planned_end", Cell: func(o *Order, _ string) any { return zoned(&o.PlannedEnd, o.Timezone) }},
	{Key: "wo_col_planned_hours", Cell: func(o *Order, _ string) any { return o.PlannedHours }},
	{Key: "wo_col_actual_start", Cell: func(o *Order, _ string) any { return zoned(o.ActualStart, o.Timezone) }},
	{Key: "wo_col_actual_end", Cell: func(o *Order, _ string) any { return zoned(o.ActualEnd, o.Timezone) }},
	{Key: "wo_col_actual_hours", Cell: func(o *Order, _ string) any { return o.ActualHours }},
	{Key: "wo_col_deviation", Cell: func(o *Order, _ string) any { return o.DeviationPercent }},
}

func (s *Service) export(w http.ResponseWriter, r *http.Request) {
	format := httpapi.Query[ListQuery](r).Format
	f, err := s.filter(r)
	if err != nil {
		httpapi.Fail(w, r, err)
		return
	}
	f.Page, f.Size = 1, export.MaxRows
	list, total, err := List(r.Context(), s.DB, httpapi.Caller(r), f, s.now())
	if err != nil {
		httpapi.Fail(w, r, httpapi.Internal(err))
		return
	}
	localiseAll(list, httpapi.Locale(r))
	w.Header().Set("X-Helio-Total", strconv.FormatInt(total, 10))
	if total > int64(len(list)) {
		w.Header().Set("X-Helio-Truncated", "1")
	}
	export.Table(w, r, format, "workorders", exportColumns, list)
}
