package telemetry

import (
	"context"
	"slices"
	"sort"
	"testing"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// A padded IN list reads each row once, in a transaction and outside it, whatever its
// length and order, on both databases.
func TestQueryListPadded(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Exec(ctx, "CREATE TABLE ql (id BIGINT PRIMARY KEY, v BIGINT NOT NULL)"); err != nil {
			t.Fatal(err)
		}
		for i := 1; i <= 40; i++ {
			if _, err := db.Exec(ctx, "INSERT INTO ql (id, v) VALUES (?, ?)", i, i*i); err != nil {
				t.Fatal(err)
			}
		}
		read := func(q querier, ids []int64) []int64 {
			rows, err := queryList(ctx, q, "SELECT id FROM ql WHERE id IN (%s) AND v >= ? ORDER BY id", ids, 4)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var got []int64
			for rows.Next() {
				var id int64
				if err := rows.Scan(&id); err != nil {
					t.Fatal(err)
				}
				got = append(got, id)
			}
			return got
		}
		for n := 1; n <= 33; n++ {
			var ids, want []int64
			for i := n; i >= 1; i-- { // unsorted, and one id beyond the table
				ids = append(ids, int64(i*41%43))
			}
			for _, id := range ids {
				if id >= 2 && id <= 40 {
					want = append(want, id)
				}
			}
			sort.Slice(want, func(i, j int) bool { return want[i] < want[j] })
			if got := read(db, ids); !slices.Equal(got, want) {
				t.Fatalf("%d ids outside a transaction: %v, want %v", n, got, want)
			}
			err := db.InTx(ctx, func(tx *store.Tx) error {
				if got := read(tx, ids); !slices.Equal(got, want) {
					t.Fatalf("%d ids in a transaction: %v, want %v", n, got, want)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	})
}
