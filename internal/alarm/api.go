package alarm

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/notify"
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
		Query: ExportQuery{}, Raw: s.export, RawTypes: httpapi.ExportTypes})
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
		if _, err := tx.Exec(r.Context(), `UPDATE alarms SET deal_status = 1, deal_reason = ?, deal_method = ?, dealt_by = ?,
			dealt_at = ?, updated_at = ? WHERE id = ?`, in.Reason, in.DealMethod, p.UserID, now, now, a.ID); err != nil {
			return err
		}
		return s.Engine.alarmEvent(r.Context(), tx, p.OrgID, a.ID, notify.AlarmDealt)
	})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	s.Engine.opt.Outbox.Wrote()
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
