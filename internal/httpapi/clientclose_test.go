package httpapi

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A request the client gave up on (the browser navigated away) is logged as a client
// close, 499, below ERROR — not as a 500 failure.
func TestCancelledRequestLoggedAsClientClose(t *testing.T) {
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	defer slog.SetDefault(old)

	api := New(func(r *http.Request) (*Principal, error) { return nil, Unauthorized() })
	ctx, cancel := context.WithCancel(context.Background())
	api.Add(Route{Method: "GET", Path: "/v2/slow", Access: Public, Handle: func(r *http.Request) (any, error) {
		cancel() // the client leaves while the query runs
		<-r.Context().Done()
		return nil, Internal(fmt.Errorf("query: %w", r.Context().Err()))
	}})
	api.Add(Route{Method: "GET", Path: "/v2/broken", Access: Public, Handle: func(r *http.Request) (any, error) {
		return nil, Internal(fmt.Errorf("disk on fire"))
	}})
	h := Chain(api)

	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/v2/slow", nil).WithContext(ctx))
	log := buf.String()
	if strings.Contains(log, "level=ERROR") {
		t.Fatalf("a cancelled request was logged as an error:\n%s", log)
	}
	if !strings.Contains(log, "status=499") || strings.Contains(log, "status=500") {
		t.Fatalf("a cancelled request was not logged as 499:\n%s", log)
	}

	// a real failure still is an error
	buf.Reset()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/v2/broken", nil))
	if rec.Code != 500 || !strings.Contains(buf.String(), "level=ERROR") {
		t.Fatalf("a failure: %d\n%s", rec.Code, buf.String())
	}
}
