package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"time"
)

// StatusClientClosed is logged for a request the client gave up on before its answer
// (the browser navigated away): nginx's 499. Nobody reads it; it keeps such requests out of
// the error log and the 5xx figures.
const StatusClientClosed = 499

// Envelope is the shape of every JSON response.
type Envelope struct {
	Code int    `json:"code"`
	Msg  string `json:"msg"`
	Data any    `json:"data"`
}

// FieldErrors is the data of a 400 that names bad fields.
type FieldErrors struct {
	Fields map[string]string `json:"fields"`
}

// Page is the data of every list call.
type Page[T any] struct {
	List  []T   `json:"list"`
	Total int64 `json:"total"`
	// TotalCapped says there are more matches than Total: the list stopped counting there.
	TotalCapped bool `json:"totalCapped,omitempty"`
	Page        int  `json:"page"`
	PageSize    int  `json:"pageSize"`
}

// WriteJSON writes an envelope with the given status.
func WriteJSON(w http.ResponseWriter, status int, env Envelope) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if a, ok := env.Data.(Appender); ok {
		if b, ok := appendEnvelope(make([]byte, 0, 8192), env, a); ok {
			w.WriteHeader(status)
			_, _ = w.Write(b)
			return
		}
	}
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(env)
}

// OK writes a success envelope.
func OK(w http.ResponseWriter, r *http.Request, data any) {
	WriteJSON(w, http.StatusOK, Envelope{Code: http.StatusOK, Msg: T(Locale(r), "ok"), Data: data})
}

// Fail writes the envelope for err, translated for the caller. Internal errors are
// logged with their cause and answered without it.
func Fail(w http.ResponseWriter, r *http.Request, err error) {
	e := AsError(err)
	loc := Locale(r)
	if e.Status >= 500 && errors.Is(r.Context().Err(), context.Canceled) {
		slog.DebugContext(r.Context(), "request cancelled by the client", "method", r.Method, "path", r.URL.Path, "err", e.Err)
		w.WriteHeader(StatusClientClosed)
		return
	}
	if e.Status >= 500 && e.Status != http.StatusServiceUnavailable {
		slog.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", e.Err)
	}
	env := Envelope{Code: e.Code, Msg: T(loc, e.Key, e.Args...)}
	if len(e.Fields) > 0 {
		fields := make(map[string]string, len(e.Fields))
		for k, m := range e.Fields {
			fields[k] = T(loc, m.Key, m.Args...)
		}
		env.Data = FieldErrors{Fields: fields}
	}
	if e.Status == http.StatusTooManyRequests && len(e.Args) > 0 {
		if mins, ok := e.Args[0].(int); ok {
			w.Header().Set("Retry-After", itoa(mins*60))
		}
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", itoa(int((e.RetryAfter+time.Second-1)/time.Second)))
	}
	WriteJSON(w, e.Status, env)
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
