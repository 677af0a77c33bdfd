package monitor_test

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/fleet"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/monitor"
)

// The fleet summary kept per root, the stations' live flags kept per station and the
// charts' sums kept per zone answer as computed afresh, for every view, as samples
// arrive, as an alarm opens, and as time alone moves on: over quarter hours (days and
// compared stretches turn on them) and past the instant devices' samples grow too old to
// count as online.
func TestKeptSummaryAnswersAsComputedAfresh(t *testing.T) {
	e := apitest.NewWithFleet(t)
	now := time.Now().UTC().Truncate(time.Minute)
	eng := e.Simulate(t, now.Add(-40*24*time.Hour), now)
	ctx := context.Background()
	base := time.Now()
	defer func() { e.Server.Figures.Now, e.Server.Figures.Afresh = nil, false }()
	bodies := map[string][]string{}
	full0, some0, _ := monitor.PartsStats()
	zones0 := monitor.ZoneSumsKept()
	for i, off := range []time.Duration{0, time.Minute, time.Minute, 16 * time.Minute, 31 * time.Minute, 62 * time.Minute, 3 * time.Hour} {
		switch i {
		case 1: // new samples alone
			if _, err := eng.StepNow(ctx, now.Add(5*time.Minute)); err != nil {
				t.Fatal(err)
			}
		case 2: // an alarm alone, the clock unchanged (as heard from another replica)
			var st int64
			// a station with no alarm occurring, nor under it
			if err := e.DB.QueryRow(ctx, `SELECT MIN(id) FROM stations WHERE parent_id IS NULL AND id NOT IN
				(SELECT COALESCE(s.parent_id, s.id) FROM alarms a JOIN stations s ON s.id = a.station_id WHERE a.status = 1)`).Scan(&st); err != nil {
				t.Fatal(err)
			}
			e.Server.Fleet.ApplyAlarms([]fleet.AlarmChange{{Kind: fleet.AlarmOpened, ID: 1 << 40, Station: st,
				Start: now.UnixMilli(), Description: "a breaker opened"}})
		}
		at := base.Add(off)
		e.Server.Figures.Now = func() time.Time { return at }
		for _, u := range keptURLs {
			for _, user := range []string{"admin", "admin", "operator"} { // the second from what was kept
				got := e.Do(t, apitest.Scenario{Method: "GET", URL: u, As: user})
				e.Server.Figures.Afresh = true
				want := e.Do(t, apitest.Scenario{Method: "GET", URL: u, As: user})
				e.Server.Figures.Afresh = false
				if got.Status != 200 || got.Body != want.Body {
					t.Fatalf("%s as %s at +%v (step %d):\nkept    %d %s\nafresh  %d %s", u, user, off, i, got.Status, got.Body, want.Status, want.Body)
				}
				bodies[u] = append(bodies[u], got.Body)
			}
		}
	}
	// the kept parts were read, and brought up to date in part (the stations that changed)
	if full, some, _ := monitor.PartsStats(); full == full0 || some == some0 {
		t.Fatalf("kept parts computed in full %d times and in part %d times: want both", full-full0, some-some0)
	}
	if monitor.ZoneSumsKept() == zones0 {
		t.Fatal("no zone's sums were answered as kept")
	}
	// the answers did move: the comparison compared something
	for _, u := range keptURLs[:2] { // these move with time alone too
		seen := map[string]bool{}
		for _, b := range bodies[u] {
			seen[b] = true
		}
		if len(seen) < 3 {
			t.Fatalf("%s gave %d different answers over samples, an alarm and three hours", u, len(seen))
		}
	}
}

var keptURLs = []string{"/v2/summary/all", "/v2/site/summary", "/v2/dev/summary", "/v2/summary/projectranking?limit=50", "/v2/summary/topdevices?limit=10", "/v2/summary/topdevices?limit=30", "/v2/summary/powerdata/day", "/v2/summary/powerdata/month",
	"/v2/summary/powerdata/day?tz=Asia/Kolkata", "/v2/summary/powerdata/year?tz=America/Los_Angeles",
	"/v2/site/list?pageSize=200&communicationStatus=1", "/v2/site/list?pageSize=200&communicationStatus=3",
	"/v2/site/list?pageSize=200&alarmStatus=1"}

// Callers queued on the kept parts read the clock before taking their turn: one that read
// it before the caller ahead of it is answered from the parts as they are, not by
// computing every part again (50 concurrent callers did so on every call; a replica held
// to a quarter of a core queues callers for seconds). Only a clock that is itself set
// back computes them all again.
func TestKeptPartsTakeCallersOfTheSameMoment(t *testing.T) {
	e := apitest.NewWithFleet(t)
	now := time.Now().UTC().Truncate(time.Minute)
	e.Simulate(t, now.Add(-2*24*time.Hour), now)
	ctx := context.Background()
	var org int64
	if err := e.DB.QueryRow(ctx, "SELECT MIN(id) FROM organizations").Scan(&org); err != nil {
		t.Fatal(err)
	}
	p := &httpapi.Principal{OrgID: org, StationAuthority: "all", Role: "user"}
	at := time.Now()
	clock := at
	e.Server.Figures.Now = func() time.Time { return clock }
	defer func() { e.Server.Figures.Now = nil }()
	want, ok, err := e.Server.Figures.DeviceStateCounts(ctx, p, at)
	if err != nil || !ok {
		t.Fatalf("kept counts: ok %v, err %v", ok, err)
	}
	full, _, _ := monitor.PartsStats()
	for _, behind := range []time.Duration{time.Millisecond, 5 * time.Second} {
		got, _, err := e.Server.Figures.DeviceStateCounts(ctx, p, at.Add(-behind))
		if err != nil || got != want {
			t.Fatalf("a caller %v behind: %v (%v), want %v", behind, got, err, want)
		}
		if again, _, _ := monitor.PartsStats(); again != full {
			t.Fatalf("a caller %v behind computed every part again", behind)
		}
	}
	clock = at.Add(-time.Minute)
	if _, _, err := e.Server.Figures.DeviceStateCounts(ctx, p, clock); err != nil {
		t.Fatal(err)
	}
	if again, _, _ := monitor.PartsStats(); again == full {
		t.Fatal("a clock set back a minute kept the parts")
	}
}

// The kept parts are counted by why they were computed (helio_figures_parts_computed_total):
// none when nothing changed, every root's when the poller's states take a new generation,
// none when they keep theirs.
func TestKeptPartsCountedByWhy(t *testing.T) {
	e := apitest.NewWithFleet(t)
	at := time.Now()
	defer func() { e.Server.Figures.Now, e.Server.Figures.Comms = nil, nil }()
	e.Server.Figures.Now = func() time.Time { return at }
	var gen uint64 = 1
	e.Server.Figures.Comms = func() fleet.Comms { return fleet.Comms{Gen: gen} }
	all := func() {
		t.Helper()
		if r := e.Do(t, apitest.Scenario{Method: "GET", URL: "/v2/summary/all", As: "admin"}); r.Status != 200 {
			t.Fatalf("summary %d %s", r.Status, r.Body)
		}
	}
	all()
	var roots int
	if err := e.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM stations WHERE parent_id IS NULL
		AND org_id = (SELECT org_id FROM users WHERE username = 'admin')`).Scan(&roots); err != nil {
		t.Fatal(err)
	}
	whys := []string{"first", "comms", "clock", "stations", "journal", "changed", "time"}
	count := func() map[string]float64 {
		m := map[string]float64{}
		for _, w := range whys {
			m[w] = monitor.PartsComputed(w)
		}
		return m
	}
	c0 := count()
	all()
	c := count()
	for _, w := range whys {
		if c[w] != c0[w] {
			t.Fatalf("nothing changed, yet %v parts computed for %s", c[w]-c0[w], w)
		}
	}
	gen = 2
	all()
	if d := monitor.PartsComputed("comms") - c0["comms"]; d != float64(roots) {
		t.Fatalf("a new generation of the poller's states: %v parts computed for comms, want %d (the organisation's roots)", d, roots)
	}
	c1 := count()
	all()
	if d := monitor.PartsComputed("comms") - c1["comms"]; d != 0 {
		t.Fatalf("the same generation: %v parts computed for comms", d)
	}
}
