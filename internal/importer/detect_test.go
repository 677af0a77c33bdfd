package importer

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func readAll(t *testing.T, rr RowReader) [][]string {
	t.Helper()
	var out [][]string
	for {
		r, err := rr.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, append([]string(nil), r...))
	}
}

func TestCSVDelimitersQuotesAndBOM(t *testing.T) {
	cases := map[string]string{
		"comma":     "\xEF\xBB\xBFtime,sn,power\n2025-01-01 00:05,\"A,1\",1.5\n",
		"semicolon": "sep=;\ntime;sn;power\n2025-01-01 00:05;\"A,1\";1,5\n",
		"tab":       "time\tsn\tpower\n2025-01-01 00:05\t\"A,1\"\t1.5\n",
	}
	for name, text := range cases {
		rr, err := NewCSV(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		rows := readAll(t, rr)
		if len(rows) != 2 || len(rows[0]) != 3 || rows[0][0] != "time" || rows[1][1] != "A,1" {
			t.Errorf("%s: rows %q", name, rows)
		}
	}
}

func TestCSVLineBound(t *testing.T) {
	rr, _ := NewCSV(strings.NewReader("a,b\n\"" + strings.Repeat("x", 2*maxLine)))
	for {
		_, err := rr.Next()
		if err == io.EOF {
			t.Fatal("a 2 MiB line was read whole")
		}
		if err != nil {
			if !errors.Is(err, ErrLineTooLong) {
				t.Fatalf("err %v", err)
			}
			return
		}
	}
}

func TestDetectTimeDayMonth(t *testing.T) {
	// day-first told by a day above 12
	if f, amb := detectTime([]string{"12/01/2025 10:00", "13/01/2025 10:00"}); f != "02/01/2006 15:04" || amb {
		t.Errorf("day-first: %q %v", f, amb)
	}
	// month-first told by the series: 01/12 → 01/13 steps a day only month-first
	if f, _ := detectTime([]string{"01/12/2025 23:55", "01/13/2025 00:00"}); f != "01/02/2006 15:04" {
		t.Errorf("month-first: %q", f)
	}
	// series of days within one month: 03/04 then 04/04 is a day-first step
	if f, amb := detectTime([]string{"03/04/2025 23:55", "04/04/2025 00:00"}); f != "02/01/2006 15:04" || amb {
		t.Errorf("series: %q %v", f, amb)
	}
	if f, _ := detectTime([]string{"2025-01-02T03:04:05+08:00"}); f != TimeRFC {
		t.Errorf("rfc: %q", f)
	}
	if f, _ := detectTime([]string{"1735689600"}); f != TimeUnix {
		t.Errorf("unix: %q", f)
	}
	if f, _ := detectTime([]string{"1735689600000"}); f != TimeUnixM {
		t.Errorf("unix ms: %q", f)
	}
	if f, _ := detectTime([]string{"2025-01-02 03:04"}); f != "2006-01-02 15:04" {
		t.Errorf("plain: %q", f)
	}
}

func TestDetectColumnsUnitsAndEnergyKind(t *testing.T) {
	text := "Export of site\n" +
		"Timestamp,Inverter SN,AC Power (W),Yield (Wh),Total Yield (kWh),Temperature\n"
	for i, v := range []string{"0", "500", "800", "300", "0"} {
		text += "2025-01-02 10:0" + string(rune('0'+i)) + ",INV-1," + v + "," + v + ",100" + string(rune('0'+i)) + ",30\n"
	}
	rr, _ := NewCSV(strings.NewReader(text))
	d, err := Detect(rr)
	if err != nil {
		t.Fatal(err)
	}
	if d.HeaderRow != 1 || d.TimeFormat != "2006-01-02 15:04" {
		t.Fatalf("header %d format %q", d.HeaderRow, d.TimeFormat)
	}
	want := []DetectedColumn{{"Timestamp", "time", "", ""}, {"Inverter SN", "device", "", ""},
		{"AC Power (W)", FieldPower, "W", ""}, {"Yield (Wh)", FieldEnergy, "Wh", EnergyInterval},
		{"Total Yield (kWh)", FieldEnergy, "kWh", EnergyCounter}, {"Temperature", FieldTemp, "", ""}}
	for i, w := range want {
		if d.Columns[i] != w {
			t.Errorf("column %d: %+v, want %+v", i, d.Columns[i], w)
		}
	}
	if d.Mapping.DeviceColumn != "Inverter SN" || d.Mapping.Match != MatchSerial || d.Mapping.Check() != nil {
		t.Errorf("mapping %+v: %v", d.Mapping, d.Mapping.Check())
	}
}

func TestConvertIntervalBecomesCounterAndZone(t *testing.T) {
	m := Mapping{TimeColumn: "t", TimeFormat: "2006-01-02 15:04", Zone: "Asia/Shanghai", DeviceColumn: "sn", Match: MatchSerial,
		Columns: []Column{{Name: "p", Field: FieldPower, Unit: "W"}, {Name: "e", Field: FieldEnergy, Unit: "Wh", Energy: EnergyInterval}}}
	devs := map[string]int64{"A": 1, "B": 2}
	c, err := NewConverter(m, []string{"t", "sn", "p", "e"}, time.UTC, 0, func(k string) (int64, bool) { id, ok := devs[k]; return id, ok })
	if err != nil {
		t.Fatal(err)
	}
	c.Base = func(dev int64, _ time.Time) [2]float64 { return [2]float64{float64(dev) * 1000, 0} }
	var got []float64
	for _, r := range [][]string{{"2025-01-02 08:05", "A", "1000", "100"}, {"2025-01-02 08:05", "B", "2000", "200"},
		{"2025-01-02 08:10", "A", "1500", "1,5"}, {"2025-01-02 08:15", "A", "0", ""}} {
		s, reason, _ := c.Convert(r)
		if reason != "" || len(s) != 1 {
			t.Fatalf("%q: %q %v", r, reason, s)
		}
		got = append(got, s[0].EnergyKWh)
		if !s[0].Time.Equal(time.Date(2025, 1, 2, 0, 5, 0, 0, time.UTC)) && r[0] == "2025-01-02 08:05" {
			t.Errorf("zone: %v", s[0].Time)
		}
	}
	want := []float64{1000.1, 2000.2, 1000.1015, 1000.1015}
	for i := range want {
		if d := got[i] - want[i]; d > 1e-9 || d < -1e-9 {
			t.Errorf("counters %v, want %v", got, want)
			break
		}
	}
	for r, reason := range map[string]string{"x,A,1,1": ReasonBadTime, "2025-01-02 08:20,C,1,1": ReasonUnknownDevice,
		"2025-01-02 08:20,A,abc,1": ReasonNotNumber, "2025-01-02 08:20": ReasonNoDevice, "2025-01-02 08:20,,1,1": ReasonNoDevice} {
		if _, got, _ := c.Convert(strings.Split(r, ",")); got != reason {
			t.Errorf("%q: %q, want %q", r, got, reason)
		}
	}
}

// A line of maxLine bytes is read; one byte more fails, wherever the reads cut it.
func TestLineLimitAcrossReads(t *testing.T) {
	long := strings.Repeat("x", maxLine)
	for _, tc := range []struct {
		name string
		text string
		fail bool
	}{
		{"at the limit", "a\n" + long + "\nb\n", false},
		{"at the limit, last line", "a\n" + long, false},
		{"one over", "a\n" + long + "x\nb\n", true},
		{"one over, first line", long + "x\n", true},
		{"short lines", strings.Repeat("abc,def\n", 100_000), false},
	} {
		for _, chunk := range []int{1, 7, 4096, 3 << 20} {
			lr := &limitedLines{r: bufio.NewReaderSize(&chunked{s: tc.text, n: chunk}, 16)}
			buf := make([]byte, 4<<20) // bufio hands reads this large straight through
			var err error
			for err == nil {
				_, err = lr.Read(buf)
			}
			if got := errors.Is(err, ErrLineTooLong); got != tc.fail {
				t.Errorf("%s, reads of %d: too long %v, want %v (%v)", tc.name, chunk, got, tc.fail, err)
			}
		}
	}
}

// chunked answers at most n bytes per read.
type chunked struct {
	s string
	n int
}

func (c *chunked) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.s)
	c.s = c.s[k:]
	return k, nil
}
