package assistant_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/assistant"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// fakeLLM is an OpenAI-compatible chat endpoint on a real socket: it streams server-sent
// events, one word every 20 ms, for as long as the client listens, and records when the
// client went away.
type fakeLLM struct {
	srv      *httptest.Server
	gone     chan time.Time
	prompts  chan string
	status   int
	requests atomic.Int32
}

func newFakeLLM(t *testing.T) *fakeLLM {
	f := &fakeLLM{gone: make(chan time.Time, 4), prompts: make(chan string, 4), status: http.StatusOK}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.requests.Add(1)
		var req struct {
			Stream   bool
			Messages []assistant.ChatMessage
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || !req.Stream || r.URL.Path != "/v1/chat/completions" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if f.status != http.StatusOK {
			http.Error(w, `{"error":{"message":"overloaded"}}`, f.status)
			return
		}
		f.prompts <- req.Messages[0].Content
		w.Header().Set("Content-Type", "text/event-stream")
		flusher := w.(http.Flusher)
		for i := 0; ; i++ {
			ev, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"delta": map[string]string{"content": fmt.Sprintf("word%d ", i)}}}})
			if _, err := fmt.Fprintf(w, "data: %s\n\n", ev); err != nil {
				f.gone <- time.Now()
				return
			}
			flusher.Flush()
			select {
			case <-r.Context().Done():
				f.gone <- time.Now()
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

type event struct {
	Type    string
	Text    string
	Model   string
	Sources []assistant.Source
}

// ask posts a question over a real socket and returns the response and a reader of its lines.
func ask(ctx context.Context, t *testing.T, base, token, q string) (*http.Response, *bufio.Scanner) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"question": q})
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/api/query/", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return res, bufio.NewScanner(res.Body)
}

func readAll(t *testing.T, sc *bufio.Scanner) (events []event, text string) {
	t.Helper()
	for sc.Scan() {
		var ev event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		events = append(events, ev)
		text += ev.Text
	}
	return events, text
}

func TestStreamingAndCancellation(t *testing.T) {
	llm := newFakeLLM(t)
	cfg := apitest.Config()
	cfg.LLMURL, cfg.LLMModel = llm.srv.URL+"/v1", "test-model"
	e := apitest.NewWith(t, storetest.SQLite(t), cfg)
	settle := startLibrary(t, e)
	e.Do(t, apitest.Scenario{Method: "POST", URL: "/api/vectorstore/documents", As: "admin",
		Body: upload("isolation.md", "# Isolation fault\n\nMeasure each string against earth with an insulation tester.")})
	settle()
	srv := httptest.NewServer(e.Server.Handler())
	defer srv.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // a failure below ends the streamed answer, or srv.Close waits for it for ever
	res, sc := ask(ctx, t, srv.URL, e.Tokens["admin"], "How do I clear an isolation fault?")
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/x-ndjson") {
		t.Fatalf("status %d, type %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	var first event
	if !sc.Scan() || json.Unmarshal(sc.Bytes(), &first) != nil || first.Type != "sources" || len(first.Sources) == 0 ||
		first.Sources[0].Title != "isolation.md" {
		t.Fatalf("first line must list the sources: %s", sc.Text())
	}
	prompt := <-llm.prompts
	if !strings.Contains(prompt, "insulation tester") || !strings.Contains(prompt, "[1]") {
		t.Fatalf("the model must be given the numbered passages: %s", prompt)
	}
	pieces := 0
	for pieces < 3 && sc.Scan() {
		var ev event
		_ = json.Unmarshal(sc.Bytes(), &ev)
		if ev.Type == "delta" && strings.HasPrefix(ev.Text, "word") {
			pieces++
		}
	}
	if pieces < 3 {
		t.Fatal("the answer did not stream")
	}
	stopped := time.Now()
	cancel()
	res.Body.Close()
	select {
	case at := <-llm.gone:
		took := at.Sub(stopped)
		t.Logf("upstream request ended %v after the client went", took)
		if took > 100*time.Millisecond {
			t.Fatalf("the upstream request went on for %v after the client left (want < 100 ms)", took)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the upstream request did not stop when the client went")
	}

	// An endpoint that refuses: the built-in answer still comes, saying why.
	llm.status = http.StatusServiceUnavailable
	res, sc = ask(context.Background(), t, srv.URL, e.Tokens["admin"], "How do I clear an isolation fault?")
	defer res.Body.Close()
	events, text := readAll(t, sc)
	if last := events[len(events)-1]; last.Type != "done" || last.Model != "builtin" {
		t.Fatalf("last event %+v", last)
	}
	if !strings.Contains(text, "Service Unavailable") || !strings.Contains(text, "insulation tester") {
		t.Fatalf("fallback answer: %q", text)
	}
	// A question the server refuses answers with its status, not a stream.
	res, _ = ask(context.Background(), t, srv.URL, e.Tokens["admin"], strings.Repeat("x", 2001))
	res.Body.Close()
	if res.StatusCode != 400 {
		t.Fatalf("an over-long question: %d", res.StatusCode)
	}
	res, _ = ask(context.Background(), t, srv.URL, "not-a-token", "hello")
	res.Body.Close()
	if res.StatusCode != 401 {
		t.Fatalf("signed out: %d", res.StatusCode)
	}
}

func TestBuiltInAnswersFleetQuestions(t *testing.T) {
	e := apitest.NewWithFleet(t)
	now := time.Now().UTC().Truncate(5 * time.Minute)
	e.Simulate(t, now.Add(-50*time.Hour), now)
	startLibrary(t, e)()
	// the other organisation uploads a manual with a word nobody else has
	e.Do(t, apitest.Scenario{Method: "POST", URL: "/api/vectorstore/documents", As: "other",
		Body: upload("secret.md", "# Zanzibar procedure\n\nThe zanzibar reset clears every inverter fault.")})
	startLibrary(t, e)()
	srv := httptest.NewServer(e.Server.Handler())
	defer srv.Close()

	// Which station made the least yesterday? — computed here from the roll-ups.
	ctx := context.Background()
	p := &httpapi.Principal{OrgID: e.Accounts.OrgID, Role: "admin", StationAuthority: "all"}
	list, _, err := station.List(ctx, e.DB, p, station.Filter{ParentID: 0})
	if err != nil {
		t.Fatal(err)
	}
	type ranked struct {
		name string
		y    float64
	}
	var rs []ranked
	for _, st := range list {
		loc, _ := time.LoadLocation(st.Timezone)
		l := now.In(loc)
		today := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, loc)
		days, err := e.Server.Reader.StationEnergy(ctx, []int64{st.ID}, telemetry.Day, today.AddDate(0, 0, -1), today)
		if err != nil {
			t.Fatal(err)
		}
		kwh := 0.0
		for _, d := range days[st.ID] {
			kwh += d.PVKWh
		}
		rs = append(rs, ranked{st.Name, kwh / st.CapacityKWp})
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].y < rs[j].y })

	res, sc := ask(ctx, t, srv.URL, e.Tokens["admin"], "Which station made the least yesterday?")
	events, text := readAll(t, sc)
	res.Body.Close()
	if !strings.HasPrefix(text, rs[0].name+" made the least energy yesterday") {
		t.Fatalf("want %s first; answer: %s", rs[0].name, text)
	}
	if events[0].Sources[0].Kind != "station" || events[0].Sources[0].Title != rs[0].name {
		t.Fatalf("the station must be the source: %+v", events[0].Sources)
	}
	if strings.Contains(text, "Other Solar") {
		t.Fatalf("another organisation's station in the answer: %s", text)
	}
	// the operator sees only its granted stations
	_, sc = ask(ctx, t, srv.URL, e.Tokens["operator"], "Which station made the most energy today?")
	_, text = readAll(t, sc)
	visible, _ := station.VisibleIDs(ctx, e.DB, &httpapi.Principal{OrgID: e.Accounts.OrgID, DeptID: e.Accounts.OpsDeptID,
		Role: "user", StationAuthority: "authorized"})
	lines := strings.Count(text, "kWh/kWp)") - 1
	if lines <= 0 || lines >= len(list) || len(visible) == 0 {
		t.Fatalf("the operator's ranking lists %d stations of %d: %s", lines, len(list), text)
	}
	// open alarms and the other organisation's manual
	_, sc = ask(ctx, t, srv.URL, e.Tokens["admin"], "How does the zanzibar reset clear an inverter fault?")
	events, text = readAll(t, sc)
	for _, s := range events[0].Sources {
		if s.Title == "secret.md" {
			t.Fatal("another organisation's document was a source")
		}
	}
	if strings.Contains(strings.ToLower(text), "zanzibar reset clears") {
		t.Fatalf("another organisation's text in the answer: %s", text)
	}
	_, sc = ask(ctx, t, srv.URL, e.Tokens["other"], "How does the zanzibar reset work?")
	events, _ = readAll(t, sc)
	if len(events[0].Sources) == 0 || events[0].Sources[0].Title != "secret.md" {
		t.Fatalf("the owner must find its own manual: %+v", events[0].Sources)
	}
	// Chinese questions are recognised too, and answered in the asker's language.
	req, _ := http.NewRequest("POST", srv.URL+"/api/query/", strings.NewReader(`{"question":"昨天哪个电站发电量最少？"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+e.Tokens["admin"])
	req.Header.Set("Accept-Language", "zh-CN")
	zres, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, text = readAll(t, bufio.NewScanner(zres.Body))
	zres.Body.Close()
	if !strings.HasPrefix(text, "昨天发电量最少的是 "+rs[0].name) {
		t.Fatalf("zh-CN answer: %s", text)
	}
}
