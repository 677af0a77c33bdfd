package assistant

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/helio-energy/helio/internal/httpapi"
)

// QueryBody is a question, with the conversation so far.
type QueryBody struct {
	Question string        `json:"question" doc:"up to 2,000 characters"`
	History  []ChatMessage `json:"history,omitempty" doc:"earlier turns of this conversation (user and assistant), at most 10"`
}

// Event is one line of the streamed answer (application/x-ndjson): first "sources", then
// "delta" pieces of text, then "done" — or "error" when the answer broke off.
type Event struct {
	Type    string   `json:"type" doc:"sources, delta, error or done"`
	Sources []Source `json:"sources,omitempty"`
	Text    string   `json:"text,omitempty"`
	Message string   `json:"message,omitempty"`
	Status  int      `json:"status,omitempty" doc:"with error: the upstream status"`
	Model   string   `json:"model,omitempty" doc:"with done: the model that answered, or builtin"`
}

func (s *Service) queryRoute(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "POST", Path: "/api/query/", Tag: "assistant",
		Summary: "Ask the assistant; the answer streams as JSON lines (sources, text pieces, done) and stops when the client goes",
		Access:  httpapi.Signed, Body: QueryBody{}, Resp: Event{}, RawTypes: []string{"application/x-ndjson"}, Raw: s.query})
}

func validQuery(b *QueryBody) error {
	var v httpapi.Validator
	q := strings.TrimSpace(b.Question)
	if q == "" || utf8.RuneCountInString(q) > maxQuestionLen {
		v.Add("question", "question")
	}
	if len(b.History) > maxHistoryTurns {
		v.Add("history", "out_of_range", 0, maxHistoryTurns)
	}
	for _, m := range b.History {
		if (m.Role != "user" && m.Role != "assistant") || utf8.RuneCountInString(m.Content) > 4*maxQuestionLen {
			v.Add("history", "invalid")
			break
		}
	}
	return v.Err()
}

func (s *Service) query(w http.ResponseWriter, r *http.Request) {
	var body QueryBody
	if err := httpapi.Decode(r, &body); err != nil {
		httpapi.Fail(w, r, err)
		return
	}
	if err := validQuery(&body); err != nil {
		httpapi.Fail(w, r, err)
		return
	}
	select {
	case s.answering <- struct{}{}:
		defer func() { <-s.answering }()
	default:
		httpapi.Fail(w, r, httpapi.TooManyRequests("assistant_busy"))
		return
	}
	// The request's context ends when the client goes: retrieval and the upstream model
	// stop with it.
	ctx := r.Context()
	p := httpapi.Caller(r)
	locale := httpapi.Locale(r)
	q := strings.TrimSpace(body.Question)
	facts, err := fleetFacts(ctx, s.Fleet, p, locale, q)
	if err != nil {
		if ctx.Err() == nil {
			httpapi.Fail(w, r, httpapi.Internal(err))
		}
		return
	}
	passages, err := s.Library.Search(ctx, p.OrgID, q, topPassages)
	if err != nil {
		if ctx.Err() == nil {
			httpapi.Fail(w, r, httpapi.Internal(err))
		}
		return
	}
	out := newStream(w)
	sources := append(append([]Source{}, facts.Sources...), passages...)
	for i := range sources {
		sources[i].Excerpt = excerpt(sources[i].Excerpt, 400)
	}
	if !out.send(Event{Type: "sources", Sources: sources}) {
		return
	}
	model := "builtin"
	if s.Chat != nil {
		model = s.Chat.Model
		wrote := false
		err := s.Chat.Stream(ctx, prompt(locale, facts, passages, body.History, q), func(piece string) error {
			wrote = true
			if !out.send(Event{Type: "delta", Text: piece}) {
				return context.Canceled
			}
			return nil
		})
		switch {
		case ctx.Err() != nil:
			return
		case err != nil && wrote:
			out.send(upstreamEvent(err))
			return
		case err != nil:
			slog.Warn("assistant: chat endpoint failed; answering without it", "err", err)
			model = "builtin"
			reason := "error"
			var ue *UpstreamError
			if errors.As(err, &ue) {
				reason = http.StatusText(ue.Status)
			}
			if !out.send(Event{Type: "delta", Text: httpapi.T(locale, "ans.llm_failed", reason) + "\n\n"}) {
				return
			}
			if !out.text(builtInAnswer(locale, facts, passages)) {
				return
			}
		}
	} else if !out.text(builtInAnswer(locale, facts, passages)) {
		return
	}
	out.send(Event{Type: "done", Model: model})
}

func upstreamEvent(err error) Event {
	ev := Event{Type: "error", Status: http.StatusBadGateway, Message: "the language model stopped answering"}
	var ue *UpstreamError
	if errors.As(err, &ue) {
		ev.Status = ue.Status
	}
	return ev
}

// stream writes JSON lines and flushes each, so the console shows the answer as it grows.
type stream struct {
	w     http.ResponseWriter
	rc    *http.ResponseController
	enc   *json.Encoder
	alive bool
}

func newStream(w http.ResponseWriter) *stream {
	h := w.Header()
	h.Set("Content-Type", "application/x-ndjson; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	return &stream{w: w, rc: http.NewResponseController(w), enc: json.NewEncoder(w), alive: true}
}

func (s *stream) send(ev Event) bool {
	if !s.alive {
		return false
	}
	_ = s.rc.SetWriteDeadline(time.Now().Add(30 * time.Second))
	if err := s.enc.Encode(ev); err != nil {
		s.alive = false
		return false
	}
	if err := s.rc.Flush(); err != nil {
		s.alive = false
	}
	return s.alive
}

// text sends a built-in answer in pieces of a line or so.
func (s *stream) text(t string) bool {
	for len(t) > 0 {
		i := strings.IndexByte(t, '\n')
		if i < 0 {
			i = len(t) - 1
		}
		if !s.send(Event{Type: "delta", Text: t[:i+1]}) {
			return false
		}
		t = t[i+1:]
	}
	return true
}
