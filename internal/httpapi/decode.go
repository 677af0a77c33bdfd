package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxBodyBytes is the default limit for a JSON request body.
const MaxBodyBytes = 1 << 20

// Decode reads a JSON request body into dst strictly: the content type must be JSON,
// the body at most MaxBodyBytes, every field known and of the right type, and nothing
// after the value. Failures are 4xx *Errors that name the field.
func Decode(r *http.Request, dst any) error {
	return DecodeLimit(r, dst, MaxBodyBytes)
}

// DecodeLimit is Decode with a body limit.
func DecodeLimit(r *http.Request, dst any, limit int64) error {
	if err := checkJSONRequest(r, limit); err != nil {
		return err
	}
	return decodeStream(http.MaxBytesReader(nil, r.Body, limit), dst, limit)
}

// DecodeFast is DecodeLimit for a body that a caller can often read faster than
// encoding/json: the body is read whole, and fast may fill dst from it and return true;
// when it returns false, dst must be untouched and the body is decoded as DecodeLimit
// does. The answers are DecodeLimit's for every body.
func DecodeFast(r *http.Request, dst any, limit int64, fast func(body []byte) bool) error {
	if err := checkJSONRequest(r, limit); err != nil {
		return err
	}
	body := http.MaxBytesReader(nil, r.Body, limit)
	b, err := readBody(body, r.ContentLength)
	if err != nil {
		// Not read whole (too large, or the read failed). DecodeLimit's answer then
		// depends on where in the stream the value, a syntax error or the failure
		// comes first, so decode the stream again: what was read, then the failure
		// (the reader repeats it).
		return decodeStream(io.MultiReader(bytes.NewReader(b), body), dst, limit)
	}
	if fast(b) {
		return nil
	}
	return DecodeBytes(b, dst, limit)
}

// DecodeBytes decodes a body already read as DecodeLimit does (limit only names the
// limit in a TooLarge answer).
func DecodeBytes(b []byte, dst any, limit int64) error {
	return decodeStream(bytes.NewReader(b), dst, limit)
}

func checkJSONRequest(r *http.Request, limit int64) error {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return UnsupportedMediaType("application/json")
	}
	if r.ContentLength > limit {
		return TooLarge(limit)
	}
	return nil
}

// readBody reads r to its end, in one allocation when the length is declared.
func readBody(r io.Reader, declared int64) ([]byte, error) {
	n := int64(512)
	if declared > 0 {
		n = declared + 1 // room to see the end without growing
	}
	b := make([]byte, 0, n)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		m, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+m]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// decodeStream decodes one value strictly and requires the stream to end after it.
func decodeStream(body io.Reader, dst any, limit int64) error {
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return decodeError(err, limit)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return TooLarge(limit)
		}
		return BadRequest("malformed_json")
	}
	return nil
}

func decodeError(err error, limit int64) error {
	var (
		mbe *http.MaxBytesError
		se  *json.SyntaxError
		ute *json.UnmarshalTypeError
		tpe *time.ParseError
	)
	switch {
	case errors.As(err, &mbe):
		return TooLarge(limit)
	case errors.Is(err, io.EOF):
		return BadRequest("empty_body")
	case errors.As(err, &se), errors.Is(err, io.ErrUnexpectedEOF):
		return BadRequest("malformed_json")
	case errors.As(err, &ute):
		field := ute.Field
		if field == "" {
			return BadRequest("malformed_json")
		}
		return InvalidField(field, "wrong_type", jsonTypeName(ute.Type))
	case errors.As(err, &tpe):
		return BadRequest("malformed_json")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return InvalidField(name, "unknown_field")
	}
	var fe *FieldError
	if errors.As(err, &fe) {
		return InvalidField(fe.Field, fe.Key, fe.Args...)
	}
	return BadRequest("malformed_json")
}

// FieldError can be returned by a custom UnmarshalJSON to name the problem.
type FieldError struct {
	Field string
	Key   string
	Args  []any
}

func (e *FieldError) Error() string { return fmt.Sprintf("%s: %s", e.Field, e.Key) }

func jsonTypeName(t reflect.Type) string {
	if t == reflect.TypeOf(time.Time{}) {
		return "a date-time (RFC 3339)"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	default:
		return "an object"
	}
}

// Validator collects field problems; Err returns them as one 400.
type Validator struct {
	fields map[string]Msg
}

// Add records a problem with field (the first problem per field wins).
func (v *Validator) Add(field, key string, args ...any) {
	if v.fields == nil {
		v.fields = map[string]Msg{}
	}
	if _, ok := v.fields[field]; !ok {
		v.fields[field] = Msg{Key: key, Args: args}
	}
}

// Required checks that a string is not blank.
func (v *Validator) Required(field, value string) bool {
	if strings.TrimSpace(value) == "" {
		v.Add(field, "required")
		return false
	}
	return true
}

// MaxLen checks a string's length in characters.
func (v *Validator) MaxLen(field, value string, n int) {
	if utf8.RuneCountInString(value) > n {
		v.Add(field, "too_long", n)
	}
}

// OneOf checks that value is one of the allowed values.
func (v *Validator) OneOf(field, value string, allowed ...string) {
	for _, a := range allowed {
		if value == a {
			return
		}
	}
	v.Add(field, "one_of", strings.Join(allowed, ", "))
}

// Range checks that a finite number lies within [lo, hi].
func (v *Validator) Range(field string, value, lo, hi float64) {
	if math.IsNaN(value) || math.IsInf(value, 0) || value < lo || value > hi {
		v.Add(field, "out_of_range", trimFloat(lo), trimFloat(hi))
	}
}

func trimFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// Err returns the collected problems as a 400, or nil.
func (v *Validator) Err() error {
	if len(v.fields) == 0 {
		return nil
	}
	return Invalid(v.fields)
}

// PathID parses a positive integer path parameter; anything else is a 404 (an id that
// cannot exist names nothing).
func PathID(r *http.Request, name string) (int64, error) {
	n, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || n <= 0 {
		return 0, NotFound()
	}
	return n, nil
}

// IDInBody serves a call whose path names its target ({name}) at a path without it too:
// the target's id is then the body's field of that name (a number), put where the handler reads the path's. A body without it is a 400 naming the
// field, an empty or malformed body a 400 too; the body is then left for the handler to
// decode (its type declares the field).
func IDInBody(name string, h func(*http.Request) (any, error)) func(*http.Request) (any, error) {
	return func(r *http.Request) (any, error) {
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
		if err != nil {
			return nil, BadRequest("malformed_json")
		}
		if len(body) > MaxBodyBytes {
			return nil, TooLarge(MaxBodyBytes)
		}
		var fields map[string]json.RawMessage
		if len(bytes.TrimSpace(body)) == 0 {
			return nil, BadRequest("empty_body")
		}
		if err := json.Unmarshal(body, &fields); err != nil {
			return nil, BadRequest("malformed_json")
		}
		var id json.Number
		_ = json.Unmarshal(fields[name], &id)
		n, err := strconv.ParseInt(id.String(), 10, 64)
		if err != nil || n <= 0 {
			var v Validator
			v.Add(name, "required")
			return nil, v.Err()
		}
		r.SetPathValue(name, strconv.FormatInt(n, 10))
		r.Body = io.NopCloser(bytes.NewReader(body))
		return h(r)
	}
}
