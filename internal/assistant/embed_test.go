package assistant_test

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// fakeEmbeddings is an OpenAI-compatible /embeddings endpoint on a real socket. Its vectors
// hash each word into one of 64 buckets after mapping a few synonyms together, so a question
// can be near a passage it shares no word with.
func fakeEmbeddings(t *testing.T, calls *atomic.Int32) *httptest.Server {
	synonyms := map[string]string{"photovoltaic": "solar", "pv": "solar", "modules": "panels", "washing": "cleaning"}
	embed := func(text string) []float32 {
		v := make([]float32, 64)
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !('a' <= r && r <= 'z') }) {
			if s, ok := synonyms[w]; ok {
				w = s
			}
			h := fnv.New32a()
			_, _ = h.Write([]byte(w))
			v[h.Sum32()%64]++
		}
		return v
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil || req.Model != "test-embed" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		type item struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		out := struct {
			Data []item `json:"data"`
		}{}
		for i, in := range req.Input {
			out.Data = append(out.Data, item{i, embed(in)})
		}
		_ = json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestHybridRankingWithEmbeddings(t *testing.T) {
	var calls atomic.Int32
	srv := fakeEmbeddings(t, &calls)
	cfg := apitest.Config()
	cfg.EmbedURL, cfg.EmbedModel = srv.URL+"/v1", "test-embed"
	e := apitest.NewWith(t, storetest.SQLite(t), cfg)
	settle := startLibrary(t, e)
	for name, text := range map[string]string{
		"cleaning.md": "# Solar panels\n\nSchedule the cleaning of the solar panels twice a year.",
		"battery.md":  "# Battery\n\nSwitch the battery breaker off and on to restart it.",
	} {
		e.Do(t, apitest.Scenario{Method: "POST", URL: "/api/vectorstore/documents", As: "admin", Body: upload(name, text)})
	}
	settle()
	if n := e.Count(t, "SELECT COUNT(*) FROM document_chunks WHERE embedding IS NOT NULL AND LENGTH(embedding) = 256"); n != 2 {
		t.Fatalf("%d passages carry a 64-dimension vector, want 2", n)
	}
	// No word of the question is in any passage: BM25 alone finds nothing, the vectors do.
	hits, err := e.Server.Library.Search(context.Background(), e.Accounts.OrgID, "photovoltaic modules washing", 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Title != "cleaning.md" {
		t.Fatalf("hybrid ranking: %+v", hits)
	}
	e.Run(t, []apitest.Scenario{{Name: "stats say embeddings are in use", Method: "GET", URL: "/api/vectorstore/documents/stats",
		As: "admin", Status: 200, Contains: []string{`"embeddings":true`}}})
	// another organisation's vectors are never compared
	hits, _ = e.Server.Library.Search(context.Background(), e.Accounts.OtherOrgID, "photovoltaic modules washing", 3)
	if len(hits) != 0 {
		t.Fatalf("another organisation found %+v", hits)
	}
	if calls.Load() < 3 {
		t.Fatalf("the embeddings endpoint was called %d times", calls.Load())
	}
}
