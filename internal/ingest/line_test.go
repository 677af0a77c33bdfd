package ingest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
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

// lineRig is a server with the line-protocol calls and the rules a Telegraf Modbus input
// would need: measurement inverter, the serial number in tag sn, watts and watt-hours.
type lineRig struct {
	f   *fleet
	db  *store.DB
	srv *httptest.Server
	ls  *LineService
}

func newLineRig(t *testing.T, db *store.DB) *lineRig {
	t.Helper()
	f := newFleet(t, db, "")
	w := telemetry.NewWriter(db, telemetry.Options{})
	api := httpapi.New(func(*http.Request) (*httpapi.Principal, error) { return nil, httpapi.Unauthorized() })
	ls := &LineService{DB: db, Writer: w}
	ls.LineRoutes(api)
	srv := httptest.NewServer(api)
	t.Cleanup(func() { srv.Close(); ls.Close() })
	rules := LineRules{Rules: []LineRule{
		{Measurement: "inverter", DeviceTag: "sn", Field: "power", Target: "powerKw", Scale: 0.001},
		{Measurement: "inverter", DeviceTag: "sn", Field: "energy", Target: "energyKwh", Scale: 0.001},
		{Measurement: "inverter", DeviceTag: "sn", Field: "state", Target: "status"},
		{Measurement: "meter", DeviceTag: "sn", Field: "volts", Target: "acVoltageV"},
	}}
	if err := rules.Validate(); err != nil {
		t.Fatal(err)
	}
	if err := SaveLineRules(context.Background(), db, f.org, rules); err != nil {
		t.Fatal(err)
	}
	return &lineRig{f: f, db: db, srv: srv, ls: ls}
}

type lineAnswer struct {
	status int
	body   map[string]string
}

func (g *lineRig) post(t *testing.T, path string, header map[string]string, body []byte) lineAnswer {
	t.Helper()
	req, _ := http.NewRequest("POST", g.srv.URL+path, bytes.NewReader(body))
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	a := lineAnswer{status: res.StatusCode}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &a.body); err != nil {
			t.Fatalf("%d %s: not InfluxDB's JSON: %v", res.StatusCode, raw, err)
		}
	}
	return a
}

func (g *lineRig) stored(t *testing.T, id int64) []telemetry.Sample {
	t.Helper()
	s, err := telemetry.StoredSamples(context.Background(), g.db, id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	_, _ = w.Write(b)
	_ = w.Close()
	return buf.Bytes()
}

func TestLineProtocolWrite(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		g := newLineRig(t, db)
		f := g.f
		ctx := context.Background()
		t0 := time.Now().UTC().Add(-time.Hour).Truncate(time.Minute)
		s := func(at time.Time) int64 { return at.Unix() }
		token := map[string]string{"Authorization": "Token " + f.collKey}
		v2 := "/api/v2/write?org=o&bucket=b&precision=s"

		// two inverters in one gzipped request; a meter line at the same instant merges
		// into inv1's sample; a boolean and an integer feed status
		body := fmt.Sprintf("inverter,sn=%s,host=tg power=30000,energy=1000000i,state=1i %d\n"+
			"inverter,sn=%s power=12000.5,energy=2000000,state=true %d\n"+
			"meter,sn=%s volts=231.5 %d\n", f.inv1SN, s(t0), f.inv2SN, s(t0), f.inv1SN, s(t0))
		if a := g.post(t, v2, map[string]string{"Authorization": "Token " + f.collKey, "Content-Encoding": "gzip"}, gz([]byte(body))); a.status != 204 {
			t.Fatalf("write: %d %v", a.status, a.body)
		}
		got := g.stored(t, f.inv1)
		if len(got) != 1 || got[0].PowerKW != 30 || got[0].EnergyKWh != 1000 || got[0].ACVoltageV != 231.5 || got[0].Status != 1 || !got[0].Time.Equal(t0) {
			t.Fatalf("inv1 stored %+v", got)
		}
		if got := g.stored(t, f.inv2); len(got) != 1 || got[0].PowerKW != 12.0005 || got[0].EnergyKWh != 2000 || got[0].Status != 1 {
			t.Fatalf("inv2 stored %+v", got)
		}

		// the same body again changes nothing (the write path's duplicates)
		if a := g.post(t, v2, token, []byte(body)); a.status != 204 {
			t.Fatalf("again: %d %v", a.status, a.body)
		}
		if got := g.stored(t, f.inv1); len(got) != 1 {
			t.Fatalf("a repeated write stored %d samples", len(got))
		}

		// a later line without the counter carries the stored one (no reset to 0)
		t1 := t0.Add(5 * time.Minute)
		if a := g.post(t, v2, token, fmt.Appendf(nil, "inverter,sn=%s power=31000 %d\ninverter,sn=%s power=1,energy=1000010 %d",
			f.inv1SN, s(t1), f.inv1SN, s(t1.Add(5*time.Minute)))); a.status != 204 {
			t.Fatalf("power only: %d %v", a.status, a.body)
		}
		got = g.stored(t, f.inv1)
		if len(got) != 3 || got[1].EnergyKWh != 1000 || got[1].PowerKW != 31 || got[2].EnergyKWh != 1000.01 {
			t.Fatalf("carried counter: %+v", got)
		}

		// unmapped series are answered 204 and listed with their reason
		if a := g.post(t, v2, token, fmt.Appendf(nil, "inverter,sn=%s power=5000,fan=3 %d\ninverter,sn=%s power=1 %d\n"+
			"inverter power=1 %d\nweather,site=x temp=3 %d\ninverter,sn=%s power=\"high\" %d",
			f.inv2SN, s(t1), f.otherSN, s(t1), s(t1), s(t1), f.inv2SN, s(t1.Add(time.Minute)))); a.status != 204 {
			t.Fatalf("unmapped: %d %v", a.status, a.body)
		}
		unknown, err := ListUnknown(ctx, db, f.org)
		if err != nil {
			t.Fatal(err)
		}
		reasons := map[string]int64{}
		for _, u := range unknown {
			reasons[u.Measurement+"."+u.Field+":"+u.Reason] = u.Points
		}
		want := map[string]int64{"inverter.fan:no_rule": 1, "inverter.power:unknown_device": 1, "inverter.power:no_device_tag": 1,
			"weather.temp:no_rule": 1, "inverter.power:not_numeric": 1}
		if fmt.Sprint(reasons) != fmt.Sprint(want) {
			t.Fatalf("unmapped series %v, want %v", reasons, want)
		}
		if other, _ := ListUnknown(ctx, db, f.otherOrg); len(other) != 0 {
			t.Fatalf("another organisation sees %v", other)
		}
		if got := g.stored(t, f.other); len(got) != 0 {
			t.Fatalf("a collector key wrote another organisation's device: %+v", got)
		}

		// a malformed line refuses the whole body, naming the line
		before := len(g.stored(t, f.inv2))
		a := g.post(t, v2, token, fmt.Appendf(nil, "inverter,sn=%s power=7 %d\ninverter,sn=%s power= %d", f.inv2SN, s(t0.Add(-time.Minute)), f.inv2SN, s(t0)))
		if a.status != 400 || a.body["code"] != "invalid" || !strings.Contains(a.body["message"], "line 2") || !strings.Contains(a.body["message"], "missing field value") {
			t.Fatalf("malformed: %d %v", a.status, a.body)
		}
		if n := len(g.stored(t, f.inv2)); n != before {
			t.Fatalf("a refused body stored %d samples", n-before)
		}

		// a reading the write path rejects is dropped (422, as InfluxDB's partial write);
		// the rest of the body is stored
		t2 := t1.Add(20 * time.Minute)
		a = g.post(t, v2, token, fmt.Appendf(nil, "inverter,sn=%s power=900000000,energy=2000100 %d\ninverter,sn=%s power=9000,energy=2000100 %d",
			f.inv2SN, s(t2), f.inv2SN, s(t2.Add(time.Minute))))
		if a.status != 422 || !strings.Contains(a.body["message"], "dropped=1") || !strings.Contains(a.body["message"], "power_out_of_range") ||
			!strings.Contains(a.body["message"], f.inv2SN) {
			t.Fatalf("partial write: %d %v", a.status, a.body)
		}
		if got := g.stored(t, f.inv2); got[len(got)-1].PowerKW != 9 {
			t.Fatalf("the valid point of a partial write: %+v", got[len(got)-1])
		}
	})
}

// The answers a client's retry logic reads: InfluxDB's statuses and bodies, v1 and v2.
func TestLineProtocolAnswers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		g := newLineRig(t, db)
		f := g.f
		at := time.Now().Add(-time.Hour).Truncate(time.Second)
		line := fmt.Appendf(nil, "inverter,sn=%s power=1000,energy=5 %d", f.inv1SN, at.UnixMilli())
		basic := func(user, pw string) map[string]string {
			return map[string]string{"Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pw))}
		}
		cases := []struct {
			name   string
			path   string
			header map[string]string
			body   []byte
			status int
			field  string // the body's error text
			text   string
		}{
			{"v2 no key", "/api/v2/write?bucket=b&precision=ms", nil, line, 401, "code", "unauthorized"},
			{"v2 wrong key", "/api/v2/write?bucket=b&precision=ms", map[string]string{"Authorization": "Token hk_nope"}, line, 401, "message", "unauthorized access"},
			{"v2 another organisation's key", "/api/v2/write?bucket=b&precision=ms", map[string]string{"Authorization": "Token " + f.otherKey}, line, 204, "", ""},
			{"v2 no bucket", "/api/v2/write?precision=ms", map[string]string{"Authorization": "Token " + f.devKey}, line, 400, "message", "bucket is required"},
			{"v2 bad precision", "/api/v2/write?bucket=b&precision=h", map[string]string{"Authorization": "Token " + f.devKey}, line, 400, "message", "invalid precision"},
			{"v2 empty body", "/api/v2/write?bucket=b", map[string]string{"Authorization": "Token " + f.devKey}, nil, 400, "message", "writing requires points"},
			{"v2 not gzip", "/api/v2/write?bucket=b", map[string]string{"Authorization": "Token " + f.devKey, "Content-Encoding": "gzip"}, line, 400, "code", "invalid"},
			{"v2 too large once unzipped", "/api/v2/write?bucket=b", map[string]string{"Authorization": "Token " + f.devKey, "Content-Encoding": "gzip"},
				gz(bytes.Repeat([]byte("# padding padding padding\n"), MaxLineBody/26+10)), 413, "code", "request too large"},
			{"v2 too large", "/api/v2/write?bucket=b", map[string]string{"Authorization": "Token " + f.devKey},
				bytes.Repeat([]byte("#"), MaxLineBody+1), 413, "code", "request too large"},
			{"v2 timestamp overflow", "/api/v2/write?bucket=b&precision=s", map[string]string{"Authorization": "Token " + f.devKey},
				[]byte("inverter,sn=x power=1 9223372036854775807"), 400, "message", "timestamp out of range"},
			{"v1 basic auth", "/write?db=helio&precision=ms", basic("any", f.devKey), line, 204, "", ""},
			{"v1 p parameter", "/write?db=helio&precision=ms&u=x&p=" + f.devKey, nil, line, 204, "", ""},
			{"v1 no db", "/write?precision=ms", basic("any", f.devKey), line, 400, "error", "database is required"},
			{"v1 bad key", "/write?db=helio", basic("any", "hk_nope"), line, 401, "error", "unauthorized access"},
			{"v1 malformed", "/write?db=helio", basic("any", f.devKey), []byte("inverter power"), 400, "error", "unable to parse 'inverter power': missing field value (line 1)"},
			{"v1 precision in hours", "/write?db=helio&precision=h", basic("any", f.devKey),
				fmt.Appendf(nil, "inverter,sn=%s power=1000,energy=5 %d", f.inv1SN, at.Add(-time.Hour).Unix()/3600), 204, "", ""},
		}
		for _, c := range cases {
			a := g.post(t, c.path, c.header, c.body)
			if a.status != c.status || (c.field != "" && !strings.Contains(a.body[c.field], c.text)) {
				t.Errorf("%s: %d %v, want %d with %s containing %q", c.name, a.status, a.body, c.status, c.field, c.text)
			}
		}
		// the hour precision put its point on the hour
		got := g.stored(t, f.inv1)
		if len(got) != 2 || got[0].Time.Minute() != 0 || got[0].Time.Second() != 0 {
			t.Fatalf("stored %+v", got)
		}
		res, err := http.Get(g.srv.URL + "/ping")
		if err != nil || res.StatusCode != 204 {
			t.Fatalf("ping: %v %v", res, err)
		}
	})
}

// TestLineProtocolBusy: beyond MaxInFlight writes being read at once, a write waits its
// turn up to BusyWait and then answers 503 with Retry-After (clients retry); nothing of it
// is stored, and the slot frees when the slow write ends.
func TestLineProtocolBusy(t *testing.T) {
	db := storetest.SQLite(t)
	g := newLineRig(t, db)
	g.ls.MaxInFlight, g.ls.BusyWait = 1, 100*time.Millisecond
	token := "Token " + g.f.collKey
	v2 := g.srv.URL + "/api/v2/write?org=o&bucket=b&precision=s"
	t0 := time.Now().UTC().Add(-time.Hour).Truncate(time.Minute)

	// a slow client: its body arrives in two parts, the second only when the test says
	pr, pw := io.Pipe()
	t.Cleanup(func() { pw.Close() }) // before the server's Close, which waits for this request
	req, _ := http.NewRequest("POST", v2, pr)
	req.Header.Set("Authorization", token)
	slow := make(chan int, 1)
	go func() {
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			slow <- 0
			return
		}
		res.Body.Close()
		slow <- res.StatusCode
	}()
	fmt.Fprintf(pw, "inverter,sn=%s power=1000 %d\n", g.f.inv1SN, t0.Unix())
	for deadline := time.Now().Add(5 * time.Second); len(g.ls.slots) == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the slow write never took its slot")
		}
	}

	other := fmt.Sprintf("inverter,sn=%s power=2000 %d\n", g.f.inv2SN, t0.Unix())
	req2, _ := http.NewRequest("POST", v2, strings.NewReader(other))
	req2.Header.Set("Authorization", token)
	res, err := http.DefaultClient.Do(req2)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Fatalf("a write beyond the limit: %d, Retry-After %q; want 503 with Retry-After", res.StatusCode, res.Header.Get("Retry-After"))
	}
	if got := g.stored(t, g.f.inv2); len(got) != 0 {
		t.Fatalf("the refused write stored %+v", got)
	}

	fmt.Fprintf(pw, "inverter,sn=%s power=1500 %d\n", g.f.inv1SN, t0.Add(time.Minute).Unix())
	pw.Close()
	if code := <-slow; code != http.StatusNoContent {
		t.Fatalf("the slow write: %d", code)
	}
	if a := g.post(t, "/api/v2/write?org=o&bucket=b&precision=s", map[string]string{"Authorization": token}, []byte(other)); a.status != 204 {
		t.Fatalf("the retry: %d %v", a.status, a.body)
	}
	if got := g.stored(t, g.f.inv2); len(got) != 1 || got[0].PowerKW != 2 {
		t.Fatalf("the retry stored %+v", got)
	}
}
