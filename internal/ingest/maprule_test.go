package ingest

import (
	"strings"
	"testing"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/telemetry"
)

func compiled(t *testing.T, r MapRule) *compiledRule {
	t.Helper()
	var v httpapi.Validator
	c := compileRule(r, &v)
	if err := v.Err(); err != nil {
		t.Fatalf("%+v: %v", r, httpapi.AsError(err).Fields)
	}
	return c
}

func TestMapRuleMatch(t *testing.T) {
	cases := []struct {
		topic, device, in, sn string
		ok                    bool
	}{
		{"solar/{serial}/0/power", "{serial}", "solar/1141/0/power", "1141", true},
		{"solar/{serial}/0/power", "{serial}", "solar/1141/1/power", "", false},
		{"solar/{serial}/0/power", "{serial}", "solar/1141/0/power/x", "", false},
		{"solar/{serial}/0/power", "{serial}", "solar/1141/0", "", false},
		{"solar/{serial}/0/power", "{serial}", "solar//0/power", "", false},
		{"N/{portal}/battery/{instance}/Soc", "{portal}-battery-{instance}", "N/abc/battery/512/Soc", "abc-battery-512", true},
		{"meter/+/SENSOR", "METER-1", "meter/x/SENSOR", "METER-1", true},
		{"meter/#", "METER-1", "meter/x/y/z", "METER-1", true},
		{"meter/#", "METER-1", "other/x", "", false},
	}
	for _, c := range cases {
		r := compiled(t, MapRule{Topic: c.topic, Device: c.device, Fields: []FieldMap{{Field: "powerKw"}}})
		sn, ok := r.match(strings.Split(c.in, "/"))
		if ok != c.ok || sn != c.sn {
			t.Errorf("%s on %s: %q %v, want %q %v", c.topic, c.in, sn, ok, c.sn, c.ok)
		}
	}
}

func TestMapRuleExtract(t *testing.T) {
	r := compiled(t, MapRule{Topic: "tele/{serial}/SENSOR", Device: "{serial}", Fields: []FieldMap{
		{Path: "ENERGY.Power", Field: "powerKw", Scale: 0.001},
		{Path: "ENERGY.Total", Field: "energyKwh"},
		{Path: "ENERGY.Voltage", Field: "acVoltageV", Scale: 1},
		{Path: "list.1", Field: "tempC", Scale: 1},
		{Path: "ENERGY.Missing", Field: "soc", Scale: 1},
	}})
	found, vals := r.extract([]byte(`{"Time":"2024-06-01T12:00:00","ENERGY":{"Total":1234.5,"Power":"850","Voltage":231},"list":[1,41.5]}`))
	want := map[int]float64{telemetry.FieldPower: 0.85, telemetry.FieldEnergy: 1234.5, 5: 231, 7: 41.5}
	for i := 0; i < nFields; i++ {
		w, expect := want[i]
		if got := found&(1<<i) != 0; got != expect || vals[i] != w {
			t.Errorf("field %s: found %v %v, want %v %v", telemetry.SampleFields[i], got, vals[i], expect, w)
		}
	}
	plain := compiled(t, MapRule{Topic: "a/{serial}", Device: "{serial}", Fields: []FieldMap{{Field: "powerKw", Scale: 0.001}}})
	for payload, ok := range map[string]bool{"850": true, " 850.0 ": true, "online": false, "": false, "null": false, `{"value":1}`: false} {
		found, vals := plain.extract([]byte(payload))
		if (found != 0) != ok || ok && vals[telemetry.FieldPower] != 0.85 {
			t.Errorf("payload %q: found %b %v", payload, found, vals[telemetry.FieldPower])
		}
	}
	big := []byte(strings.Repeat(" ", maxPayload) + "1")
	if found, _ := plain.extract(big); found != 0 {
		t.Error("a payload past the limit was read")
	}
}

// Each bad rule is refused with the field named.
func TestMapRuleValidation(t *testing.T) {
	ok := []FieldMap{{Field: "powerKw"}}
	cases := []struct {
		rule  MapRule
		field string
		key   string
	}{
		{MapRule{Topic: "", Device: "X", Fields: ok}, "topic", "required"},
		{MapRule{Topic: "a/#/b", Device: "X", Fields: ok}, "topic", "mqtt_topic_level"},
		{MapRule{Topic: "a//b", Device: "X", Fields: ok}, "topic", "mqtt_topic_level"},
		{MapRule{Topic: "a/b+", Device: "X", Fields: ok}, "topic", "mqtt_topic_level"},
		{MapRule{Topic: "$SYS/x", Device: "X", Fields: ok}, "topic", "mqtt_topic_level"},
		{MapRule{Topic: "a/{x}/{x}", Device: "{x}", Fields: ok}, "topic", "mqtt_topic_name_twice"},
		{MapRule{Topic: strings.Repeat("a/", 20) + "b", Device: "X", Fields: ok}, "topic", "mqtt_topic_levels"},
		{MapRule{Topic: strings.Repeat("a", 300), Device: "X", Fields: ok}, "topic", "too_long"},
		{MapRule{Topic: "a/{serial}", Device: "{sn}", Fields: ok}, "device", "mqtt_device_part"},
		{MapRule{Topic: "a/{serial}", Device: "", Fields: ok}, "device", "required"},
		{MapRule{Topic: "a/{serial}", Device: "{serial", Fields: ok}, "device", "invalid_format"},
		{MapRule{Topic: "a/{serial}", Device: "{serial}"}, "fields", "required"},
		{MapRule{Topic: "a/{serial}", Device: "{serial}", Fields: []FieldMap{{Field: "watts"}}}, "fields[0].field", "one_of"},
		{MapRule{Topic: "a/{serial}", Device: "{serial}", Fields: []FieldMap{{Field: "soc"}, {Path: "x", Field: "soc"}}}, "fields[1].field", "mqtt_field_twice"},
		{MapRule{Topic: "a/{serial}", Device: "{serial}", Fields: []FieldMap{{Path: "a..b", Field: "soc"}}}, "fields[0].path", "mqtt_json_path"},
		{MapRule{Topic: "a/{serial}", Device: "{serial}", Fields: []FieldMap{{Path: "a b", Field: "soc"}}}, "fields[0].path", "mqtt_json_path"},
		{MapRule{Topic: "a/{serial}", Device: "{serial}", Fields: []FieldMap{{Field: "soc", Scale: 1e9}}}, "fields[0].scale", "out_of_range"},
	}
	for _, c := range cases {
		var v httpapi.Validator
		compileRule(c.rule, &v)
		err := httpapi.AsError(v.Err())
		if err == nil {
			t.Errorf("%+v accepted", c.rule)
			continue
		}
		if m, ok := err.Fields[c.field]; !ok || m.Key != c.key {
			t.Errorf("%+v: %+v, want %s %s", c.rule, err.Fields, c.field, c.key)
		}
	}
}

// Every shipped preset compiles at its default root.
func TestPresetsCompile(t *testing.T) {
	for _, p := range Presets {
		for _, r := range p.rulesAt(p.Root) {
			compiled(t, r)
		}
	}
}
