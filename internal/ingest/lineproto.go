package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// InfluxDB line protocol, as collectors already deployed write it (Telegraf, Node-RED,
// SBFspot, OpenDTU, Venus OS):
//
//	measurement[,tag=value…] field=value[,field=value…] [timestamp]
//
// Commas and spaces in a measurement, and commas, equals signs and spaces in tag keys, tag
// values and field keys are escaped with a backslash. A field value is a float (1, -1.5,
// 1e3), an integer (1i), an unsigned integer (1u), a string ("…", with \" and \\ escaped)
// or a boolean (t, T, true, True, TRUE, f, F, false, False, FALSE). The timestamp is an
// integer in the request's precision; without one the point takes the time it arrived.
// Empty lines and lines starting with # are skipped.

// FieldKind is the type of a line-protocol field value.
type FieldKind uint8

const (
	FieldFloat FieldKind = iota
	FieldInt
	FieldUint
	FieldString
	FieldBool
)

// LineField is one field of a point. Num holds every numeric value (and 1 or 0 for a
// boolean); Str a string value.
type LineField struct {
	Key  string
	Kind FieldKind
	Num  float64
	Str  string
}

// LineTag is one tag of a point.
type LineTag struct{ Key, Value string }

// Point is one parsed line.
type Point struct {
	Measurement string
	Tags        []LineTag
	Fields      []LineField
	// Time is the timestamp as written (in the request's precision); HasTime is false when
	// the line has none.
	Time    int64
	HasTime bool
}

// Tag returns a tag's value ("" when absent).
func (p *Point) Tag(key string) (string, bool) {
	for _, t := range p.Tags {
		if t.Key == key {
			return t.Value, true
		}
	}
	return "", false
}

// LineError is a line that could not be parsed: its number (from 1) and why.
type LineError struct {
	Line   int
	Text   string
	Reason string
}

func (e *LineError) Error() string {
	return fmt.Sprintf("unable to parse '%s': %s (line %d)", e.Text, e.Reason, e.Line)
}

// ParseLines parses a body of line protocol and calls yield for each point. It stops at
// the first malformed line, or the first point yield refuses (a non-empty reason), and
// returns it as a *LineError. The strings of a point are copies: yield may keep them.
func ParseLines(body []byte, yield func(p *Point) string) error {
	var p Point
	n := 0
	for len(body) > 0 {
		n++
		var line []byte
		if i := bytes.IndexByte(body, '\n'); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			line, body = body, nil
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		trimmed := bytes.TrimLeft(line, " \t")
		if len(trimmed) == 0 || trimmed[0] == '#' {
			continue
		}
		p.Tags, p.Fields = p.Tags[:0], p.Fields[:0]
		reason := parseLine(trimmed, &p)
		if reason == "" {
			reason = yield(&p)
		}
		if reason != "" {
			text := string(trimmed)
			if len(text) > 200 {
				text = text[:200] + "…"
			}
			return &LineError{Line: n, Text: text, Reason: reason}
		}
	}
	return nil
}

// scanTo returns the index of the first unescaped byte of stops in b (len(b) if none),
// and whether b[:index] holds a backslash escape. In a field string value quotes are
// handled by the caller.
func scanTo(b []byte, stops string) (int, bool) {
	esc := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\\' && i+1 < len(b) {
			esc = true
			i++
			continue
		}
		if strings.IndexByte(stops, c) >= 0 {
			return i, esc
		}
	}
	return len(b), esc
}

// unescape removes the backslashes before the bytes a name may escape.
func unescape(b []byte, esc bool) string {
	if !esc {
		return string(b)
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+1 < len(b) {
			switch b[i+1] {
			case ',', '=', ' ', '\\', '"':
				i++
			}
		}
		out = append(out, b[i])
	}
	return string(out)
}

// parseLine fills p from one non-empty line; "" or the reason it is malformed.
func parseLine(b []byte, p *Point) string {
	// measurement
	i, esc := scanTo(b, ", ")
	if i == 0 {
		return "missing measurement"
	}
	p.Measurement = unescape(b[:i], esc)
	b = b[i:]
	// tags
	for len(b) > 0 && b[0] == ',' {
		b = b[1:]
		k, kesc := scanTo(b, ",= ")
		if k == 0 {
			return "missing tag key"
		}
		if k == len(b) || b[k] != '=' {
			return "missing tag value"
		}
		key := unescape(b[:k], kesc)
		b = b[k+1:]
		v, vesc := scanTo(b, ", ")
		if v == 0 {
			return "missing tag value"
		}
		if e, _ := scanTo(b[:v], "="); e < v {
			return "invalid tag format"
		}
		p.Tags = append(p.Tags, LineTag{Key: key, Value: unescape(b[:v], vesc)})
		b = b[v:]
	}
	if len(b) == 0 || b[0] != ' ' {
		return "missing fields"
	}
	b = bytes.TrimLeft(b, " ")
	if len(b) == 0 {
		return "missing fields"
	}
	// fields
	for {
		k, kesc := scanTo(b, ",= ")
		if k == 0 {
			return "missing field key"
		}
		if k == len(b) || b[k] != '=' {
			return "missing field value"
		}
		f := LineField{Key: unescape(b[:k], kesc)}
		b = b[k+1:]
		if len(b) == 0 || b[0] == ' ' || b[0] == ',' {
			return "missing field value"
		}
		var end int
		if b[0] == '"' {
			s, n, ok := quoted(b)
			if !ok {
				return "unbalanced quotes"
			}
			f.Kind, f.Str, end = FieldString, s, n
		} else {
			end, _ = scanTo(b, ", ")
			if reason := scalar(b[:end], &f); reason != "" {
				return reason
			}
		}
		setPointField(p, f)
		b = b[end:]
		if len(b) == 0 || b[0] == ' ' {
			break
		}
		b = b[1:] // the comma
		if len(b) == 0 {
			return "missing field key"
		}
	}
	// timestamp
	b = bytes.Trim(b, " ")
	p.HasTime, p.Time = false, 0
	if len(b) > 0 {
		t, err := strconv.ParseInt(string(b), 10, 64)
		if err != nil {
			return "bad timestamp"
		}
		p.Time, p.HasTime = t, true
	}
	return ""
}

// setPointField adds f, or replaces an earlier field of the same key (the last one wins).
func setPointField(p *Point, f LineField) {
	for i := range p.Fields {
		if p.Fields[i].Key == f.Key {
			p.Fields[i] = f
			return
		}
	}
	p.Fields = append(p.Fields, f)
}

// quoted reads a string field value starting at its opening quote: the value, the bytes
// used and whether it closed.
func quoted(b []byte) (string, int, bool) {
	esc := false
	for i := 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			if i+1 < len(b) && (b[i+1] == '"' || b[i+1] == '\\') {
				esc = true
				i++
			}
		case '"':
			v := b[1:i]
			if !esc {
				return string(v), i + 1, true
			}
			out := make([]byte, 0, len(v))
			for j := 0; j < len(v); j++ {
				if v[j] == '\\' && j+1 < len(v) && (v[j+1] == '"' || v[j+1] == '\\') {
					j++
				}
				out = append(out, v[j])
			}
			return string(out), i + 1, true
		}
	}
	return "", 0, false
}

var errNotNumber = errors.New("not a number")

// scalar reads a number or boolean field value.
func scalar(v []byte, f *LineField) string {
	switch string(v) {
	case "t", "T", "true", "True", "TRUE":
		f.Kind, f.Num = FieldBool, 1
		return ""
	case "f", "F", "false", "False", "FALSE":
		f.Kind, f.Num = FieldBool, 0
		return ""
	}
	switch last := v[len(v)-1]; last {
	case 'i':
		n, err := strconv.ParseInt(string(v[:len(v)-1]), 10, 64)
		if err != nil {
			return "invalid integer"
		}
		f.Kind, f.Num = FieldInt, float64(n)
		return ""
	case 'u':
		n, err := strconv.ParseUint(string(v[:len(v)-1]), 10, 64)
		if err != nil {
			return "invalid unsigned integer"
		}
		f.Kind, f.Num = FieldUint, float64(n)
		return ""
	}
	x, err := parseFloat(v)
	if err != nil {
		return "invalid number"
	}
	f.Kind, f.Num = FieldFloat, x
	return ""
}

// parseFloat accepts what line protocol calls a float: decimal digits with an optional
// sign, point and exponent; no hex, no underscores, no NaN or infinities.
func parseFloat(v []byte) (float64, error) {
	for _, c := range v {
		if !(c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E') {
			return 0, errNotNumber
		}
	}
	x, err := strconv.ParseFloat(string(v), 64)
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, errNotNumber
	}
	return x, nil
}
