package alarm

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
)

// The /v2/warn figures: today's counts and the daily, monthly and yearly trends.

// DailyQuery narrows the daily figures to a station.
type DailyQuery struct {
	StationID int64 `query:"stationId" validate:"id" doc:"a station (with its sub-stations); absent for every visible station"`
}

// TrendQuery selects a trend's resolution and range.
type TrendQuery struct {
	Type      string `query:"type" enum:"day,month,year" default:"day" doc:"day (default, 15 days), month (12 months) or year (4 years)"`
	From      string `query:"from" doc:"yyyy-MM-dd, yyyy-MM or yyyy as type; default as type ending at to"`
	To        string `query:"to" doc:"same format, inclusive; default the current one in tz"`
	TZ        string `query:"tz" doc:"IANA zone whose today the default range ends at (default UTC)"`
	StationID int64  `query:"stationId" validate:"id" doc:"a station (with its sub-stations); absent for every visible station"`
	loc       *time.Location
}

// Check reads the zone.
func (q *TrendQuery) Check(v *httpapi.Validator) {
	q.loc = time.UTC
	if z := q.TZ; z != "" {
		loc, err := time.LoadLocation(z)
		if err != nil || strings.Contains(z, "..") || z == "Local" {
			v.Add("tz", "invalid_format")
			return
		}
		q.loc = loc
	}
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

// scopeIDs resolves the optional stationId of the figures.
func (s *Service) scopeIDs(r *http.Request, id int64) ([]int64, error) {
	if id == 0 {
		return nil, nil
	}
	return s.stationScope(r.Context(), httpapi.Caller(r), id)
}

func (s *Service) dailyInfo(r *http.Request) (any, error) {
	ids, err := s.scopeIDs(r, httpapi.Query[DailyQuery](r).StationID)
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

// parseTrend reads type, from and to as of now, validating the dates and the range.
func (s *Service) parseTrend(q TrendQuery) (trendRange, error) {
	var v httpapi.Validator
	tr := trendRange{typ: q.Type}
	now := s.now().In(q.loc)
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
	}
	tr.format, tr.now = layout, now
	to, _ := time.Parse(layout, now.Format(layout))
	if ts := q.To; ts != "" {
		t, err := time.Parse(layout, ts)
		if err != nil {
			v.Add("to", "invalid_format")
		}
		to = t
	}
	from := step(to, -(defSpan - 1))
	if fs := q.From; fs != "" {
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
	q := httpapi.Query[TrendQuery](r)
	tr, err := s.parseTrend(q)
	if err != nil {
		return tr, nil, err
	}
	ids, err := s.scopeIDs(r, q.StationID)
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
