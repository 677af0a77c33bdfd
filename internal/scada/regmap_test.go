package scada

import (
	"math"
	"testing"
)

// Every data type and word order encodes and decodes back to the same value.
func TestRegisterEncodeDecode(t *testing.T) {
	cases := []struct {
		typ   string
		order string
		scale float64
		value float64
		words []uint16
	}{
		{"int16", "big", 1, -2, []uint16{0xFFFE}},
		{"uint16", "big", 0.1, 6553.5, []uint16{0xFFFF}},
		{"int32", "big", 0.001, -70.000, []uint16{0xFFFE, 0xEE90}},
		{"int32", "little", 0.001, -70.000, []uint16{0xEE90, 0xFFFE}},
		{"uint32", "little", 0.1, 10000, []uint16{34464, 1}},
		{"float32", "big", 1, 1.5, []uint16{0x3FC0, 0}},
		{"float32", "little", 1, 1.5, []uint16{0, 0x3FC0}},
		{"int64", "big", 1, -1, []uint16{0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF}},
		{"uint64", "little", 1, 65536, []uint16{0, 1, 0, 0}},
		{"float64", "big", 1, 2, []uint16{0x4000, 0, 0, 0}},
	}
	for _, c := range cases {
		r := &Register{Name: "x", DataType: c.typ, WordOrder: c.order, Scale: c.scale}
		if got := decode(r, c.words); math.Abs(got-c.value) > 1e-9 {
			t.Errorf("%s %s decode %v = %v, want %v", c.typ, c.order, c.words, got, c.value)
		}
		w, ok := encode(r, c.value)
		if !ok {
			t.Errorf("%s %s: %v does not fit", c.typ, c.order, c.value)
			continue
		}
		for i := range w {
			if w[i] != c.words[i] {
				t.Errorf("%s %s encode %v = %v, want %v", c.typ, c.order, c.value, w, c.words)
				break
			}
		}
	}
	if _, ok := encode(&Register{DataType: "uint16", Scale: 1}, 70000); ok {
		t.Error("70000 fitted a uint16")
	}
	if _, ok := encode(&Register{DataType: "int16", Scale: 1}, -40000); ok {
		t.Error("-40000 fitted an int16")
	}
}

// Neighbouring registers are read together; far ones, other functions and reads over 125
// registers are split.
func TestSpans(t *testing.T) {
	regs := []Register{
		{Address: 100, Function: "holding", DataType: "int32"},
		{Address: 104, Function: "holding", DataType: "uint16"},
		{Address: 10, Function: "input", DataType: "uint16"},
		{Address: 200, Function: "holding", DataType: "uint16"},
		{Address: 210, Function: "holding", DataType: "float64"},
		{Address: 320, Function: "holding", DataType: "uint16"},
		{Address: 336, Function: "holding", DataType: "uint16"},
	}
	got := spans(regs)
	want := []span{{"holding", 100, 105}, {"holding", 200, 201}, {"holding", 210, 214}, {"holding", 320, 321}, {"holding", 336, 337}, {"input", 10, 11}}
	if len(got) != len(want) {
		t.Fatalf("spans %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("spans %v, want %v", got, want)
		}
	}
	long := []Register{{Address: 0, Function: "holding", DataType: "uint16"}, {Address: 124, Function: "holding", DataType: "int32"}}
	if n := len(spans(long)); n != 2 {
		t.Fatalf("a 126-register read was not split: %d spans", n)
	}
}

func TestMapValidation(t *testing.T) {
	in := MapInput{Name: "ok", Registers: []Register{{Name: "p", Address: 1, Function: "holding", DataType: "int16", Target: "power"}}}
	if err := in.Validate(); err != nil {
		t.Fatal(err)
	}
	if in.Registers[0].Scale != 1 || in.Registers[0].WordOrder != "big" {
		t.Fatalf("defaults not filled: %+v", in.Registers[0])
	}
	bad := []MapInput{
		{Name: "", Registers: in.Registers},
		{Name: "x"},
		{Name: "x", Registers: []Register{{Name: "1p", Function: "holding", DataType: "int16"}}},
		{Name: "x", Registers: []Register{{Name: "p", Function: "coil", DataType: "int16"}}},
		{Name: "x", Registers: []Register{{Name: "p", Function: "holding", DataType: "int16", Scale: math.Inf(1)}}},
		{Name: "x", Registers: []Register{{Name: "p", Function: "holding", DataType: "int16", Target: "voltage"}}},
		{Name: "x", Registers: []Register{{Name: "p", Address: -1, Function: "holding", DataType: "int16"}}},
		{Name: "x", Registers: make([]Register, MaxRegisters+1)},
	}
	for i, b := range bad {
		if err := b.Validate(); err == nil {
			t.Errorf("case %d accepted", i)
		}
	}
}
