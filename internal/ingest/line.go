package ingest

import (
	"cmp"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/metrics"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// MaxLineBody bounds a line-protocol request body once decompressed (InfluxDB answers a
// larger one with 413, and Telegraf then splits its batch).
const MaxLineBody = 8 << 20

var busyTotal = metrics.Default.NewCounter("helio_ingest_busy_total",
	"Write requests answered 503 because too many were being read at once, by door.", "door")

var linePointsTotal = metrics.Default.NewCounter("helio_ingest_line_points_total",
	"Line-protocol points received, by outcome: stored, unmapped (a field with no rule or no device), rejected (by the write path's checks).", "outcome")

// LineService serves InfluxDB's write calls: POST /write (v1) and POST /api/v2/write (v2).
type LineService struct {
	DB     *store.DB
	Writer *telemetry.Writer
	// Now is the time of points without a timestamp (time.Now when nil).
	Now func() time.Time
	// MaxInFlight bounds the write requests read and parsed at once (default 8): with
	// 8 MiB bodies that keeps line ingest's memory under ~200 MiB whatever the number of
	// clients. Others wait their turn up to BusyWait, then get 503 and Retry-After, which
	// Telegraf and InfluxDB clients retry.
	MaxInFlight int
	BusyWait    time.Duration

	batch    lazyBatcher
	carry    counterCarry
	slotOnce sync.Once
	slots    chan struct{}
}

// acquire takes a slot for one write; false when none freed within BusyWait (or the client
// went away).
func (s *LineService) acquire(ctx context.Context) bool {
	s.slotOnce.Do(func() { s.slots = make(chan struct{}, cmp.Or(s.MaxInFlight, 8)) })
	select {
	case s.slots <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(cmp.Or(s.BusyWait, 10*time.Second))
	defer t.Stop()
	select {
	case s.slots <- struct{}{}:
		return true
	case <-t.C:
		return false
	case <-ctx.Done():
		return false
	}
}

func (s *LineService) release() { <-s.slots }

func (s *LineService) batcher() *telemetry.Batcher { return s.batch.get(s.Writer, "line") }

// Close writes what is pending and stops the batcher (after the HTTP server has stopped).
func (s *LineService) Close() { s.batch.close() }

// WriteV1Query is the query of POST /write.
type WriteV1Query struct {
	DB        string `query:"db" validate:"required" doc:"as InfluxDB 1.x requires it; the ingest key decides what is written"`
	Precision string `query:"precision" doc:"n, ns, u, us, ms, s, m or h (default ns)"`
	User      string `query:"u" doc:"ignored"`
	Password  string `query:"p" doc:"the ingest key (or Authorization: Token <key> / Basic)"`
}

// WriteV2Query is the query of POST /api/v2/write.
type WriteV2Query struct {
	Org       string `query:"org" doc:"accepted and ignored: the ingest key names the organisation"`
	Bucket    string `query:"bucket" validate:"required" doc:"as InfluxDB 2 requires it"`
	Precision string `query:"precision" doc:"ns, us, ms or s (default ns)"`
}

// bindLine reads a write's query (the route declares it; its errors are InfluxDB's, so
// the write binds it): the precision and the v1 key, or the message of the missing
// database (v1) or bucket (v2), the only check the structs make.
func bindLine(r *http.Request, v int) (q WriteV1Query, missing string) {
	if v == 1 {
		if httpapi.Bind(r, &q) != nil {
			return q, "database is required"
		}
		return q, ""
	}
	var q2 WriteV2Query
	if httpapi.Bind(r, &q2) != nil {
		return q, "bucket is required"
	}
	return WriteV1Query{Precision: q2.Precision}, ""
}

// LineRoutes registers the write calls and /ping.
func (s *LineService) LineRoutes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "POST", Path: "/write", Tag: "ingest",
		Summary: "InfluxDB 1.x write: line protocol, mapped to devices by the organisation's rules (key: Authorization Token/Basic or p=)",
		Access:  httpapi.Public, Query: WriteV1Query{}, Errors: LineErrorV1{}, RawStatus: http.StatusNoContent, RawBody: []string{"text/plain"}, Raw: func(w http.ResponseWriter, r *http.Request) { s.write(w, r, 1) }})
	api.Add(httpapi.Route{Method: "POST", Path: "/api/v2/write", Tag: "ingest",
		Summary: "InfluxDB 2 write: line protocol, mapped to devices by the organisation's rules (key: Authorization: Token)",
		Access:  httpapi.Public, Query: WriteV2Query{}, Errors: LineErrorV2{}, RawStatus: http.StatusNoContent, RawBody: []string{"text/plain"}, Raw: func(w http.ResponseWriter, r *http.Request) { s.write(w, r, 2) }})
	api.Add(httpapi.Route{Method: "GET", Path: "/ping", Tag: "ingest", Summary: "InfluxDB's health check for collectors: 204",
		Access: httpapi.Public, RawStatus: http.StatusNoContent, Raw: ping})
}

func ping(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("X-Influxdb-Version", "helio")
	w.WriteHeader(http.StatusNoContent)
}

// LineErrorV1 and LineErrorV2 are the error answers of the two writes, as InfluxDB 1.x
// and 2.x give them.
type (
	LineErrorV1 struct {
		Error string `json:"error" validate:"required"`
	}
	LineErrorV2 struct {
		Code    string `json:"code" validate:"required"`
		Message string `json:"message" validate:"required"`
	}
)

// lineFail answers as InfluxDB does: v1 {"error": …}, v2 {"code": …, "message": …}.
func lineFail(w http.ResponseWriter, v, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Influxdb-Version", "helio")
	w.WriteHeader(status)
	if v == 1 {
		_ = json.NewEncoder(w).Encode(LineErrorV1{Error: msg})
		return
	}
	_ = json.NewEncoder(w).Encode(LineErrorV2{Code: code, Message: msg})
}

// lineKey finds the ingest key: Authorization: Token <key>, Basic (the password), the
// v1 p= parameter (password), or X-Helio-Key.
func lineKey(r *http.Request, password string) string {
	auth := r.Header.Get("Authorization")
	switch {
	case strings.HasPrefix(auth, "Token "):
		return strings.TrimSpace(auth[len("Token "):])
	case strings.HasPrefix(auth, "Basic "):
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(auth[len("Basic "):]))
		if err == nil {
			if _, pw, ok := strings.Cut(string(b), ":"); ok {
				return pw
			}
		}
		return ""
	}
	if password != "" {
		return password
	}
	return r.Header.Get(KeyHeader)
}

// precisionUnit returns nanoseconds per unit of a precision name.
func precisionUnit(v int, p string) (int64, bool) {
	switch p {
	case "", "ns":
		return 1, true
	case "us":
		return 1e3, true
	case "ms":
		return 1e6, true
	case "s":
		return 1e9, true
	}
	if v == 1 {
		switch p {
		case "n":
			return 1, true
		case "u":
			return 1e3, true
		case "m":
			return 60e9, true
		case "h":
			return 3600e9, true
		}
	}
	return 0, false
}

// readLineBody reads the body, gunzipped if so encoded, up to MaxLineBody.
func readLineBody(r *http.Request) ([]byte, int, string) {
	var src io.Reader = http.MaxBytesReader(nil, r.Body, MaxLineBody+1)
	if strings.EqualFold(r.Header.Get("Content-Encoding"), "gzip") {
		zr, err := gzip.NewReader(src)
		if err != nil {
			return nil, http.StatusBadRequest, "body is not gzip: " + err.Error()
		}
		defer zr.Close()
		src = zr
	}
	body, err := io.ReadAll(io.LimitReader(src, MaxLineBody+1))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig) || len(body) > MaxLineBody:
		return nil, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body is larger than %d bytes", MaxLineBody)
	case err != nil:
		return nil, http.StatusBadRequest, "unable to read the body: " + err.Error()
	}
	return body, 0, ""
}

func (s *LineService) write(w http.ResponseWriter, r *http.Request, v int) {
	ctx := r.Context()
	q, missing := bindLine(r, v)
	if missing != "" {
		lineFail(w, v, http.StatusBadRequest, "invalid", missing)
		return
	}
	unit, ok := precisionUnit(v, q.Precision)
	if !ok {
		lineFail(w, v, http.StatusBadRequest, "invalid", fmt.Sprintf("invalid precision %q", q.Precision))
		return
	}
	sc, err := resolveKey(ctx, s.DB, lineKey(r, q.Password))
	if err != nil {
		lineFail(w, v, http.StatusInternalServerError, "internal error", "unable to check the key")
		return
	}
	if sc == nil {
		lineFail(w, v, http.StatusUnauthorized, "unauthorized", "unauthorized access")
		return
	}
	if !s.acquire(ctx) {
		busyTotal.Inc("line")
		w.Header().Set("Retry-After", "1")
		lineFail(w, v, http.StatusServiceUnavailable, "unavailable", "too many writes at once; retry")
		return
	}
	defer s.release()
	body, status, msg := readLineBody(r)
	if status != 0 {
		code := "invalid"
		if status == http.StatusRequestEntityTooLarge {
			code = "request too large"
		}
		malformedTotal.Inc("line")
		lineFail(w, v, status, code, msg)
		return
	}
	rules, err := LoadLineRules(ctx, s.DB, sc.orgID)
	if err != nil {
		lineFail(w, v, http.StatusInternalServerError, "internal error", "unable to read the rules")
		return
	}
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	m := newLineMapper(compileRules(rules), sc, unit, now())
	if err := ParseLines(body, m.add); err != nil {
		malformedTotal.Inc("line")
		lineFail(w, v, http.StatusBadRequest, "invalid", err.Error())
		return
	}
	if m.points == 0 {
		lineFail(w, v, http.StatusBadRequest, "invalid", "writing requires points")
		return
	}
	samples := m.samples()
	if err := s.carry.fill(ctx, s.DB, samples, m.present); err != nil {
		lineFail(w, v, http.StatusInternalServerError, "internal error", "unable to read the latest counters")
		return
	}
	dropped, first, err := s.store(ctx, samples, m.sn)
	if err != nil {
		lineFail(w, v, http.StatusInternalServerError, "internal error", "unable to store the points")
		return
	}
	if err := recordUnknown(ctx, s.DB, sc.orgID, m.unknown, now()); err != nil {
		lineFail(w, v, http.StatusInternalServerError, "internal error", "unable to record unmapped series")
		return
	}
	linePointsTotal.Add(float64(len(samples)-dropped), "stored")
	if dropped > 0 {
		linePointsTotal.Add(float64(dropped), "rejected")
		status := http.StatusUnprocessableEntity
		if v == 1 {
			status = http.StatusBadRequest
		}
		lineFail(w, v, status, "unprocessable entity", fmt.Sprintf("partial write: %s dropped=%d", first, dropped))
		return
	}
	w.Header().Set("X-Influxdb-Version", "helio")
	w.WriteHeader(http.StatusNoContent)
}

// store validates the samples, writes the valid ones and waits for their commit. It
// returns how many the write path's checks rejected and the first reason.
func (s *LineService) store(ctx context.Context, samples []telemetry.Sample, sn map[int64]string) (int, string, error) {
	if len(samples) == 0 {
		return 0, "", nil
	}
	reasons, err := s.Writer.Validate(ctx, samples)
	if err != nil {
		return 0, "", err
	}
	keep := samples[:0:0]
	dropped, first := 0, ""
	for i, reason := range reasons {
		if reason == "" {
			keep = append(keep, samples[i])
			continue
		}
		telemetry.CountRejected("line", reason)
		if dropped == 0 {
			first = fmt.Sprintf("point of device %s at %s: %s", sn[samples[i].DeviceID], samples[i].Time.UTC().Format(time.RFC3339Nano), reason)
		}
		dropped++
	}
	if len(keep) == 0 {
		return dropped, first, nil
	}
	type outcome struct{ err error }
	done := make(chan outcome, 1)
	s.batcher().Add(keep, func(_ telemetry.Result, err error) { done <- outcome{err} })
	return dropped, first, (<-done).err
}
