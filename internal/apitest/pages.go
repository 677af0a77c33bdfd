package apitest

import (
	"encoding/json"
	"fmt"
	"net/url"
	"testing"
)

// Pages reads every page of a paged list call (path with the query q), size rows at a
// time, as the signed-in user as, and checks that the pages add up to the list's total.
func Pages[T any](t testing.TB, e *Env, path, as string, q url.Values, size int) []T {
	t.Helper()
	var out []T
	for page := 1; ; page++ {
		q.Set("page", fmt.Sprint(page))
		q.Set("pageSize", fmt.Sprint(size))
		r := e.Do(t, Scenario{Method: "GET", URL: path + "?" + q.Encode(), As: as})
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", q.Encode(), r.Status, r.Body)
		}
		var p struct {
			List  []T
			Total int
		}
		if err := json.Unmarshal(r.Env.Data, &p); err != nil {
			t.Fatal(err)
		}
		out = append(out, p.List...)
		if len(p.List) < size || len(out) >= p.Total {
			if len(out) != p.Total {
				t.Fatalf("%s: %d rows over the pages, total %d", q.Encode(), len(out), p.Total)
			}
			return out
		}
	}
}
