package httpapi

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// schemaGen describes Go types as JSON Schema, in one of two directions. An answer's
// struct (answers) has every field the encoder always writes (no omitempty) required, so a
// client may rely on it; a request's struct (the other generator, whose answers field
// names the first) has only the fields tagged validate:"required" required. A type used in
// both directions gets two components: Name for answers, NameInput for requests.
type schemaGen struct {
	components map[string]any
	names      map[reflect.Type]string // the component name given to each type
	owners     map[string]reflect.Type // and the type holding each name (shared)
	answers    *schemaGen              // nil: this generator describes answers
}

func newSchemaGens(owners map[string]reflect.Type) (out, in *schemaGen) {
	components := map[string]any{}
	out = &schemaGen{components: components, names: map[reflect.Type]string{}, owners: owners}
	in = &schemaGen{components: components, names: map[reflect.Type]string{}, owners: owners, answers: out}
	return out, in
}

// nameFor gives t a component name no other type holds: its Go name, or when another
// type already has that name, the name prefixed by its package (station.Input →
// StationInput), then numbered.
func (g *schemaGen) nameFor(t reflect.Type) string {
	if n, ok := g.names[t]; ok {
		return n
	}
	base := schemaName(t)
	if g.answers != nil {
		if _, both := g.answers.names[t]; both {
			base += "Input"
		}
	}
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

var (
	timeType    = reflect.TypeOf(time.Time{})
	rawJSONType = reflect.TypeOf(json.RawMessage(nil))
)

// valueSchema describes an element of a list or a value of a map of type t. A pointer to
// a number, string or the like is written as null when nil (a value that cannot be
// computed), so its schema admits null; a list of pointers to structs never holds nil in
// an answer (the contract test holds the server to it), so those are not nullable.
func (g *schemaGen) valueSchema(t reflect.Type) map[string]any {
	s := g.schema(t)
	if t.Kind() == reflect.Pointer && t.Elem().Kind() != reflect.Struct && !t.Implements(schemaerType) {
		return nullable(s)
	}
	return s
}

// nullable widens a schema to admit null.
func nullable(s map[string]any) map[string]any {
	switch typ := s["type"].(type) {
	case string:
		c := map[string]any{}
		for k, v := range s {
			c[k] = v
		}
		c["type"] = []any{typ, "null"}
		return c
	case nil:
		if len(s) == 0 {
			return s // any value, null among them
		}
	}
	return map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
}

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
	if t == rawJSONType {
		return map[string]any{} // any JSON value
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
	case reflect.Array: // a fixed length: a tuple
		items := make([]any, t.Len())
		for i := range items {
			items[i] = g.valueSchema(t.Elem())
		}
		return map[string]any{"type": "array", "prefixItems": items, "minItems": t.Len(), "maxItems": t.Len()}
	case reflect.Slice:
		return map[string]any{"type": "array", "items": g.valueSchema(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.valueSchema(t.Elem())}
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
	return genericName(t.Name())
}

// genericName makes a generic instantiation's Go name a schema name: its package paths
// dropped and each level of type arguments joined by "Of"
// (Page[x/analysis.Template[x/analysis.CompareConfig]] → PageOfTemplateOfCompareConfig).
func genericName(name string) string {
	i := strings.Index(name, "[")
	if i < 0 {
		if j := strings.LastIndex(name, "."); j >= 0 {
			return name[j+1:]
		}
		return name
	}
	head := genericName(name[:i])
	var args []string
	for _, a := range splitTypeArgs(strings.TrimSuffix(name[i+1:], "]")) {
		args = append(args, genericName(a))
	}
	return head + "Of" + strings.Join(args, "And")
}

// splitTypeArgs splits a list of type arguments at the commas outside brackets.
func splitTypeArgs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '[':
			depth++
		case ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
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
					if req, ok := s["required"].([]string); ok {
						required = append(required, req...)
					}
				}
			}
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		omitEmpty := strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		s := g.schema(f.Type)
		if !omitEmpty && f.Type.Kind() == reflect.Pointer && !f.Type.Implements(schemaerType) {
			s = nullable(s) // written as null when nil; with omitempty it is left out instead
		}
		if doc := f.Tag.Get("doc"); doc != "" {
			s = withDoc(s, doc)
		}
		props[name] = s
		if g.answers == nil && !omitEmpty || g.answers != nil && f.Tag.Get("validate") == "required" {
			required = append(required, name)
		}
	}
	out := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		// a field of an embedded struct and one of the outer struct may share a name
		seen := map[string]bool{}
		uniq := required[:0]
		for _, r := range required {
			if !seen[r] {
				seen[r] = true
				uniq = append(uniq, r)
			}
		}
		out["required"] = uniq
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
