package alarm

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
)

// The /v2/warn settings: a user's notification settings and the organisation's rules.

// RulesView lists an organisation's rules and what each threshold means.
type RulesView struct {
	Rules []Rule     `json:"rules"`
	Specs []RuleSpec `json:"specs"`
}

// RuleInput changes one rule; absent fields keep their value.
type RuleInput struct {
	Key     string             `json:"key" validate:"required"`
	Enabled *bool              `json:"enabled"`
	Level   *int               `json:"level"`
	Params  map[string]float64 `json:"params"`
}

// RulesInput changes some rules.
type RulesInput struct {
	Rules []RuleInput `json:"rules" validate:"required"`
}

// SettingsView is a user's notification settings and the choices offered.
type SettingsView struct {
	Settings
	DailyLimitChoices []int       `json:"dailyLimitChoices"`
	Today             NotifyToday `json:"today" doc:"the notifications of the user's local day: sent, held back by the daily limit"`
}

func (s *Service) getSettings(r *http.Request) (any, error) {
	st, err := LoadSettings(r.Context(), s.db(), httpapi.Caller(r).UserID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	today, err := notifyToday(r.Context(), s.db(), httpapi.Caller(r).UserID, st, s.now())
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return SettingsView{Settings: st, DailyLimitChoices: DailyLimitChoices, Today: today}, nil
}

// settingsInput tells absent fields from zero values.
type settingsInput struct {
	Levels     *[]int  `json:"levels"`
	Frequency  *string `json:"frequency"`
	DailyLimit *int    `json:"dailyLimit"`
	PushLimit  *int    `json:"pushLimit"`
	EmailLimit *int    `json:"emailLimit"`
	Methods    *[]int  `json:"methods"`
	Allowed    *int    `json:"allowed"`
	Timezone   *string `json:"timezone"`
	Digest     *int    `json:"digestMinutes"`
}

func (s *Service) saveSettings(r *http.Request) (any, error) {
	var in settingsInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	var v httpapi.Validator
	out := Settings{Timezone: "UTC"}
	switch {
	case in.Levels == nil || len(*in.Levels) == 0:
		v.Add("levels", "at_least_one")
	default:
		for _, l := range *in.Levels {
			if l < LevelSignal || l > LevelFault {
				v.Add("levels", "one_of", "0, 1, 2")
			}
		}
		out.Levels = *in.Levels
	}
	if in.Frequency == nil {
		v.Add("frequency", "required")
	} else {
		v.OneOf("frequency", *in.Frequency, Frequencies...)
		out.Frequency = *in.Frequency
	}
	if in.DailyLimit == nil {
		v.Add("dailyLimit", "required")
	} else {
		v.Range("dailyLimit", float64(*in.DailyLimit), 1, MaxDailyLimit)
		out.DailyLimit = *in.DailyLimit
		out.PushLimit, out.EmailLimit = out.DailyLimit, out.DailyLimit
	}
	if in.PushLimit != nil {
		v.Range("pushLimit", float64(*in.PushLimit), 1, MaxDailyLimit)
		out.PushLimit = *in.PushLimit
	}
	if in.EmailLimit != nil {
		v.Range("emailLimit", float64(*in.EmailLimit), 1, MaxDailyLimit)
		out.EmailLimit = *in.EmailLimit
	}
	switch {
	case in.Methods == nil || len(*in.Methods) == 0:
		v.Add("methods", "at_least_one")
	default:
		for _, m := range *in.Methods {
			if m != MethodInSite && m != MethodAppPush && m != MethodEmail {
				v.Add("methods", "one_of", "1, 2, 3")
			}
		}
		out.Methods = *in.Methods
	}
	if in.Allowed == nil {
		v.Add("allowed", "required")
	} else if *in.Allowed != 0 && *in.Allowed != 1 {
		v.Add("allowed", "one_of", "0, 1")
	} else {
		out.Allowed = *in.Allowed
	}
	if in.Digest != nil {
		if d := *in.Digest; d != 0 && (d < MinDigestMinutes || d > MaxDigestMinutes) {
			v.Add("digestMinutes", "digest_range", MinDigestMinutes, MaxDigestMinutes)
		}
		out.DigestMinutes = *in.Digest
	}
	if in.Timezone != nil && *in.Timezone != "" {
		tz := *in.Timezone
		if _, err := time.LoadLocation(tz); err != nil || strings.Contains(tz, "..") || tz == "Local" {
			v.Add("timezone", "invalid_format")
		}
		out.Timezone = tz
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	if err := SaveSettings(r.Context(), s.db(), p.UserID, out, s.now()); err != nil {
		return nil, httpapi.Internal(err)
	}
	return s.getSettings(r)
}

func (s *Service) getRules(r *http.Request) (any, error) {
	rules, err := loadRules(r.Context(), s.db(), httpapi.Caller(r).OrgID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return RulesView{Rules: rules.List(), Specs: Specs}, nil
}

func (s *Service) saveRules(r *http.Request) (any, error) {
	var in RulesInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	rules, err := loadRules(r.Context(), s.db(), p.OrgID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	var v httpapi.Validator
	if len(in.Rules) == 0 {
		v.Add("rules", "required")
	}
	seen := map[string]bool{}
	var changed []Rule
	for i, ri := range in.Rules {
		field := "rules[" + strconv.Itoa(i) + "]"
		spec := specByKey[ri.Key]
		if spec == nil {
			keys := make([]string, len(Specs))
			for j, sp := range Specs {
				keys[j] = sp.Key
			}
			v.Add(field+".key", "one_of", strings.Join(keys, ", "))
			continue
		}
		if seen[ri.Key] {
			v.Add(field+".key", "duplicate")
			continue
		}
		seen[ri.Key] = true
		rule := *rules[ri.Key]
		rule.Params = map[string]float64{}
		for k, x := range rules[ri.Key].Params {
			rule.Params[k] = x
		}
		if ri.Enabled != nil {
			rule.Enabled = *ri.Enabled
		}
		if ri.Level != nil {
			if *ri.Level < LevelSignal || *ri.Level > LevelFault {
				v.Add(field+".level", "one_of", "0, 1, 2")
			}
			rule.Level = *ri.Level
		}
		for name, val := range ri.Params {
			var ps *ParamSpec
			for j := range spec.Params {
				if spec.Params[j].Name == name {
					ps = &spec.Params[j]
				}
			}
			pf := field + ".params." + name
			if ps == nil {
				v.Add(pf, "unknown_field")
				continue
			}
			v.Range(pf, val, ps.Min, ps.Max)
			if ps.Integer && val != math.Trunc(val) {
				v.Add(pf, "wrong_type", "an integer")
			}
			rule.Params[name] = val
		}
		if spec.Key == RuleGrid && rule.P("voltageLowPct") >= rule.P("voltageHighPct") {
			v.Add(field+".params.voltageLowPct", "out_of_range", ps0(spec, "voltageLowPct").Min, rule.P("voltageHighPct"))
		}
		changed = append(changed, rule)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := saveRules(r.Context(), s.db(), p.OrgID, p.UserID, changed, s.now()); err != nil {
		return nil, httpapi.Internal(err)
	}
	s.Engine.rules.forget(p.OrgID)
	return s.getRules(r)
}

func ps0(spec *RuleSpec, name string) ParamSpec {
	for _, p := range spec.Params {
		if p.Name == name {
			return p
		}
	}
	return ParamSpec{}
}
