package listing

import (
	"context"
	"database/sql"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// listQuery declares a list's filters as the lists do.
type listQuery struct {
	Page     int     `query:"page" min:"1" max:"2147483647" default:"1"`
	PageSize int     `query:"pageSize" min:"1" max:"200" default:"10"`
	ID       int64   `query:"id" validate:"id"`
	IDs      []int64 `query:"ids" validate:"id" maxItems:"5"`
	Kind     int     `query:"kind" enum:"0,1,2"`
	State    string  `query:"state" enum:"on,off"`
	N        int64   `query:"n" min:"0" max:"10"`
	From     string  `query:"from"`
	To       string  `query:"to"`
	Q        string  `query:"q" maxLen:"10"`
	from, to time.Time
}

func (q *listQuery) Check(v *httpapi.Validator) {
	q.from, q.to = Span(v, "from", q.From, "to", q.To, 31)
}

func bind(t *testing.T, query string) (listQuery, error) {
	t.Helper()
	var q listQuery
	err := httpapi.Bind(httptest.NewRequest("GET", "/x?"+query, nil), &q)
	return q, err
}

func TestParamsNameEveryProblem(t *testing.T) {
	_, err := bind(t, "page=0&id=-3&ids=1,x&kind=9&state=odd&n=99&from=2026-02-01&to=2026-01-01&q="+strings.Repeat("a", 11))
	e := httpapi.AsError(err)
	if e == nil {
		t.Fatal("no error")
	}
	for _, f := range []string{"page", "id", "ids", "kind", "state", "n", "to", "q"} {
		if _, ok := e.Fields[f]; !ok {
			t.Errorf("%s not named: %v", f, e.Fields)
		}
	}
	if _, err := bind(t, "from=2026-01-01&to=2026-03-01"); httpapi.AsError(err).Fields["to"].Key != "range_too_long_days" {
		t.Errorf("a long range: %v", err)
	}
	if _, err := bind(t, "from=yesterday"); httpapi.AsError(err).Fields["from"].Key != "invalid_format" {
		t.Errorf("a bad instant: %v", err)
	}
}

func TestParamsRead(t *testing.T) {
	p, err := bind(t, "page=3&pageSize=20&id=7&ids=1,2&kind=2&from=2026-01-01&to=2026-01-31")
	if err != nil || p.ID != 7 || len(p.IDs) != 2 || p.Kind != 2 || p.Page != 3 || p.PageSize != 20 {
		t.Fatalf("read wrong: %+v %v", p, err)
	}
	if p.from.Format("2006-01-02") != "2026-01-01" || p.to.Format("2006-01-02") != "2026-02-01" {
		t.Fatalf("range %v %v", p.from, p.to)
	}
	if p, err := bind(t, "ids=1,2,3,4,5,6"); err == nil || p.IDs != nil {
		t.Fatal("too many ids kept")
	}
	if p, _ := bind(t, ""); p.Page != 1 || p.PageSize != 10 {
		t.Fatalf("paging defaults: %+v", p)
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
