package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/telemetry"
)

// MapRule turns the messages of one topic filter into sample fields of one device
// (docs/ingest.md, "MQTT topics of their own shape"). Topic is relative to the organisation's root, helio/map/{orgId}/.
type MapRule struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	// Topic is an MQTT filter whose levels are words, + (any one level), {name} (any one
	// level, kept under that name) or, last, # (the rest).
	Topic string `json:"topic" doc:"e.g. solar/{serial}/0/power, relative to helio/map/{orgId}/"`
	// Device is the device's serial number: fixed ("INV-0001") or built from named parts
	// ("{serial}", "{portal}-{instance}").
	Device string     `json:"device" doc:"device serial number, fixed or with {name} parts of the topic"`
	Fields []FieldMap `json:"fields"`
}

// FieldMap takes one number out of a payload into a sample field.
type FieldMap struct {
	// Path is a dotted path into a JSON payload (ENERGY.Power, value, a.0.b), or "" for a
	// payload that is a plain number ("123.4").
	Path  string  `json:"path" doc:"dotted JSON path; empty: the payload is a plain number"`
	Field string  `json:"field" doc:"a sample field: powerKw, energyKwh, energy2Kwh, dcVoltageV, dcCurrentA, acVoltageV, frequencyHz, tempC, soc, irradianceWm2, status, stringsActive"`
	Scale float64 `json:"scale" doc:"multiplies the value (W to kW: 0.001); 0 means 1"`
}

// Limits of a rule and of an organisation's rules: they bound the work per message.
const (
	maxRulesPerOrg  = 200
	maxFieldsInRule = 12
	maxTopicLen     = 256
	maxTopicLevels  = 16
	maxPathDepth    = 8
)

// A rule's fields are numbered as telemetry.SampleFields.
const nFields = telemetry.NumFields

var (
	partNameRe = regexp.MustCompile(`^\{([A-Za-z][A-Za-z0-9_]{0,31})\}$`)
	devicePart = regexp.MustCompile(`\{([^{}]*)\}`)
	pathStepRe = regexp.MustCompile(`^[A-Za-z0-9_\-]{1,64}$`)
)

// compiledRule is a rule ready to match topics.
type compiledRule struct {
	MapRule
	levels []string // "+", "#", a word, or "" for a named part (its name in names)
	names  []string // per level: the part's name, or ""
	fields []compiledField
}

type compiledField struct {
	path  []string
	index int
	scale float64
}

// compileRule checks a rule and returns it compiled, or the field problems in v.
func compileRule(r MapRule, v *httpapi.Validator) *compiledRule {
	c := &compiledRule{MapRule: r}
	v.MaxLen("name", r.Name, 64)
	topicOK := true
	switch {
	case strings.TrimSpace(r.Topic) == "":
		v.Add("topic", "required")
		topicOK = false
	case len(r.Topic) > maxTopicLen:
		v.Add("topic", "too_long", maxTopicLen)
		topicOK = false
	default:
		parts := strings.Split(r.Topic, "/")
		seen := map[string]bool{}
		if len(parts) > maxTopicLevels {
			v.Add("topic", "mqtt_topic_levels", maxTopicLevels)
			topicOK = false
		}
		for i, p := range parts {
			name := ""
			switch {
			case p == "+":
			case p == "#" && i == len(parts)-1:
			case partNameRe.MatchString(p):
				name = partNameRe.FindStringSubmatch(p)[1]
				if seen[name] {
					v.Add("topic", "mqtt_topic_name_twice", name)
					topicOK = false
				}
				seen[name] = true
				p = ""
			case p == "" || strings.ContainsAny(p, "+#{}\x00") || p[0] == '$':
				v.Add("topic", "mqtt_topic_level", i+1)
				topicOK = false
			}
			c.levels = append(c.levels, p)
			c.names = append(c.names, name)
		}
		if topicOK {
			c.checkDevice(v, seen)
		}
	}
	if !topicOK && r.Device == "" {
		v.Add("device", "required")
	}
	switch {
	case len(r.Fields) == 0:
		v.Add("fields", "required")
	case len(r.Fields) > maxFieldsInRule:
		v.Add("fields", "mqtt_fields_limit", maxFieldsInRule)
	}
	used := map[int]bool{}
	for i, f := range r.Fields {
		at := fmt.Sprintf("fields[%d].", i)
		cf := compiledField{index: telemetry.FieldIndex(f.Field), scale: f.Scale}
		if cf.index < 0 {
			v.OneOf(at+"field", f.Field, telemetry.SampleFields[:]...)
		} else if used[cf.index] {
			v.Add(at+"field", "mqtt_field_twice")
		}
		used[cf.index] = true
		if f.Path != "" {
			cf.path = strings.Split(f.Path, ".")
			ok := len(cf.path) <= maxPathDepth
			for _, s := range cf.path {
				ok = ok && pathStepRe.MatchString(s)
			}
			if !ok {
				v.Add(at+"path", "mqtt_json_path", maxPathDepth)
			}
		}
		if math.IsNaN(f.Scale) || math.IsInf(f.Scale, 0) || math.Abs(f.Scale) > 1e6 {
			v.Add(at+"scale", "out_of_range", "-1000000", "1000000")
		}
		if cf.scale == 0 {
			cf.scale = 1
		}
		c.fields = append(c.fields, cf)
	}
	return c
}

// checkDevice checks the device template: a serial number whose {name} parts are parts of
// the topic.
func (c *compiledRule) checkDevice(v *httpapi.Validator, parts map[string]bool) {
	d := c.Device
	switch {
	case strings.TrimSpace(d) == "":
		v.Add("device", "required")
		return
	case len(d) > 128:
		v.Add("device", "too_long", 128)
		return
	}
	for _, m := range devicePart.FindAllStringSubmatch(d, -1) {
		if !parts[m[1]] {
			v.Add("device", "mqtt_device_part", m[0])
			return
		}
	}
	rest := devicePart.ReplaceAllString(d, "")
	if strings.ContainsAny(rest, "{}\x00") {
		v.Add("device", "invalid_format")
	}
}

// match tells whether topic (relative to the organisation's root) matches, and the
// device serial number it names.
func (c *compiledRule) match(levels []string) (string, bool) {
	var vals map[string]string
	for i, l := range c.levels {
		if l == "#" {
			break
		}
		if i >= len(levels) {
			return "", false
		}
		switch {
		case c.names[i] != "":
			if levels[i] == "" {
				return "", false
			}
			if vals == nil {
				vals = map[string]string{}
			}
			vals[c.names[i]] = levels[i]
		case l == "+":
		case l != levels[i]:
			return "", false
		}
	}
	if n := len(c.levels); c.levels[n-1] != "#" && n != len(levels) {
		return "", false
	}
	if vals == nil {
		return c.Device, true
	}
	sn := devicePart.ReplaceAllStringFunc(c.Device, func(m string) string { return vals[m[1:len(m)-1]] })
	return sn, sn != ""
}

// maxPayload is the largest payload a rule reads: collectors' readings are small, and a
// bigger one is counted as unusable rather than parsed.
const maxPayload = 64 << 10

// extract reads the rule's fields out of a payload: which were found (bit i for field i)
// and their values, scaled. A value that is absent, null or not a number is skipped.
func (c *compiledRule) extract(payload []byte) (found uint16, vals [nFields]float64) {
	if len(payload) > maxPayload {
		return 0, vals
	}
	var doc any
	d := json.NewDecoder(bytes.NewReader(payload))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		// a bare word such as "online" or "ON" is no number; a plain number is valid JSON
		return 0, vals
	}
	for _, f := range c.fields {
		x, ok := number(walk(doc, f.path))
		if !ok {
			continue
		}
		x *= f.scale
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		found |= 1 << f.index
		vals[f.index] = x
	}
	return found, vals
}

func walk(doc any, path []string) any {
	for _, s := range path {
		switch t := doc.(type) {
		case map[string]any:
			doc = t[s]
		case []any:
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(t) {
				return nil
			}
			doc = t[i]
		default:
			return nil
		}
	}
	return doc
}

// number reads a JSON number, a numeric string ("12.5", as some collectors send) or a
// boolean (1 or 0: a status flag).
func number(v any) (float64, bool) {
	switch t := v.(type) {
	case json.Number:
		f, err := t.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
		return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
	case bool:
		if t {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}
