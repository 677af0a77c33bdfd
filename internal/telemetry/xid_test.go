package telemetry

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store/storetest"
)

func TestParseSnapshot(t *testing.T) {
	sn, err := ParseSnapshot("100:105:100,103")
	if err != nil {
		t.Fatal(err)
	}
	if sn.Xmin != 100 || sn.Xmax != 105 || !slices.Equal(sn.InProgress, []uint64{100, 103}) {
		t.Fatalf("parsed %+v", sn)
	}
	for xid, want := range map[uint64]bool{99: true, 100: false, 101: true, 103: false, 104: true, 105: false, 200: false} {
		if got := sn.Sees(xid); got != want {
			t.Errorf("Sees(%d) = %v, want %v", xid, got, want)
		}
	}
	if sn, err := ParseSnapshot("7:7:"); err != nil || sn.Sees(7) || !sn.Sees(6) {
		t.Fatalf("7:7: parsed %+v, %v", sn, err)
	}
	for _, bad := range []string{"", "1:2", "a:2:", "1:b:", "1:2:x", "1:2:3:4"} {
		if _, err := ParseSnapshot(bad); err == nil {
			t.Errorf("ParseSnapshot(%q) took it", bad)
		}
	}
}

// A change committed after a snapshot was taken is not in it, one committed before is, as
// PostgreSQL itself says (pg_visible_in_snapshot); SQLite changes carry no transaction.
func TestChangeTransactionIDs(t *testing.T) {
	ctx := context.Background()
	t.Run("sqlite", func(t *testing.T) {
		db := storetest.SQLite(t)
		f := newFixture(t, db)
		w := NewWriter(db, Options{})
		w.RecordTransactionIDs()
		var got []Change
		w.OnChange(func(c Change) { got = append(got, c) })
		if _, err := w.Write(ctx, "test", []Sample{{DeviceID: f.inv1, Time: time.Now(), PowerKW: 1, EnergyKWh: 1, Status: 1}}); err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Xid != 0 {
			t.Fatalf("changes %+v, want one without a transaction", got)
		}
	})
	t.Run("postgres", func(t *testing.T) {
		db := storetest.Postgres(t)
		f := newFixture(t, db)
		w := NewWriter(db, Options{})
		var got []Change
		w.OnChange(func(c Change) { got = append(got, c) })
		at := time.Now().Add(-time.Hour)
		write := func() uint64 {
			t.Helper()
			at = at.Add(5 * time.Minute)
			got = got[:0]
			if _, err := w.Write(ctx, "test", []Sample{{DeviceID: f.inv1, Time: at, PowerKW: 1, EnergyKWh: float64(at.Unix() % 1000), Status: 1}}); err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 {
				t.Fatalf("%d changes told", len(got))
			}
			return got[0].Xid
		}
		if x := write(); x != 0 {
			t.Fatalf("transaction %d told before RecordTransactionIDs", x)
		}
		w.RecordTransactionIDs()
		before := write()
		tx, err := db.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		var text string
		if err := tx.QueryRow(ctx, "SELECT CAST(pg_current_snapshot() AS TEXT)").Scan(&text); err != nil {
			t.Fatal(err)
		}
		sn, err := ParseSnapshot(text)
		if err != nil {
			t.Fatal(err)
		}
		after := write()
		if before == 0 || after <= before {
			t.Fatalf("transactions %d then %d", before, after)
		}
		for _, c := range []struct {
			xid  uint64
			want bool
		}{{before, true}, {after, false}} {
			var pg bool
			if err := tx.QueryRow(ctx, "SELECT pg_visible_in_snapshot(CAST(CAST(? AS TEXT) AS xid8), CAST(? AS pg_snapshot))", strconv.FormatUint(c.xid, 10), text).Scan(&pg); err != nil {
				t.Fatal(err)
			}
			if sn.Sees(c.xid) != c.want || pg != c.want {
				t.Errorf("transaction %d in snapshot %s: Sees %v, PostgreSQL %v, want %v", c.xid, text, sn.Sees(c.xid), pg, c.want)
			}
		}
		// the snapshot's reads do not see the later write
		var n int
		if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM telemetry_latest WHERE device_id = ? AND ts = ?", f.inv1, at.UnixMilli()).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Fatal("the snapshot sees a write committed after it")
		}
	})
}
