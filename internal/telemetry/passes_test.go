package telemetry

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// manyDevices gives n devices beyond the fixture's a latest row each (the passes walk the
// devices of telemetry_latest) and no stored samples.
func manyDevices(t *testing.T, db *store.DB, n int) {
	t.Helper()
	err := db.InTx(context.Background(), func(tx *store.Tx) error {
		b := newBulk(context.Background(), tx, "INSERT INTO telemetry_latest (device_id, "+sampleCols+", received_at) VALUES ", "", 16, 64)
		for i := range n {
			if err := b.add(int64(1_000_000+i), 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 0, nil, 0); err != nil {
				return err
			}
		}
		return b.flush()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The retention pass and the sealer look at devices in batches: over a few thousand
// devices with nothing to do they read a statement per batch, and rest between batches
// (each rest three times its batch's work at a quarter of a core); with work among them
// they do it.
func TestPassesOverManyDevices(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		now := time.Date(2024, 6, 30, 12, 0, 0, 0, time.UTC)
		w := f.writer(Options{Now: clock(now), RawRetention: 10 * 24 * time.Hour, PruneShare: 0.25}, 1<<30)
		var s []Sample
		for at := now.Add(-10 * 24 * time.Hour); at.Before(now); at = at.Add(time.Hour) {
			s = append(s, Sample{DeviceID: f.inv1, Time: at, EnergyKWh: 100 + float64(at.Unix()-now.Unix())/3600/10, PowerKW: 1})
		}
		if _, err := w.Write(ctx, "test", s); err != nil {
			t.Fatal(err)
		}
		const devices = 3000
		manyDevices(t, db, devices)
		batches := (devices + 1 + passBatch - 1) / passBatch
		var rests []time.Duration
		w.pause = func(_ context.Context, d time.Duration) { rests = append(rests, d) }
		var statements []string
		db.Trace = func(q string, _ []any) { statements = append(statements, q) }
		defer func() { db.Trace = nil }()
		pass := func(name string, run func() (int64, error), want int64, wantStatements int) {
			t.Helper()
			rests, statements = nil, nil
			began := time.Now()
			n, err := run()
			took := time.Since(began)
			if err != nil || n != want {
				t.Fatalf("%s: %d (%v), want %d", name, n, err, want)
			}
			var rested time.Duration
			for _, d := range rests {
				rested += d
			}
			if len(rests) != batches-1 || rested > 3*took {
				t.Fatalf("%s: %d rests (%v in all, the pass took %v), want %d", name, len(rests), rested, took, batches-1)
			}
			if len(statements) > wantStatements {
				t.Fatalf("%s: %d reads over %d devices, want %d at most:\n%s", name, len(statements), devices, wantStatements, strings.Join(statements[:5], "\n"))
			}
			t.Logf("%s over %d devices: %d reads, %v", name, devices, len(statements), took)
		}
		seal := func() (int64, error) {
			n, err := w.SealBlocks(ctx)
			return int64(n), err
		}
		// the device list, one read a batch, the list of migration 0190; then what the
		// sealer does for the device with days to seal (two days of rows are recent)
		pass("sealing", seal, 10, 1+batches+1+10)
		pass("sealing with nothing to do", seal, 0, 1+batches+1)
		prune := func() (int64, error) { return w.Prune(ctx) }
		pass("retention with nothing to do", prune, 0, 1+batches)
		later := f.writer(Options{Now: clock(now.Add(5 * 24 * time.Hour)), RawRetention: 10 * 24 * time.Hour, PruneShare: 0.25}, 1<<30)
		later.pause = w.pause
		// the cutoff is 24 June 12:00: the blocks of 20 June (from 12:00) to 23 June
		pass("retention", func() (int64, error) { return later.Prune(ctx) }, 3*24+12, 1+batches)
		checkPowerRows(t, db)
	})
}

// The statements of the passes and of a chart of power over sealed days read index ranges
// (EXPLAIN QUERY PLAN on SQLite; EXPLAIN with sequential scans priced out on PostgreSQL).
func TestPassAndPowerQueriesUseIndexes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		now := time.Date(2024, 6, 30, 12, 0, 0, 0, time.UTC)
		w := f.writer(Options{Now: clock(now), RawRetention: 10 * 24 * time.Hour}, 1<<30)
		var s []Sample
		for at := now.Add(-5 * 24 * time.Hour); at.Before(now); at = at.Add(time.Hour) {
			s = append(s, Sample{DeviceID: f.inv1, Time: at, EnergyKWh: 100 + float64(at.Unix()-now.Unix())/3600/10, PowerKW: 1})
		}
		if _, err := w.Write(ctx, "test", s); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(ctx, "INSERT INTO telemetry_sample_power_todo (device_id) VALUES (?)", f.inv2); err != nil {
			t.Fatal(err)
		}
		type query struct {
			q    string
			args []any
		}
		var seen []query
		db.Trace = func(q string, args []any) { seen = append(seen, query{q, args}) }
		if _, err := w.SealBlocks(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Prune(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := NewReader(db, w.opt).DeviceSeries(ctx, f.inv1, "power", now.Add(-4*24*time.Hour), now.Add(-3*24*time.Hour), Raw); err != nil {
			t.Fatal(err)
		}
		db.Trace = nil
		ids, args := paddedList([]int64{f.inv1, f.inv2, f.meter})
		cutoff := now.Add(-11 * 24 * time.Hour).UnixMilli()
		seen = append(seen, query{"SELECT start_ts, data FROM telemetry_sample_blocks b WHERE device_id = ? AND " + blockPower + " IS NULL", []any{f.inv2}})
		// the retention pass's deletes
		seen = append(seen, query{"DELETE FROM telemetry_samples WHERE device_id = ? AND ts < ?", []any{f.inv1, cutoff}})
		for _, q := range []string{"DELETE FROM telemetry_sample_blocks WHERE device_id IN (%s) AND start_ts < ? AND end_ts <= ?",
			"DELETE FROM telemetry_sample_power WHERE device_id IN (%s) AND start_ts <= ?"} {
			a := append(append([]any(nil), args...), cutoff)
			if strings.Count(q, "?") > 1 {
				a = append(a, cutoff)
			}
			seen = append(seen, query{fmt.Sprintf(q, ids), a})
		}
		var bad []string
		powerRead := false
		for _, q := range seen {
			if strings.HasPrefix(q.q, "SELECT device_id FROM telemetry_latest ORDER BY") || strings.Contains(q.q, "FROM telemetry_sample_power_todo ORDER BY") {
				continue // the device list, whole; the first devices of the list of migration 0190
			}
			powerRead = powerRead || strings.Contains(q.q, "FROM telemetry_sample_power WHERE")
			plan := storetest.Explain(t, db, q.q, q.args)
			if scan := wholeScan(db.Dialect, plan); scan != "" {
				bad = append(bad, fmt.Sprintf("%s\n  reads %s whole:\n%s", strings.Join(strings.Fields(q.q), " "), scan, plan))
			}
		}
		if !powerRead || len(bad) > 0 {
			t.Fatalf("power read %v; %d of %d statements read a table whole:\n\n%s", powerRead, len(bad), len(seen), strings.Join(bad, "\n\n"))
		}
	})
}

var (
	sqliteWhole = regexp.MustCompile(`(?m)^SCAN (\w+)( USING (COVERING )?INDEX \w+)?$`)
	pgWhole     = regexp.MustCompile(`Seq Scan on (\w+)`)
)

// wholeScan names a table the plan reads whole ("" when none).
func wholeScan(d store.Dialect, plan string) string {
	re := sqliteWhole
	if d == store.Postgres {
		re = pgWhole
	}
	if m := re.FindStringSubmatch(plan); m != nil {
		return m[0]
	}
	return ""
}
