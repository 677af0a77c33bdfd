package telemetry

import (
	"encoding/json"
	"testing"
)

// Every wire name sets the Sample field encoding/json would fill from that key.
func TestSetFieldMatchesJSONNames(t *testing.T) {
	for i, name := range SampleFields {
		if FieldIndex(name) != i {
			t.Fatalf("FieldIndex(%q) = %d, want %d", name, FieldIndex(name), i)
		}
		var viaJSON, viaSet Sample
		if err := json.Unmarshal([]byte(`{"`+name+`":7}`), &viaJSON); err != nil {
			t.Fatal(err)
		}
		viaSet.SetField(i, 7)
		if viaJSON != viaSet {
			t.Errorf("%s: SetField gives %+v, JSON %+v", name, viaSet, viaJSON)
		}
	}
	var s Sample
	s.SetField(FieldStatus, 1.6)
	s.SetField(NumFields, 9)
	if s.Status != 2 || s != (Sample{Status: 2}) {
		t.Errorf("rounding or out of range: %+v", s)
	}
	if FieldIndex("nope") != -1 || len(SampleFields) != NumFields {
		t.Error("index of an unknown name, or the table's length")
	}
}
