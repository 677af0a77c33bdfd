package scada

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/helio-energy/helio/internal/httpapi"
)

// registerFields lists a register's JSON fields, for the unknown-field message.
var registerFields = func() string {
	var names []string
	t := reflect.TypeOf(Register{})
	for i := range t.NumField() {
		names = append(names, strings.Split(t.Field(i).Tag.Get("json"), ",")[0])
	}
	return strings.Join(names, ", ")
}()

// UnmarshalJSON reads a map strictly, one register at a time, so that a field the map
// format does not have is refused by its path (registers[3].foo) rather than by its bare
// name; a wrong type is named the same way.
func (in *MapInput) UnmarshalJSON(b []byte) error {
	var top struct {
		ID        int64             `json:"id"`
		Name      string            `json:"name"`
		Model     string            `json:"model"`
		Registers []json.RawMessage `json:"registers"`
	}
	if err := strict(b, &top); err != nil {
		return fieldError("", err)
	}
	if len(top.Registers) > MaxRegisters {
		return &httpapi.FieldError{Field: "registers", Key: "scada_too_many", Args: []any{MaxRegisters}}
	}
	regs := make([]Register, len(top.Registers))
	for i, raw := range top.Registers {
		if err := strict(raw, &regs[i]); err != nil {
			return fieldError(fmt.Sprintf("registers[%d].", i), err)
		}
	}
	*in = MapInput{ID: top.ID, Name: top.Name, Model: top.Model, Registers: regs}
	if top.Registers == nil {
		in.Registers = nil
	}
	return nil
}

func strict(b []byte, dst any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(dst)
}

// fieldError names a decoding problem by its path under prefix.
func fieldError(prefix string, err error) error {
	var ute *json.UnmarshalTypeError
	var fe *httpapi.FieldError
	switch {
	case errors.As(err, &fe):
		return &httpapi.FieldError{Field: prefix + fe.Field, Key: fe.Key, Args: fe.Args}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		if prefix == "" {
			return &httpapi.FieldError{Field: clip(name, 40), Key: "unknown_field"}
		}
		return &httpapi.FieldError{Field: prefix + clip(name, 40), Key: "scada_unknown_register_field", Args: []any{registerFields}}
	case errors.As(err, &ute) && ute.Field != "":
		return &httpapi.FieldError{Field: prefix + ute.Field, Key: "wrong_type", Args: []any{typeName(ute.Type)}}
	case errors.As(err, &ute) && prefix != "": // the whole value is of the wrong type
		return &httpapi.FieldError{Field: strings.TrimSuffix(prefix, "."), Key: "wrong_type", Args: []any{typeName(ute.Type)}}
	}
	return err
}

func typeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int64, reflect.Pointer:
		return "an integer"
	case reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list"
	default:
		return "an object"
	}
}

// CodeTable is a register's code table (Register.Values). A value may be written as a
// JSON string (a status name or a number) or as a JSON number.
type CodeTable map[string]string

// UnmarshalJSON takes string and number values alike.
func (c *CodeTable) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return &httpapi.FieldError{Field: "values", Key: "wrong_type", Args: []any{"an object"}}
	}
	if raw == nil {
		*c = nil
		return nil
	}
	out := make(CodeTable, len(raw))
	for k, v := range raw {
		var s string
		var n json.Number
		switch {
		case json.Unmarshal(v, &s) == nil:
			out[k] = s
		case json.Unmarshal(v, &n) == nil:
			out[k] = n.String()
		default:
			return &httpapi.FieldError{Field: "values." + clip(k, 24), Key: "scada_code_value"}
		}
	}
	*c = out
	return nil
}
