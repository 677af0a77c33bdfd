package analysis

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Comparison modes.
const (
	ModeStations   = "stations"   // several stations over one period
	ModeDevices    = "devices"    // several devices over one period
	ModeSameMonth  = "sameMonth"  // one station (or the fleet) in the same month of several years
	ModeYearToDate = "yearToDate" // one station (or the fleet) from January to today's date, several years
	ModeMedian     = "median"     // one station against the median of the fleet's stations
)

// Modes lists the comparison modes.
var Modes = []string{ModeStations, ModeDevices, ModeSameMonth, ModeYearToDate, ModeMedian}

// CompareConfig is what a comparison shows; a compare template keeps one.
type CompareConfig struct {
	Mode       string  `json:"mode" doc:"stations, devices, sameMonth, yearToDate or median"`
	Metric     string  `json:"metric" doc:"yield, specificYield, equivalentHours, pr, prTemp, availability, co2, revenue, expected, actualVsExpected, selfConsumption or autarky"`
	StationIDs []int64 `json:"stationIds,omitempty" doc:"stations: 2 to 10; median: one; sameMonth and yearToDate: one, or none for the fleet"`
	DeviceIDs  []int64 `json:"deviceIds,omitempty" doc:"devices: 2 to 10"`
	Period     string  `json:"period" doc:"stations, devices, median: day, month, year or custom"`
	Date       string  `json:"date" doc:"as for the overview"`
	From       string  `json:"from"`
	To         string  `json:"to"`
	Month      int     `json:"month" doc:"sameMonth: 1 to 12"`
	Years      []int   `json:"years,omitempty" doc:"sameMonth and yearToDate: 2 to 10 years"`
}

// MaxCompared bounds how many stations, devices or years one comparison shows.
const MaxCompared = 10

// CompareSeries is one line or bar group of a comparison.
type CompareSeries struct {
	Name   string     `json:"name"`
	Values []*float64 `json:"values" doc:"one per label; null where it cannot be computed"`
	Total  *float64   `json:"total" doc:"the metric over the whole period"`
	Totals Totals     `json:"totals"`
}

// CompareResult is a comparison's chart and table.
type CompareResult struct {
	Metric string          `json:"metric"`
	Unit   string          `json:"unit"`
	Labels []string        `json:"labels"`
	Series []CompareSeries `json:"series"`
}

// validate checks c; it changes nothing and names each bad field.
func (c *CompareConfig) validate() error {
	var v httpapi.Validator
	v.OneOf("mode", c.Mode, Modes...)
	v.OneOf("metric", c.Metric, MetricKeys()...)
	count := func(field string, n, lo, hi int) {
		if n < lo || n > hi {
			v.Add(field, "out_of_range", lo, hi)
		}
	}
	switch c.Mode {
	case ModeStations:
		count("stationIds", len(dedupe(c.StationIDs)), 2, MaxCompared)
	case ModeDevices:
		count("deviceIds", len(dedupe(c.DeviceIDs)), 2, MaxCompared)
	case ModeMedian:
		count("stationIds", len(c.StationIDs), 1, 1)
	case ModeSameMonth, ModeYearToDate:
		count("stationIds", len(c.StationIDs), 0, 1)
		count("years", len(c.Years), 2, MaxCompared)
		for _, y := range c.Years {
			if y < 2000 || y > 2100 {
				v.Add("years", "out_of_range", 2000, 2100)
				break
			}
		}
		if c.Mode == ModeSameMonth && (c.Month < 1 || c.Month > 12) {
			v.Add("month", "out_of_range", 1, 12)
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	if c.Mode == ModeStations || c.Mode == ModeDevices || c.Mode == ModeMedian {
		if _, err := ParsePeriod(c.Period, c.Date, c.From, c.To); err != nil {
			return err
		}
	}
	return nil
}

// Compare runs a comparison for the caller: every station and device must be theirs to see
// (else a 400 naming the field, as the ids came in a body or template).
func (s *Service) Compare(ctx context.Context, p *httpapi.Principal, c CompareConfig) (*CompareResult, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	res := &CompareResult{Metric: c.Metric, Unit: MetricUnit(c.Metric, "")}
	stations := func(ids []int64) ([]Station, error) {
		sts, err := Stations(ctx, s.DB, p, ids)
		if errors.Is(err, store.ErrNotFound) {
			return nil, httpapi.InvalidField("stationIds", "unknown_ids", joinIDs(ids))
		}
		return sts, err
	}
	switch c.Mode {
	case ModeStations, ModeMedian:
		per, _ := ParsePeriod(c.Period, c.Date, c.From, c.To)
		chosen, err := stations(dedupe(c.StationIDs))
		if err != nil {
			return nil, err
		}
		all := chosen
		if c.Mode == ModeMedian {
			if all, err = Stations(ctx, s.DB, p, nil); err != nil {
				return nil, err
			}
		}
		got, err := s.Measure.Stations(ctx, all, per)
		if err != nil {
			return nil, err
		}
		for _, st := range chosen {
			res.add(st.Name, got[st.ID], st.Site, c.Metric)
		}
		if c.Mode == ModeMedian {
			res.Series = append(res.Series, median(all, got, c.Metric, res.Labels))
		}
		if len(chosen) == 1 {
			res.Unit = MetricUnit(c.Metric, chosen[0].Currency)
		}
	case ModeDevices:
		per, _ := ParsePeriod(c.Period, c.Date, c.From, c.To)
		if err := s.compareDevices(ctx, p, c, per, res); err != nil {
			return nil, err
		}
	case ModeSameMonth, ModeYearToDate:
		sts, err := stations(c.StationIDs)
		if err != nil {
			return nil, err
		}
		if len(c.StationIDs) == 0 {
			if sts, err = Stations(ctx, s.DB, p, nil); err != nil {
				return nil, err
			}
		}
		site := FleetSite(sts)
		if len(c.StationIDs) == 1 {
			site = sts[0].Site
			res.Unit = MetricUnit(c.Metric, site.Currency)
		}
		years := append([]int(nil), c.Years...)
		sort.Ints(years)
		now := s.Measure.now()
		for _, y := range years {
			per := yearPeriod(c, y, now)
			got, err := s.Measure.Stations(ctx, sts, per)
			if err != nil {
				return nil, err
			}
			list := make([]*Measured, 0, len(sts))
			for _, st := range sts {
				list = append(list, got[st.ID])
			}
			ms := Combine(list)
			for i := range ms.Labels { // "2025-03-07" → "03-07", "2025-03" → "03": years line up
				ms.Labels[i] = ms.Labels[i][5:]
			}
			res.add(strconv.Itoa(y), ms, site, c.Metric)
		}
	}
	return res, nil
}

// yearPeriod is the sameMonth or yearToDate period of one year.
func yearPeriod(c CompareConfig, year int, now time.Time) Period {
	if c.Mode == ModeSameMonth {
		p, _ := ParsePeriod(PeriodMonth, fmt.Sprintf("%04d-%02d", year, c.Month), "", "")
		return p
	}
	through := time.Date(year, now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	if through.Month() != now.Month() { // 29 February in a common year
		through = time.Date(year, now.Month(), 28, 0, 0, 0, 0, time.UTC)
	}
	first := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC)
	return Period{Kind: PeriodCustom, First: first.Format(time.DateOnly), Last: through.Format(time.DateOnly),
		Resolution: telemetry.Month.String(), first: first, last: through, res: telemetry.Month}
}

// add appends one measured series, its labels aligned with those already there.
func (r *CompareResult) add(name string, ms *Measured, site Site, metric string) {
	index := map[string]int{}
	for i, l := range r.Labels {
		index[l] = i
	}
	for _, l := range ms.Labels {
		if _, ok := index[l]; !ok {
			index[l] = len(r.Labels)
			r.Labels = append(r.Labels, l)
			for i := range r.Series {
				r.Series[i].Values = append(r.Series[i].Values, nil)
			}
		}
	}
	cs := CompareSeries{Name: name, Values: make([]*float64, len(r.Labels)), Totals: ms.Total}
	for i, l := range ms.Labels {
		cs.Values[index[l]] = Metric(Compute(ms.Buckets[i], site), metric)
	}
	cs.Total = Metric(Compute(ms.Total, site), metric)
	r.Series = append(r.Series, cs)
}

// median is the fleet's median station, label by label (and over the period).
func median(all []Station, got map[int64]*Measured, metric string, labels []string) CompareSeries {
	cs := CompareSeries{Name: "median", Values: make([]*float64, len(labels))}
	for i, l := range labels {
		var vals []float64
		for _, st := range all {
			ms := got[st.ID]
			for j, ml := range ms.Labels {
				if ml == l {
					if v := Metric(Compute(ms.Buckets[j], st.Site), metric); v != nil {
						vals = append(vals, *v)
					}
				}
			}
		}
		cs.Values[i] = med(vals)
	}
	var totals []float64
	for _, st := range all {
		if v := Metric(Compute(got[st.ID].Total, st.Site), metric); v != nil {
			totals = append(totals, *v)
		}
	}
	cs.Total = med(totals)
	return cs
}

func med(v []float64) *float64 {
	if len(v) == 0 {
		return nil
	}
	sort.Float64s(v)
	m := v[len(v)/2]
	if len(v)%2 == 0 {
		m = (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return &m
}

func joinIDs(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, ", ")
}
