package alarm

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// Service serves the /v2/warn calls.
type Service struct {
	Engine *Engine
}

func (s *Service) db() *store.DB                 { return s.Engine.db }
func (s *Service) now() time.Time                { return s.Engine.now() }
func (s *Service) locale(r *http.Request) string { return httpapi.Locale(r) }

// ListQuery documents the alarm list filters (listbysite).
type ListQuery struct {
	StationID   int64  `query:"stationId" doc:"a station (its sub-stations' alarms included); absent for every visible station"`
	DealStatus  int    `query:"dealStatus" doc:"-1 or absent all, 0 unprocessed, 1 processed"`
	AlarmStatus int    `query:"alarmStatus" doc:"0 or absent all, 1 occurring, 2 recovered"`
	Level       int    `query:"level" doc:"-1 or absent all, 0 signal change, 1 alarm, 2 fault"`
	Type        int    `query:"type" doc:"0 or absent all, 1 device alarm, 2 data alarm"`
	DeviceType  string `query:"deviceType" doc:"inverter (or 1), battery (2), storage (3), meter (4), collector (5)"`
	Rule        string `query:"rule" doc:"a rule key"`
	From        string `query:"from" doc:"start time from (RFC 3339, or yyyy-MM-dd for that UTC day)"`
	To          string `query:"to" doc:"start time before (RFC 3339, or yyyy-MM-dd: up to the end of that UTC day); at most 366 days after from"`
	Sort        string `query:"sort" doc:"rank by time (occurTime), level or duration (recovery, or now while occurring, less the start time); ties by id"`
	Order       string `query:"order" doc:"asc or desc (default) with sort"`
	Page        int    `query:"page"`
	PageSize    int    `query:"pageSize"`
}

// DateListQuery is ListQuery plus the station-local date of listbydate.
type DateListQuery struct {
	Date        string `query:"date" validate:"required" doc:"yyyy-MM-dd: alarms that started on this date in their station's time zone"`
	StationID   int64  `query:"stationId"`
	DealStatus  int    `query:"dealStatus"`
	AlarmStatus int    `query:"alarmStatus"`
	Level       int    `query:"level"`
	Type        int    `query:"type"`
	DeviceType  string `query:"deviceType"`
	Rule        string `query:"rule"`
	From        string `query:"from"`
	To          string `query:"to"`
	Sort        string `query:"sort"`
	Order       string `query:"order"`
	Page        int    `query:"page"`
	PageSize    int    `query:"pageSize"`
}

// DevListQuery is ListQuery plus the device of listbydev.
type DevListQuery struct {
	DeviceID    int64  `query:"deviceId" validate:"required" doc:"a visible device"`
	StationID   int64  `query:"stationId"`
	DealStatus  int    `query:"dealStatus"`
	AlarmStatus int    `query:"alarmStatus"`
	Level       int    `query:"level"`
	Type        int    `query:"type"`
	DeviceType  string `query:"deviceType"`
	Rule        string `query:"rule"`
	From        string `query:"from"`
	To          string `query:"to"`
	Sort        string `query:"sort"`
	Order       string `query:"order"`
	Page        int    `query:"page"`
	PageSize    int    `query:"pageSize"`
}

// ExportQuery is ListQuery plus the optional date and device.
type ExportQuery struct {
	StationID   int64  `query:"stationId"`
	DealStatus  int    `query:"dealStatus"`
	AlarmStatus int    `query:"alarmStatus"`
	Level       int    `query:"level"`
	Type        int    `query:"type"`
	DeviceType  string `query:"deviceType"`
	Rule        string `query:"rule"`
	From        string `query:"from"`
	To          string `query:"to"`
	Date        string `query:"date" doc:"as listbydate"`
	Sort        string `query:"sort" doc:"as listbysite: the rows come in the list's order"`
	Order       string `query:"order"`
	Format      string `query:"format" doc:"csv (default) or xlsx"`
	DeviceID    int64  `query:"deviceId" doc:"as listbydev"`
}

// DailyQuery narrows the daily figures to a station.
type DailyQuery struct {
	StationID int64 `query:"stationId" doc:"a station (with its sub-stations); absent for every visible station"`
}

// TrendQuery selects a trend's resolution and range.
type TrendQuery struct {
	Type      string `query:"type" doc:"day (default, 15 days), month (12 months) or year (4 years)"`
	From      string `query:"from" doc:"yyyy-MM-dd, yyyy-MM or yyyy as type; default as type ending at to"`
	To        string `query:"to" doc:"same format, inclusive; default the current one in tz"`
	TZ        string `query:"tz" doc:"IANA zone whose today the default range ends at (default UTC)"`
	StationID int64  `query:"stationId"`
}

// DailyInfo are today's alarm figures: alarms that started today in their station's
// time zone.
type DailyInfo struct {
	Total        int            `json:"total"`
	DeviceAlarms int            `json:"deviceAlarms" doc:"type 1"`
	DataAlarms   int            `json:"dataAlarms" doc:"type 2"`
	Processed    int            `json:"processed"`
	Unprocessed  int            `json:"unprocessed"`
	ProcessRatio float64        `json:"processRatio" doc:"processed ÷ total, % (0 without alarms)"`
	Occurring    int            `json:"occurring" doc:"of today's alarms, those still occurring"`
	ByLevel      map[string]int `json:"byLevel" doc:"keys 0, 1, 2"`
}

// TrendPoint counts the alarms of one day, month or year.
type TrendPoint struct {
	Date         string `json:"date" doc:"yyyy-MM-dd, yyyy-MM or yyyy (station-local calendar)"`
	Total        int    `json:"total"`
	DeviceAlarms int    `json:"deviceAlarms"`
	DataAlarms   int    `json:"dataAlarms"`
	Processed    int    `json:"processed"`
	Unprocessed  int    `json:"unprocessed"`
}

// Trend is a series of counts.
type Trend struct {
	Type string       `json:"type"`
	From string       `json:"from"`
	To   string       `json:"to"`
	List []TrendPoint `json:"list"`
}

// TypeTrendPoint is the fault-trend point of the monitor: alarms per device type.
type TypeTrendPoint struct {
	ID        string `json:"id" doc:"the date, as date"`
	Date      string `json:"date"`
	Inverter  int    `json:"inverter"`
	Battery   int    `json:"battery"`
	Storage   int    `json:"storage"`
	Meter     int    `json:"meter"`
	Collector int    `json:"collector"`
}

// TypeTrend is a series of per-type counts.
type TypeTrend struct {
	Type string           `json:"type"`
	From string           `json:"from"`
	To   string           `json:"to"`
	List []TypeTrendPoint `json:"list"`
}

// Detail is an alarm with its deal history.
type Detail struct {
	Alarm
	Deals []Deal `json:"deals"`
	// Orders are the work orders opened from the alarm, newest first, with their status now.
	Orders []Order `json:"orders"`
	// OpenOrder is the one still open (the alarm gets no other meanwhile), null when none.
	OpenOrder *Order `json:"openOrder"`
}

// DealInput deals an alarm.
type DealInput struct {
	Reason     string `json:"reason" validate:"required" doc:"at most 200 characters"`
	DealMethod int    `json:"dealMethod" validate:"required" doc:"1 remote reset, 2 on-site repair, 3 part replaced, 4 false alarm, 5 other"`
}

// RulesView lists an organisation's rules and what each threshold means.
type RulesView struct {
	Rules []Rule     `json:"rules"`
	Specs []RuleSpec `json:"specs"`
}

// RuleInput changes one rule; absent fields keep their value.
type RuleInput struct {
	Key     string             `json:"key" validate:"required"`
	Enabled *bool              `json:"enabled"`
	Level   *int               `json:"level"`
	Params  map[string]float64 `json:"params"`
}

// RulesInput changes some rules.
type RulesInput struct {
	Rules []RuleInput `json:"rules" validate:"required"`
}

// SettingsView is a user's notification settings and the choices offered.
type SettingsView struct {
	Settings
	DailyLimitChoices []int       `json:"dailyLimitChoices"`
	Today             NotifyToday `json:"today" doc:"the notifications of the user's local day: sent, held back by the daily limit"`
}

// Routes registers the /v2/warn calls.
func (s *Service) Routes(api *httpapi.API) {
	add := func(rt httpapi.Route) {
		rt.Tag = "warn"
		if rt.Access == 0 {
			rt.Access = httpapi.Signed
		}
		api.Add(rt)
	}
	add(httpapi.Route{Method: "GET", Path: "/v2/warn/dailyinfo", Summary: "Today's alarms: count, device/data split, processed and process ratio",
		Query: DailyQuery{}, Resp: DailyInfo{}, Handle: s.dailyInfo})
	add(httpapi.Route{Method: "GET", Path: "/v2/warn/trendbydate", Summary: "Alarm counts per day, month or year",
		Query: TrendQuery{}, Resp: Trend{}, Handle: s.trend})
	add(httpapi.Route{Method: "GET", Path: "/v2/warn/typetrendbydate", Summary: "Alarm counts per device type per day, month or year (fault trend)",
		Query: TrendQuery{}, Resp: TypeTrend{}, Handle: s.typeTrend})
	add(httpapi.Route{Method: "GET", Path: "/v2/warn/detail/{uid}", Summary: "One alarm with its deal history",
		Resp: Detail{}, Handle: s.detail})
	add(httpapi.Route{Method: "GET", Path: "/v2/warn/listbysite", Summary: "The alarm list, filtered and paged",
		Query: ListQuery{}, Resp: httpapi.Page[Alarm]{}, Handle: s.listBySite})
	add(httpapi.Route{Method: "GET", Path: "/v2/warn/listbydate", Summary: "Alarms that started on a station-local date",
		Query: DateListQuery{}, Resp: httpapi.Page[Alarm]{}, Handle: s.listByDate})
	add(httpapi.Route{Method: "GET", Path: "/v2/warn/listbydev", Summary: "Alarms of one device",
		Query: DevListQuery{}, Resp: httpapi.Page[Alarm]{}, Handle: s.listByDev})
	add(httpapi.Route{Method: "GET", Path: "/v2/warn/export", Summary: "The filtered alarm list as CSV or XLSX (at most 10000 rows)",
		Query: ExportQuery{}, Raw: s.export, RawType: "text/csv"})
	add(httpapi.Route{Method: "POST", Path: "/v2/warn/deal/{uid}", Summary: "Deal an alarm (deal status 0 → 1); every deal is kept",
		Body: DealInput{}, Resp: Detail{}, Handle: s.deal})
	add(httpapi.Route{Method: "GET", Path: "/v2/warn/notify/settings", Summary: "The caller's alarm notification settings",
		Resp: SettingsView{}, Handle: s.getSettings})
	add(httpapi.Route{Method: "POST", Path: "/v2/warn/notify/settings", Summary: "Save the caller's alarm notification settings",
		Body: Settings{}, Resp: SettingsView{}, Handle: s.saveSettings})
	add(httpapi.Route{Method: "GET", Path: "/v2/warn/rules", Summary: "The organisation's alarm rules and thresholds (admin)",
		Access: httpapi.Admin, Resp: RulesView{}, Handle: s.getRules})
	add(httpapi.Route{Method: "POST", Path: "/v2/warn/rules", Summary: "Change alarm rules and thresholds (admin)",
		Access: httpapi.Admin, Body: RulesInput{}, Resp: RulesView{}, Handle: s.saveRules})
}

// stationScope returns a visible station and its sub-stations (404 otherwise).
func (s *Service) stationScope(ctx context.Context, p *httpapi.Principal, id int64) ([]int64, error) {
	st, err := station.Get(ctx, s.db(), p, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.NotFound()
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	children, _, err := station.List(ctx, s.db(), p, station.Filter{ParentID: st.ID})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	ids := []int64{st.ID}
	for _, c := range children {
		ids = append(ids, c.ID)
	}
	return ids, nil
}

func positiveID(v *httpapi.Validator, q map[string][]string, name string) int64 {
	s := first(q[name])
	if s == "" {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		v.Add(name, "invalid_format")
		return 0
	}
	return n
}

func first(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return strings.TrimSpace(xs[0])
}

// DeviceTypes are the device types an alarm can carry, numbered 1-5 for the filter.
var DeviceTypes = []string{"inverter", "battery", "storage", "meter", "collector"}

// maxListDays is the longest from-to range of a list, in days.
const maxListDays = 366

// parseFilter reads the list filters shared by every list call and the export.
func (s *Service) parseFilter(p *listing.Params) (Filter, int64) {
	f := Filter{DealStatus: -1, Level: -1}
	stationID := p.ID("stationId")
	f.DealStatus = p.OneOf("dealStatus", -1, -1, 0, 1)
	f.AlarmStatus = p.OneOf("alarmStatus", 0, 0, 1, 2)
	f.Level = p.OneOf("level", -1, -1, 0, 1, 2)
	f.Type = p.OneOf("type", 0, 0, 1, 2)
	if dt := p.Str("deviceType"); dt != "" {
		if n, err := strconv.Atoi(dt); err == nil && n >= 1 && n <= len(DeviceTypes) {
			f.DeviceType = DeviceTypes[n-1]
		} else {
			f.DeviceType = p.Enum("deviceType", DeviceTypes...)
		}
	}
	if rule := p.Str("rule"); rule != "" {
		if specByKey[rule] == nil {
			keys := make([]string, len(Specs))
			for i, sp := range Specs {
				keys[i] = sp.Key
			}
			p.V.Add("rule", "one_of", strings.Join(keys, ", "))
		}
		f.Rule = rule
	}
	f.From, f.To = p.Range("from", "to", maxListDays)
	f.Sort = p.Sort(Sorts...)
	return f, stationID
}

func (s *Service) list(r *http.Request, f Filter) (any, error) {
	alarms, total, err := List(r.Context(), s.db(), httpapi.Caller(r), f, s.locale(r), s.now())
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return httpapi.Page[Alarm]{List: alarms, Total: total, Page: f.Page, PageSize: f.Size}, nil
}

// filterFor parses the filters of a list call and resolves its station and device.
func (s *Service) filterFor(r *http.Request, wantDate, wantDevice bool, optional bool) (Filter, error) {
	q := listing.Read(r)
	f, stationID := s.parseFilter(q)
	f.Page, f.Size = q.Page, q.Size
	if wantDate {
		date := q.Str("date")
		switch {
		case date == "" && !optional:
			q.V.Add("date", "required")
		case date != "":
			if _, err := time.Parse("2006-01-02", date); err != nil {
				q.V.Add("date", "invalid_format")
			}
			f.LocalDate = date
		}
	}
	var deviceID int64
	if wantDevice {
		deviceID = q.ID("deviceId")
		if deviceID == 0 && q.Str("deviceId") == "" && !optional {
			q.V.Add("deviceId", "required")
		}
	}
	if err := q.Err(); err != nil {
		return f, err
	}
	p := httpapi.Caller(r)
	if stationID != 0 {
		ids, err := s.stationScope(r.Context(), p, stationID)
		if err != nil {
			return f, err
		}
		f.StationIDs = ids
	}
	if deviceID != 0 {
		if _, err := device.Get(r.Context(), s.db(), p, deviceID); errors.Is(err, store.ErrNotFound) {
			return f, httpapi.NotFound()
		} else if err != nil {
			return f, httpapi.Internal(err)
		}
		f.DeviceID = deviceID
	}
	return f, nil
}

func (s *Service) listBySite(r *http.Request) (any, error) {
	f, err := s.filterFor(r, false, false, false)
	if err != nil {
		return nil, err
	}
	return s.list(r, f)
}

func (s *Service) listByDate(r *http.Request) (any, error) {
	f, err := s.filterFor(r, true, false, false)
	if err != nil {
		return nil, err
	}
	return s.list(r, f)
}

func (s *Service) listByDev(r *http.Request) (any, error) {
	f, err := s.filterFor(r, false, true, false)
	if err != nil {
		return nil, err
	}
	return s.list(r, f)
}

func (s *Service) get(r *http.Request) (*Alarm, error) {
	id, err := httpapi.PathID(r, "uid")
	if err != nil {
		return nil, err
	}
	a, err := Get(r.Context(), s.db(), httpapi.Caller(r), id, s.locale(r), s.now())
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.NotFound()
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return a, nil
}

func (s *Service) detailOf(r *http.Request, a *Alarm) (any, error) {
	ds, err := deals(r.Context(), s.db(), a.ID, s.locale(r))
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	d := Detail{Alarm: *a, Deals: ds}
	if d.Orders, err = ordersOf(r.Context(), s.db(), a.ID, s.locale(r)); err != nil {
		return nil, httpapi.Internal(err)
	}
	for i := range d.Orders {
		if d.Orders[i].Open {
			d.OpenOrder = &d.Orders[i]
			break
		}
	}
	return d, nil
}

func (s *Service) detail(r *http.Request) (any, error) {
	a, err := s.get(r)
	if err != nil {
		return nil, err
	}
	return s.detailOf(r, a)
}

// MaxReasonLen bounds a deal's reason.
const MaxReasonLen = 200

func (s *Service) deal(r *http.Request) (any, error) {
	a, err := s.get(r)
	if err != nil {
		return nil, err
	}
	var in DealInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	var v httpapi.Validator
	in.Reason = strings.TrimSpace(in.Reason)
	if v.Required("reason", in.Reason) {
		v.MaxLen("reason", in.Reason, MaxReasonLen)
		if strings.ContainsAny(in.Reason, "\x00") || !utf8.ValidString(in.Reason) {
			v.Add("reason", "invalid_format")
		}
	}
	if in.DealMethod == 0 {
		v.Add("dealMethod", "required")
	} else if in.DealMethod < 1 || in.DealMethod > len(DealMethods) {
		v.Add("dealMethod", "one_of", "1, 2, 3, 4, 5")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	now := s.now().UnixMilli()
	err = s.db().InTx(r.Context(), func(tx *store.Tx) error {
		if _, err := tx.Exec(r.Context(), "INSERT INTO alarm_deals (alarm_id, user_id, reason, method, created_at) VALUES (?, ?, ?, ?, ?)",
			a.ID, p.UserID, in.Reason, in.DealMethod, now); err != nil {
			return err
		}
		_, err := tx.Exec(r.Context(), `UPDATE alarms SET deal_status = 1, deal_reason = ?, deal_method = ?, dealt_by = ?,
			dealt_at = ?, updated_at = ? WHERE id = ?`, in.Reason, in.DealMethod, p.UserID, now, now, a.ID)
		return err
	})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	s.Engine.changed(Change{Kind: Dealt, ID: a.ID, StationID: a.StationID, StartAt: a.StartTime.UnixMilli()})
	if a.DealStatus == Unprocessed && s.Engine.opt.Messages != nil {
		if err := s.Engine.opt.Messages.AlarmProcessed(r.Context(), a.ID); err != nil {
			return nil, httpapi.Internal(err)
		}
		s.Engine.pendingChanged(r.Context(), map[int64]bool{httpapi.Caller(r).OrgID: true})
	}
	if a, err = s.get(r); err != nil {
		return nil, err
	}
	return s.detailOf(r, a)
}

// scopeIDs resolves the optional stationId of the figures.
func (s *Service) scopeIDs(r *http.Request) ([]int64, error) {
	var v httpapi.Validator
	id := positiveID(&v, r.URL.Query(), "stationId")
	if err := v.Err(); err != nil {
		return nil, err
	}
	if id == 0 {
		return nil, nil
	}
	return s.stationScope(r.Context(), httpapi.Caller(r), id)
}

func (s *Service) dailyInfo(r *http.Request) (any, error) {
	ids, err := s.scopeIDs(r)
	if err != nil {
		return nil, err
	}
	now := s.now()
	// Every station's "today" lies within a day and a half of UTC now.
	rows, err := countRows(r.Context(), s.db(), httpapi.Caller(r), ids, now.Add(-40*time.Hour), now.Add(40*time.Hour))
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	out := DailyInfo{ByLevel: map[string]int{"0": 0, "1": 0, "2": 0}}
	for _, c := range rows {
		loc := loadLocation(c.tz)
		if time.UnixMilli(c.start).In(loc).Format("2006-01-02") != now.In(loc).Format("2006-01-02") {
			continue
		}
		out.Total++
		if c.typ == TypeDevice {
			out.DeviceAlarms++
		} else {
			out.DataAlarms++
		}
		if c.deal == Processed {
			out.Processed++
		} else {
			out.Unprocessed++
		}
		if c.status == StatusOccurring {
			out.Occurring++
		}
		out.ByLevel[strconv.Itoa(c.level)]++
	}
	if out.Total > 0 {
		out.ProcessRatio = math.Round(float64(out.Processed)/float64(out.Total)*1000) / 10
	}
	return out, nil
}

// Trend ranges.
const (
	maxTrendDays   = 366
	maxTrendMonths = 120
	maxTrendYears  = 50
)

type trendRange struct {
	typ    string
	labels []string
	from   time.Time // UTC window that covers every station's local buckets
	to     time.Time
	format string
	now    time.Time // in the viewer's zone
}

// parseTrend reads type, from and to, validating each and the range.
func (s *Service) parseTrend(r *http.Request) (trendRange, error) {
	q := r.URL.Query()
	var v httpapi.Validator
	tr := trendRange{typ: first(q["type"])}
	if tr.typ == "" {
		tr.typ = "day"
	}
	now := s.now().UTC()
	if z := first(q["tz"]); z != "" {
		loc, err := time.LoadLocation(z)
		if err != nil || strings.Contains(z, "..") || z == "Local" {
			v.Add("tz", "invalid_format")
			return tr, v.Err()
		}
		now = now.In(loc)
	}
	var layout string
	var step func(time.Time, int) time.Time
	var defSpan, maxSpan int
	var tooLong string
	switch tr.typ {
	case "day":
		layout, defSpan, maxSpan, tooLong = "2006-01-02", 15, maxTrendDays, "range_too_long_days"
		step = func(t time.Time, n int) time.Time { return t.AddDate(0, 0, n) }
	case "month":
		layout, defSpan, maxSpan, tooLong = "2006-01", 12, maxTrendMonths, "range_too_long_months"
		step = func(t time.Time, n int) time.Time { return t.AddDate(0, n, 0) }
	case "year":
		layout, defSpan, maxSpan, tooLong = "2006", 4, maxTrendYears, "range_too_long_years"
		step = func(t time.Time, n int) time.Time { return t.AddDate(n, 0, 0) }
	default:
		v.Add("type", "one_of", "day, month, year")
		return tr, v.Err()
	}
	tr.format, tr.now = layout, now
	to, _ := time.Parse(layout, now.Format(layout))
	if ts := first(q["to"]); ts != "" {
		t, err := time.Parse(layout, ts)
		if err != nil {
			v.Add("to", "invalid_format")
		}
		to = t
	}
	from := step(to, -(defSpan - 1))
	if fs := first(q["from"]); fs != "" {
		t, err := time.Parse(layout, fs)
		if err != nil {
			v.Add("from", "invalid_format")
		}
		from = t
	}
	if err := v.Err(); err != nil {
		return tr, err
	}
	if to.Before(from) {
		v.Add("to", "range_reversed")
		return tr, v.Err()
	}
	for t := from; !t.After(to); t = step(t, 1) {
		if len(tr.labels) == maxSpan {
			v.Add("to", tooLong, maxSpan)
			return tr, v.Err()
		}
		tr.labels = append(tr.labels, t.Format(layout))
	}
	// Station-local buckets lie within 14 hours of the UTC ones, and a station's today is
	// at most a day from the viewer's (label).
	tr.from, tr.to = from.Add(-38*time.Hour), step(to, 1).Add(38*time.Hour)
	return tr, nil
}

// label is the bucket of an alarm that started at start at a station in loc: its local
// date moved by as many days (months, years) as the station's today is behind or ahead
// of the viewer's, so the bucket of the viewer's today holds every station's own today,
// as the alarms-today tile counts them (docs/kpi.md, "Periods and clocks").
func (tr trendRange) label(start time.Time, loc *time.Location) string {
	l, st, v := start.In(loc), tr.now.In(loc), tr.now
	switch tr.typ {
	case "month":
		shift := (v.Year()*12 + int(v.Month())) - (st.Year()*12 + int(st.Month()))
		return time.Date(l.Year(), l.Month()+time.Month(shift), 1, 0, 0, 0, 0, time.UTC).Format(tr.format)
	case "year":
		return time.Date(l.Year()+v.Year()-st.Year(), 1, 1, 0, 0, 0, 0, time.UTC).Format(tr.format)
	}
	days := int(time.Date(v.Year(), v.Month(), v.Day(), 0, 0, 0, 0, time.UTC).Sub(time.Date(st.Year(), st.Month(), st.Day(), 0, 0, 0, 0, time.UTC)).Hours() / 24)
	return time.Date(l.Year(), l.Month(), l.Day()+days, 0, 0, 0, 0, time.UTC).Format(tr.format)
}

type hit struct {
	i int
	c countRow
}

// bucketed reads the alarms of a trend with each one's bucket index.
func (s *Service) bucketed(r *http.Request) (trendRange, []hit, error) {
	tr, err := s.parseTrend(r)
	if err != nil {
		return tr, nil, err
	}
	ids, err := s.scopeIDs(r)
	if err != nil {
		return tr, nil, err
	}
	rows, err := countRows(r.Context(), s.db(), httpapi.Caller(r), ids, tr.from, tr.to)
	if err != nil {
		return tr, nil, httpapi.Internal(err)
	}
	index := make(map[string]int, len(tr.labels))
	for i, l := range tr.labels {
		index[l] = i
	}
	var hits []hit
	for _, c := range rows {
		label := tr.label(time.UnixMilli(c.start), loadLocation(c.tz))
		if i, ok := index[label]; ok {
			hits = append(hits, hit{i, c})
		}
	}
	return tr, hits, nil
}

func (s *Service) trend(r *http.Request) (any, error) {
	tr, hits, err := s.bucketed(r)
	if err != nil {
		return nil, err
	}
	points := make([]TrendPoint, len(tr.labels))
	for i, l := range tr.labels {
		points[i].Date = l
	}
	for _, h := range hits {
		p := &points[h.i]
		p.Total++
		if h.c.typ == TypeDevice {
			p.DeviceAlarms++
		} else {
			p.DataAlarms++
		}
		if h.c.deal == Processed {
			p.Processed++
		} else {
			p.Unprocessed++
		}
	}
	return Trend{Type: tr.typ, From: tr.labels[0], To: tr.labels[len(tr.labels)-1], List: points}, nil
}

func (s *Service) typeTrend(r *http.Request) (any, error) {
	tr, hits, err := s.bucketed(r)
	if err != nil {
		return nil, err
	}
	points := make([]TypeTrendPoint, len(tr.labels))
	for i, l := range tr.labels {
		points[i].ID, points[i].Date = l, l
	}
	for _, h := range hits {
		p := &points[h.i]
		switch h.c.deviceType {
		case "inverter":
			p.Inverter++
		case "battery":
			p.Battery++
		case "storage":
			p.Storage++
		case "meter":
			p.Meter++
		case "collector":
			p.Collector++
		}
	}
	return TypeTrend{Type: tr.typ, From: tr.labels[0], To: tr.labels[len(tr.labels)-1], List: points}, nil
}

func (s *Service) getSettings(r *http.Request) (any, error) {
	st, err := LoadSettings(r.Context(), s.db(), httpapi.Caller(r).UserID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	today, err := notifyToday(r.Context(), s.db(), httpapi.Caller(r).UserID, st, s.now())
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return SettingsView{Settings: st, DailyLimitChoices: DailyLimitChoices, Today: today}, nil
}

// settingsInput tells absent fields from zero values.
type settingsInput struct {
	Levels     *[]int  `json:"levels"`
	Frequency  *string `json:"frequency"`
	DailyLimit *int    `json:"dailyLimit"`
	Methods    *[]int  `json:"methods"`
	Allowed    *int    `json:"allowed"`
	Timezone   *string `json:"timezone"`
}

func (s *Service) saveSettings(r *http.Request) (any, error) {
	var in settingsInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	var v httpapi.Validator
	out := Settings{Timezone: "UTC"}
	switch {
	case in.Levels == nil || len(*in.Levels) == 0:
		v.Add("levels", "at_least_one")
	default:
		for _, l := range *in.Levels {
			if l < LevelSignal || l > LevelFault {
				v.Add("levels", "one_of", "0, 1, 2")
			}
		}
		out.Levels = *in.Levels
	}
	if in.Frequency == nil {
		v.Add("frequency", "required")
	} else {
		v.OneOf("frequency", *in.Frequency, Frequencies...)
		out.Frequency = *in.Frequency
	}
	if in.DailyLimit == nil {
		v.Add("dailyLimit", "required")
	} else {
		v.Range("dailyLimit", float64(*in.DailyLimit), 1, MaxDailyLimit)
		out.DailyLimit = *in.DailyLimit
	}
	switch {
	case in.Methods == nil || len(*in.Methods) == 0:
		v.Add("methods", "at_least_one")
	default:
		for _, m := range *in.Methods {
			if m != MethodInSite && m != MethodAppPush {
				v.Add("methods", "one_of", "1, 2")
			}
		}
		out.Methods = *in.Methods
	}
	if in.Allowed == nil {
		v.Add("allowed", "required")
	} else if *in.Allowed != 0 && *in.Allowed != 1 {
		v.Add("allowed", "one_of", "0, 1")
	} else {
		out.Allowed = *in.Allowed
	}
	if in.Timezone != nil && *in.Timezone != "" {
		tz := *in.Timezone
		if _, err := time.LoadLocation(tz); err != nil || strings.Contains(tz, "..") || tz == "Local" {
			v.Add("timezone", "invalid_format")
		}
		out.Timezone = tz
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	if err := SaveSettings(r.Context(), s.db(), p.UserID, out, s.now()); err != nil {
		return nil, httpapi.Internal(err)
	}
	return s.getSettings(r)
}

func (s *Service) getRules(r *http.Request) (any, error) {
	rules, err := loadRules(r.Context(), s.db(), httpapi.Caller(r).OrgID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return RulesView{Rules: rules.List(), Specs: Specs}, nil
}

func (s *Service) saveRules(r *http.Request) (any, error) {
	var in RulesInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	rules, err := loadRules(r.Context(), s.db(), p.OrgID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	var v httpapi.Validator
	if len(in.Rules) == 0 {
		v.Add("rules", "required")
	}
	seen := map[string]bool{}
	var changed []Rule
	for i, ri := range in.Rules {
		field := "rules[" + strconv.Itoa(i) + "]"
		spec := specByKey[ri.Key]
		if spec == nil {
			keys := make([]string, len(Specs))
			for j, sp := range Specs {
				keys[j] = sp.Key
			}
			v.Add(field+".key", "one_of", strings.Join(keys, ", "))
			continue
		}
		if seen[ri.Key] {
			v.Add(field+".key", "duplicate")
			continue
		}
		seen[ri.Key] = true
		rule := *rules[ri.Key]
		rule.Params = map[string]float64{}
		for k, x := range rules[ri.Key].Params {
			rule.Params[k] = x
		}
		if ri.Enabled != nil {
			rule.Enabled = *ri.Enabled
		}
		if ri.Level != nil {
			if *ri.Level < LevelSignal || *ri.Level > LevelFault {
				v.Add(field+".level", "one_of", "0, 1, 2")
			}
			rule.Level = *ri.Level
		}
		for name, val := range ri.Params {
			var ps *ParamSpec
			for j := range spec.Params {
				if spec.Params[j].Name == name {
					ps = &spec.Params[j]
				}
			}
			pf := field + ".params." + name
			if ps == nil {
				v.Add(pf, "unknown_field")
				continue
			}
			v.Range(pf, val, ps.Min, ps.Max)
			if ps.Integer && val != math.Trunc(val) {
				v.Add(pf, "wrong_type", "an integer")
			}
			rule.Params[name] = val
		}
		if spec.Key == RuleGrid && rule.P("voltageLowPct") >= rule.P("voltageHighPct") {
			v.Add(field+".params.voltageLowPct", "out_of_range", ps0(spec, "voltageLowPct").Min, rule.P("voltageHighPct"))
		}
		changed = append(changed, rule)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := saveRules(r.Context(), s.db(), p.OrgID, p.UserID, changed, s.now()); err != nil {
		return nil, httpapi.Internal(err)
	}
	s.Engine.rules.forget(p.OrgID)
	return s.getRules(r)
}

func ps0(spec *RuleSpec, name string) ParamSpec {
	for _, p := range spec.Params {
		if p.Name == name {
			return p
		}
	}
	return ParamSpec{}
}
