package ingest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
)

// An administrator issues, lists, rotates and revokes ingest keys; the key is shown once
// and works for HTTP ingest at once, and stops at once when rotated or revoked.
func TestIngestKeyLifecycle(t *testing.T) {
	e := apitest.NewWithFleet(t)
	ctx := context.Background()
	var devID, otherDev int64
	var sn, coll string
	if err := e.DB.QueryRow(ctx, "SELECT id, sn, collector_sn FROM devices WHERE org_id = ? AND type = 'inverter' ORDER BY id LIMIT 1",
		e.Accounts.OrgID).Scan(&devID, &sn, &coll); err != nil {
		t.Fatal(err)
	}
	if err := e.DB.QueryRow(ctx, "SELECT id FROM devices WHERE org_id <> ? LIMIT 1", e.Accounts.OrgID).Scan(&otherDev); err != nil {
		t.Fatal(err)
	}
	issue := func(body string) (key string, fp string) {
		t.Helper()
		r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/ingest/key/issue", As: "admin", Body: body})
		if r.Status != 200 {
			t.Fatalf("issue %s: %d %s", body, r.Status, r.Body)
		}
		var k struct{ Key, Fingerprint string }
		_ = json.Unmarshal(r.Env.Data, &k)
		if !strings.HasPrefix(k.Key, "hk_") || len(k.Fingerprint) != 8 {
			t.Fatalf("issued %+v", k)
		}
		return k.Key, k.Fingerprint
	}
	n := 0
	ingest := func(key string) int {
		n++
		at := time.Now().Add(-time.Duration(n) * time.Minute).UTC().Format(time.RFC3339)
		return e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/ingest/samples", Headers: map[string]string{"X-Helio-Key": key},
			Body: fmt.Sprintf(`{"samples":[{"sn":%q,"time":%q,"powerKw":1,"energyKwh":%d}]}`, sn, at, 100-n)}).Status
	}
	devBody := fmt.Sprintf(`{"kind":"device","deviceId":%d}`, devID)
	key, fp := issue(devBody)
	if s := ingest(key); s != 200 {
		t.Fatalf("ingest with a new key: %d", s)
	}
	e.Run(t, []apitest.Scenario{
		{Name: "listed without the key", Method: "GET", URL: "/v2/ingest/key/list", As: "admin", Status: 200,
			Contains: []string{`"kind":"device"`, `"target":"` + sn + `"`, `"fingerprint":"` + fp + `"`}, NotContains: []string{key, "hk_"}},
		{Name: "operator may not list", Method: "GET", URL: "/v2/ingest/key/list", As: "operator", Status: 403},
		{Name: "operator may not issue", Method: "POST", URL: "/v2/ingest/key/issue", As: "operator", Body: devBody, Status: 403},
		{Name: "another organisation's device", Method: "POST", URL: "/v2/ingest/key/issue", As: "admin",
			Body: fmt.Sprintf(`{"kind":"device","deviceId":%d}`, otherDev), Status: 404},
		{Name: "the other organisation does not see ours", Method: "GET", URL: "/v2/ingest/key/list", As: "other", Status: 200, NotContains: []string{sn}},
		{Name: "unknown kind", Method: "POST", URL: "/v2/ingest/key/issue", As: "admin", Body: `{"kind":"master"}`, Status: 400, Contains: []string{`"kind"`}},
		{Name: "device without id", Method: "POST", URL: "/v2/ingest/key/issue", As: "admin", Body: `{"kind":"device"}`, Status: 400, Contains: []string{`"deviceId":"Required"`}},
		{Name: "bad collector", Method: "POST", URL: "/v2/ingest/key/issue", As: "admin", Body: `{"kind":"collector","collectorSn":"../x"}`, Status: 400, Contains: []string{`"collectorSn"`}},
		{Name: "revoke an unknown collector", Method: "POST", URL: "/v2/ingest/key/revoke", As: "admin", Body: `{"kind":"collector","collectorSn":"NO-SUCH"}`, Status: 404},
	})
	// rotation: the old key stops, the new one works
	rotated, fp2 := issue(devBody)
	if fp2 == fp || ingest(key) != 401 || ingest(rotated) != 200 {
		t.Fatal("rotation did not replace the key")
	}
	// a collector key covers the devices reporting through it
	ckey, _ := issue(fmt.Sprintf(`{"kind":"collector","collectorSn":%q}`, coll))
	if s := ingest(ckey); s != 200 {
		t.Fatalf("collector key: %d", s)
	}
	for _, body := range []string{devBody, fmt.Sprintf(`{"kind":"collector","collectorSn":%q}`, coll)} {
		if r := e.Do(t, apitest.Scenario{Method: "POST", URL: "/v2/ingest/key/revoke", As: "admin", Body: body}); r.Status != 200 {
			t.Fatalf("revoke: %d %s", r.Status, r.Body)
		}
	}
	if ingest(rotated) != 401 || ingest(ckey) != 401 {
		t.Fatal("a revoked key still works")
	}
	if n := e.Count(t, "SELECT COUNT(*) FROM audit_log WHERE action LIKE 'ingest.key.%' AND status < 400"); n != 5 {
		t.Fatalf("%d key actions audited, want 5", n)
	}
}
