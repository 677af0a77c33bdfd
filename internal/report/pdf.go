package report

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/signintech/gopdf"
)

// page geometry (A4 landscape, points)
const (
	pageW, pageH = 842.0, 595.0
	margin       = 36.0
	rowH         = 14.0
)

type pdfDoc struct {
	gopdf.GoPdf
	y float64
}

// WritePDF writes the report as a PDF with the font embedded (the used glyphs only): title,
// two bar charts (energy per bucket for all stations, specific yield per station), the
// summary table, the buckets of all stations together (detail layout) and the information
// tables.
func WritePDF(w io.Writer, d *Data) error {
	paths, err := FontPaths()
	if err != nil {
		return err
	}
	p := &pdfDoc{}
	p.Start(gopdf.Config{PageSize: gopdf.Rect{W: pageW, H: pageH}})
	p.SetInfo(gopdf.PdfInfo{Title: d.Title, Producer: "Helio"})
	for i, path := range paths {
		if err := p.AddTTFFont(fontFamilies[i], path); err != nil {
			return fmt.Errorf("report: font %s: %w", path, err)
		}
	}
	p.newPage()
	p.text(d.Title, 18, margin, 0)
	p.y += 26
	p.text(d.T("rpt.period")+": "+d.Period.First+" – "+d.Period.Last+"    "+d.T("rpt.generated")+": "+d.Generated.Format("2006-01-02 15:04 UTC"), 9, margin, 0)
	p.y += 22
	energy := make([]float64, len(d.Labels))
	for i := range d.Labels {
		if i < len(d.Total.Points) {
			energy[i] = d.Total.Points[i].YieldKWh
		}
	}
	p.barChart(d.T("rpt.chart.energy"), "kWh", d.Labels, energy, 150)
	var names []string
	var sy []float64
	for _, r := range d.Rows {
		if len(names) == 40 {
			break
		}
		names = append(names, r.Name)
		if r.KPIs.SpecificYield != nil {
			sy = append(sy, *r.KPIs.SpecificYield)
		} else {
			sy = append(sy, 0)
		}
	}
	p.barChart(d.T("rpt.chart.specificYield"), "kWh/kWp", names, sy, 150)

	p.table(d.T("rpt.sheet.summary"), d.headers(d.T("col.station")), d.summaryRows())
	if d.Layout == "detail" {
		var rows [][]any
		for i, l := range d.Labels {
			if i < len(d.Total.Points) {
				rows = append(rows, append([]any{l}, d.values(d.Total.Points[i])...))
			}
		}
		p.table(d.T("rpt.sheet.detail"), append([]string{d.T("rpt.bucket")}, d.headers("")[1:]...), rows)
	}
	for _, t := range d.Info {
		p.table(t.Title, t.Headers, t.Rows)
	}
	_, err = p.WriteTo(w)
	return err
}

func (p *pdfDoc) newPage() {
	p.AddPage()
	p.y = margin
}

// need starts a new page unless h points are left.
func (p *pdfDoc) need(h float64) {
	if p.y+h > pageH-margin {
		p.newPage()
	}
}

// text writes s at (x, y) in size pt, cut to fit maxW when maxW > 0.
func (p *pdfDoc) text(s string, size, x, maxW float64) { p.write(s, size, x, p.y, maxW) }

// width measures s in size pt across its fonts.
func (p *pdfDoc) width(s string, size float64) float64 {
	var w float64
	for _, r := range runs(s) {
		_ = p.SetFont(fontFamilies[r.font], "", size)
		m, _ := p.MeasureTextWidth(r.text)
		w += m
	}
	return w
}

// write draws s at (x, y), each run in its font, cut to maxW (> 0).
func (p *pdfDoc) write(s string, size, x, y, maxW float64) {
	if maxW > 0 && p.width(s, size) > maxW {
		rs := []rune(s)
		for len(rs) > 1 && p.width(string(rs)+"…", size) > maxW {
			rs = rs[:len(rs)-1]
		}
		s = string(rs) + "…"
	}
	for _, r := range runs(s) {
		_ = p.SetFont(fontFamilies[r.font], "", size)
		p.SetXY(x, y)
		_ = p.Cell(nil, r.text)
		m, _ := p.MeasureTextWidth(r.text)
		x += m
	}
}

// barChart draws labelled bars with a zero-based axis of nice ticks.
func (p *pdfDoc) barChart(title, unit string, labels []string, values []float64, h float64) {
	p.need(h + 40)
	p.SetTextColor(0x1d, 0x21, 0x29)
	p.text(title+" ("+unit+")", 11, margin, 0)
	p.y += 18
	top := p.y
	left, width := margin+50, pageW-2*margin-50
	hi := 0.0
	for _, v := range values {
		hi = math.Max(hi, v)
	}
	step := niceStep(hi / 4)
	axisMax := step * math.Ceil(hi/step)
	if axisMax <= 0 {
		axisMax = 1
	}
	p.SetLineWidth(0.3)
	p.SetStrokeColor(0xe5, 0xe6, 0xeb)
	for v := 0.0; v <= axisMax+step/2; v += step {
		y := top + h - v/axisMax*h
		p.Line(left, y, left+width, y)
		p.SetTextColor(0x86, 0x90, 0x9c)
		p.write(strconv.FormatFloat(v, 'f', -1, 64), 7, margin, y-4, 0)
	}
	if n := len(values); n > 0 {
		slot := width / float64(n)
		every := int(math.Ceil(float64(n) / 16))
		for i, v := range values {
			bh := math.Max(0, v/axisMax*h)
			p.SetFillColor(0x16, 0x5d, 0xff) // text shares the fill colour: set it per bar
			p.RectFromUpperLeftWithStyle(left+float64(i)*slot+slot*0.15, top+h-bh, slot*0.7, bh, "F")
			if i%every == 0 {
				p.SetTextColor(0x4e, 0x59, 0x69)
				p.write(labels[i], 6, left+float64(i)*slot, top+h+3, slot*float64(every)-2)
			}
		}
	}
	p.SetTextColor(0x1d, 0x21, 0x29)
	p.y = top + h + 22
}

func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*mag {
			return m * mag
		}
	}
	return 10 * mag
}

// table draws a titled table, its header repeated on every page.
func (p *pdfDoc) table(title string, headers []string, rows [][]any) {
	p.need(rowH*3 + 20)
	p.y += 6
	p.text(title, 11, margin, 0)
	p.y += 18
	// the first column (names) gets twice the others' width
	colW := (pageW - 2*margin) / float64(len(headers)+1)
	colX := func(i int) float64 {
		if i == 0 {
			return margin
		}
		return margin + float64(i+1)*colW
	}
	colWidth := func(i int) float64 {
		if i == 0 {
			return 2*colW - 4
		}
		return colW - 4
	}
	header := func() {
		p.SetFillColor(0xf2, 0xf3, 0xf5)
		p.RectFromUpperLeftWithStyle(margin, p.y-2, pageW-2*margin, rowH, "F")
		for i, h := range headers {
			p.text(h, 7, colX(i)+2, colWidth(i))
		}
		p.y += rowH
	}
	header()
	for _, r := range rows {
		if p.y+rowH > pageH-margin {
			p.newPage()
			header()
		}
		for i, c := range r {
			p.text(pdfCell(c), 7, colX(i)+2, colWidth(i))
		}
		p.y += rowH
	}
}

func pdfCell(c any) string {
	switch v := c.(type) {
	case nil:
		return "–"
	case float64:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return fmt.Sprint(c)
}
