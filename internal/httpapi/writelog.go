package httpapi

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"time"
)

// WriteEntry is one API write as the system log keeps it: who, what, when, from where,
// with what result, and — when the handler says so — the object before and after.
// The router fills it for every call that is not a GET, so a new route is logged
// without doing anything; handlers only add what the router cannot know.
type WriteEntry struct {
	At       time.Time
	OrgID    int64
	UserID   int64
	Username string
	Method   string
	Route    string // the route pattern, e.g. POST /v2/org/user/edit/{uid}
	Path     string // the path called
	Client   string
	Status   int
	// Action, Target and Detail name what was done (e.g. "user.edit", "alice"); empty:
	// the route pattern says it.
	Action, Target, Detail string
	// Before and After are the object around an edit (nil when not given); Body is the
	// request body (secrets masked) for calls that give no After.
	Before, After any
	Body          []byte
}

// WriteLogger receives every write once it has been answered.
type WriteLogger func(ctx context.Context, e *WriteEntry)

// UseWriteLog sends every write to l (nil: none).
func (a *API) UseWriteLog(l WriteLogger) { a.writeLog = l }

type writeEntryKey struct{}

// CurrentWrite returns the log entry of the write being served, or nil (a GET, a call
// outside the router, or no system log).
func CurrentWrite(ctx context.Context) *WriteEntry {
	e, _ := ctx.Value(writeEntryKey{}).(*WriteEntry)
	return e
}

// LogChange records the object before and after an edit in the write's log entry.
func LogChange(ctx context.Context, before, after any) {
	if e := CurrentWrite(ctx); e != nil {
		e.Before, e.After = before, after
	}
}

// maxLoggedBody is how much of a request body the log keeps.
const maxLoggedBody = 8 << 10

// teeBody keeps the first maxLoggedBody bytes of what the handler reads from the body.
type teeBody struct {
	io.ReadCloser
	buf bytes.Buffer
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	if room := maxLoggedBody - t.buf.Len(); room > 0 && n > 0 {
		t.buf.Write(p[:min(n, room)])
	}
	return n, err
}

// startWrite prepares the log entry of a write and the request that carries it.
func (a *API) startWrite(rt *Route, r *http.Request, p *Principal) (*WriteEntry, *teeBody, *http.Request) {
	if a.writeLog == nil || rt.Method == http.MethodGet {
		return nil, nil, r
	}
	e := &WriteEntry{At: time.Now(), Method: rt.Method, Route: rt.Method + " " + rt.Path, Path: r.URL.Path,
		Client: ClientAddr(r)}
	if p != nil {
		e.OrgID, e.UserID, e.Username = p.OrgID, p.UserID, p.Username
	}
	var tee *teeBody
	if r.Body != nil && r.Body != http.NoBody {
		tee = &teeBody{ReadCloser: r.Body}
		r.Body = tee
	}
	return e, tee, r.WithContext(context.WithValue(r.Context(), writeEntryKey{}, e))
}

// finishWrite hands a served write to the log: every signed-in caller's write, and a
// public call's when its handler named what it did (a sign-in), not device ingest.
func (a *API) finishWrite(r *http.Request, e *WriteEntry, tee *teeBody, status int) {
	if e == nil || (e.UserID == 0 && e.Action == "") {
		return
	}
	e.Status = status
	if tee != nil {
		e.Body = tee.buf.Bytes()
	}
	a.writeLog(context.WithoutCancel(r.Context()), e)
}

// logStatus remembers the status a raw handler answered with.
type logStatus struct {
	http.ResponseWriter
	status int
}

func (w *logStatus) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *logStatus) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *logStatus) Unwrap() http.ResponseWriter { return w.ResponseWriter }
