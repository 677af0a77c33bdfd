package export

import (
	"bytes"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

func TestCSVAndXLSX(t *testing.T) {
	headers := []string{"Name", "kWh"}
	rows := [][]any{{"=HYPERLINK(\"x\")", 12.5}, {"Plant \"A\", east", nil}, {"电站", 3.0}}
	rec := httptest.NewRecorder()
	Write(rec, httptest.NewRequest("GET", "/", nil), "csv", "stations", headers, rows)
	body := rec.Body.String()
	if !strings.HasPrefix(body, "\ufeffName,kWh\n") || !strings.Contains(body, `'=HYPERLINK(""x"")`) ||
		!strings.Contains(body, `"Plant ""A"", east",`) || !strings.Contains(body, "电站,3") {
		t.Fatalf("csv:\n%s", body)
	}
	if cd := rec.Header().Get("Content-Disposition"); !strings.Contains(cd, `filename="stations-`) || !strings.HasSuffix(cd, `.csv"`) {
		t.Fatalf("disposition %q", cd)
	}
	rec = httptest.NewRecorder()
	Write(rec, httptest.NewRequest("GET", "/", nil), "xlsx", "devices", headers, rows)
	f, err := excelize.OpenReader(bytes.NewReader(rec.Body.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := f.GetRows(f.GetSheetName(0))
	if len(got) != 4 || got[1][0] != `=HYPERLINK("x")` || got[3][0] != "电站" || got[1][1] != "12.5" {
		t.Fatalf("xlsx rows %q", got)
	}
	if fm, _ := f.GetCellFormula(f.GetSheetName(0), "A2"); fm != "" {
		t.Fatalf("a string became a formula: %q", fm)
	}
}

func TestCSVNumbersInPlainDecimals(t *testing.T) {
	for v, want := range map[any]string{8.1e6: "8100000", 12345678.25: "12345678.25", 0.000125: "0.000125", float32(2.5e7): "25000000", int64(9e15): "9000000000000000"} {
		if got := csvCell(v); got != want {
			t.Errorf("csvCell(%v) = %q, want %q", v, got, want)
		}
	}
}
