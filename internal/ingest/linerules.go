package ingest

import (
	"context"
	"fmt"
	"math"
	"regexp"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// LineRule maps one field of a measurement to a sample field: the device is the one whose
// serial number is the value of DeviceTag (among the devices the writing key may write).
type LineRule struct {
	Measurement string  `json:"measurement" validate:"required" doc:"the measurement, or * for any"`
	DeviceTag   string  `json:"deviceTag" validate:"required" doc:"the tag whose value is the device's serial number, e.g. sn or name"`
	Field       string  `json:"field" validate:"required" doc:"the field key"`
	Target      string  `json:"target" validate:"required" doc:"the sample field: powerKw, energyKwh, energy2Kwh, dcVoltageV, dcCurrentA, acVoltageV, frequencyHz, tempC, soc, irradianceWm2, status, stringsActive"`
	Scale       float64 `json:"scale" doc:"value × scale = value in the target's unit (W → kW: 0.001); 0 means 1"`
}

// LineRules is an organisation's whole set of rules, read and replaced at once.
type LineRules struct {
	Rules []LineRule `json:"rules" validate:"required"`
}

// MaxLineRules bounds an organisation's rules.
const MaxLineRules = 500

var lineNameRe = regexp.MustCompile(`^[^\x00-\x1f]{1,128}$`)

// Validate checks the rules and fills defaults; the 400 names each bad field
// (rules[2].target).
func (in *LineRules) Validate() error {
	var v httpapi.Validator
	if len(in.Rules) > MaxLineRules {
		v.Add("rules", "line_too_many_rules", MaxLineRules)
	}
	seen := map[[2]string]int{}
	for i := range in.Rules {
		r := &in.Rules[i]
		f := func(name string) string { return fmt.Sprintf("rules[%d].%s", i, name) }
		for name, val := range map[string]string{"measurement": r.Measurement, "deviceTag": r.DeviceTag, "field": r.Field} {
			if v.Required(f(name), val) && !lineNameRe.MatchString(val) {
				v.Add(f(name), "line_bad_name", 128)
			}
		}
		if telemetry.FieldIndex(r.Target) < 0 {
			v.OneOf(f("target"), r.Target, telemetry.SampleFields[:]...)
		}
		if r.Scale == 0 {
			r.Scale = 1
		}
		if math.IsNaN(r.Scale) || math.IsInf(r.Scale, 0) || math.Abs(r.Scale) > 1e9 {
			v.Add(f("scale"), "out_of_range", "-1000000000", "1000000000")
		}
		k := [2]string{r.Measurement, r.Field}
		if j, ok := seen[k]; ok {
			v.Add(f("field"), "line_rule_twice", j+1)
		} else {
			seen[k] = i
		}
	}
	return v.Err()
}

// LoadLineRules reads an organisation's rules in their order.
func LoadLineRules(ctx context.Context, db store.Querier, orgID int64) (LineRules, error) {
	out := LineRules{Rules: []LineRule{}}
	rows, err := db.Query(ctx, `SELECT measurement, device_tag, field, target, scale FROM line_rules
		WHERE org_id = ? ORDER BY position`, orgID)
	if err != nil {
		return out, fmt.Errorf("ingest: unable to read line protocol rules: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r LineRule
		if err := rows.Scan(&r.Measurement, &r.DeviceTag, &r.Field, &r.Target, &r.Scale); err != nil {
			return out, fmt.Errorf("ingest: unable to read line protocol rules: %w", err)
		}
		out.Rules = append(out.Rules, r)
	}
	return out, rows.Err()
}

// SaveLineRules replaces an organisation's rules (validated first).
func SaveLineRules(ctx context.Context, db *store.DB, orgID int64, in LineRules) error {
	return db.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.Exec(ctx, "DELETE FROM line_rules WHERE org_id = ?", orgID); err != nil {
			return fmt.Errorf("ingest: unable to save line protocol rules: %w", err)
		}
		for i, r := range in.Rules {
			if _, err := tx.Exec(ctx, `INSERT INTO line_rules (org_id, position, measurement, device_tag, field, target, scale)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, orgID, i, r.Measurement, r.DeviceTag, r.Field, r.Target, r.Scale); err != nil {
				return fmt.Errorf("ingest: unable to save line protocol rules: %w", err)
			}
		}
		return nil
	})
}

// lineMatcher finds the rule of a measurement's field: an exact measurement first, then *.
type lineMatcher struct {
	exact map[[2]string]*lineRule
	any   map[string]*lineRule
}

type lineRule struct {
	LineRule
	target int // index in telemetry.SampleFields
}

func compileRules(in LineRules) *lineMatcher {
	m := &lineMatcher{exact: map[[2]string]*lineRule{}, any: map[string]*lineRule{}}
	for _, r := range in.Rules {
		c := &lineRule{LineRule: r, target: telemetry.FieldIndex(r.Target)}
		if r.Measurement == "*" {
			m.any[r.Field] = c
		} else {
			m.exact[[2]string{r.Measurement, r.Field}] = c
		}
	}
	return m
}

func (m *lineMatcher) rule(measurement, field string) *lineRule {
	if c, ok := m.exact[[2]string{measurement, field}]; ok {
		return c
	}
	return m.any[field]
}
