package ingest

import (
	"context"
	"fmt"
	"strings"

	"github.com/helio-energy/helio/internal/store"
)

// MapPreset is a shipped set of rules for a collector's own topics. Its topics start with
// {root}, the collector's base topic (OpenDTU's "solar", Tasmota's "tele", …).
type MapPreset struct {
	Key   string    `json:"key" doc:"opendtu, ahoydtu, tasmota or victron"`
	Title string    `json:"title"`
	Root  string    `json:"root" doc:"the collector's default base topic"`
	Rules []MapRule `json:"rules" doc:"topics with {root} for the base topic"`
}

// one is a rule of a single field.
func one(name, topic, device, path, field string, scale float64) MapRule {
	return MapRule{Name: name, Topic: topic, Device: device, Fields: []FieldMap{{Path: path, Field: field, Scale: scale}}}
}

// Presets are the shipped presets. The topic shapes and units are those the projects
// document: OpenDTU docs/MQTT_Topics.md (plain-number payloads, W, kWh, V, Hz, °C),
// AhoyDTU's MQTT topics (ch0 the AC side, ch1… the inputs), Tasmota's tele/…/SENSOR
// ENERGY object (Power W, Total kWh) and Venus OS dbus-flashmq notifications
// (N/{portal}/{service}/{instance}/{path}, payload {"value": x}).
var Presets = []MapPreset{
	{Key: "opendtu", Title: "OpenDTU (Hoymiles microinverters)", Root: "solar", Rules: []MapRule{
		one("OpenDTU AC power", "{root}/{serial}/0/power", "{serial}", "", "powerKw", 0.001),
		one("OpenDTU total yield", "{root}/{serial}/0/yieldtotal", "{serial}", "", "energyKwh", 1),
		one("OpenDTU AC voltage", "{root}/{serial}/0/voltage", "{serial}", "", "acVoltageV", 1),
		one("OpenDTU frequency", "{root}/{serial}/0/frequency", "{serial}", "", "frequencyHz", 1),
		one("OpenDTU temperature", "{root}/{serial}/0/temperature", "{serial}", "", "tempC", 1),
		one("OpenDTU input 1 voltage", "{root}/{serial}/1/voltage", "{serial}", "", "dcVoltageV", 1),
		one("OpenDTU input 1 current", "{root}/{serial}/1/current", "{serial}", "", "dcCurrentA", 1),
		one("OpenDTU producing", "{root}/{serial}/status/producing", "{serial}", "", "status", 1),
	}},
	{Key: "ahoydtu", Title: "AhoyDTU (Hoymiles microinverters)", Root: "inverter", Rules: []MapRule{
		one("AhoyDTU AC power", "{root}/{serial}/ch0/P_AC", "{serial}", "", "powerKw", 0.001),
		one("AhoyDTU total yield", "{root}/{serial}/ch0/YieldTotal", "{serial}", "", "energyKwh", 1),
		one("AhoyDTU AC voltage", "{root}/{serial}/ch0/U_AC", "{serial}", "", "acVoltageV", 1),
		one("AhoyDTU frequency", "{root}/{serial}/ch0/F_AC", "{serial}", "", "frequencyHz", 1),
		one("AhoyDTU temperature", "{root}/{serial}/ch0/Temp", "{serial}", "", "tempC", 1),
		one("AhoyDTU input 1 voltage", "{root}/{serial}/ch1/U_DC", "{serial}", "", "dcVoltageV", 1),
		one("AhoyDTU input 1 current", "{root}/{serial}/ch1/I_DC", "{serial}", "", "dcCurrentA", 1),
	}},
	{Key: "tasmota", Title: "Tasmota energy meter", Root: "tele", Rules: []MapRule{
		{Name: "Tasmota energy", Topic: "{root}/{serial}/SENSOR", Device: "{serial}", Fields: []FieldMap{
			{Path: "ENERGY.Power", Field: "powerKw", Scale: 0.001},
			{Path: "ENERGY.Total", Field: "energyKwh", Scale: 1},
			{Path: "ENERGY.Voltage", Field: "acVoltageV", Scale: 1},
			{Path: "ENERGY.Frequency", Field: "frequencyHz", Scale: 1},
		}},
	}},
	// Victron counts battery power and current positive while charging; Helio counts a
	// battery's power positive while discharging, hence the negative scales.
	{Key: "victron", Title: "Victron Venus OS (solar chargers, batteries)", Root: "N", Rules: []MapRule{
		one("Victron PV power", "{root}/{portal}/solarcharger/{instance}/Yield/Power", "{portal}-solarcharger-{instance}", "value", "powerKw", 0.001),
		one("Victron PV yield", "{root}/{portal}/solarcharger/{instance}/Yield/User", "{portal}-solarcharger-{instance}", "value", "energyKwh", 1),
		one("Victron PV voltage", "{root}/{portal}/solarcharger/{instance}/Pv/V", "{portal}-solarcharger-{instance}", "value", "dcVoltageV", 1),
		one("Victron battery SoC", "{root}/{portal}/battery/{instance}/Soc", "{portal}-battery-{instance}", "value", "soc", 1),
		one("Victron battery power", "{root}/{portal}/battery/{instance}/Dc/0/Power", "{portal}-battery-{instance}", "value", "powerKw", -0.001),
		one("Victron battery voltage", "{root}/{portal}/battery/{instance}/Dc/0/Voltage", "{portal}-battery-{instance}", "value", "dcVoltageV", 1),
		one("Victron battery current", "{root}/{portal}/battery/{instance}/Dc/0/Current", "{portal}-battery-{instance}", "value", "dcCurrentA", -1),
		one("Victron battery temperature", "{root}/{portal}/battery/{instance}/Dc/0/Temperature", "{portal}-battery-{instance}", "value", "tempC", 1),
		one("Victron battery discharged", "{root}/{portal}/battery/{instance}/History/DischargedEnergy", "{portal}-battery-{instance}", "value", "energyKwh", 1),
		one("Victron battery charged", "{root}/{portal}/battery/{instance}/History/ChargedEnergy", "{portal}-battery-{instance}", "value", "energy2Kwh", 1),
	}},
}

// presetKeys are the presets' keys, for validation messages.
func presetKeys() []string {
	out := make([]string, len(Presets))
	for i, p := range Presets {
		out[i] = p.Key
	}
	return out
}

// findPreset returns a preset by key.
func findPreset(key string) (MapPreset, bool) {
	for _, p := range Presets {
		if p.Key == key {
			return p, true
		}
	}
	return MapPreset{}, false
}

// rulesAt returns a preset's rules with root as the base topic.
func (p MapPreset) rulesAt(root string) []MapRule {
	out := make([]MapRule, len(p.Rules))
	for i, r := range p.Rules {
		r.Topic = strings.ReplaceAll(r.Topic, "{root}", root)
		r.Fields = append([]FieldMap(nil), r.Fields...)
		out[i] = r
	}
	return out
}

// AddPreset adds a shipped preset's rules under a base topic ("" : the preset's default),
// leaving out topics the organisation maps already, as the preset call does.
func AddPreset(ctx context.Context, db *store.DB, orgID int64, key, root string) ([]MapRule, error) {
	pre, ok := findPreset(key)
	if !ok {
		return nil, fmt.Errorf("ingest: no preset %q", key)
	}
	if root == "" {
		root = pre.Root
	}
	return AddRules(ctx, db, orgID, pre.rulesAt(root), true)
}
