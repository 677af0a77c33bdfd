package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/helio-energy/helio/internal/analysis"
)

// headers are the summary table's column titles.
func (d *Data) headers(first string) []string {
	out := []string{first}
	for _, m := range d.Metrics {
		out = append(out, d.metricTitle(m, d.Total.Currency))
	}
	if d.hasRevenue() {
		out = append(out, d.T("col.currency"))
	}
	return out
}

func (d *Data) hasRevenue() bool {
	for _, m := range d.Metrics {
		if m == "revenue" {
			return true
		}
	}
	return false
}

func (d *Data) metricTitle(m, currency string) string {
	u := analysis.MetricUnit(m, currency)
	if m == "revenue" && u == "" {
		return d.T("rpt.m." + m)
	}
	return d.T("rpt.m."+m) + " (" + u + ")"
}

// values are a row's cells: nil where a figure cannot be computed, then the currency
// when revenue is shown.
func (d *Data) values(k analysis.KPIs) []any {
	out := make([]any, len(d.Metrics), len(d.Metrics)+1)
	for i, m := range d.Metrics {
		if v := analysis.Metric(k, m); v != nil {
			out[i] = *v
		}
	}
	if d.hasRevenue() {
		out = append(out, k.Currency)
	}
	return out
}

// summaryRows are the per-station rows and the total; a revenue cell carries its currency
// in a column of its own when stations differ.
func (d *Data) summaryRows() [][]any {
	rows := make([][]any, 0, len(d.Rows)+1)
	for _, r := range d.Rows {
		rows = append(rows, append([]any{r.Name}, d.values(r.KPIs)...))
	}
	return append(rows, append([]any{d.Total.Name}, d.values(d.Total.KPIs)...))
}

// detailRows are one row per station and bucket.
func (d *Data) detailRows(each func(row []any) error) error {
	for _, r := range append(append([]Row(nil), d.Rows...), d.Total) {
		for i, l := range d.Labels {
			if i >= len(r.Points) {
				break
			}
			if err := each(append([]any{r.Name, l}, d.values(r.Points[i])...)); err != nil {
				return err
			}
		}
	}
	return nil
}

func cellText(c any) string {
	switch v := c.(type) {
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case int64:
		return strconv.FormatInt(v, 10)
	case string:
		if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
			return "'" + v
		}
		return v
	}
	return fmt.Sprint(c)
}

// WriteCSV writes the report as CSV sections (title, summary, detail, information),
// UTF-8 with a byte-order mark so spreadsheet programs read it.
func WriteCSV(w io.Writer, d *Data) error {
	var buf bytes.Buffer
	buf.WriteString("\ufeff")
	cw := csv.NewWriter(&buf)
	row := func(cells ...any) {
		rec := make([]string, len(cells))
		for i, c := range cells {
			rec[i] = cellText(c)
		}
		_ = cw.Write(rec)
	}
	row(d.Title)
	row(d.T("rpt.period"), d.Period.First, d.Period.Last)
	row()
	row(toAny(d.headers(d.T("col.station")))...)
	for _, r := range d.summaryRows() {
		row(r...)
	}
	if d.Layout == "detail" {
		row()
		row(toAny(append([]string{d.T("col.station"), d.T("rpt.bucket")}, d.headers("")[1:]...))...)
		_ = d.detailRows(func(r []any) error { row(r...); return nil })
	}
	for _, t := range d.Info {
		row()
		row(t.Title)
		row(toAny(t.Headers)...)
		for _, r := range t.Rows {
			row(r...)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// WriteXLSX writes the report as a workbook: a summary sheet, a detail sheet (streamed,
// so a year of a hundred stations stays small in memory) and one sheet per information
// table. Numbers are numbers, unrounded.
func WriteXLSX(w io.Writer, d *Data) error {
	f := excelize.NewFile()
	defer f.Close()
	summary := sheetName(d.T("rpt.sheet.summary"))
	if err := f.SetSheetName("Sheet1", summary); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter(summary)
	if err != nil {
		return err
	}
	r := 1
	put := func(sw *excelize.StreamWriter, cells []any) error {
		cell, _ := excelize.CoordinatesToCellName(1, r)
		r++
		return sw.SetRow(cell, cells)
	}
	_ = put(sw, []any{d.Title})
	_ = put(sw, []any{d.T("rpt.period"), d.Period.First, d.Period.Last})
	_ = put(sw, nil)
	_ = put(sw, toAny(d.headers(d.T("col.station"))))
	for _, row := range d.summaryRows() {
		if err := put(sw, row); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	if d.Layout == "detail" {
		name := sheetName(d.T("rpt.sheet.detail"))
		if _, err := f.NewSheet(name); err != nil {
			return err
		}
		if sw, err = f.NewStreamWriter(name); err != nil {
			return err
		}
		r = 1
		_ = put(sw, toAny(append([]string{d.T("col.station"), d.T("rpt.bucket")}, d.headers("")[1:]...)))
		if err := d.detailRows(func(row []any) error { return put(sw, row) }); err != nil {
			return err
		}
		if err := sw.Flush(); err != nil {
			return err
		}
	}
	for _, t := range d.Info {
		name := sheetName(t.Title)
		if _, err := f.NewSheet(name); err != nil {
			return err
		}
		if sw, err = f.NewStreamWriter(name); err != nil {
			return err
		}
		r = 1
		_ = put(sw, toAny(t.Headers))
		for _, row := range t.Rows {
			if err := put(sw, row); err != nil {
				return err
			}
		}
		if err := sw.Flush(); err != nil {
			return err
		}
	}
	return f.Write(w)
}

// sheetName fits a title to Excel's rules (31 characters, none of : \ / ? * [ ]).
func sheetName(s string) string {
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`:\/?*[]`, r) {
			return '-'
		}
		return r
	}, s)
	if rs := []rune(s); len(rs) > 31 {
		s = string(rs[:31])
	}
	return s
}
