package scada

import "testing"

func TestTemplatesLoadAndValidate(t *testing.T) {
	list, err := Templates()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Growatt MAX/MID", "Huawei SUN2000", "Sungrow SG"}
	if len(list) != len(want) {
		t.Fatalf("%d templates, want %d", len(list), len(want))
	}
	for i, m := range list {
		if m.Name != want[i] || len(m.Registers) == 0 {
			t.Fatalf("template %d: %q with %d registers", i, m.Name, len(m.Registers))
		}
	}
	list[0].Registers[0].Name = "changed"
	again, _ := Templates()
	if again[0].Registers[0].Name == "changed" {
		t.Fatal("a caller changed the shipped template")
	}
}
