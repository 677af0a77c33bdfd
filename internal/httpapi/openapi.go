package httpapi

import (
	"net/http"
	"reflect"
	"regexp"
	"strconv"
	"strings"
)

// OpenAPI builds the OpenAPI 3.1 document of every registered route from the routes'
// Go types, so the document cannot drift from the code.
func (a *API) OpenAPI(version string) map[string]any {
	// "Envelope" is written below, not from a type of a route
	out, g := newSchemaGens(map[string]reflect.Type{"Envelope": reflect.TypeOf(Envelope{})})
	// answers first, so that a type also taken as input is told apart by its input name
	data := make([]any, len(a.Routes()))
	for i, rt := range a.Routes() {
		data[i] = map[string]any{"type": "null"}
		if rt.Resp != nil {
			data[i] = out.schema(reflect.TypeOf(rt.Resp))
		}
	}
	paths := map[string]map[string]any{}
	for i, rt := range a.Routes() {
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
		if len(rt.RawBody) > 0 {
			content := map[string]any{}
			for _, mt := range rt.RawBody {
				content[mt] = map[string]any{}
			}
			op["requestBody"] = map[string]any{"required": true, "content": content}
		}
		if rt.Raw != nil && (rt.Resp == nil || len(rt.RawTypes) > 0) {
			status := rt.RawStatus
			if status == 0 {
				status = 200
			}
			ok := map[string]any{"description": http.StatusText(status)}
			if len(rt.RawTypes) > 0 {
				content := map[string]any{}
				for _, mt := range rt.RawTypes {
					content[mt] = map[string]any{}
				}
				ok["content"] = content
			}
			responses[strconv.Itoa(status)] = ok
		} else {
			responses["200"] = map[string]any{"description": "OK", "content": map[string]any{"application/json": map[string]any{
				"schema": map[string]any{"allOf": []any{
					map[string]any{"$ref": "#/components/schemas/Envelope"},
					map[string]any{"type": "object", "required": []string{"data"}, "properties": map[string]any{"data": data[i]}},
				}},
			}}}
		}
		errRef := map[string]any{"description": "Error envelope", "content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Envelope"}}}}
		if rt.Errors != nil {
			errRef = map[string]any{"description": "Error", "content": map[string]any{"application/json": map[string]any{"schema": out.schema(reflect.TypeOf(rt.Errors))}}}
		}
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

func (g *schemaGen) queryParams(t reflect.Type) []any {
	var out []any
	for _, qp := range planOf(t) {
		s := g.schema(qp.typ)
		item := s
		if qp.list {
			item = map[string]any{}
			for k, v := range s["items"].(map[string]any) {
				item[k] = v
			}
			s["items"] = item
			if qp.maxItems > 0 {
				s["maxItems"] = qp.maxItems
			}
		}
		if qp.enum != nil {
			var enum []any
			for _, e := range qp.enum {
				enum = append(enum, exampleValue(qp, e))
			}
			item["enum"] = enum
		}
		if qp.min != "" {
			item["minimum"], item["maximum"] = exampleValue(qp, qp.min), exampleValue(qp, qp.max)
		}
		if qp.id {
			item["minimum"] = 1
		}
		if qp.maxLen > 0 {
			item["maxLength"] = qp.maxLen
		}
		if qp.def != "" && !qp.list {
			s["default"] = exampleValue(qp, qp.def)
		}
		p := map[string]any{"name": qp.name, "in": "query", "schema": s}
		if qp.list { // a comma-separated list (repeating the parameter works too)
			p["style"], p["explode"] = "form", false
		}
		if qp.doc != "" {
			p["description"] = qp.doc
		}
		if qp.required {
			p["required"] = true
		}
		out = append(out, p)
	}
	return out
}

// exampleValue is a tag's value as JSON writes it: a number for a numeric parameter.
func exampleValue(qp param, s string) any {
	switch qp.elem.Kind() {
	case reflect.String:
		return s
	case reflect.Bool:
		b, _ := strconv.ParseBool(s)
		return b
	case reflect.Float32, reflect.Float64:
		f, _ := strconv.ParseFloat(s, 64)
		return f
	}
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
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
