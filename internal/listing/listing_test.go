package listing

import (
	"context"
	"database/sql"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

func TestParamsNameEveryProblem(t *testing.T) {
	r := httptest.NewRequest("GET", "/x?page=0&id=-3&ids=1,x&kind=9&state=odd&n=99&from=2026-02-01&to=2026-01-01&q="+strings.Repeat("a", 11), nil)
	p := Read(r)
	p.ID("id")
	p.IDs("ids", 5)
	p.OneOf("kind", 0, 1, 2)
	p.Enum("state", "on", "off")
	p.Int("n", 0, 10, 0)
	p.Range("from", "to", 31)
	p.Text("q", 10)
	err := httpapi.AsError(p.Err())
	if err == nil {
		t.Fatal("no error")
	}
	for _, f := range []string{"page", "id", "ids", "kind", "state", "n", "to", "q"} {
		if _, ok := err.Fields[f]; !ok {
			t.Errorf("%s not named: %v", f, err.Fields)
		}
	}
}

func TestParamsRead(t *testing.T) {
	p := Read(httptest.NewRequest("GET", "/x?page=3&pageSize=20&id=7&ids=1,2&kind=2&from=2026-01-01&to=2026-01-31", nil))
	from, to := p.Range("from", "to", 31)
	if p.ID("id") != 7 || len(p.IDs("ids", 5)) != 2 || p.OneOf("kind", 0, 1, 2) != 2 || p.Page != 3 || p.Size != 20 || p.Err() != nil {
		t.Fatalf("read wrong: %+v %v", p, p.Err())
	}
	if from.Format("2006-01-02") != "2026-01-01" || to.Format("2006-01-02") != "2026-02-01" {
		t.Fatalf("range %v %v", from, to)
	}
	if Read(httptest.NewRequest("GET", "/x?ids=1,2,3", nil)).IDs("ids", 2) != nil {
		t.Fatal("too many ids kept")
	}
}

func TestRunPagesAndCounts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Exec(ctx, "CREATE TABLE listing_probe (id INTEGER PRIMARY KEY, kind INTEGER NOT NULL)"); err != nil {
			t.Fatal(err)
		}
		for i := 1; i <= 25; i++ {
			if _, err := db.Exec(ctx, "INSERT INTO listing_probe (id, kind) VALUES (?, ?)", i, i%2); err != nil {
				t.Fatal(err)
			}
		}
		q := Query{Columns: "id", From: " FROM listing_probe", Order: "id DESC"}
		scan := func(rows *sql.Rows) (int64, error) {
			var id int64
			return id, rows.Scan(&id)
		}
		var w Where
		w.Add("kind = ?", 1)
		ids, total, err := Run(ctx, db, q, &w, 2, 5, scan)
		if err != nil || total != 13 || len(ids) != 5 || ids[0] != 15 {
			t.Fatalf("page 2: %v %d %v", ids, total, err)
		}
		var none Where
		none.In("id", []int64{})
		ids, total, err = Run(ctx, db, q, &none, 1, 5, scan)
		if err != nil || total != 0 || len(ids) != 0 {
			t.Fatalf("empty in: %v %d %v", ids, total, err)
		}
		var some Where
		some.In("id", []int64{3, 4, 99})
		ids, total, err = Run(ctx, db, q, &some, 1, 0, scan)
		if err != nil || total != 2 || len(ids) != 2 {
			t.Fatalf("in: %v %d %v", ids, total, err)
		}
	})
}

func TestSlice(t *testing.T) {
	xs := []int{1, 2, 3, 4, 5}
	if got := Slice(xs, 2, 2); len(got) != 2 || got[0] != 3 {
		t.Fatal(got)
	}
	if got := Slice(xs, 9, 2); len(got) != 0 {
		t.Fatal(got)
	}
	if got := Slice(xs, 1, 0); len(got) != 5 {
		t.Fatal(got)
	}
}
