package alarm

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Alarm types (SPEC.md section 4).
const (
	TypeDevice = 1 // reported by the device itself (status codes)
	TypeData   = 2 // judged by the platform from the data
)

// Alarm levels (SPEC.md section 4).
const (
	LevelSignal = 0 // signal change
	LevelAlarm  = 1
	LevelFault  = 2
)

// Alarm statuses.
const (
	StatusOccurring = 1
	StatusRecovered = 2
)

// Deal statuses.
const (
	Unprocessed = 0
	Processed   = 1
)

// Rule keys.
const (
	RuleOffline       = "offline"
	RuleInverterFault = "inverter_fault"
	RuleStringLoss    = "string_loss"
	RuleOverTemp      = "over_temperature"
	RuleGrid          = "grid_fault"
	RuleBatteryFault  = "battery_fault"
	RuleLowOutput     = "low_output"
)

// ParamSpec describes one threshold of a rule.
type ParamSpec struct {
	Name    string  `json:"name"`
	Default float64 `json:"default"`
	Min     float64 `json:"min"`
	Max     float64 `json:"max"`
	Unit    string  `json:"unit"`
	Integer bool    `json:"integer"`
	Doc     string  `json:"doc"`
}

// RuleSpec is a built-in rule: what it watches, its type, default level and thresholds.
type RuleSpec struct {
	Key          string      `json:"key"`
	Type         int         `json:"type" doc:"1 device alarm, 2 data alarm"`
	DefaultLevel int         `json:"defaultLevel"`
	Devices      []string    `json:"devices" doc:"device types the rule applies to"`
	Params       []ParamSpec `json:"params,omitempty" doc:"left out when the rule has no thresholds"`
	Doc          string      `json:"doc"`
}

// Specs lists the rules in the order the console shows them. docs/alarms.md explains
// each.
var Specs = []RuleSpec{
	{Key: RuleOffline, Type: TypeData, DefaultLevel: LevelAlarm, Devices: []string{"inverter", "battery", "storage", "meter", "collector"},
		Doc: "Lost communication: no sample for the given minutes (one alarm per collector when every device behind it is silent).",
		Params: []ParamSpec{{Name: "minutes", Default: 15, Min: 5, Max: 1440, Unit: "min", Integer: true,
			Doc: "silence before a device or collector counts as offline"}}},
	{Key: RuleInverterFault, Type: TypeDevice, DefaultLevel: LevelFault, Devices: []string{"inverter"},
		Doc: "The inverter reports a fault (trip)."},
	{Key: RuleStringLoss, Type: TypeData, DefaultLevel: LevelAlarm, Devices: []string{"inverter"},
		Doc: "While producing, fewer strings carry current than the device's enabled strings.",
		Params: []ParamSpec{{Name: "samples", Default: 1, Min: 1, Max: 24, Integer: true,
			Doc: "consecutive producing samples with a string missing before the alarm opens"}}},
	{Key: RuleOverTemp, Type: TypeDevice, DefaultLevel: LevelAlarm, Devices: []string{"inverter", "battery", "storage"},
		Doc: "The device derates for temperature, or its temperature reaches the limit.",
		Params: []ParamSpec{{Name: "tempC", Default: 80, Min: 40, Max: 150, Unit: "°C", Doc: "temperature limit"},
			{Name: "hysteresisC", Default: 3, Min: 0, Max: 30, Unit: "°C", Doc: "the alarm recovers below the limit minus this"}}},
	{Key: RuleGrid, Type: TypeDevice, DefaultLevel: LevelAlarm, Devices: []string{"inverter", "battery", "storage", "meter"},
		Doc: "Grid over/under voltage or frequency at a (sub-)station: a device reports a grid fault, or measures voltage or frequency outside the band around the nominal learnt from its samples. One alarm per station.",
		Params: []ParamSpec{
			{Name: "voltageHighPct", Default: 110, Min: 101, Max: 150, Unit: "%", Doc: "over-voltage above this share of nominal"},
			{Name: "voltageLowPct", Default: 88, Min: 50, Max: 99, Unit: "%", Doc: "under-voltage below this share of nominal"},
			{Name: "frequencyDeltaHz", Default: 0.5, Min: 0.05, Max: 5, Unit: "Hz", Doc: "over/under frequency beyond nominal ± this"}}},
	{Key: RuleBatteryFault, Type: TypeDevice, DefaultLevel: LevelFault, Devices: []string{"battery", "storage"},
		Doc: "A battery or all-in-one storage unit (or its pack) reports a fault. One alarm per unit."},
	{Key: RuleLowOutput, Type: TypeData, DefaultLevel: LevelAlarm, Devices: []string{"inverter"},
		Doc: "In daylight, output below a share of the power expected from the plane-of-array irradiance (irradiance × component kWp ÷ 1000 × derate, capped at rated power) for several consecutive samples.",
		Params: []ParamSpec{
			{Name: "ratioPct", Default: 50, Min: 5, Max: 95, Unit: "%", Doc: "alarm below this share of expected power"},
			{Name: "derate", Default: 0.8, Min: 0.3, Max: 1, Doc: "expected power per kWp at 1000 W/m² (temperature, wiring, inverter losses)"},
			{Name: "irradianceMin", Default: 200, Min: 20, Max: 1000, Unit: "W/m²", Doc: "judge only above this irradiance"},
			{Name: "sunElevationMin", Default: 10, Min: 0, Max: 60, Unit: "°", Doc: "judge only with the sun above this elevation"},
			{Name: "samples", Default: 3, Min: 1, Max: 24, Integer: true, Doc: "consecutive low samples before the alarm opens"}}},
}

var specByKey = func() map[string]*RuleSpec {
	m := map[string]*RuleSpec{}
	for i := range Specs {
		m[Specs[i].Key] = &Specs[i]
	}
	return m
}()

// Rule is a rule as an organisation has set it.
type Rule struct {
	Key     string             `json:"key"`
	Type    int                `json:"type" doc:"1 device alarm, 2 data alarm (fixed per rule)"`
	Enabled bool               `json:"enabled"`
	Level   int                `json:"level" doc:"0 signal change, 1 alarm, 2 fault"`
	Params  map[string]float64 `json:"params"`
}

// P returns a threshold (its default when unset).
func (r *Rule) P(name string) float64 {
	if v, ok := r.Params[name]; ok {
		return v
	}
	if s := specByKey[r.Key]; s != nil {
		for _, p := range s.Params {
			if p.Name == name {
				return p.Default
			}
		}
	}
	return math.NaN()
}

// Rules is an organisation's rule set, by key.
type Rules map[string]*Rule

// DefaultRules returns the built-in rule set.
func DefaultRules() Rules {
	out := Rules{}
	for _, s := range Specs {
		r := &Rule{Key: s.Key, Type: s.Type, Enabled: true, Level: s.DefaultLevel, Params: map[string]float64{}}
		for _, p := range s.Params {
			r.Params[p.Name] = p.Default
		}
		out[s.Key] = r
	}
	return out
}

// List returns the rules in Specs order.
func (rs Rules) List() []Rule {
	out := make([]Rule, 0, len(Specs))
	for _, s := range Specs {
		if r := rs[s.Key]; r != nil {
			c := *r
			c.Params = map[string]float64{}
			for k, v := range r.Params {
				c.Params[k] = v
			}
			out = append(out, c)
		}
	}
	return out
}

// loadRules reads an organisation's rules: the defaults overlaid with its stored rows.
func loadRules(ctx context.Context, db *store.DB, orgID int64) (Rules, error) {
	rules := DefaultRules()
	rows, err := db.Query(ctx, "SELECT rule_key, enabled, level, params FROM alarm_rules WHERE org_id = ?", orgID)
	if err != nil {
		return nil, fmt.Errorf("alarm: unable to read rules: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var key, params string
		var enabled, level int
		if err := rows.Scan(&key, &enabled, &level, &params); err != nil {
			return nil, err
		}
		r := rules[key]
		if r == nil {
			continue // a rule this version does not know
		}
		r.Enabled, r.Level = enabled == 1, level
		var p map[string]float64
		if json.Unmarshal([]byte(params), &p) == nil {
			for k, v := range p {
				if _, known := r.Params[k]; known {
					r.Params[k] = v
				}
			}
		}
	}
	return rules, rows.Err()
}

// saveRules stores the given rules of an organisation.
func saveRules(ctx context.Context, db *store.DB, orgID, userID int64, list []Rule, now time.Time) error {
	return db.InTx(ctx, func(tx *store.Tx) error {
		for _, r := range list {
			params, err := json.Marshal(r.Params)
			if err != nil {
				return err
			}
			enabled := 0
			if r.Enabled {
				enabled = 1
			}
			var by any
			if userID > 0 {
				by = userID
			}
			if _, err := tx.Exec(ctx, `INSERT INTO alarm_rules (org_id, rule_key, enabled, level, params, updated_by, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (org_id, rule_key) DO UPDATE SET enabled = excluded.enabled, level = excluded.level,
				params = excluded.params, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
				orgID, r.Key, enabled, r.Level, string(params), by, now.UnixMilli()); err != nil {
				return fmt.Errorf("alarm: unable to save rule %s: %w", r.Key, err)
			}
		}
		return nil
	})
}

// ruleCache keeps each organisation's rules for a while (another replica's change is
// seen within ruleTTL).
type ruleCache struct {
	db  *store.DB
	now func() time.Time
	mu  sync.Mutex
	m   map[int64]ruleEntry
}

type ruleEntry struct {
	rules  Rules
	loaded time.Time
}

const ruleTTL = 30 * time.Second

func (c *ruleCache) get(ctx context.Context, orgID int64) (Rules, error) {
	c.mu.Lock()
	e, ok := c.m[orgID]
	c.mu.Unlock()
	if ok && c.now().Sub(e.loaded) < ruleTTL && !c.now().Before(e.loaded) {
		return e.rules, nil
	}
	rules, err := loadRules(ctx, c.db, orgID)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.m[orgID] = ruleEntry{rules: rules, loaded: c.now()}
	c.mu.Unlock()
	return rules, nil
}

func (c *ruleCache) forget(orgID int64) {
	c.mu.Lock()
	delete(c.m, orgID)
	c.mu.Unlock()
}
