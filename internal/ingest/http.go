package ingest

import (
	"fmt"
	"net/http"
	"sync"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/metrics"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

var malformedTotal = metrics.Default.NewCounter("helio_ingest_malformed_total",
	"Ingest messages or requests that could not be parsed, dropped whole, by source.", "source")

// KeyHeader carries the HTTP ingest key.
const KeyHeader = "X-Helio-Key"

// Service serves the HTTP ingest call. Concurrent requests are committed together
// through one batcher (one writer, no lock contention); each answers after its commit.
type Service struct {
	DB     *store.DB
	Writer *telemetry.Writer
	// Mapping is shared with the MQTT consumer (MQTTOptions.Mapping): its rules and what
	// arrived. Nil: one is made on first use (no consumer: nothing arrives).
	Mapping *Mapping

	mapOnce sync.Once
	batch   lazyBatcher
}

func (s *Service) mapping() *Mapping {
	s.mapOnce.Do(func() {
		if s.Mapping == nil {
			s.Mapping = NewMapping(s.DB)
		}
	})
	return s.Mapping
}

func (s *Service) batcher() *telemetry.Batcher { return s.batch.get(s.Writer, "http") }

// Close writes what is pending and stops the service's batcher (call it at shutdown,
// after the HTTP server has stopped).
func (s *Service) Close() { s.batch.close() }

// IngestRequest is the body of POST /v2/ingest/samples.
type IngestRequest struct {
	Samples []WireSample `json:"samples"`
}

// IngestResponse tells what became of the samples (only after they are committed).
type IngestResponse struct {
	Accepted   int `json:"accepted"`
	Duplicates int `json:"duplicates" doc:"identical to a sample already stored: ignored"`
	Conflicts  int `json:"conflicts" doc:"another reading at an instant already stored: the first is kept"`
}

// Routes registers POST /v2/ingest/samples. The key in X-Helio-Key is its
// authentication, so the route is public to the session layer.
func (s *Service) Routes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/ingest/samples", Tag: "ingest",
		Summary: "Store device samples (authenticated by a device or collector key in X-Helio-Key)",
		Access:  httpapi.Public, Body: IngestRequest{}, Resp: IngestResponse{}, Handle: s.ingest})
}

func badKey() *httpapi.Error {
	return &httpapi.Error{Status: http.StatusUnauthorized, Code: http.StatusUnauthorized, Key: "invalid_ingest_key"}
}

func (s *Service) ingest(r *http.Request) (any, error) {
	ctx := r.Context()
	sc, err := resolveKey(ctx, s.DB, r.Header.Get(KeyHeader))
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	if sc == nil {
		return nil, badKey()
	}
	var req IngestRequest
	fast := func(b []byte) bool {
		f, ok := fastRequest(b)
		if ok {
			req = f
		}
		return ok
	}
	if err := httpapi.DecodeFast(r, &req, httpapi.MaxBodyBytes, fast); err != nil {
		malformedTotal.Inc("http")
		return nil, err
	}
	var v httpapi.Validator
	if len(req.Samples) == 0 {
		v.Add("samples", "required")
	}
	samples := make([]telemetry.Sample, len(req.Samples))
	foreign := make([]bool, len(req.Samples))
	for i := range req.Samples {
		w := &req.Samples[i]
		field := fmt.Sprintf("samples[%d]", i)
		id, ok := sc.devices[w.SN]
		switch {
		case w.SN == "":
			v.Add(field+".sn", "required")
			foreign[i] = true
		case !ok:
			v.Add(field+".sn", "not_your_device", w.SN)
			foreign[i] = true
		}
		samples[i] = w.Sample(id)
	}
	if err := v.Err(); err != nil {
		// the whole batch is refused: nothing is stored
		for _, f := range foreign {
			if f {
				telemetry.CountRejected("http", "not_your_device")
			} else {
				telemetry.CountRejected("http", "batch_refused")
			}
		}
		return nil, err
	}
	reasons, err := s.Writer.Validate(ctx, samples)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	for i, reason := range reasons {
		if reason != "" {
			v.Add(fmt.Sprintf("samples[%d]", i), reason)
		}
	}
	if err := v.Err(); err != nil {
		for _, reason := range reasons {
			if reason == "" {
				reason = "batch_refused"
			}
			telemetry.CountRejected("http", reason)
		}
		return nil, err
	}
	type outcome struct {
		res telemetry.Result
		err error
	}
	done := make(chan outcome, 1)
	s.batcher().Add(samples, func(res telemetry.Result, err error) { done <- outcome{res, err} })
	o := <-done
	if o.err != nil {
		return nil, httpapi.Internal(o.err)
	}
	return IngestResponse{Accepted: o.res.Accepted, Duplicates: o.res.Duplicates, Conflicts: o.res.Conflicts}, nil
}
