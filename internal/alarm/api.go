package alarm

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/httpapi"
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

func (s *Service) list(r *http.Request, f Filter) (any, error) {
	alarms, total, err := List(r.Context(), s.db(), httpapi.Caller(r), f, s.locale(r), s.now())
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return httpapi.Page[Alarm]{List: alarms, Total: total, Page: f.Page, PageSize: f.Size}, nil
}

// filterFor resolves a list's filter: its station (with the sub-stations) and device
// must be visible (404 otherwise).
func (s *Service) filterFor(r *http.Request, f Filter, stationID, deviceID int64) (Filter, error) {
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
	q := httpapi.Query[ListQuery](r)
	f, err := s.filterFor(r, q.paged(q.Paging), q.StationID, 0)
	if err != nil {
		return nil, err
	}
	return s.list(r, f)
}

func (s *Service) listByDate(r *http.Request) (any, error) {
	q := httpapi.Query[DateListQuery](r)
	f := q.paged(q.Paging)
	f.LocalDate = q.Date
	f, err := s.filterFor(r, f, q.StationID, 0)
	if err != nil {
		return nil, err
	}
	return s.list(r, f)
}

func (s *Service) listByDev(r *http.Request) (any, error) {
	q := httpapi.Query[DevListQuery](r)
	f, err := s.filterFor(r, q.paged(q.Paging), q.StationID, q.DeviceID)
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
