package report

import (
	"context"
	"fmt"
	"github.com/helio-energy/helio/internal/money"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/analysis"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// Row is one station (or the total) of a report.
type Row struct {
	Name     string
	Currency string
	Total    analysis.Totals
	KPIs     analysis.KPIs
	// Points are the station's buckets, on Data.Labels (detail reports and charts).
	Points []analysis.KPIs
}

// Table is an information table (stations, sub-stations, devices).
type Table struct {
	Title   string
	Headers []string
	Rows    [][]any
}

// Data is everything a report file shows, already in its language.
type Data struct {
	Locale    string
	Title     string
	Layout    string
	Period    analysis.Period
	Generated time.Time
	Metrics   []string
	Labels    []string
	Rows      []Row
	Total     Row
	Info      []Table
}

// T translates a report text into the report's language.
func (d *Data) T(key string, args ...any) string { return httpapi.T(d.Locale, key, args...) }

// Builder gathers a report's data through the analysis measurer.
type Builder struct {
	DB      *store.DB
	Measure *analysis.Measurer // its EmissionFactor applies to stations of unlisted countries
}

// chunk is how many stations are measured between progress reports.
const chunk = 10

// Build reads the figures of the selected stations for the period, as user p sees them.
// progress gets the share done (0 to 1).
func (b *Builder) Build(ctx context.Context, p *httpapi.Principal, in Params, per analysis.Period, progress func(float64)) (*Data, error) {
	sts, err := b.selected(ctx, p, in)
	if err != nil {
		return nil, err
	}
	d := &Data{Locale: in.Language, Layout: in.Template, Period: per, Generated: time.Now().UTC(), Metrics: in.Metrics}
	d.Title = d.T("rpt.title", per.First, per.Last)
	all := make([]*analysis.Measured, 0, len(sts))
	for i := 0; i < len(sts); i += chunk {
		part := sts[i:min(i+chunk, len(sts))]
		got, err := b.Measure.Stations(ctx, part, per)
		if err != nil {
			return nil, err
		}
		for _, st := range part {
			ms := got[st.ID]
			all = append(all, ms)
			row := Row{Name: st.Name, Currency: st.Currency, Total: ms.Total, KPIs: analysis.Compute(ms.Total, st.Site)}
			for _, bt := range ms.Buckets {
				row.Points = append(row.Points, analysis.Compute(bt, st.Site))
			}
			d.Rows = append(d.Rows, row)
		}
		if progress != nil {
			progress(float64(i+len(part)) / float64(len(sts)))
		}
	}
	fleet := analysis.Combine(all)
	site := analysis.FleetSite(sts)
	d.Labels = fleet.Labels
	d.Total = Row{Name: d.T("rpt.total"), Total: fleet.Total, KPIs: analysis.Compute(fleet.Total, site)}
	// the total's revenue: in the organisation's base currency, each station's buckets at
	// their months' rates, when every currency has a rate; else one currency's own
	book, err := money.Load(ctx, b.DB, p.OrgID)
	if err != nil {
		return nil, err
	}
	byID := measuredByID(sts, all)
	if base := analysis.BaseRevenue(book, sts, byID, per); len(sts) > 0 && len(base.Unconverted) == 0 {
		v := base.Amount
		d.Total.KPIs.Revenue, d.Total.Currency = &v, base.Currency
	} else if rev := analysis.Revenues(sts, byID); len(rev) == 1 {
		v := rev[0].Amount
		d.Total.KPIs.Revenue, d.Total.Currency = &v, rev[0].Currency
	}
	for _, bt := range fleet.Buckets {
		d.Total.Points = append(d.Total.Points, analysis.Compute(bt, site))
	}
	if err := b.info(ctx, p, in, sts, d); err != nil {
		return nil, err
	}
	return d, nil
}

func measuredByID(sts []analysis.Station, all []*analysis.Measured) map[int64]*analysis.Measured {
	out := make(map[int64]*analysis.Measured, len(sts))
	for i, st := range sts {
		out[st.ID] = all[i]
	}
	return out
}

// selected lists the report's stations as the user sees them now (a station taken out of
// their authority since the template was saved is left out, never shown).
func (b *Builder) selected(ctx context.Context, p *httpapi.Principal, in Params) ([]analysis.Station, error) {
	switch in.SelectionMode {
	case "stations":
		all, err := analysis.Stations(ctx, b.DB, p, nil)
		if err != nil {
			return nil, err
		}
		want := map[int64]bool{}
		for _, id := range in.StationIDs {
			want[id] = true
		}
		var out []analysis.Station
		for _, st := range all {
			if want[st.ID] {
				out = append(out, st)
			}
		}
		return out, nil
	case "tag":
		rows, err := b.DB.Query(ctx, "SELECT station_id FROM station_tag_links WHERE tag_id = ?", in.TagID)
		if err != nil {
			return nil, fmt.Errorf("report: unable to read tag: %w", err)
		}
		var ids []int64
		for rows.Next() {
			var id int64
			_ = rows.Scan(&id)
			ids = append(ids, id)
		}
		rows.Close()
		all, err := analysis.Stations(ctx, b.DB, p, nil)
		if err != nil {
			return nil, err
		}
		var out []analysis.Station
		for _, st := range all {
			for _, id := range ids {
				if id == st.ID {
					out = append(out, st)
				}
			}
		}
		return out, nil
	}
	return analysis.Stations(ctx, b.DB, p, nil)
}

// info adds the station, sub-station and device tables asked for.
func (b *Builder) info(ctx context.Context, p *httpapi.Principal, in Params, sts []analysis.Station, d *Data) error {
	if len(sts) == 0 || !(in.StationInfo || in.SubsystemInfo || in.DeviceInfo) {
		return nil
	}
	ids := make([]any, len(sts))
	for i, st := range sts {
		ids[i] = st.ID
	}
	ph := strings.TrimSuffix(strings.Repeat("?,", len(ids)), ",")
	where, args := station.Scope(p)
	// translate maps coded columns (station type, system type, device type) to their names
	var translate map[int]string
	query := func(t Table, q string, qargs ...any) error {
		defer func() { translate = nil }()
		rows, err := b.DB.Query(ctx, q, qargs...)
		if err != nil {
			return fmt.Errorf("report: unable to read %s: %w", t.Title, err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				return err
			}
			for i, v := range vals {
				if bs, ok := v.([]byte); ok {
					v = string(bs)
					vals[i] = v
				}
				if prefix, ok := translate[i]; ok {
					vals[i] = d.T(prefix + fmt.Sprint(v))
				}
			}
			t.Rows = append(t.Rows, vals)
		}
		d.Info = append(d.Info, t)
		return rows.Err()
	}
	if in.StationInfo {
		t := Table{Title: d.T("rpt.stationInfo"), Headers: []string{d.T("col.name"), d.T("col.location"), d.T("col.capacity"),
			d.T("rpt.timezone"), d.T("col.stationType"), d.T("col.systemType"), d.T("col.currency"), d.T("col.gridDate")}}
		translate = map[int]string{4: "stationType.", 5: "systemType."}
		if err := query(t, `SELECT s.name, s.location, s.capacity_kwp, s.timezone, s.station_type, s.system_type, s.currency, s.grid_date
			FROM stations s WHERE s.id IN (`+ph+`) AND `+where+` ORDER BY s.name`, append(append([]any{}, ids...), args...)...); err != nil {
			return err
		}
	}
	if in.SubsystemInfo {
		t := Table{Title: d.T("rpt.subsystemInfo"), Headers: []string{d.T("col.name"), d.T("col.parent"), d.T("col.capacity"), d.T("rpt.timezone")}}
		if err := query(t, `SELECT s.name, ps.name, s.capacity_kwp, s.timezone FROM stations s JOIN stations ps ON ps.id = s.parent_id
			WHERE s.parent_id IN (`+ph+`) AND `+where+` ORDER BY ps.name, s.name`, append(append([]any{}, ids...), args...)...); err != nil {
			return err
		}
	}
	if in.DeviceInfo {
		t := Table{Title: d.T("rpt.deviceInfo"), Headers: []string{d.T("col.name"), d.T("col.sn"), d.T("col.deviceType"),
			d.T("col.station"), d.T("col.ratedKw"), d.T("col.capacity")}}
		translate = map[int]string{2: "deviceType."}
		if err := query(t, `SELECT d.name, d.sn, d.type, s.name, d.rated_power_kw, d.component_capacity_kwp FROM devices d
			JOIN stations s ON s.id = d.station_id WHERE (s.id IN (`+ph+`) OR s.parent_id IN (`+ph+`)) AND `+where+` ORDER BY s.name, d.name`,
			append(append(append([]any{}, ids...), ids...), args...)...); err != nil {
			return err
		}
	}
	return nil
}
