package ingest

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

// MapRuleInput is a rule as added or edited.
type MapRuleInput struct {
	Name   string     `json:"name"`
	Topic  string     `json:"topic" validate:"required" doc:"MQTT filter relative to helio/map/{orgId}/, with {name} parts"`
	Device string     `json:"device" doc:"device serial number, fixed or with {name} parts of the topic"`
	Fields []FieldMap `json:"fields"`
}

// MapRuleList is the organisation's rules and the root its topics live under.
type MapRuleList struct {
	Root  string    `json:"root" doc:"helio/map/{orgId}/: collectors publish under it"`
	Rules []MapRule `json:"rules"`
}

// MapPresetApply names a preset and the collector's base topic.
type MapPresetApply struct {
	Preset string `json:"preset" validate:"required" doc:"opendtu, ahoydtu, tasmota or victron"`
	Root   string `json:"root" doc:"the collector's base topic; empty: the preset's default"`
}

// MapPresetApplied is what applying a preset did.
type MapPresetApplied struct {
	Added   []MapRule `json:"added"`
	Skipped int       `json:"skipped" doc:"rules left out: the organisation has a rule for that topic"`
}

// ArrivedList is what arrived on the organisation's mapped topics and was not stored.
type ArrivedList struct {
	Root   string         `json:"root"`
	Topics []ArrivedTopic `json:"topics" doc:"at most 200, the most recent first; this replica's view since it started"`
}

// MapRoutes registers the MQTT mapping calls (administrators only: configuration).
func (s *Service) MapRoutes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/ingest/mqtt/rule/list", Tag: "ingest", Summary: "The organisation's MQTT mapping rules",
		Access: httpapi.Admin, Resp: MapRuleList{}, Handle: s.listRules})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/ingest/mqtt/rule/add", Tag: "ingest", Summary: "Add an MQTT mapping rule",
		Access: httpapi.Admin, Body: MapRuleInput{}, Resp: MapRule{}, Handle: s.addRule})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/ingest/mqtt/rule/edit/{id}", Tag: "ingest", Summary: "Replace an MQTT mapping rule",
		Access: httpapi.Admin, Body: MapRuleInput{}, Resp: MapRule{}, Handle: s.editRule})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/ingest/mqtt/rule/delete/{id}", Tag: "ingest", Summary: "Delete an MQTT mapping rule",
		Access: httpapi.Admin, Handle: s.deleteRule})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/ingest/mqtt/preset/list", Tag: "ingest", Summary: "The shipped MQTT mapping presets (OpenDTU, AhoyDTU, Tasmota, Victron)",
		Access: httpapi.Admin, Resp: []MapPreset{}, Handle: s.listPresets})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/ingest/mqtt/preset/apply", Tag: "ingest",
		Summary: "Add a preset's rules under a base topic (rules for topics the organisation maps already are left out)",
		Access:  httpapi.Admin, Body: MapPresetApply{}, Resp: MapPresetApplied{}, Handle: s.applyPreset})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/ingest/mqtt/arrived", Tag: "ingest",
		Summary: "Mapped-topic messages that gave no sample (no rule, unknown device, no value): topic, count, last time, a payload",
		Access:  httpapi.Admin, Resp: ArrivedList{}, Handle: s.arrived})
}

func mapRoot(orgID int64) string { return fmt.Sprintf("%s/%d/", DefaultMapPrefix, orgID) }

func (s *Service) listRules(r *http.Request) (any, error) {
	p := httpapi.Caller(r)
	rules, err := ListRules(r.Context(), s.DB, p.OrgID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return MapRuleList{Root: mapRoot(p.OrgID), Rules: rules}, nil
}

// checkedRule decodes and checks a rule (a 400 naming each bad field).
func checkedRule(r *http.Request) (MapRule, error) {
	var in MapRuleInput
	if err := httpapi.Decode(r, &in); err != nil {
		return MapRule{}, err
	}
	rule := MapRule{Name: strings.TrimSpace(in.Name), Topic: in.Topic, Device: in.Device, Fields: in.Fields}
	if rule.Fields == nil {
		rule.Fields = []FieldMap{}
	}
	var v httpapi.Validator
	compileRule(rule, &v)
	return rule, v.Err()
}

// ruleStoreError turns a store error into the answer.
func ruleStoreError(err error) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return httpapi.NotFound()
	case errors.Is(err, ErrRuleTopicTaken) || isUniqueViolation(err):
		return httpapi.InvalidField("topic", "mqtt_rule_twice")
	case errors.Is(err, ErrRuleLimit):
		return httpapi.Conflict("mqtt_rule_limit", maxRulesPerOrg)
	}
	return httpapi.Internal(err)
}

func (s *Service) addRule(r *http.Request) (any, error) {
	rule, err := checkedRule(r)
	if err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	added, err := AddRules(r.Context(), s.DB, p.OrgID, []MapRule{rule}, false)
	if err != nil {
		return nil, ruleStoreError(err)
	}
	s.mapping().Invalidate()
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "ingest.mqtt.rule.add", rule.Topic, "", httpapi.ClientAddr(r))
	return added[0], nil
}

func (s *Service) editRule(r *http.Request) (any, error) {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return nil, err
	}
	rule, err := checkedRule(r)
	if err != nil {
		return nil, err
	}
	rule.ID = id
	p := httpapi.Caller(r)
	if err := EditRule(r.Context(), s.DB, p.OrgID, rule); err != nil {
		return nil, ruleStoreError(err)
	}
	s.mapping().Invalidate()
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "ingest.mqtt.rule.edit", rule.Topic, "", httpapi.ClientAddr(r))
	return rule, nil
}

func (s *Service) deleteRule(r *http.Request) (any, error) {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	if err := DeleteRule(r.Context(), s.DB, p.OrgID, id); err != nil {
		return nil, ruleStoreError(err)
	}
	s.mapping().Invalidate()
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "ingest.mqtt.rule.delete", fmt.Sprint(id), "", httpapi.ClientAddr(r))
	return nil, nil
}

func (s *Service) listPresets(*http.Request) (any, error) { return Presets, nil }

// rootRe is a base topic: levels of plain words, no wildcards.
var rootRe = regexp.MustCompile(`^[A-Za-z0-9_\-.]{1,64}(/[A-Za-z0-9_\-.]{1,64}){0,7}$`)

func (s *Service) applyPreset(r *http.Request) (any, error) {
	var in MapPresetApply
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	var v httpapi.Validator
	pre, ok := findPreset(in.Preset)
	if v.Required("preset", in.Preset) && !ok {
		v.OneOf("preset", in.Preset, presetKeys()...)
	}
	root := in.Root
	if root == "" {
		root = pre.Root
	}
	if in.Root != "" && !rootRe.MatchString(in.Root) {
		v.Add("root", "mqtt_topic_root")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	rules := pre.rulesAt(root)
	for _, rule := range rules {
		var cv httpapi.Validator
		if compileRule(rule, &cv); cv.Err() != nil {
			return nil, cv.Err() // a shipped preset always compiles (tested)
		}
	}
	p := httpapi.Caller(r)
	added, err := AddRules(r.Context(), s.DB, p.OrgID, rules, true)
	if err != nil {
		return nil, ruleStoreError(err)
	}
	s.mapping().Invalidate()
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "ingest.mqtt.preset.apply", pre.Key, root, httpapi.ClientAddr(r))
	return MapPresetApplied{Added: added, Skipped: len(rules) - len(added)}, nil
}

func (s *Service) arrived(r *http.Request) (any, error) {
	p := httpapi.Caller(r)
	return ArrivedList{Root: mapRoot(p.OrgID), Topics: s.mapping().Arrived.List(p.OrgID)}, nil
}
