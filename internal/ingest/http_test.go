package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

type fleet struct {
	org, otherOrg      int64
	inv1, inv2, other  int64 // inv1 and inv2 behind collector COLL-A; other in another org
	devKey, collKey    string
	otherKey           string
	inv1SN, inv2SN     string
	otherSN, collector string
}

func insert(t testing.TB, db *store.DB, q string, args ...any) int64 {
	t.Helper()
	id, err := db.Insert(context.Background(), q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return id
}

func newFleet(t testing.TB, db *store.DB, prefix string) *fleet {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UnixMilli()
	f := &fleet{inv1SN: prefix + "INV-1", inv2SN: prefix + "INV-2", otherSN: prefix + "INV-X", collector: prefix + "COLL-A"}
	f.org = insert(t, db, "INSERT INTO organizations (name, created_at) VALUES (?, ?)", "Org", now)
	f.otherOrg = insert(t, db, "INSERT INTO organizations (name, created_at) VALUES (?, ?)", "Other", now)
	st := insert(t, db, "INSERT INTO stations (org_id, name, timezone, capacity_kwp, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
		f.org, "Plant", "Europe/Madrid", 100, now, now)
	ost := insert(t, db, "INSERT INTO stations (org_id, name, timezone, capacity_kwp, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
		f.otherOrg, "Other plant", "UTC", 100, now, now)
	dev := func(org, st int64, sn, coll string) int64 {
		return insert(t, db, `INSERT INTO devices (org_id, station_id, name, sn, type, rated_power_kw, collector_sn, created_at, updated_at)
			VALUES (?, ?, ?, ?, 'inverter', 50, ?, ?, ?)`, org, st, sn, sn, coll, now, now)
	}
	f.inv1 = dev(f.org, st, f.inv1SN, f.collector)
	f.inv2 = dev(f.org, st, f.inv2SN, f.collector)
	f.other = dev(f.otherOrg, ost, f.otherSN, f.collector)
	var err error
	if f.devKey, err = SetDeviceKey(ctx, db, f.org, f.inv1); err != nil {
		t.Fatal(err)
	}
	if f.collKey, err = SetCollectorKey(ctx, db, f.org, f.collector); err != nil {
		t.Fatal(err)
	}
	if f.otherKey, err = SetDeviceKey(ctx, db, f.otherOrg, f.other); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestHTTPIngest(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFleet(t, db, "")
		w := telemetry.NewWriter(db, telemetry.Options{})
		api := httpapi.New(func(*http.Request) (*httpapi.Principal, error) { return nil, httpapi.Unauthorized() })
		(&Service{DB: db, Writer: w}).Routes(api)
		now := time.Now().UTC().Truncate(time.Second)
		sample := func(sn string, ago time.Duration, extra string) string {
			return fmt.Sprintf(`{"sn":%q,"time":%q,"powerKw":12.5,"energyKwh":1000%s}`, sn, now.Add(-ago).Format(time.RFC3339), extra)
		}
		body := func(samples ...string) string { return `{"samples":[` + strings.Join(samples, ",") + `]}` }
		cases := []struct {
			name   string
			key    string
			ctype  string
			body   string
			status int
			want   string // in the response
			stored int    // raw rows after the call
		}{
			{"no key", "", "application/json", body(sample(f.inv1SN, time.Minute, "")), 401, "Missing or unknown ingest key", 0},
			{"wrong key", "hk_nope", "application/json", body(sample(f.inv1SN, time.Minute, "")), 401, "Missing or unknown ingest key", 0},
			{"key of another organisation", f.otherKey, "application/json", body(sample(f.inv1SN, time.Minute, "")), 400, "is not covered by this key", 0},
			{"device key, other device of the same collector", f.devKey, "application/json",
				body(sample(f.inv1SN, time.Minute, ""), sample(f.inv2SN, time.Minute, "")), 400, `"samples[1].sn"`, 0},
			{"not JSON", f.devKey, "application/json", `{"samples":[`, 400, "", 0},
			{"wrong content type", f.devKey, "text/plain", body(sample(f.inv1SN, time.Minute, "")), 415, "", 0},
			{"unknown field", f.devKey, "application/json", body(sample(f.inv1SN, time.Minute, `,"deviceId":5`)), 400, "deviceId", 0},
			{"string for a number", f.devKey, "application/json", body(sample(f.inv1SN, time.Minute, `,"soc":"full"`)), 400, "soc", 0},
			{"bad time", f.devKey, "application/json", `{"samples":[{"sn":"` + f.inv1SN + `","time":"yesterday"}]}`, 400, "", 0},
			{"empty list", f.devKey, "application/json", `{"samples":[]}`, 400, "samples", 0},
			{"future sample spoils the batch", f.devKey, "application/json",
				body(sample(f.inv1SN, time.Minute, ""), sample(f.inv1SN, -time.Hour, "")), 400, `"samples[1]":"The time is in the future"`, 0},
			{"too large", f.devKey, "application/json", `{"samples":[` + strings.Repeat(sample(f.inv1SN, time.Minute, "")+",", 20000) + `]}`, 413, "", 0},
			{"device key", f.devKey, "application/json",
				body(sample(f.inv1SN, 2*time.Minute, ""), sample(f.inv1SN, time.Minute, `,"energyKwh":1000.2`)), 200, `"accepted":2`, 2},
			{"re-sent", f.devKey, "application/json", body(sample(f.inv1SN, 2*time.Minute, "")), 200, `"duplicates":1`, 2},
			{"collector key, both devices, unix ms", f.collKey, "application/json",
				`{"samples":[{"sn":"` + f.inv2SN + `","time":` + fmt.Sprint(now.Add(-time.Minute).UnixMilli()) + `,"energyKwh":5},` + sample(f.inv1SN, 0, `,"energyKwh":1000.3`) + `]}`,
				200, `"accepted":2`, 4},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				req := httptest.NewRequest("POST", "/v2/ingest/samples", strings.NewReader(c.body))
				req.Header.Set("Content-Type", c.ctype)
				if c.key != "" {
					req.Header.Set(KeyHeader, c.key)
				}
				rec := httptest.NewRecorder()
				api.ServeHTTP(rec, req)
				if rec.Code != c.status || !strings.Contains(rec.Body.String(), c.want) {
					t.Fatalf("%d %s, want %d containing %s", rec.Code, rec.Body.String(), c.status, c.want)
				}
				var env httpapi.Envelope
				if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || env.Code != c.status {
					t.Fatalf("envelope %s", rec.Body.String())
				}
				if n := stored(t, db, 0, 0, always); n != c.stored {
					t.Fatalf("%d samples stored, want %d", n, c.stored)
				}
			})
		}
		// a rotated key replaces the old one
		old := f.devKey
		if _, err := SetDeviceKey(ctx, db, f.org, f.inv1); err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest("POST", "/v2/ingest/samples", strings.NewReader(body(sample(f.inv1SN, 3*time.Minute, ""))))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(KeyHeader, old)
		rec := httptest.NewRecorder()
		api.ServeHTTP(rec, req)
		if rec.Code != 401 {
			t.Fatalf("old key after rotation: %d", rec.Code)
		}
		if err := RevokeCollectorKey(ctx, db, f.org, f.collector); err != nil {
			t.Fatal(err)
		}
		if sc, _ := resolveKey(ctx, db, f.collKey); sc != nil {
			t.Fatal("revoked collector key still works")
		}
		var stored string
		if err := db.QueryRow(ctx, "SELECT ingest_key_hash FROM devices WHERE id = ?", f.inv1).Scan(&stored); err != nil || stored == "" || strings.Contains(stored, "hk_") {
			t.Fatalf("stored key %q: only the hash is kept", stored)
		}
	})
}

func TestParsePayload(t *testing.T) {
	for _, c := range []struct {
		in string
		n  int
		ok bool
	}{
		{`{"time":"2024-05-01T10:00:00Z","powerKw":1}`, 1, true},
		{`[{"time":1714557600000},{"time":"2024-05-01T10:05:00+02:00","sn":"A"}]`, 2, true},
		{`{"time":"2024-05-01T10:00:00Z","bogus":1}`, 0, false},
		{`{"powerKw":1}`, 0, false},
		{`{"time":"2024-05-01T10:00:00Z"} {}`, 0, false},
		{`not json`, 0, false},
		{``, 0, false},
		{`{"time":"2024-05-01T10:00:00Z","powerKw":1e999}`, 0, false},
	} {
		got, err := ParsePayload([]byte(c.in))
		if (err == nil) != c.ok || len(got) != c.n {
			t.Errorf("%s: %d samples, %v", c.in, len(got), err)
		}
	}
}
