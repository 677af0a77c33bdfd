// Command workorders measures the work-order list calls with 100,000 orders in the
// database: the list (first page, a deep page, each filter), the totals and the export,
// through the real server handler, with concurrent clients. It writes a Markdown table.
//
//	go run ./bench/workorders [-orders 100000] [-db postgres://…] [-out docs/perf-workorders.md]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/config"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/server"
	"github.com/helio-energy/helio/internal/store"
)

type result struct {
	name          string
	n             int
	p50, p95, p99 time.Duration
	bytes         int
}

func main() {
	orders := flag.Int("orders", 100_000, "work orders to create")
	dbURL := flag.String("db", "", "postgres:// URL (default: SQLite in a temporary directory)")
	clients := flag.Int("clients", 8, "concurrent clients")
	requests := flag.Int("requests", 400, "requests per call")
	out := flag.String("out", "", "Markdown file to write (default: standard output)")
	keep := flag.Bool("keep", false, "keep the SQLite database and print where it is (to look at query plans)")
	flag.Parse()
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "helio-wo-bench-")
	if err != nil {
		log.Fatal(err)
	}
	if *keep {
		fmt.Fprintln(os.Stderr, "database kept in", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	db, err := store.Open(ctx, dir, *dbURL)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Migrate(ctx); err != nil {
		log.Fatal(err)
	}
	acc, _, err := demo.SeedAccounts(ctx, db)
	if err != nil {
		log.Fatal(err)
	}
	if err := demo.SeedFleet(ctx, db, acc, demo.Fleet()); err != nil {
		log.Fatal(err)
	}
	start := time.Now()
	if err := seed(ctx, db, acc, *orders); err != nil {
		log.Fatal(err)
	}
	if *dbURL != "" {
		// what autovacuum does soon after a bulk load: the planner's statistics, and the
		// visibility map that lets an index-only scan skip the table
		if _, err := db.Exec(ctx, "VACUUM ANALYZE"); err != nil {
			log.Fatal(err)
		}
	}
	seeded := time.Since(start)
	cfg := &config.Config{Addr: "127.0.0.1:0", SessionTTL: time.Hour, RawRetention: 14 * 24 * time.Hour, SimSpeed: 1, Seed: 1, EmissionFactor: 0.5}
	h := server.NewWithDB(cfg, db).Handler()
	admin, operator := login(h, "admin"), login(h, "operator")

	calls := []struct{ name, token, url string }{
		{"list, first page (admin)", admin, "/v2/workorder/list?page=1&pageSize=20"},
		{"list, page 2000 (admin)", admin, "/v2/workorder/list?page=2000&pageSize=20"},
		{"list, status executing", admin, "/v2/workorder/list?status=3&pageSize=20"},
		{"list, timed out", admin, "/v2/workorder/list?timeoutStatus=1&pageSize=20"},
		{"list, mine started", admin, "/v2/workorder/list?mine=started&pageSize=20"},
		{"list, title search", admin, "/v2/workorder/list?q=inverter&pageSize=20"},
		{"list, first page (operator, granted stations)", operator, "/v2/workorder/list?pageSize=20"},
		{"list, mine to process (operator)", operator, "/v2/workorder/list?mine=assigned&pageSize=20"},
		{"totals (admin)", admin, "/v2/workorder/summary"},
		{"totals (operator)", operator, "/v2/workorder/summary"},
	}
	var results []result
	fmt.Fprintf(os.Stderr, "seeded %d orders in %v\n", *orders, seeded.Round(time.Millisecond))
	for _, c := range calls {
		results = append(results, measure(h, c.name, c.token, c.url, *clients, *requests))
		r := results[len(results)-1]
		fmt.Fprintf(os.Stderr, "%s: p50 %s, p95 %s\n", r.name, ms(r.p50), ms(r.p95))
	}
	results = append(results, measure(h, "export CSV, every order (admin)", admin, "/v2/workorder/export", 1, 1))

	var b strings.Builder
	fmt.Fprintf(&b, "## Work orders: lists at %d orders\n\n", *orders)
	dialect := "SQLite"
	if *dbURL != "" {
		dialect = "PostgreSQL"
	}
	fmt.Fprintf(&b, "Measured by `go run ./bench/workorders` on %s UTC: %s, %d orders over the demo fleet's %d top-level stations "+
		"(seeded in %.1f s), the real server handler in process, %d concurrent clients, %d requests per call (export: once), "+
		"%d CPUs. Goal: the read path's p95 < 20 ms (DESIGN.md).\n\n",
		time.Now().UTC().Format("2006-01-02 15:04"), dialect, *orders, len(demo.Fleet().Stations), seeded.Seconds(), *clients, *requests, runtime.NumCPU())
	b.WriteString("| call | p50 | p95 | p99 | answer |\n|---|---|---|---|---|\n")
	for _, r := range results {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.name, ms(r.p50), ms(r.p95), ms(r.p99), size(r.bytes))
	}
	if *out == "" {
		fmt.Print(b.String())
		return
	}
	if err := os.WriteFile(*out, []byte("# Work-order list performance\n\n"+b.String()), 0o644); err != nil {
		log.Fatal(err)
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

func size(n int) string {
	if n > 1<<20 {
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f kB", float64(n)/1024)
}

func login(h http.Handler, user string) string {
	req := httptest.NewRequest("POST", "/v2/login", strings.NewReader(`{"username":"`+user+`","password":"`+demo.Password+`"}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var out struct {
		Data struct{ Token string } `json:"data"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || out.Data.Token == "" {
		log.Fatalf("login %s: %d %s", user, rec.Code, rec.Body.String())
	}
	return out.Data.Token
}

func measure(h http.Handler, name, token, url string, clients, requests int) result {
	var mu sync.Mutex
	var times []time.Duration
	var bytes int
	var wg sync.WaitGroup
	per := requests / clients
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < per; i++ {
				req := httptest.NewRequest("GET", url, nil)
				req.Header.Set("Authorization", "Bearer "+token)
				rec := httptest.NewRecorder()
				t0 := time.Now()
				h.ServeHTTP(rec, req)
				d := time.Since(t0)
				if rec.Code != 200 {
					log.Fatalf("%s: %d %s", url, rec.Code, rec.Body.String())
				}
				mu.Lock()
				times = append(times, d)
				bytes = rec.Body.Len()
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	at := func(q float64) time.Duration { return times[min(len(times)-1, int(q*float64(len(times))))] }
	return result{name: name, n: len(times), p50: at(0.5), p95: at(0.95), p99: at(0.99), bytes: bytes}
}

// seed writes n orders across the organisation's stations: priorities, plans and work times
// spread over the last two years, a third of them assigned to the operator; the last month's
// orders in every status, older ones closed.
func seed(ctx context.Context, db *store.DB, acc *demo.Accounts, n int) error {
	var stations []int64
	rows, err := db.Query(ctx, "SELECT id FROM stations WHERE org_id = ? ORDER BY id", acc.OrgID)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		stations = append(stations, id)
	}
	rows.Close()
	titles := []string{"Inverter fault on string 3", "Module cleaning", "Replace a combiner fuse", "Battery over-temperature", "Meter offline"}
	now := time.Now().UnixMilli()
	const batch = 5000
	for done := 0; done < n; done += batch {
		err := db.InTx(ctx, func(tx *store.Tx) error {
			stmt, err := tx.Prepare(ctx, `INSERT INTO work_orders (org_id, station_id, number, title, status, priority, submitter_id,
				assignee_user_id, planned_start, planned_end, actual_start, actual_end, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
			if err != nil {
				return err
			}
			defer stmt.Close()
			for i := done; i < min(done+batch, n); i++ {
				created := now - int64(i)*630_000 // about two years for 100,000
				// as in a crew's history: what is older than a month is closed (finished,
				// one in twelve rejected); the last month holds every status
				status := 4
				switch {
				case now-created < 30*86_400_000:
					status = 1 + i%5
				case i%12 == 0:
					status = 5
				}
				pStart, pEnd := created+3_600_000, created+3_600_000+int64(4+i%40)*3_600_000
				var aStart, aEnd any
				if status >= 3 && status <= 4 {
					aStart = pStart
				}
				if status == 4 {
					aEnd = pEnd + int64(i%7-3)*3_600_000
				}
				assignee := acc.AdminID
				if i%3 == 0 {
					assignee = acc.OperatorID
				}
				if _, err := stmt.ExecContext(ctx, acc.OrgID, stations[i%len(stations)], fmt.Sprintf("WO-BENCH-%07d", i), titles[i%len(titles)],
					status, 1+i%4, acc.AdminID, assignee, pStart, pEnd, aStart, aEnd, created, created); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}
