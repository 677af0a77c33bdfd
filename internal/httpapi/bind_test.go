package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

type kinds struct {
	S      string   `query:"s" maxLen:"5"`
	I      int      `query:"i" min:"-3" max:"3"`
	I8     int8     `query:"i8"`
	U      uint16   `query:"u"`
	F      float64  `query:"f" min:"0" max:"1.5"`
	B      bool     `query:"b"`
	P      *int64   `query:"p"`
	PS     *string  `query:"ps"`
	IDs    []int64  `query:"ids" validate:"id" maxItems:"3"`
	Names  []string `query:"names"`
	E      string   `query:"e" enum:"asc,desc"`
	EI     int      `query:"ei" enum:"-1,0,1" default:"-1"`
	ID     int64    `query:"id" validate:"id"`
	Page   int      `query:"page" min:"1" max:"2147483647" default:"1"`
	Need   string   `query:"need" validate:"required"`
	Plain  string   // not a parameter
	parsed string
}

// Check is the struct's own rule: ps needs s.
func (k *kinds) Check(v *Validator) {
	if k.PS != nil && k.S == "" {
		v.Add("ps", "needs_sort")
	}
	k.parsed = strings.ToUpper(k.S)
}

func bindQuery(t *testing.T, query string) (kinds, map[string]Msg) {
	t.Helper()
	var k kinds
	err := Bind(httptest.NewRequest("GET", "/x?"+query, nil), &k)
	if err == nil {
		return k, nil
	}
	e := AsError(err)
	if e.Status != http.StatusBadRequest {
		t.Fatalf("%s: status %d", query, e.Status)
	}
	return k, e.Fields
}

func TestBindEveryKind(t *testing.T) {
	k, bad := bindQuery(t, "s=+ab+&i=-3&i8=7&u=65535&f=1.25&b=true&p=42&ps=x&ids=1,+2&ids=3&names=a,b&e=asc&ei=1&id=9&page=4&need=y&Plain=z&other=1")
	if bad != nil {
		t.Fatalf("refused: %v", bad)
	}
	want := kinds{S: "ab", I: -3, I8: 7, U: 65535, F: 1.25, B: true, IDs: []int64{1, 2, 3}, Names: []string{"a", "b"},
		E: "asc", EI: 1, ID: 9, Page: 4, Need: "y", parsed: "AB"}
	if k.P == nil || *k.P != 42 || k.PS == nil || *k.PS != "x" {
		t.Fatalf("pointers %v %v", k.P, k.PS)
	}
	k.P, k.PS = nil, nil
	if !reflect.DeepEqual(k, want) {
		t.Fatalf("bound\n %+v\nwant\n %+v", k, want)
	}
}

func TestBindDefaultsAndAbsent(t *testing.T) {
	k, bad := bindQuery(t, "need=y&s=&p=")
	if bad != nil {
		t.Fatalf("refused: %v", bad)
	}
	if k.EI != -1 || k.Page != 1 || k.P != nil || k.IDs != nil || k.S != "" {
		t.Fatalf("defaults: %+v", k)
	}
}

func TestBindRefusesByName(t *testing.T) {
	cases := []struct {
		query, field, key string
		args              []any
	}{
		{"", "need", "required", nil},
		{"need=+", "need", "required", nil},
		{"i=x", "i", "out_of_range", []any{"-3", "3"}},
		{"i=4", "i", "out_of_range", []any{"-3", "3"}},
		{"i8=300", "i8", "invalid_format", nil},
		{"u=-1", "u", "invalid_format", nil},
		{"f=NaN", "f", "out_of_range", []any{"0", "1.5"}},
		{"f=1.6", "f", "out_of_range", []any{"0", "1.5"}},
		{"b=maybe", "b", "invalid_format", nil},
		{"p=1e3", "p", "invalid_format", nil},
		{"ids=1,x", "ids", "invalid_format", nil},
		{"ids=1,0", "ids", "invalid_format", nil},
		{"ids=1,2,3,4", "ids", "too_many", []any{3}},
		{"e=up", "e", "one_of", []any{"asc, desc"}},
		{"ei=2", "ei", "one_of", []any{"-1, 0, 1"}},
		{"ei=x", "ei", "one_of", []any{"-1, 0, 1"}},
		{"id=-3", "id", "invalid_format", nil},
		{"id=99999999999999999999", "id", "invalid_format", nil},
		{"page=0", "page", "out_of_range", []any{"1", "2147483647"}},
		{"page=3000000000", "page", "out_of_range", []any{"1", "2147483647"}},
		{"s=abcdef", "s", "too_long", []any{5}},
		{"ps=x", "ps", "needs_sort", nil},
	}
	for _, c := range cases {
		q := c.query
		if c.field != "need" {
			q += "&need=y"
		}
		_, bad := bindQuery(t, q)
		m, ok := bad[c.field]
		if !ok || m.Key != c.key || !reflect.DeepEqual(m.Args, c.args) {
			t.Errorf("%s: %v, want %s %s %v", c.query, bad, c.field, c.key, c.args)
		}
		if len(bad) != 1 {
			t.Errorf("%s: more than %s named: %v", c.query, c.field, bad)
		}
	}
}

func TestBindBadTagsPanic(t *testing.T) {
	for _, v := range []any{
		struct {
			X int `query:"x" min:"1"`
		}{},
		struct {
			X int `query:"x" validate:"positive"`
		}{},
		struct {
			X map[string]int `query:"x"`
		}{},
		struct {
			X int `query:"x" min:"1" max:"5" default:"9"`
		}{},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%T: no panic", v)
				}
			}()
			planOf(reflect.TypeOf(v))
		}()
	}
}

type limitQuery struct {
	Limit int `query:"limit" min:"1" max:"50" default:"10" doc:"how many"`
}

// The router binds before the handler: a bad query is a 400 naming the parameter and the
// handler never runs; a good one reaches it as a value.
func TestRouterBindsQuery(t *testing.T) {
	a := New(func(*http.Request) (*Principal, error) { return &Principal{UserID: 1, OrgID: 1, Role: "admin"}, nil })
	ran := 0
	a.Add(Route{Method: "GET", Path: "/v2/top", Access: Signed, Query: limitQuery{}, Resp: 0,
		Handle: func(r *http.Request) (any, error) {
			ran++
			return Query[limitQuery](r).Limit, nil
		}})
	call := func(q string) (int, string) {
		w := httptest.NewRecorder()
		a.ServeHTTP(w, httptest.NewRequest("GET", "/v2/top"+q, nil))
		return w.Code, w.Body.String()
	}
	if code, body := call("?limit=99"); code != 400 || !strings.Contains(body, `"limit"`) || ran != 0 {
		t.Fatalf("bad limit: %d %s (handler ran %d)", code, body, ran)
	}
	if code, body := call("?limit=7&junk=1"); code != 200 || !strings.Contains(body, `"data":7`) {
		t.Fatalf("limit 7: %d %s", code, body)
	}
	if code, body := call(""); code != 200 || !strings.Contains(body, `"data":10`) {
		t.Fatalf("default: %d %s", code, body)
	}
	doc, _ := json.Marshal(a.OpenAPI("test"))
	for _, want := range []string{`"maximum":50`, `"minimum":1`, `"default":10`, `"description":"how many"`} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("document lacks %s: %s", want, doc)
		}
	}
}

func TestQueryOfAnotherTypePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	Query[limitQuery](httptest.NewRequest("GET", "/", nil))
}

type shared struct {
	Sort string `query:"sort" enum:"a,b"`
}

type withEmbedded struct {
	Q string `query:"q"`
	shared
	Paging
}

// Embedded structs bring their parameters: bound, named and documented as the struct's own.
func TestBindEmbedded(t *testing.T) {
	var q withEmbedded
	if err := Bind(httptest.NewRequest("GET", "/x?q=z&sort=b&page=2", nil), &q); err != nil {
		t.Fatal(err)
	}
	if q.Q != "z" || q.Sort != "b" || q.Page != 2 || q.PageSize != 10 {
		t.Fatalf("bound %+v", q)
	}
	err := Bind(httptest.NewRequest("GET", "/x?sort=c&pageSize=500", nil), &q)
	if f := AsError(err).Fields; f["sort"].Key != "one_of" || f["pageSize"].Key != "out_of_range" {
		t.Fatalf("refused %v", err)
	}
	if got := strings.Join(QueryNames(withEmbedded{}), ","); got != "q,sort,page,pageSize" {
		t.Fatalf("names %s", got)
	}
	if got := Enum(withEmbedded{}, "sort"); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Fatalf("enum %v", got)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("a parameter declared twice: no panic")
			}
		}()
		planOf(reflect.TypeOf(struct {
			Page int `query:"page"`
			Paging
		}{}))
	}()
}
