package httpapi

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// A route's query parameters are declared once, as the fields of its Query struct, and
// the same tags serve the OpenAPI document and the binding of every request:
//
//	query:"name"         the parameter (fields without it are not parameters)
//	validate:"required"  it must be given (a blank value counts as absent)
//	validate:"id"        a positive integer id (anything else: invalid_format)
//	enum:"a,b,c"         one of these values (else one_of, naming them)
//	min:"1" max:"200"    a number in [min, max] (else out_of_range; both are given)
//	maxLen:"100"         a string of at most so many characters (too_long)
//	maxItems:"50"        a list of at most so many items (too_many)
//	default:"10"         the value when absent
//	doc:"…"              the description
//
// Fields may be strings, booleans, integers, floats, pointers to them (nil when absent)
// and slices of them (a comma-separated list, or the parameter repeated). A value that is
// not of the field's kind is refused with the key its checks name (one_of, out_of_range)
// or invalid_format. Values are trimmed; parameters the struct does not declare are
// ignored. What the tags cannot say (a range whose end must follow its start, a
// parameter required with another) the struct checks itself by implementing Checker,
// which may also keep what it parsed in unexported fields for the handler.

// Checker is a query struct that checks what its tags cannot say. Check runs after the
// fields are read (also when some were refused) and adds its problems to v.
type Checker interface {
	Check(v *Validator)
}

// Query returns the route's query value, bound and checked by the router before the
// handler runs. T must be the type of the route's Query.
func Query[T any](r *http.Request) T {
	v, ok := r.Context().Value(queryKey{}).(T)
	if !ok {
		panic(fmt.Sprintf("httpapi.Query[%T]: the route does not declare this query", v))
	}
	return v
}

// Bind reads r's query into dst, a pointer to a query struct, and checks it: nil, or a
// 400 naming every refused parameter. The router binds a route's Query itself; a raw
// route that answers errors in a shape of its own (Route.Errors) calls Bind.
func Bind(r *http.Request, dst any) error {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("httpapi.Bind: %T is not a pointer to a struct", dst))
	}
	var v Validator
	bindFields(planOf(rv.Elem().Type()), r.URL.Query(), rv.Elem(), &v)
	if c, ok := dst.(Checker); ok {
		c.Check(&v)
	}
	return v.Err()
}

type queryKey struct{}

// bindRoute binds a route's Query (a struct value) and returns r carrying the value.
func bindRoute(t reflect.Type, r *http.Request) (*http.Request, error) {
	p := reflect.New(t)
	if err := Bind(r, p.Interface()); err != nil {
		return r, err
	}
	return r.WithContext(context.WithValue(r.Context(), queryKey{}, p.Elem().Interface())), nil
}

// param is what the tags of one field say.
type param struct {
	index    []int // the field, through embedded structs
	name     string
	typ      reflect.Type // the field's type
	elem     reflect.Type // the scalar under pointers and slices
	list     bool
	required bool
	id       bool
	enum     []string
	min, max string
	lo, hi   float64
	maxLen   int
	maxItems int
	def      string
	doc      string
}

var plans sync.Map // reflect.Type → []param

// planOf reads the query tags of struct type t once; a tag that cannot work panics, so
// that registering the route fails.
func planOf(t reflect.Type) []param {
	if p, ok := plans.Load(t); ok {
		return p.([]param)
	}
	out := planFields(t, nil)
	seen := map[string]bool{}
	for _, p := range out {
		if seen[p.name] {
			panic(fmt.Sprintf("httpapi: %s declares the query parameter %s twice", t, p.name))
		}
		seen[p.name] = true
	}
	plans.Store(t, out)
	return out
}

// planFields reads the tagged fields of t, and those of the structs it embeds (untagged),
// in order; at is the index of t in the outer struct.
func planFields(t reflect.Type, at []int) []param {
	var out []param
	for i := range t.NumField() {
		f := t.Field(i)
		name := f.Tag.Get("query")
		index := append(append([]int(nil), at...), i)
		if name == "" {
			if f.Anonymous && f.Type.Kind() == reflect.Struct {
				out = append(out, planFields(f.Type, index)...)
			}
			continue
		}
		p := param{index: index, name: name, typ: f.Type, elem: f.Type, doc: f.Tag.Get("doc"), def: f.Tag.Get("default")}
		if p.elem.Kind() == reflect.Slice {
			p.list, p.elem = true, p.elem.Elem()
		}
		for p.elem.Kind() == reflect.Pointer {
			p.elem = p.elem.Elem()
		}
		bad := func(format string, args ...any) {
			panic(fmt.Sprintf("httpapi: %s.%s: "+format, append([]any{t, f.Name}, args...)...))
		}
		switch p.elem.Kind() {
		case reflect.String, reflect.Bool, reflect.Float32, reflect.Float64,
			reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		default:
			bad("a query parameter cannot be a %s", f.Type)
		}
		for _, rule := range strings.Split(f.Tag.Get("validate"), ",") {
			switch rule {
			case "":
			case "required":
				p.required = true
			case "id":
				p.id = true
			default:
				bad("unknown rule %q", rule)
			}
		}
		if e := f.Tag.Get("enum"); e != "" {
			p.enum = strings.Split(e, ",")
		}
		p.min, p.max = f.Tag.Get("min"), f.Tag.Get("max")
		if (p.min == "") != (p.max == "") {
			bad("min and max go together")
		}
		if p.min != "" {
			var e1, e2 error
			p.lo, e1 = strconv.ParseFloat(p.min, 64)
			p.hi, e2 = strconv.ParseFloat(p.max, 64)
			if e1 != nil || e2 != nil || p.lo > p.hi {
				bad("bad range %s-%s", p.min, p.max)
			}
		}
		for tag, n := range map[string]*int{"maxLen": &p.maxLen, "maxItems": &p.maxItems} {
			if s := f.Tag.Get(tag); s != "" {
				var err error
				if *n, err = strconv.Atoi(s); err != nil || *n < 1 {
					bad("bad %s %q", tag, s)
				}
			}
		}
		if p.def != "" {
			var v Validator
			bindField(p, []string{p.def}, reflect.New(f.Type).Elem(), &v)
			if v.Err() != nil {
				bad("the default %q fails its own checks", p.def)
			}
		}
		out = append(out, p)
	}
	return out
}

// QueryNames lists the parameters of a query struct, in order (embedded structs' too).
func QueryNames(query any) []string {
	var out []string
	for _, p := range planOf(reflect.TypeOf(query)) {
		out = append(out, p.name)
	}
	return out
}

func bindFields(ps []param, q url.Values, dst reflect.Value, v *Validator) {
	for _, p := range ps {
		raw := q[p.name]
		if blank(raw) {
			if p.required {
				v.Add(p.name, "required")
				continue
			}
			if p.def == "" {
				continue
			}
			raw = []string{p.def}
		}
		bindField(p, raw, dst.FieldByIndex(p.index), v)
	}
}

func blank(raw []string) bool {
	for _, s := range raw {
		if strings.TrimSpace(s) != "" {
			return false
		}
	}
	return true
}

// bindField reads the values of one parameter (at least one not blank) into f.
func bindField(p param, raw []string, f reflect.Value, v *Validator) {
	if !p.list {
		x, ok := scalar(p, strings.TrimSpace(raw[0]), v)
		if ok {
			set(f, x)
		}
		return
	}
	var items []string
	for _, s := range raw {
		for _, item := range strings.Split(s, ",") {
			items = append(items, strings.TrimSpace(item))
		}
	}
	if p.maxItems > 0 && len(items) > p.maxItems {
		v.Add(p.name, "too_many", p.maxItems)
		return
	}
	list := reflect.MakeSlice(p.typ, 0, len(items))
	for _, s := range items {
		x, ok := scalar(p, s, v)
		if !ok {
			return
		}
		e := reflect.New(p.typ.Elem()).Elem()
		set(e, x)
		list = reflect.Append(list, e)
	}
	f.Set(list)
}

// set stores x (of p.elem's kind) in f, through pointers.
func set(f reflect.Value, x reflect.Value) {
	for f.Kind() == reflect.Pointer {
		f.Set(reflect.New(f.Type().Elem()))
		f = f.Elem()
	}
	f.Set(x.Convert(f.Type()))
}

// scalar parses and checks one value; a problem is added to v.
func scalar(p param, s string, v *Validator) (reflect.Value, bool) {
	refuse := func() (reflect.Value, bool) {
		switch {
		case p.enum != nil:
			v.Add(p.name, "one_of", strings.Join(p.enum, ", "))
		case p.min != "":
			v.Add(p.name, "out_of_range", p.min, p.max)
		default:
			v.Add(p.name, "invalid_format")
		}
		return reflect.Value{}, false
	}
	var x reflect.Value
	var num float64
	switch k := p.elem.Kind(); k {
	case reflect.String:
		if p.maxLen > 0 && utf8.RuneCountInString(s) > p.maxLen {
			v.Add(p.name, "too_long", p.maxLen)
			return x, false
		}
		x = reflect.ValueOf(s)
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return refuse()
		}
		x = reflect.ValueOf(b)
	case reflect.Float32, reflect.Float64:
		f, err := strconv.ParseFloat(s, p.elem.Bits())
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return refuse()
		}
		x, num = reflect.ValueOf(f), f
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(s, 10, p.elem.Bits())
		if err != nil || p.id && n == 0 {
			return refuse()
		}
		x, num = reflect.ValueOf(n), float64(n)
	default: // the signed integers
		n, err := strconv.ParseInt(s, 10, p.elem.Bits())
		if err != nil || p.id && n <= 0 {
			return refuse()
		}
		x, num = reflect.ValueOf(n), float64(n)
	}
	if p.enum != nil && !inEnum(p, s, x) {
		return refuse()
	}
	if p.min != "" && p.elem.Kind() != reflect.String && (num < p.lo || num > p.hi) {
		return refuse()
	}
	return x, true
}

// inEnum tells whether a value is one of the enum's: strings as written, numbers by value
// (07 is 7).
func inEnum(p param, s string, x reflect.Value) bool {
	for _, e := range p.enum {
		if p.elem.Kind() == reflect.String || p.elem.Kind() == reflect.Bool {
			if e == s {
				return true
			}
			continue
		}
		if f, err := strconv.ParseFloat(e, 64); err == nil && x.CanConvert(reflect.TypeOf(f)) && x.Convert(reflect.TypeOf(f)).Float() == f {
			return true
		}
	}
	return false
}

// Enum is the enum tag of a query struct's parameter, for code that needs the same list
// (a list's sort keys), so that the tag stays its one declaration.
func Enum(query any, name string) []string {
	for _, p := range planOf(reflect.TypeOf(query)) {
		if p.name == name && p.enum != nil {
			return append([]string(nil), p.enum...)
		}
	}
	panic(fmt.Sprintf("httpapi.Enum: %T has no enum parameter %s", query, name))
}

// Paging is a list's page (from 1) and page size (1 to 200, 10 by default): embed it in
// the list's query.
type Paging struct {
	Page     int `query:"page" min:"1" max:"2147483647" default:"1"`
	PageSize int `query:"pageSize" min:"1" max:"200" default:"10"`
}
