package alarm

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
)

// MaxExportRows bounds one export; the response says X-Helio-Truncated: 1 beyond it.
const MaxExportRows = 10000

// exportColumns are the CSV columns: a message key for the header and the cell.
var exportColumns = []struct {
	key  string
	cell func(a *Alarm, loc string, tz *time.Location) string
}{
	{"alarm_csv_id", func(a *Alarm, _ string, _ *time.Location) string { return strconv.FormatInt(a.ID, 10) }},
	{"alarm_csv_station", func(a *Alarm, _ string, _ *time.Location) string { return a.StationName }},
	{"alarm_csv_device", func(a *Alarm, _ string, _ *time.Location) string { return a.DeviceName }},
	{"alarm_csv_sn", func(a *Alarm, _ string, _ *time.Location) string { return a.DeviceSN }},
	{"alarm_csv_device_type", func(a *Alarm, _ string, _ *time.Location) string { return a.DeviceType }},
	{"alarm_csv_rule", func(a *Alarm, _ string, _ *time.Location) string { return a.RuleName }},
	{"alarm_csv_type", func(a *Alarm, loc string, _ *time.Location) string {
		return httpapi.T(loc, "alarm_type_"+strconv.Itoa(a.Type))
	}},
	{"alarm_csv_level", func(a *Alarm, loc string, _ *time.Location) string {
		return httpapi.T(loc, "alarm_level_"+strconv.Itoa(a.Level))
	}},
	{"alarm_csv_status", func(a *Alarm, loc string, _ *time.Location) string {
		return httpapi.T(loc, "alarm_status_"+strconv.Itoa(a.AlarmStatus))
	}},
	{"alarm_csv_deal_status", func(a *Alarm, loc string, _ *time.Location) string {
		return httpapi.T(loc, "alarm_deal_status_"+strconv.Itoa(a.DealStatus))
	}},
	{"alarm_csv_description", func(a *Alarm, _ string, _ *time.Location) string { return a.Description }},
	{"alarm_csv_start", func(a *Alarm, _ string, tz *time.Location) string { return localTime(&a.StartTime, tz) }},
	{"alarm_csv_last", func(a *Alarm, _ string, tz *time.Location) string { return localTime(&a.LastAlarmTime, tz) }},
	{"alarm_csv_recovery", func(a *Alarm, _ string, tz *time.Location) string { return localTime(a.RecoveryTime, tz) }},
	{"alarm_csv_reason", func(a *Alarm, _ string, _ *time.Location) string { return a.Reason }},
	{"alarm_csv_deal_method", func(a *Alarm, _ string, _ *time.Location) string { return a.DealMethodName }},
	{"alarm_csv_deal_by", func(a *Alarm, _ string, _ *time.Location) string { return a.DealBy }},
	{"alarm_csv_deal_time", func(a *Alarm, _ string, tz *time.Location) string { return localTime(a.DealTime, tz) }},
}

// localTime writes an instant in the station's zone as yyyy-MM-dd HH:mm:ss±hh:mm.
func localTime(t *time.Time, tz *time.Location) string {
	if t == nil || t.IsZero() {
		return ""
	}
	return t.In(tz).Format("2006-01-02 15:04:05-07:00")
}

// safeCell keeps a spreadsheet from reading a cell as a formula.
func safeCell(s string) string {
	if s != "" && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' || s[0] == '\r') {
		return "'" + s
	}
	return s
}

// export writes the filtered list as CSV (UTF-8 with a byte-order mark, so spreadsheet
// programs read non-Latin text), headers in the caller's language, times in each
// station's zone.
func (s *Service) export(w http.ResponseWriter, r *http.Request) {
	f, err := s.filterFor(r, true, true, true)
	if err != nil {
		httpapi.Fail(w, r, err)
		return
	}
	f.Page, f.Size = 1, MaxExportRows
	loc := s.locale(r)
	alarms, total, err := List(r.Context(), s.db(), httpapi.Caller(r), f, loc, s.now())
	if err != nil {
		httpapi.Fail(w, r, httpapi.Internal(err))
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="alarms-%s.csv"`, s.now().UTC().Format("20060102-150405")))
	h.Set("X-Helio-Total", strconv.FormatInt(total, 10))
	if total > int64(len(alarms)) {
		h.Set("X-Helio-Truncated", "1")
	}
	_, _ = w.Write([]byte("\xEF\xBB\xBF"))
	cw := csv.NewWriter(w)
	header := make([]string, len(exportColumns))
	for i, c := range exportColumns {
		header[i] = httpapi.T(loc, c.key)
	}
	_ = cw.Write(header)
	row := make([]string, len(exportColumns))
	for i := range alarms {
		a := &alarms[i]
		tz := loadLocation(a.Timezone)
		for j, c := range exportColumns {
			row[j] = safeCell(c.cell(a, loc, tz))
		}
		_ = cw.Write(row)
	}
	cw.Flush()
}
