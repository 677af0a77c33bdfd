package importer

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// sunnyExport writes days of 5-minute history for the fleet as Sunny Explorer does:
// UTF-16 with its byte-order mark, the multi-row header, a decimal comma, local times in the
// format the header states. It answers the file and the samples it holds, in time order.
func (f *fleet) sunnyExport(from time.Time, days int, timeFormat, goLayout string) ([]byte, []telemetry.Sample) {
	var b strings.Builder
	b.WriteString("sep=;\r\nVersion CSV1|Tool SE|Linebreaks CR/LF|Delimiter semicolon|Decimalpoint comma|Precision 3\r\n\r\n")
	row := func(cell func(i int) string) {
		for i := range f.sns {
			fmt.Fprintf(&b, ";%s;%s", cell(i), cell(i))
		}
		b.WriteString("\r\n")
	}
	row(func(i int) string { return "SN: " + f.sns[i] })
	row(func(int) string { return "SB 4000TL-21" })
	row(func(i int) string { return f.sns[i] })
	b.WriteString(strings.Repeat(";Gesamtertrag;Leistung", len(f.sns)) + "\r\n")
	b.WriteString(strings.Repeat(";Counter;Analog", len(f.sns)) + "\r\n")
	b.WriteString(timeFormat + strings.Repeat(";kWh;kW", len(f.sns)) + "\r\n")
	loc, _ := time.LoadLocation("Europe/Berlin")
	counter := []float64{1000, 2000, 3000}
	var out []telemetry.Sample
	for t := from; t.Before(from.AddDate(0, 0, days)); t = t.Add(5 * time.Minute) {
		lt := t.In(loc)
		h := float64(lt.Hour()) + float64(lt.Minute())/60
		sun := math.Max(0, math.Sin((h-6)/14*math.Pi))
		b.WriteString(lt.Format(goLayout))
		for i, id := range f.devs {
			kw := math.Round(sun*4000*(1-0.1*float64(i))) / 1000
			counter[i] = math.Round((counter[i]+kw*5/60)*1000) / 1000
			comma := func(x float64) string { return strings.Replace(fmt.Sprintf("%.3f", x), ".", ",", 1) }
			fmt.Fprintf(&b, "; %s; %s", comma(counter[i]), comma(kw))
			s := telemetry.Sample{DeviceID: id, Time: t, PowerKW: kw, EnergyKWh: counter[i]}
			if kw > 0 {
				s.Status = telemetry.StatusRunning
			}
			out = append(out, s)
		}
		b.WriteString("\r\n")
	}
	text := utf16.Encode([]rune(b.String()))
	raw := bytes.NewBuffer([]byte{0xFF, 0xFE})
	for _, u := range text {
		raw.WriteByte(byte(u))
		raw.WriteByte(byte(u >> 8))
	}
	return raw.Bytes(), out
}

func TestSunnyExplorerReadsAsLongTable(t *testing.T) {
	f := &fleet{devs: []int64{1, 2, 3}, sns: []string{"2130000001", "2130000002", "2130000003"}}
	from := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	raw, _ := f.sunnyExport(from, 1, "dd.MM.yyyy HH:mm:ss", "02.01.2006 15:04:05")
	rows := readAll(t, mustCSV(t, raw))
	if got := strings.Join(rows[0], "|"); got != "Time|Serial|Counter kWh|Analog kW" {
		t.Fatalf("header %q", got)
	}
	if got := strings.Join(rows[1], "|"); got != "2026-03-10 13:00:00|2130000001| 1000,333| 4,000" {
		t.Errorf("first row %q", got)
	}
	if got := rows[3][1]; got != "2130000003" || len(rows) != 1+3*288 {
		t.Errorf("third row's inverter %q, %d rows", got, len(rows))
	}
	d, err := Detect(mustCSV(t, raw))
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, tpl := range Vendors {
		if tpl.Key == "" || keys[tpl.Key] {
			t.Errorf("%s: key %q missing or taken twice", tpl.Name, tpl.Key)
		}
		keys[tpl.Key] = true
		if d.HeaderRow != tpl.Mapping.HeaderRow || !tpl.Mapping.Fits(d.Header) {
			t.Errorf("%s does not fit %v", tpl.Name, d.Header)
		}
		if err := tpl.Mapping.Check(); err != nil {
			t.Errorf("%s: %v", tpl.Name, err)
		}
	}
}

func mustCSV(t *testing.T, raw []byte) RowReader {
	t.Helper()
	rr, err := NewCSV(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return rr
}

func TestSunnyExplorerHeaderIncomplete(t *testing.T) {
	text := "sep=;\nVersion CSV1|Tool SE|Linebreaks CR/LF|Delimiter semicolon|Decimalpoint dot|Precision 3\n\n;Total yield\n;Counter\ndd/MM/yyyy;kWh\n01/05/2016;7510.496\n"
	if _, err := NewCSV(strings.NewReader(text)); err == nil || !strings.Contains(err.Error(), "Sunny Explorer") {
		t.Fatalf("a header without serial numbers: %v", err)
	}
}

func TestDotNetLayouts(t *testing.T) {
	for in, want := range map[string]string{
		"dd.MM.yyyy HH:mm:ss": "02.01.2006 15:04:05",
		"dd/MM/yyyy":          "02/01/2006",
		"MM/dd/yyyy hh:mm tt": "01/02/2006 03:04 PM",
		"yyyy-MM-dd HH:mm":    "2006-01-02 15:04",
		"M/d/yyyy h:mm:ss tt": "1/2/2006 3:04:05 PM",
	} {
		if got := dotNetLayout(in); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

// TestSunnyExplorerImportMatchesLive imports an export of the shipped template's layout, in
// two languages' time formats, and compares every roll-up with the same samples written live.
func TestSunnyExplorerImportMatchesLive(t *testing.T) {
	for _, format := range []struct{ net, layout string }{
		{"dd.MM.yyyy HH:mm:ss", "02.01.2006 15:04:05"},
		{"MM/dd/yyyy hh:mm tt", "01/02/2006 03:04 PM"},
	} {
		t.Run(format.net, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, db *store.DB) {
				ctx := context.Background()
				live := openLike(t, db)
				f, fl := newFleet(t, db), newFleet(t, live)
				loc, _ := time.LoadLocation("Europe/Berlin")
				day := testNow.In(loc).AddDate(0, 0, -3)
				from := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, loc)
				raw, samples := f.sunnyExport(from, 1, format.net, format.layout)
				opt := telemetry.Options{Now: func() time.Time { return testNow }, RollupDelay: -1}
				w := telemetry.NewWriter(db, opt)
				im := &Importer{DB: db, Writer: w, SliceSize: 500}
				p := Plan{OrgID: f.org, Files: []FileRef{{ID: 1, Name: "sunny.csv"}}, Mapping: Vendors[0].Mapping}
				open := func(context.Context, FileRef) (RowReader, int64, error) {
					rr, err := NewCSV(bytes.NewReader(raw))
					return rr, int64(len(raw)), err
				}
				cp, err := im.Run(ctx, p, open, Checkpoint{}, false, nil)
				if err != nil {
					t.Fatal(err)
				}
				if cp.Report.Stored != int64(len(samples)) || cp.Report.RejectedRows != 0 {
					t.Fatalf("report %+v, want %d stored", cp.Report, len(samples))
				}
				writeLive(t, telemetry.NewWriter(live, opt), samples)
				diffFigures(t, figures(t, db), figures(t, live))
				_ = fl
			})
		})
	}
}
