package importer

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// TestBadRowsNamedAndNotStored: each bad row is named with its reason in the report, in a
// dry run as in the import, and nothing of it is stored; the good rows are.
func TestBadRowsNamedAndNotStored(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFleet(t, db)
		w := telemetry.NewWriter(db, telemetry.Options{Now: func() time.Time { return testNow }, RollupDelay: -1})
		text := "time,sn,power (kW),total energy (kWh)\n" + // row 1
			"2026-03-19T10:00:00Z,INV-1,5,100\n" + // 2
			"2026-03-19T10:05:00Z,INV-1,5,100.4\n" + // 3
			"19/03/2026 10:10,INV-1,5,100.8\n" + // 4: not the file's time format
			"2026-03-19T10:15:00Z,NOPE-9,5,101\n" + // 5: unknown device
			"2026-03-19T10:20:00Z,INV-1,five,101.2\n" + // 6: not a number
			"2026-03-19T10:25:00Z,INV-1,900,101.6\n" + // 7: beyond the rated power
			"2026-03-19T10:30:00Z,INV-1,5,-3\n" + // 8: a negative counter
			"2026-03-19T10:35:00Z,,5,102\n" + // 9: no device
			"2026-03-19T10:40:00Z,INV-1,5,102.4\n" // 10
		want := map[int64]string{4: ReasonBadTime, 5: ReasonUnknownDevice, 6: ReasonNotNumber, 7: telemetry.ReasonPower,
			8: telemetry.ReasonNegative, 9: ReasonNoDevice}
		rr, _ := NewCSV(stringsReader(text))
		d, err := Detect(rr)
		if err != nil {
			t.Fatal(err)
		}
		if d.TimeFormat != TimeRFC {
			t.Fatalf("format %q", d.TimeFormat)
		}
		im := &Importer{DB: db, Writer: w, SliceSize: 4}
		p := Plan{OrgID: f.org, Files: []FileRef{{ID: 1, Name: "bad.csv"}}, Mapping: d.Mapping}
		for _, dry := range []bool{true, false} {
			cp, err := im.Run(ctx, p, csvOpener(map[int64]string{1: text}), Checkpoint{}, dry, nil)
			if err != nil {
				t.Fatal(err)
			}
			rep := cp.Report
			if rep.Rows != 9 || rep.RejectedRows != 6 || rep.Stored != 3 || len(rep.Rejects) != 6 {
				t.Fatalf("dry %v: report %+v", dry, rep)
			}
			for _, r := range rep.Rejects {
				if want[r.Row] != r.Reason || r.File != "bad.csv" {
					t.Errorf("dry %v: row %d rejected for %s, want %q", dry, r.Row, r.Reason, want[r.Row])
				}
			}
			if rep.Rejects[2].Column != "power (kW)" {
				t.Errorf("not a number: column %q", rep.Rejects[2].Column)
			}
			var n int64
			if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM telemetry_samples").Scan(&n); err != nil {
				t.Fatal(err)
			}
			if dry && n != 0 || !dry && n != 3 {
				t.Errorf("dry %v: %d raw samples stored", dry, n)
			}
		}
		// nothing of the rejected rows: no sample at their instants, the counter never -3
		var bad int64
		if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM telemetry_samples WHERE ts IN (?, ?, ?) OR energy_kwh < 0",
			time.Date(2026, 3, 19, 10, 25, 0, 0, time.UTC).UnixMilli(), time.Date(2026, 3, 19, 10, 30, 0, 0, time.UTC).UnixMilli(),
			time.Date(2026, 3, 19, 10, 20, 0, 0, time.UTC).UnixMilli()).Scan(&bad); err != nil {
			t.Fatal(err)
		}
		if bad != 0 {
			t.Errorf("%d samples of rejected rows stored", bad)
		}
	})
}

// TestDryRunAfterImport: a dry run of a file already imported would store nothing.
func TestDryRunAfterImport(t *testing.T) {
	db := storetest.SQLite(t)
	f := newFleet(t, db)
	w := telemetry.NewWriter(db, telemetry.Options{Now: func() time.Time { return testNow }, RollupDelay: -1})
	loc, _ := time.LoadLocation("Europe/Berlin")
	text, samples := f.history(time.Date(2026, 3, 16, 0, 0, 0, 0, loc), 1)
	importFile(t, db, f, w, text, 1000)
	rr, _ := NewCSV(stringsReader(text))
	d, _ := Detect(rr)
	im := &Importer{DB: db, Writer: w}
	cp, err := im.Run(context.Background(), Plan{OrgID: f.org, Files: []FileRef{{ID: 1, Name: "h.csv"}}, Mapping: d.Mapping},
		csvOpener(map[int64]string{1: text}), Checkpoint{}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := cp.Report; r.Stored != 0 || r.Overlapping != int64(len(samples)) {
		t.Errorf("dry run after the import: %+v", r)
	}
}
