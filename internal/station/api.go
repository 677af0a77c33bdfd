package station

import (
	"context"
	"errors"
	"net/http"
	"sort"
	"strconv"
	"time"

	"github.com/helio-energy/helio/internal/blob"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Communication status of a station (SPEC.md section 4; tag colours cyan, green,
// orange, red).
const (
	CommConnecting  = 1 // no device has reported yet
	CommNormal      = 2 // every device reporting
	CommSomeOffline = 3
	CommAllOffline  = 4
)

// Live is what a station is doing now, from its devices' latest samples and alarms.
type Live struct {
	CommunicationStatus  int        `json:"communicationStatus" doc:"1 connecting, 2 normal, 3 some devices offline, 4 all devices offline"`
	AlarmExist           int        `json:"alarmExist" doc:"1 when an alarm is occurring"`
	CurrentPowerKW       float64    `json:"currentPowerKw"`
	PowerNormalization   float64    `json:"powerNormalization" doc:"current kW ÷ installed kWp, in %"`
	DailyEnergyKWh       float64    `json:"dailyEnergyKwh" doc:"today in the station's timezone"`
	DailyEquivalentHours float64    `json:"dailyEquivalentHours" doc:"daily kWh ÷ installed kWp, h"`
	TotalEnergyKWh       float64    `json:"totalEnergyKwh"`
	PerformanceRatio     float64    `json:"performanceRatio" doc:"yesterday's, in the station's timezone, IEC 61724: final yield ÷ reference yield, in % (the station page's)"`
	DevicesOnline        int        `json:"devicesOnline"`
	DevicesTotal         int        `json:"devicesTotal"`
	LatestAlarm          string     `json:"latestAlarm"`
	LastSeen             *time.Time `json:"lastSeen"`
}

// KPIs are a station's figures for its detail page (formulas in docs/kpi.md).
type KPIs struct {
	Unit             string  `json:"unit" doc:"kWh"`
	DayEnergyKWh     float64 `json:"dayEnergyKwh"`
	MonthEnergyKWh   float64 `json:"monthEnergyKwh"`
	YearEnergyKWh    float64 `json:"yearEnergyKwh"`
	TotalEnergyKWh   float64 `json:"totalEnergyKwh"`
	EquivalentHours  float64 `json:"equivalentHours" doc:"today, h"`
	PerformanceRatio float64 `json:"performanceRatio" doc:"yesterday, IEC 61724: final yield ÷ reference yield, in %"`
	CO2ReductionKg   float64 `json:"co2ReductionKg" doc:"total kWh × grid emission factor"`
	ProfitToday      float64 `json:"profitToday" doc:"in the station's currency"`
	ProfitTotal      float64 `json:"profitTotal"`
	Currency         string  `json:"currency"`
	EmissionFactorKg float64 `json:"emissionFactorKgPerKwh"`
}

// Series is a time series: [[unixMillis, value], …] with its unit.
type Series struct {
	Unit   string       `json:"unit"`
	Points [][2]float64 `json:"points"`
}

// Telemetry gives the station calls their measured figures. The caller has already
// checked that the stations are visible.
type Telemetry interface {
	Live(ctx context.Context, stations []*Station) (map[int64]Live, error)
	KPIs(ctx context.Context, st *Station) (KPIs, error)
	// PowerCurve is the station's AC power over one local day (yyyy-MM-dd).
	PowerCurve(ctx context.Context, st *Station, day time.Time) (Series, error)
	// DailyEnergy is the station's energy per local day of a month.
	DailyEnergy(ctx context.Context, st *Station, month time.Time) (Series, error)
	// MonthlyEnergy is the station's energy per local month of a year.
	MonthlyEnergy(ctx context.Context, st *Station, year time.Time) (Series, error)
}

// Service serves the /v2/site calls.
type Service struct {
	DB        *store.DB
	Telemetry Telemetry
	// Blobs keeps uploaded covers, so every replica serves them.
	Blobs *blob.DB
	// UploadDir holds covers uploaded before they were kept in the database (in --data).
	UploadDir string
}

// ListItem is a station in a list, with what it is doing now.
type ListItem struct {
	Station
	Live
	ChildrenCount int `json:"childrenCount"`
}

// Detail is a station with its live figures, KPIs and sub-stations.
type Detail struct {
	Station
	Live
	KPIs     KPIs        `json:"kpis"`
	Children []ListItem  `json:"children"`
	Parent   *SimpleItem `json:"parent"`
}

// SimpleItem names a station for pickers.
type SimpleItem struct {
	ID       int64  `json:"id"`
	ParentID int64  `json:"parentId"`
	Name     string `json:"name"`
	Timezone string `json:"timezone"`
}

// Summary counts the visible stations by state.
type Summary struct {
	Total           int            `json:"total"`
	CapacityKWp     float64        `json:"capacityKwp"`
	ByCommunication map[string]int `json:"byCommunication" doc:"keys 1-4 as communicationStatus"`
	WithAlarms      int            `json:"withAlarms"`
	CurrentPowerKW  float64        `json:"currentPowerKw"`
	DailyEnergyKWh  float64        `json:"dailyEnergyKwh"`
	ByType          map[string]int `json:"byType"`
}

// ListQuery is the list's filters (list and export).
type ListQuery struct {
	Name                string  `query:"name" maxLen:"100" doc:"part of the name, case-insensitive"`
	CommunicationStatus int     `query:"communicationStatus" min:"0" max:"4" doc:"1-4; 0 or absent for all"`
	AlarmStatus         int     `query:"alarmStatus" min:"-1" max:"1" default:"-1" doc:"-1 or absent all, 0 no alarms, 1 has alarms"`
	StationType         string  `query:"stationType" enum:"ground,rooftop,residential"`
	SystemType          string  `query:"systemType" enum:"pv,pv_storage"`
	TagIDs              []int64 `query:"tagIds" validate:"id" maxItems:"200" doc:"comma-separated tag ids: stations with any of them"`
	ParentID            int64   `query:"parentId" min:"-1" max:"9007199254740992" doc:"absent: top-level stations; n: sub-stations of n; -1: every level"`
	Sort                string  `query:"sort" enum:"dailyEnergyKwh,dailyEquivalentHours,performanceRatio,currentPowerKw,alarmExist" doc:"rank by today's kWh, the specific yield (dailyEquivalentHours: kWh ÷ kWp), the performance ratio, the power now or whether an alarm is occurring; ties by id"`
	Order               string  `query:"order" enum:"asc,desc" doc:"asc or desc (default) with sort"`
	httpapi.Paging
	Format string `query:"format" enum:"csv,xlsx" default:"csv" doc:"export only: csv (default) or xlsx"`
	sort   listing.Sort
}

// Check reads the order.
func (q *ListQuery) Check(v *httpapi.Validator) { q.sort = listing.SortOf(v, q.Sort, q.Order) }

// DateQuery names a local day or month.
type DateQuery struct {
	Date string `query:"date" doc:"yyyy-MM-dd (powertrendbydate), yyyy-MM (powerdatabymonth) or yyyy (powerdatabyyear); default today"`
}

// Routes registers the /v2/site calls.
func (s *Service) Routes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/site/summary", Tag: "site", Summary: "Counts of the visible stations by state",
		Access: httpapi.Signed, Resp: Summary{}, Handle: s.summary})
	api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/site/list", Tag: "site", Summary: "Stations with live figures, filtered and paged",
		Access: httpapi.Signed, Query: ListQuery{}, Resp: httpapi.Page[ListItem]{}, Handle: s.list})
	api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/site/simplelist", Tag: "site", Summary: "Every visible station and sub-station, for pickers",
		Access: httpapi.Signed, Resp: []SimpleItem{}, Handle: s.simpleList})
	api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/site/detail/{stationId}", Tag: "site", Summary: "One station with KPIs and sub-stations",
		Access: httpapi.Signed, Resp: Detail{}, Handle: s.detail})
	api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/site/powertrendbydate/{uid}", Tag: "site", Summary: "AC power over a local day",
		Access: httpapi.Signed, Query: DateQuery{}, Resp: Series{}, Handle: s.series("2006-01-02", Telemetry.PowerCurve)})
	api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/site/powerdatabymonth/{uid}", Tag: "site", Summary: "Energy per local day of a month",
		Access: httpapi.Signed, Query: DateQuery{}, Resp: Series{}, Handle: s.series("2006-01", Telemetry.DailyEnergy)})
	api.Add(httpapi.Route{Method: "GET", Cache: true, Path: "/v2/site/powerdatabyyear/{uid}", Tag: "site", Summary: "Energy per local month of a year",
		Access: httpapi.Signed, Query: DateQuery{}, Resp: Series{}, Handle: s.series("2006", Telemetry.MonthlyEnergy)})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/site/add", Tag: "site", Summary: "Create a station or sub-station (admin)",
		Access: httpapi.Admin, Body: Input{}, Resp: Station{}, Handle: s.add})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/site/edit/{uid}", Tag: "site", Summary: "Edit a station",
		Access: httpapi.Signed, Body: Input{}, Resp: Station{}, Handle: s.edit})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/site/export", Tag: "site", Summary: "The filtered station list as CSV or XLSX",
		Access: httpapi.Signed, Query: ListQuery{}, RawTypes: httpapi.ExportTypes, Raw: s.export})
	s.tagRoutes(api)
	s.coverRoutes(api)
}

func (s *Service) get(r *http.Request, param string) (*Station, error) {
	id, err := httpapi.PathID(r, param)
	if err != nil {
		return nil, err
	}
	st, err := Get(r.Context(), s.DB, httpapi.Caller(r), id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.NotFound()
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return st, nil
}

func (s *Service) detail(r *http.Request) (any, error) {
	st, children, sub, err := s.view(r, "stationId")
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
	items, err := s.items(ctx, []*Station{st}, sub)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	kpis, err := s.Telemetry.KPIs(ctx, st)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	if sub == nil {
		if children, _, err = List(ctx, s.DB, httpapi.Caller(r), Filter{ParentID: st.ID}); err != nil {
			return nil, httpapi.Internal(err)
		}
	}
	childItems, err := s.items(ctx, children, sub)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	d := Detail{Station: *st, Live: items[0].Live, KPIs: kpis, Children: childItems}
	if st.ParentID != 0 {
		if parent, err := s.parentOf(r, st); err == nil && parent != nil {
			d.Parent = &SimpleItem{ID: parent.ID, ParentID: parent.ParentID, Name: parent.Name, Timezone: parent.Timezone}
		}
	}
	return d, nil
}

// parentOf is the station's parent if the caller may see it (nil if not).
func (s *Service) parentOf(r *http.Request, st *Station) (*Station, error) {
	if k, ok := s.Telemetry.(Kept); ok {
		parent, _, _, kept, err := k.KeptStation(r.Context(), httpapi.Caller(r), st.ParentID)
		if err != nil || kept {
			return parent, err
		}
	}
	parent, err := Get(r.Context(), s.DB, httpapi.Caller(r), st.ParentID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return parent, err
}

// localDate is the date query s (in layout, in the station's zone; "": the current one).
func localDate(v *httpapi.Validator, s string, st *Station, layout string) time.Time {
	loc := telemetry.CalendarFor(st.Timezone).Loc // loaded once per zone
	now := time.Now().In(loc)
	if s == "" {
		switch layout {
		case "2006":
			return time.Date(now.Year(), 1, 1, 0, 0, 0, 0, loc)
		case "2006-01":
			return time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, loc)
		}
		return time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, loc)
	}
	t, err := time.ParseInLocation(layout, s, loc)
	if err != nil {
		v.Add("date", "invalid_format")
		return now
	}
	if t.After(now) || t.Year() < 1990 {
		v.Add("date", "out_of_range", "1990-01-01", now.Format("2006-01-02"))
	}
	return t
}

// series answers a station's series over the local date named by the date query (in
// layout; default: the current one).
func (s *Service) series(layout string, of func(Telemetry, context.Context, *Station, time.Time) (Series, error)) func(r *http.Request) (any, error) {
	return func(r *http.Request) (any, error) {
		st, _, _, err := s.view(r, "uid")
		if err != nil {
			return nil, err
		}
		var v httpapi.Validator
		date := localDate(&v, httpapi.Query[DateQuery](r).Date, st, layout)
		if err := v.Err(); err != nil {
			return nil, err
		}
		out, err := of(s.Telemetry, r.Context(), st, date)
		if err != nil {
			return nil, httpapi.Internal(err)
		}
		return out, nil
	}
}

// checkTags verifies that every tag id belongs to the organisation.
func (s *Service) checkTags(ctx context.Context, orgID int64, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	uniq := map[int64]bool{}
	args := []any{orgID}
	for _, id := range ids {
		if !uniq[id] {
			uniq[id] = true
			args = append(args, id)
		}
	}
	var n int
	if err := s.DB.QueryRow(ctx, "SELECT COUNT(*) FROM station_tags WHERE org_id = ? AND id IN ("+placeholders(len(args)-1)+")", args...).Scan(&n); err != nil {
		return httpapi.Internal(err)
	}
	if n != len(uniq) {
		return httpapi.InvalidField("tagIds", "not_found")
	}
	return nil
}

func uniqueIDs(ids []int64) []int64 {
	seen := map[int64]bool{}
	out := []int64{}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func (s *Service) add(r *http.Request) (any, error) {
	var in Input
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	ctx := r.Context()
	p := httpapi.Caller(r)
	if in.ParentID != 0 {
		parent, err := Get(ctx, s.DB, p, in.ParentID)
		if err != nil || parent.ParentID != 0 {
			return nil, httpapi.InvalidField("parentId", "not_found")
		}
	}
	if err := s.checkTags(ctx, p.OrgID, in.TagIDs); err != nil {
		return nil, err
	}
	st := &Station{OrgID: p.OrgID, ParentID: in.ParentID, CreatedByDept: p.DeptID}
	in.apply(st)
	if _, err := Insert(ctx, s.DB, st); err != nil {
		return nil, httpapi.Internal(err)
	}
	if err := SetTags(ctx, s.DB, st.ID, uniqueIDs(in.TagIDs)); err != nil {
		return nil, httpapi.Internal(err)
	}
	org.Audit(ctx, s.DB, p.OrgID, p.UserID, "station.add", strconv.FormatInt(st.ID, 10), st.Name, httpapi.ClientAddr(r))
	return Get(ctx, s.DB, p, st.ID)
}

func (s *Service) edit(r *http.Request) (any, error) {
	st, err := s.get(r, "uid")
	if err != nil {
		return nil, err
	}
	var in Input
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if in.ParentID != 0 && in.ParentID != st.ParentID {
		return nil, httpapi.InvalidField("parentId", "invalid_format")
	}
	ctx := r.Context()
	p := httpapi.Caller(r)
	if err := s.checkTags(ctx, p.OrgID, in.TagIDs); err != nil {
		return nil, err
	}
	in.apply(st)
	if err := Update(ctx, s.DB, st); err != nil {
		return nil, httpapi.Internal(err)
	}
	if err := SetTags(ctx, s.DB, st.ID, uniqueIDs(in.TagIDs)); err != nil {
		return nil, httpapi.Internal(err)
	}
	org.Audit(ctx, s.DB, p.OrgID, p.UserID, "station.edit", strconv.FormatInt(st.ID, 10), st.Name, httpapi.ClientAddr(r))
	return Get(ctx, s.DB, p, st.ID)
}
