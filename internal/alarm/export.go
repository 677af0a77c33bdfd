package alarm

import (
	"net/http"
	"strconv"
	"time"

	"github.com/helio-energy/helio/internal/export"
	"github.com/helio-energy/helio/internal/httpapi"
)

// MaxExportRows bounds one export; the response says X-Helio-Truncated: 1 beyond it.
const MaxExportRows = 10000

func translated(prefix string, v func(a *Alarm) int) func(*Alarm, string) any {
	return func(a *Alarm, loc string) any { return httpapi.T(loc, prefix+strconv.Itoa(v(a))) }
}

func text(v func(a *Alarm) string) func(*Alarm, string) any {
	return func(a *Alarm, _ string) any { return v(a) }
}

// stationTime writes an instant in the alarm's station zone.
func stationTime(v func(a *Alarm) *time.Time) func(*Alarm, string) any {
	return func(a *Alarm, _ string) any { return localTime(v(a), loadLocation(a.Timezone)) }
}

// exportColumns are the exported columns: a message key for the header and the cell.
var exportColumns = []export.Column[Alarm]{
	{Key: "alarm_csv_id", Cell: func(a *Alarm, _ string) any { return strconv.FormatInt(a.ID, 10) }},
	{Key: "alarm_csv_station", Cell: text(func(a *Alarm) string { return a.StationName })},
	{Key: "alarm_csv_device", Cell: text(func(a *Alarm) string { return a.DeviceName })},
	{Key: "alarm_csv_sn", Cell: text(func(a *Alarm) string { return a.DeviceSN })},
	{Key: "alarm_csv_device_type", Cell: text(func(a *Alarm) string { return a.DeviceType })},
	{Key: "alarm_csv_rule", Cell: text(func(a *Alarm) string { return a.RuleName })},
	{Key: "alarm_csv_type", Cell: translated("alarm_type_", func(a *Alarm) int { return a.Type })},
	{Key: "alarm_csv_level", Cell: translated("alarm_level_", func(a *Alarm) int { return a.Level })},
	{Key: "alarm_csv_status", Cell: translated("alarm_status_", func(a *Alarm) int { return a.AlarmStatus })},
	{Key: "alarm_csv_deal_status", Cell: translated("alarm_deal_status_", func(a *Alarm) int { return a.DealStatus })},
	{Key: "alarm_csv_description", Cell: text(func(a *Alarm) string { return a.Description })},
	{Key: "alarm_csv_occurred", Cell: stationTime(func(a *Alarm) *time.Time { return &a.OccurTime })},
	{Key: "alarm_csv_start", Cell: stationTime(func(a *Alarm) *time.Time { return &a.StartTime })},
	{Key: "alarm_csv_last", Cell: stationTime(func(a *Alarm) *time.Time { return &a.LastAlarmTime })},
	{Key: "alarm_csv_recovery", Cell: stationTime(func(a *Alarm) *time.Time { return a.RecoveryTime })},
	{Key: "alarm_csv_reason", Cell: text(func(a *Alarm) string { return a.Reason })},
	{Key: "alarm_csv_deal_method", Cell: text(func(a *Alarm) string { return a.DealMethodName })},
	{Key: "alarm_csv_deal_by", Cell: text(func(a *Alarm) string { return a.DealBy })},
	{Key: "alarm_csv_deal_time", Cell: stationTime(func(a *Alarm) *time.Time { return a.DealTime })},
}

// localTime writes an instant in the station's zone as yyyy-MM-dd HH:mm:ss±hh:mm.
func localTime(t *time.Time, tz *time.Location) string {
	if t == nil || t.IsZero() {
		return ""
	}
	return t.In(tz).Format("2006-01-02 15:04:05-07:00")
}

// export writes the filtered list as CSV or XLSX (format), headers in the caller's
// language, times in each station's zone; X-Helio-Total counts every match.
func (s *Service) export(w http.ResponseWriter, r *http.Request) {
	q := httpapi.Query[ExportQuery](r)
	format := q.Format
	f := q.filter
	f.LocalDate = q.Date
	f, err := s.filterFor(r, f, q.StationID, q.DeviceID)
	if err != nil {
		httpapi.Fail(w, r, err)
		return
	}
	f.Page, f.Size = 1, MaxExportRows
	alarms, total, err := List(r.Context(), s.db(), httpapi.Caller(r), f, s.locale(r), s.now())
	if err != nil {
		httpapi.Fail(w, r, httpapi.Internal(err))
		return
	}
	w.Header().Set("X-Helio-Total", strconv.FormatInt(total, 10))
	if total > int64(len(alarms)) {
		w.Header().Set("X-Helio-Truncated", "1")
	}
	export.Table(w, r, format, "alarms", exportColumns, alarms)
}
