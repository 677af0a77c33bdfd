package httpapi

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"time"
)

// OpenAPI builds the OpenAPI 3.1 document of every registered route from the routes'
// Go types, so the document cannot drift from the code.
func (a *API) OpenAPI(version string) map[string]any {
	// "Envelope" is written below, not from a type of a route
	g := &schemaGen{components: map[string]any{}, names: map[reflect.Type]string{},
		owners: map[string]reflect.Type{"Envelope": reflect.TypeOf(Envelope{})}}
	paths := map[string]map[string]any{}
	for _, rt := range a.Routes() {
		item := paths[rt.Path]
		if item == nil {
			item = map[string]any{}
			paths[rt.Path] = item
		}
		op := map[string]any{
			"operationId": operationID(rt.Method, rt.Path),
			"summary":     rt.Summary,
			"tags":        []string{rt.Tag},
		}
		var params []any
		for _, name := range pathParams(rt.Path) {
			params = append(params, map[string]any{"name": name, "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
		}
		if rt.Query != nil {
			params = append(params, g.queryParams(reflect.TypeOf(rt.Query))...)
		}
		if len(params) > 0 {
			op["parameters"] = params
		}
		if rt.Body != nil {
			content := map[string]any{"application/json": map[string]any{"schema": g.schema(reflect.TypeOf(rt.Body))}}
			if rt.Form != nil {
				content["multipart/form-data"] = map[string]any{"schema": formSchema(reflect.TypeOf(rt.Form))}
			}
			op["requestBody"] = map[string]any{"required": true, "content": content}
		}
		if rt.Access != Public {
			op["security"] = []any{map[string]any{"bearer": []string{}}}
		}
		if rt.Access == Admin {
			op["x-helio-role"] = "admin"
		}
		responses := map[string]any{}
		if rt.Raw != nil {
			mt := rt.RawType
			if mt == "" {
				mt = "application/octet-stream"
			}
			responses["200"] = map[string]any{"description": "OK", "content": map[string]any{mt: map[string]any{}}}
		} else {
			var data any = map[string]any{"type": "null"}
			if rt.Resp != nil {
				data = g.schema(reflect.TypeOf(rt.Resp))
			}
			responses["200"] = map[string]any{"description": "OK", "content": map[string]any{"application/json": map[string]any{
				"schema": map[string]any{"allOf": []any{
					map[string]any{"$ref": "#/components/schemas/Envelope"},
					map[string]any{"type": "object", "properties": map[string]any{"data": data}},
				}},
			}}}
		}
		errRef := map[string]any{"description": "Error envelope", "content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Envelope"}}}}
		responses["4XX"] = errRef
		responses["5XX"] = errRef
		op["responses"] = responses
		item[strings.ToLower(rt.Method)] = op
	}
	g.components["Envelope"] = map[string]any{
		"type":     "object",
		"required": []string{"code", "msg", "data"},
		"properties": map[string]any{
			"code": map[string]any{"type": "integer", "description": "200 on success; the HTTP status on failure; 50012 when the session was ended elsewhere"},
			"msg":  map[string]any{"type": "string", "description": "Message in the caller's language (Accept-Language)"},
			"data": map[string]any{"description": "The result; on 400, {fields: {name: message}}"},
		},
	}
	return map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{
			"title":       "Helio API",
			"version":     version,
			"description": "Monitoring and operations console for PV power stations and storage fleets. Every JSON response is the envelope {code, msg, data}.",
		},
		"paths": paths,
		"components": map[string]any{
			"schemas":         g.components,
			"securitySchemes": map[string]any{"bearer": map[string]any{"type": "http", "scheme": "bearer", "description": "Token from POST /v2/login"}},
		},
	}
}

var paramRe = regexp.MustCompile(`\{([^}]+)\}`)

func pathParams(p string) []string {
	var out []string
	for _, m := range paramRe.FindAllStringSubmatch(p, -1) {
		out = append(out, strings.TrimSuffix(m[1], "..."))
	}
	return out
}

func operationID(method, path string) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(method))
	for _, part := range strings.Split(path, "/") {
		part = strings.Trim(part, "{}.")
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

type schemaGen struct {
	components map[string]any
	names      map[reflect.Type]string // the component name given to each type
	owners     map[string]reflect.Type // and the type holding each name
}

// nameFor gives t a component name no other type holds: its Go name, or when another
// type already has that name, the name prefixed by its package (station.Input →
// StationInput), then numbered.
func (g *schemaGen) nameFor(t reflect.Type) string {
	if n, ok := g.names[t]; ok {
		return n
	}
	base := schemaName(t)
	name := base
	if _, taken := g.owners[name]; taken {
		pkg := t.PkgPath()
		if i := strings.LastIndex(pkg, "/"); i >= 0 {
			pkg = pkg[i+1:]
		}
		if pkg != "" {
			name = strings.ToUpper(pkg[:1]) + pkg[1:] + base
		}
		for i := 2; g.owners[name] != nil; i++ {
			name = fmt.Sprintf("%s%d", base, i)
		}
	}
	g.names[t], g.owners[name] = name, t
	return name
}

var timeType = reflect.TypeOf(time.Time{})

// Schemaer lets a type with its own JSON encoding describe itself.
type Schemaer interface {
	OpenAPISchema() map[string]any
}

var schemaerType = reflect.TypeOf((*Schemaer)(nil)).Elem()

func (g *schemaGen) schema(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Implements(schemaerType) {
		return reflect.Zero(t).Interface().(Schemaer).OpenAPISchema()
	}
	if t == timeType {
		return map[string]any{"type": "string", "format": "date-time"}
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": g.schema(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.schema(t.Elem())}
	case reflect.Interface:
		return map[string]any{}
	case reflect.Struct:
		if schemaName(t) == "" {
			return g.structSchema(t)
		}
		name := g.nameFor(t)
		if _, ok := g.components[name]; !ok {
			g.components[name] = map[string]any{} // placeholder against recursion
			g.components[name] = g.structSchema(t)
		}
		return map[string]any{"$ref": "#/components/schemas/" + name}
	}
	return map[string]any{}
}

func schemaName(t reflect.Type) string {
	name := t.Name()
	if name == "" {
		return ""
	}
	// Generic instantiations such as Page[pkg.Station] get a readable name.
	if i := strings.Index(name, "["); i >= 0 {
		inner := name[i+1 : len(name)-1]
		if j := strings.LastIndex(inner, "."); j >= 0 {
			inner = inner[j+1:]
		}
		name = name[:i] + "Of" + inner
	}
	return name
}

func (g *schemaGen) structSchema(t reflect.Type) map[string]any {
	props := map[string]any{}
	var required []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if f.Anonymous && f.Tag.Get("json") == "" {
			if emb, ok := g.schema(f.Type)["$ref"]; ok {
				name := strings.TrimPrefix(emb.(string), "#/components/schemas/")
				if s, ok := g.components[name].(map[string]any); ok {
					for k, v := range s["properties"].(map[string]any) {
						props[k] = v
					}
				}
			}
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		s := g.schema(f.Type)
		if doc := f.Tag.Get("doc"); doc != "" {
			s = withDoc(s, doc)
		}
		props[name] = s
		if f.Tag.Get("validate") == "required" {
			required = append(required, name)
		}
	}
	out := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		out["required"] = required
	}
	return out
}

func withDoc(s map[string]any, doc string) map[string]any {
	if _, ok := s["$ref"]; ok {
		return map[string]any{"allOf": []any{s}, "description": doc}
	}
	c := map[string]any{}
	for k, v := range s {
		c[k] = v
	}
	c["description"] = doc
	return c
}

func (g *schemaGen) queryParams(t reflect.Type) []any {
	var out []any
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Tag.Get("query")
		if name == "" {
			continue
		}
		p := map[string]any{"name": name, "in": "query", "schema": g.schema(f.Type)}
		if doc := f.Tag.Get("doc"); doc != "" {
			p["description"] = doc
		}
		if f.Tag.Get("validate") == "required" {
			p["required"] = true
		}
		out = append(out, p)
	}
	return out
}

// formSchema describes a multipart/form-data body from a struct's `form` tags: a []byte
// field is a file part, others text parts; `validate:"required"` makes a part required.
func formSchema(t reflect.Type) map[string]any {
	props := map[string]any{}
	var required []string
	for i := range t.NumField() {
		f := t.Field(i)
		name := f.Tag.Get("form")
		if name == "" {
			continue
		}
		p := map[string]any{"type": "string"}
		if f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Uint8 {
			p["format"] = "binary"
		}
		if d := f.Tag.Get("doc"); d != "" {
			p["description"] = d
		}
		props[name] = p
		if strings.Contains(f.Tag.Get("validate"), "required") {
			required = append(required, name)
		}
	}
	out := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		out["required"] = required
	}
	return out
}
