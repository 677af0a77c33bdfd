package ingest

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// Why a field of a point was not stored (line_unknown.reason).
const (
	unknownNoRule     = "no_rule"        // no rule for the measurement and field
	unknownNoTag      = "no_device_tag"  // the rule's device tag is absent from the point
	unknownDevice     = "unknown_device" // the tag names no device the key may write
	unknownNotNumeric = "not_numeric"    // a string value for a numeric sample field
	unknownOverflow   = "more_series"    // beyond the distinct series one request lists
)

// maxUnknownPerRequest bounds the distinct unmapped series one request keeps apart; the
// rest are counted together under more_series.
const maxUnknownPerRequest = 200

type unknownKey struct{ measurement, field, reason string }

type unknownSeries struct {
	tags   string // the point's tag keys, sorted, comma-separated
	sample string // one line of it, shortened
	points int64
}

// lineMapper turns the points of one request into samples: one per device and instant,
// merging the fields of every line at that instant.
type lineMapper struct {
	rules *lineMatcher
	scope *scope
	unit  int64
	now   time.Time

	points  int
	index   map[sampleKey]int
	out     []telemetry.Sample
	present []uint16 // bits of the telemetry.SampleFields a rule set, per sample
	sn      map[int64]string
	unknown map[unknownKey]*unknownSeries
}

type sampleKey struct {
	device int64
	ms     int64
}

func newLineMapper(rules *lineMatcher, sc *scope, unit int64, now time.Time) *lineMapper {
	return &lineMapper{rules: rules, scope: sc, unit: unit, now: now, index: map[sampleKey]int{},
		sn: map[int64]string{}, unknown: map[unknownKey]*unknownSeries{}}
}

// add maps one point; a non-empty result refuses the request (a timestamp out of range).
func (m *lineMapper) add(p *Point) string {
	m.points++
	at := m.now
	if p.HasTime {
		if m.unit > 1 && (p.Time > math.MaxInt64/m.unit || p.Time < math.MinInt64/m.unit) {
			return "timestamp out of range"
		}
		at = time.Unix(0, p.Time*m.unit)
	}
	ms := at.UnixMilli()
	for i := range p.Fields {
		f := &p.Fields[i]
		rule := m.rules.rule(p.Measurement, f.Key)
		if rule == nil {
			m.miss(p, f, unknownNoRule)
			continue
		}
		sn, ok := p.Tag(rule.DeviceTag)
		if !ok {
			m.miss(p, f, unknownNoTag)
			continue
		}
		id, ok := m.scope.devices[sn]
		if !ok {
			m.miss(p, f, unknownDevice)
			continue
		}
		if f.Kind == FieldString {
			m.miss(p, f, unknownNotNumeric)
			continue
		}
		k := sampleKey{id, ms}
		j, ok := m.index[k]
		if !ok {
			j = len(m.out)
			m.index[k] = j
			m.out = append(m.out, telemetry.Sample{DeviceID: id, Time: time.UnixMilli(ms).UTC()})
			m.present = append(m.present, 0)
			m.sn[id] = sn
		}
		m.out[j].SetField(rule.target, f.Num*rule.Scale)
		m.present[j] |= 1 << rule.target
	}
	return ""
}

func (m *lineMapper) miss(p *Point, f *LineField, reason string) {
	k := unknownKey{p.Measurement, f.Key, reason}
	u, ok := m.unknown[k]
	if !ok {
		if len(m.unknown) >= maxUnknownPerRequest {
			k = unknownKey{"*", "*", unknownOverflow}
			if u, ok = m.unknown[k]; !ok {
				u = &unknownSeries{}
				m.unknown[k] = u
			}
			u.points++
			return
		}
		keys := make([]string, len(p.Tags))
		for i, t := range p.Tags {
			keys[i] = t.Key
		}
		slices.Sort(keys)
		u = &unknownSeries{tags: strings.Join(keys, ","), sample: sampleLine(p, f)}
		m.unknown[k] = u
	}
	u.points++
}

// sampleLine writes the point's series and one field back as a line, for the admin to
// recognise (at most 256 bytes).
func sampleLine(p *Point, f *LineField) string {
	var b strings.Builder
	b.WriteString(p.Measurement)
	for _, t := range p.Tags {
		b.WriteString("," + t.Key + "=" + t.Value)
	}
	b.WriteString(" " + f.Key + "=")
	switch f.Kind {
	case FieldString:
		b.WriteString(strconv.Quote(f.Str))
	case FieldInt:
		b.WriteString(strconv.FormatFloat(f.Num, 'f', -1, 64) + "i")
	case FieldBool:
		b.WriteString(strconv.FormatBool(f.Num != 0))
	default:
		b.WriteString(strconv.FormatFloat(f.Num, 'g', -1, 64))
	}
	s := b.String()
	if len(s) > 256 {
		s = s[:256]
	}
	return s
}

// samples returns the merged samples in the order their first field arrived.
func (m *lineMapper) samples() []telemetry.Sample { return m.out }
