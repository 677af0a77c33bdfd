package importer

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// TestAPIRoundTrip: upload, preview, dry run and import of a file with bad rows through the
// HTTP calls; another organisation's caller gets 404 for the same file and job.
func TestAPIRoundTrip(t *testing.T) {
	db := storetest.SQLite(t)
	f := newFleet(t, db)
	w := telemetry.NewWriter(db, telemetry.Options{Now: func() time.Time { return testNow }, RollupDelay: -1})
	im := &Importer{DB: db, Writer: w}
	org := f.org
	api := httpapi.New(func(r *http.Request) (*httpapi.Principal, error) {
		return &httpapi.Principal{UserID: 1, OrgID: org, Role: "admin", StationAuthority: "all"}, nil
	})
	(&Service{DB: db, Importer: im}).Routes(api)
	srv := httptest.NewServer(api)
	defer srv.Close()
	do := func(method, path, ctype, body string, out any) int {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var env struct {
			Data json.RawMessage `json:"data"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&env)
		if out != nil && resp.StatusCode == 200 {
			if err := json.Unmarshal(env.Data, out); err != nil {
				t.Fatal(err)
			}
		}
		return resp.StatusCode
	}
	text := "Time;Serial;Power (kW);Total yield (kWh)\n2026-03-19 10:00;INV-1;5;100\n2026-03-19 10:05;INV-1;5;100,4\n2026-03-19 10:10;INV-9;5;100,8\n2026-03-19 10:15;INV-1;5;101,2\n"
	if s := do("POST", "/v2/import/file/upload?name=a.csv", "application/json", text, nil); s != 415 {
		t.Errorf("wrong type: %d", s)
	}
	if s := do("POST", "/v2/import/file/upload?name=a.exe", "text/csv", text, nil); s != 400 {
		t.Errorf("wrong name: %d", s)
	}
	if s := do("POST", "/v2/import/file/upload?name=a.csv", "text/csv", "", nil); s != 400 {
		t.Errorf("empty: %d", s)
	}
	var file File
	if s := do("POST", "/v2/import/file/upload?name=a.csv", "text/csv", text, &file); s != 200 || file.Size != int64(len(text)) || file.Kind != "csv" {
		t.Fatalf("upload: %d %+v", s, file)
	}
	var pv Preview
	if s := do("POST", "/v2/import/preview", "application/json", fmt.Sprintf(`{"fileId":%d}`, file.ID), &pv); s != 200 {
		t.Fatalf("preview: %d", s)
	}
	if pv.Mapping.DeviceColumn != "Serial" || pv.Applied != "" || pv.TimeFormat != "2006-01-02 15:04" || len(pv.Mapping.Columns) != 2 || pv.Mapping.Columns[1].Energy != EnergyCounter {
		t.Errorf("preview: %+v", pv.Detection)
	}
	m, _ := json.Marshal(pv.Mapping)
	body := fmt.Sprintf(`{"files":[{"fileId":%d,"device":""}],"mapping":%s}`, file.ID, m)
	bad := strings.Replace(body, `"timeColumn":"Time"`, `"timeColumn":"When"`, 1)
	if s := do("POST", "/v2/import/dryrun", "application/json", bad, nil); s != 400 {
		t.Errorf("a column not in the file: %d", s)
	}
	run := &Runner{Importer: im}
	for _, path := range []string{"/v2/import/dryrun", "/v2/import/job/start"} {
		var j Job
		if s := do("POST", path, "application/json", body, &j); s != 200 || j.State != StateQueued {
			t.Fatalf("%s: %d %+v", path, s, j)
		}
		if ran, err := run.RunOne(t.Context()); !ran || err != nil {
			t.Fatal(ran, err)
		}
		do("GET", fmt.Sprintf("/v2/import/job/%d", j.ID), "", "", &j)
		r := j.Report
		if j.State != StateDone || j.Progress != 1 || r.Stored != 3 || r.RejectedRows != 1 || r.Rejects[0].Row != 4 || r.Rejects[0].Reason != ReasonUnknownDevice {
			t.Errorf("%s: %s %.2f %+v", path, j.State, j.Progress, r)
		}
	}
	var n int64
	_ = db.QueryRow(t.Context(), "SELECT COUNT(*) FROM telemetry_samples").Scan(&n)
	if n != 3 {
		t.Errorf("%d samples stored, want 3", n)
	}
	// a file a job not ended reads cannot be deleted
	var queued Job
	do("POST", "/v2/import/job/start", "application/json", body, &queued)
	del := fmt.Sprintf(`{"fileId":%d}`, file.ID)
	if s := do("POST", "/v2/import/file/delete", "application/json", del, nil); s != 409 {
		t.Errorf("deleting a file a queued job reads: %d", s)
	}
	if s := do("POST", "/v2/import/job/cancel", "application/json", fmt.Sprintf(`{"jobId":%d}`, queued.ID), nil); s != 200 {
		t.Errorf("cancel: %d", s)
	}
	if s := do("POST", "/v2/import/job/cancel", "application/json", fmt.Sprintf(`{"jobId":%d}`, queued.ID), nil); s != 409 {
		t.Errorf("cancel twice: %d", s)
	}
	if s := do("POST", "/v2/import/file/delete", "application/json", del, nil); s != 200 {
		t.Errorf("delete: %d", s)
	}
	// a Sunny Explorer export is read with the shipped template's mapping
	raw, _ := f.sunnyExport(testNow.Add(-48*time.Hour), 1, "dd.MM.yyyy HH:mm:ss", "02.01.2006 15:04:05")
	var sunny File
	if s := do("POST", "/v2/import/file/upload?name=sunny.csv", "text/csv", string(raw), &sunny); s != 200 {
		t.Fatalf("upload Sunny Explorer: %d", s)
	}
	pv = Preview{}
	do("POST", "/v2/import/preview", "application/json", fmt.Sprintf(`{"fileId":%d}`, sunny.ID), &pv)
	if pv.Applied != Vendors[0].Name || pv.AppliedKey != "sunnyExplorerPower" || len(pv.Templates) != 2 || !reflect.DeepEqual(pv.Mapping, Vendors[0].Mapping) {
		t.Errorf("Sunny Explorer preview: applied %q, fits %v, mapping %+v", pv.Applied, pv.Templates, pv.Mapping)
	}

	org = f.org + 1000 // another organisation
	if s := do("POST", "/v2/import/job/pause", "application/json", fmt.Sprintf(`{"jobId":%d}`, queued.ID), nil); s != 404 {
		t.Errorf("another organisation's job: pause %d", s)
	}
	if s := do("GET", "/v2/import/job/1", "", "", nil); s != 404 {
		t.Errorf("another organisation's job: %d", s)
	}
}
