package importer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// writeXLSX writes rows (a title row first, as portal reports have) to a workbook through
// excelize's stream writer: times as date cells, numbers as numbers.
func writeXLSX(t *testing.T, path string, rows [][]any) {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := sw.SetRow(cell, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
}

// TestXLSXImport: a workbook with a title row, a header and per-interval energy is read row
// by row, detected and imported through the stored file (uploaded, copied to a temporary
// file, removed after).
func TestXLSXImport(t *testing.T) {
	db := storetest.SQLite(t)
	f := newFleet(t, db)
	rows := [][]any{{"Plant report"}, {"Time", "Device SN", "Power (kW)", "Energy (kWh)"}}
	from := time.Date(2026, 3, 17, 8, 0, 0, 0, time.UTC)
	for i := 0; i < 48; i++ {
		at := from.Add(time.Duration(i) * 5 * time.Minute)
		for d, sn := range f.sns {
			p := 2 + float64((i*7+d)%5)
			rows = append(rows, []any{at.Format("2006-01-02 15:04"), sn, p, p / 12})
		}
	}
	path := filepath.Join(t.TempDir(), "report.xlsx")
	writeXLSX(t, path, rows)
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	ctx := context.Background()
	file, err := SaveFile(ctx, db, f.org, 1, "report.xlsx", in)
	if err != nil || file.Kind != "xlsx" {
		t.Fatalf("upload: %+v %v", file, err)
	}
	rr, err := OpenFile(ctx, db, file)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Detect(rr)
	tmp := rr.(*removeOnClose).path
	rr.Close()
	if _, serr := os.Stat(tmp); !os.IsNotExist(serr) {
		t.Errorf("the temporary copy %s was kept", tmp)
	}
	if err != nil {
		t.Fatal(err)
	}
	if d.HeaderRow != 1 || d.TimeFormat != "2006-01-02 15:04" || d.Mapping.DeviceColumn != "Device SN" || len(d.Mapping.Columns) != 2 ||
		d.Mapping.Columns[1].Energy != EnergyInterval {
		t.Fatalf("detection: %+v", d)
	}
	d.Mapping.Zone = "UTC"
	w := telemetry.NewWriter(db, telemetry.Options{Now: func() time.Time { return testNow }, RollupDelay: -1})
	im := &Importer{DB: db, Writer: w}
	cp, err := im.Run(ctx, Plan{OrgID: f.org, Files: []FileRef{{ID: file.ID, Name: file.Name}}, Mapping: d.Mapping}, DBOpener(db, f.org), Checkpoint{}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cp.Report.Stored != 48*3 || cp.Report.RejectedRows != 0 {
		t.Fatalf("report %+v", cp.Report)
	}
	latest, err := telemetry.NewReader(db, telemetry.Options{}).Latest(ctx, f.devs)
	if err != nil {
		t.Fatal(err)
	}
	last := from.Add(47 * 5 * time.Minute)
	if s := latest[f.devs[0]]; !s.Time.Equal(last) || s.PowerKW == 0 || !strings.Contains(d.Rows[0][0], "2026-03-17") {
		t.Errorf("latest %+v, first row %q", s, d.Rows[0])
	}
}
