package httpapi

import (
	"net/http"
	"reflect"
	"sort"
	"strings"
)

// Access says who may call a route.
type Access int

const (
	Public Access = iota // no session needed
	Signed               // any signed-in user
	Admin                // role admin only
)

// Route is one API call: how it is reached, who may make it, what it takes and gives
// (for the OpenAPI document) and its handler.
type Route struct {
	Method  string
	Path    string // ServeMux pattern path, e.g. /v2/site/detail/{stationId}
	Tag     string
	Summary string
	Access  Access
	// Body, Query and Resp are zero values of the request body type, the query-parameter
	// struct (fields tagged `query:"name"`, see Bind) and the response data type. The
	// router binds Query before the handler runs (a 400 naming the parameters when it
	// fails) and the handler takes the value with Query[T]; a route with Errors binds
	// itself with Bind, to answer in its own shape.
	Body  any
	Query any
	Resp  any
	// Form, when set, documents a multipart/form-data body the call takes as well as Body:
	// a struct whose `form:"name"` fields are the parts ([]byte is a file, doc says what).
	Form any
	// Handle answers with data (wrapped in the envelope) or an error.
	Handle func(r *http.Request) (any, error)
	// Raw answers on its own (files, streams, WebSocket). RawTypes names the media types
	// its success may have (none: no body), RawStatus its success status (default 200; 101
	// for a WebSocket, 204 for no content).
	// A Raw route with Resp and no RawTypes answers the JSON envelope of Resp. RawBody
	// names the media types of a request body Raw reads itself (an upload, a stream).
	Raw       http.HandlerFunc
	RawTypes  []string
	RawStatus int
	RawBody   []string
	// Errors, when set, is the type of the route's error answers (4XX, 5XX) where they are
	// not the envelope (a protocol of another product, such as InfluxDB's).
	Errors any
	// Cache marks a dashboard read (GET) whose answer may come from the API's AnswerCache.
	// Its answer must depend only on the caller's view (organisation, role, station
	// authority), the request and the locale — never on which user asks.
	Cache bool
}

// Authenticator resolves the caller of a request or fails with a 401 *Error.
type Authenticator func(r *http.Request) (*Principal, error)

// API is the router: a ServeMux plus the list of routes it serves.
type API struct {
	mux      *http.ServeMux
	routes   []Route
	authn    Authenticator
	answers  *AnswerCache
	onWrite  []func(orgID int64)
	writeLog WriteLogger
}

// UseAnswerCache serves the routes marked Cache through c (nil: always computed).
func (a *API) UseAnswerCache(c *AnswerCache) { a.answers = c }

// New returns an empty API whose protected routes are guarded by authn.
func New(authn Authenticator) *API {
	a := &API{mux: http.NewServeMux(), authn: authn}
	for _, prefix := range []string{"/v2/", "/v1/", "/api/"} {
		a.mux.HandleFunc(prefix, a.unmatched)
	}
	return a
}

// Add registers a route.
func (a *API) Add(rt Route) {
	if rt.Query != nil {
		planOf(reflect.TypeOf(rt.Query)) // a tag that cannot work fails here
	}
	a.routes = append(a.routes, rt)
	a.mux.Handle(rt.Method+" "+rt.Path, a.wrap(rt))
}

// Mount serves a non-API handler (the console, health checks) at a pattern.
func (a *API) Mount(pattern string, h http.Handler) {
	a.mux.Handle(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setRouteLabel(r, pattern)
		h.ServeHTTP(w, r)
	}))
}

// Routes lists the registered routes, sorted by path and method.
func (a *API) Routes() []Route {
	out := append([]Route(nil), a.routes...)
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Method < out[j].Method
	})
	return out
}

// Pattern names the mux pattern that would serve r (tests use it to prove that every
// documented call has a route).
func (a *API) Pattern(r *http.Request) string {
	_, p := a.mux.Handler(r)
	return p
}

// ServeHTTP serves through the mux.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) { a.mux.ServeHTTP(w, r) }

func (a *API) wrap(rt Route) http.Handler {
	label := rt.Method + " " + rt.Path
	declared := queryNames(rt.Query)
	var query reflect.Type
	if rt.Query != nil && rt.Errors == nil {
		query = reflect.TypeOf(rt.Query)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setRouteLabel(r, label)
		var p *Principal
		if rt.Access != Public {
			var err error
			p, err = a.authn(r)
			if err != nil {
				Fail(w, r, err)
				return
			}
			if rt.Access == Admin && !p.IsAdmin() {
				e, tee, lr := a.startWrite(&rt, r, p)
				Fail(w, lr, Forbidden())
				a.finishWrite(lr, e, tee, http.StatusForbidden)
				return
			}
			r = r.WithContext(WithPrincipal(r.Context(), p))
		}
		entry, tee, r := a.startWrite(&rt, r, p)
		if query != nil {
			var err error
			if r, err = bindRoute(query, r); err != nil {
				Fail(w, r, err)
				a.finishWrite(r, entry, tee, http.StatusBadRequest)
				return
			}
		}
		// whatever a member writes drops the organisation's kept answers, before the
		// writer hears back (a key computed earlier holds the old generation)
		writes := a.answers != nil && p != nil && rt.Method != http.MethodGet
		if p != nil && rt.Method != http.MethodGet {
			defer a.wrote(p.OrgID) // and again once a raw handler is done
		}
		if rt.Raw != nil {
			if entry != nil {
				lw := &logStatus{ResponseWriter: w}
				defer func() { a.finishWrite(r, entry, tee, lw.status) }()
				w = lw
			}
			if writes {
				rt.Raw(&invalidating{ResponseWriter: w, drop: func() { a.answers.Invalidate(p.OrgID) }}, r)
				return
			}
			rt.Raw(w, r)
			return
		}
		var data any
		var err error
		if rt.Cache && a.answers != nil && p != nil && rt.Method == http.MethodGet {
			query := declaredQuery(r, declared)
			cr := cachedRequest(r, query)
			data, err = a.answers.get(a.answers.key(&rt, r, query, p), func() (any, error) { return rt.Handle(cr) })
		} else {
			data, err = rt.Handle(r)
		}
		if writes {
			a.answers.Invalidate(p.OrgID)
		}
		if p != nil && rt.Method != http.MethodGet {
			a.wrote(p.OrgID)
		}
		if err != nil {
			Fail(w, r, err)
			a.finishWrite(r, entry, tee, AsError(err).Status)
			return
		}
		OK(w, r, data)
		a.finishWrite(r, entry, tee, http.StatusOK)
	})
}

// unmatched answers API paths no route serves: 405 when the path exists with another
// method, else 404 — always as the JSON envelope, never the console's HTML.
func (a *API) unmatched(w http.ResponseWriter, r *http.Request) {
	for _, rt := range a.routes {
		if pathMatches(rt.Path, r.URL.Path) {
			w.Header().Add("Allow", rt.Method)
		}
	}
	if w.Header().Get("Allow") != "" {
		Fail(w, r, MethodNotAllowed())
		return
	}
	Fail(w, r, NotFound())
}

// pathMatches reports whether a concrete path fits a pattern path with {wildcards}.
func pathMatches(pattern, path string) bool {
	ps := strings.Split(strings.Trim(pattern, "/"), "/")
	xs := strings.Split(strings.Trim(path, "/"), "/")
	if len(ps) != len(xs) {
		return false
	}
	for i := range ps {
		if strings.HasPrefix(ps[i], "{") {
			if xs[i] == "" {
				return false
			}
			continue
		}
		if ps[i] != xs[i] {
			return false
		}
	}
	return true
}

// Media types of the files the API serves, for the routes' RawTypes.
const (
	MediaCSV  = "text/csv"
	MediaXLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	MediaPDF  = "application/pdf"
)

// ExportTypes are the media types of a list export (format=csv or xlsx).
var ExportTypes = []string{MediaCSV, MediaXLSX}
