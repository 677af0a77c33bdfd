package scada

import (
	"context"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/sunspec/sunspectest"
	"github.com/helio-energy/helio/internal/telemetry"
)

func bitp(n int) *int { return &n }

// Each register field changes the decoded value the way docs/field.md says.
func TestRegisterFieldsDecode(t *testing.T) {
	status := Register{Name: "st", DataType: "uint16", Values: CodeTable{"0x0200": "running", "768": "fault", "0": "standby"}}
	cases := []struct {
		r     Register
		words []uint16
		want  float64 // NaN: no value
		text  string
	}{
		{status, []uint16{0x0200}, telemetry.StatusRunning, "running"},
		{status, []uint16{0x0300}, telemetry.StatusFault, "fault"},
		{status, []uint16{0x0201}, math.NaN(), ""}, // not listed, no default
		{Register{DataType: "uint16", Values: CodeTable{"1": "fault", "default": "2.5"}}, []uint16{7}, 2.5, "2.5"},
		{Register{DataType: "int16", Values: CodeTable{"-1": "gridFault"}}, []uint16{0xFFFF}, telemetry.StatusGridFault, "gridFault"},
		{Register{DataType: "uint16", Bit: bitp(3)}, []uint16{0x0008}, 1, ""},
		{Register{DataType: "uint16", Bit: bitp(3)}, []uint16{0xFFF7}, 0, ""},
		{Register{DataType: "uint32", Bit: bitp(17)}, []uint16{0x0002, 0}, 1, ""},
		{Register{DataType: "uint16", Bit: bitp(0), Values: CodeTable{"1": "fault", "0": "running"}}, []uint16{0x0001}, telemetry.StatusFault, "fault"},
		{Register{DataType: "int16", Scale: 0.1, Offset: -40}, []uint16{650}, 25, ""},
		{Register{DataType: "uint16", ByteOrder: "little"}, []uint16{0x3412}, 0x1234, ""},
		{Register{DataType: "uint32", ByteOrder: "little", WordOrder: "little"}, []uint16{0x7856, 0x3412}, 0x12345678, ""},
		{Register{DataType: "string", Size: 3}, []uint16{0x5355, 0x4E32, 0x0000}, math.NaN(), "SUN2"},
		{Register{DataType: "string", Size: 2, ByteOrder: "little"}, []uint16{0x4753, 0x0031}, math.NaN(), "SG1"},
		{Register{DataType: "bool"}, []uint16{1}, 1, ""},
	}
	for i, c := range cases {
		c.r.defaults()
		got := c.r.decode(c.words, 0)
		if math.IsNaN(c.want) != math.IsNaN(got.Value) || (!math.IsNaN(c.want) && math.Abs(got.Value-c.want) > 1e-9) || got.Text != c.text {
			t.Errorf("case %d: %v → %v %q, want %v %q", i, c.words, got.Value, got.Text, c.want, c.text)
		}
	}
	if got := status.decode([]uint16{0x0201}, 0); !strings.Contains(got.Err, "0x0201") {
		t.Errorf("an unlisted code's error does not name it: %q", got.Err)
	}
	// the scale register's exponent applies after the scale, before the offset
	regs := []Register{{Name: "a", DataType: "uint16", Scale: 1, ScaleRegister: "a_sf"}, {Name: "a_sf", DataType: "int16", Scale: 1}}
	words := map[string][]uint16{"a": {1234}, "a_sf": {0xFFFE}}
	rd := decodeAll(regs, func(r *Register) []uint16 { return words[r.Name] })
	if math.Abs(rd[0].Value-12.34) > 1e-9 {
		t.Errorf("scale register: %v, want 12.34", rd[0].Value)
	}
	words["a_sf"] = []uint16{0x8000} // SunSpec's "not implemented"
	if rd = decodeAll(regs, func(r *Register) []uint16 { return words[r.Name] }); !math.IsNaN(rd[0].Value) || !strings.Contains(rd[0].Err, "a_sf") {
		t.Errorf("an impossible exponent gave %v (%q)", rd[0].Value, rd[0].Err)
	}
}

// A write takes offset and byte order into account: what is written reads back as the value.
func TestEncodeWithOffsetAndByteOrder(t *testing.T) {
	r := Register{DataType: "uint32", Scale: 0.1, Offset: -40, ByteOrder: "little", WordOrder: "little"}
	r.defaults()
	w, ok := encode(&r, 25)
	if !ok || len(w) != 2 || w[0] != 0x8A02 || w[1] != 0 { // (25+40)/0.1 = 650 = 0x0000028A: low word first, bytes swapped
		t.Fatalf("encode: %v %v", w, ok)
	}
	if got := decode(&r, w); math.Abs(got-25) > 1e-9 {
		t.Fatalf("read back %v", got)
	}
	if _, ok := encode(&Register{DataType: "string", Size: 2, Scale: 1}, 1); ok {
		t.Fatal("a string was encoded")
	}
}

// Sums add up, fault registers override the status, display-only targets feed nothing.
func TestMapSampleTargets(t *testing.T) {
	regs := []Register{
		{Name: "pv1", Target: "dcCurrent", Sum: true},
		{Name: "pv2", Target: "dcCurrent", Sum: true},
		{Name: "p", Target: "power"},
		{Name: "st", Target: "status", Values: CodeTable{"512": "running"}},
		{Name: "alarm", Target: "fault"},
		{Name: "code", Target: "fault", Values: CodeTable{"0": "standby", "2063": "overTemp", "default": "fault"}},
		{Name: "q", Target: "reactivePower"},
	}
	s := telemetry.Sample{}
	mapSample(&s, regs, []reading{{Value: 6.5}, {Value: 7}, {Value: 30}, {Value: 1}, {Value: 0}, {Value: 0}, {Value: 99}})
	if s.DCCurrentA != 13.5 || s.PowerKW != 30 || s.Status != telemetry.StatusRunning {
		t.Fatalf("sample %+v", s)
	}
	s = telemetry.Sample{}
	mapSample(&s, regs, []reading{{Value: 1}, {Value: 1}, {Value: 30}, {Value: 1}, {Value: 0}, {Value: telemetry.StatusOverTemp}, {Value: 0}})
	if s.Status != telemetry.StatusOverTemp {
		t.Fatalf("a vendor over-temperature code gave status %d", s.Status)
	}
	s = telemetry.Sample{}
	mapSample(&s, regs, []reading{{Value: 1}, {Value: 1}, {Value: 30}, {Value: 1}, {Value: 1}, {Value: telemetry.StatusOverTemp}, {Value: 0}})
	if s.Status != telemetry.StatusFault {
		t.Fatalf("an alarm bit with an over-temperature code gave status %d, want fault", s.Status)
	}
	s = telemetry.Sample{}
	mapSample(&s, regs, []reading{{Value: 1}, {Value: 1}, {Value: 30}, {Value: math.NaN()}, {Value: 0}, {Value: 0}, {Value: 0}})
	if s.Status != telemetry.StatusRunning {
		t.Fatalf("an unlisted status code while producing gave status %d", s.Status)
	}
	// a status register without a table that reads a vendor code (0x0200) is not stored raw
	s = telemetry.Sample{}
	mapSample(&s, []Register{{Name: "p", Target: "power"}, {Name: "st", Target: "status"}}, []reading{{Value: 30}, {Value: 512}})
	if s.Status != telemetry.StatusRunning {
		t.Fatalf("a raw vendor code gave status %d", s.Status)
	}
	s = telemetry.Sample{}
	mapSample(&s, []Register{{Name: "p", Target: "power"}, {Name: "st", Target: "status"}}, []reading{{Value: 30}, {Value: 2}})
	if s.Status != telemetry.StatusFault {
		t.Fatalf("a Helio status code read directly gave status %d", s.Status)
	}
}

// A map's JSON is read strictly: an unknown register field is named by its path.
func TestMapJSONNamesTheRegister(t *testing.T) {
	req := func(body string) *http.Request {
		r := httptest.NewRequest("POST", "/", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		return r
	}
	decode := func(body string) error {
		var in MapInput
		return httpapi.DecodeLimit(req(body), &in, maxMapBody)
	}
	field := func(err error) string {
		var he *httpapi.Error
		if !errors.As(err, &he) {
			return ""
		}
		for f := range he.Fields {
			return f + ":" + he.Fields[f].Key
		}
		return he.Key
	}
	reg := `{"name":"p","address":0,"function":"holding","dataType":"int16"}`
	cases := map[string]string{
		`{"name":"m","registers":[` + reg + `,` + reg + `,` + reg + `,{"name":"x","foo":1}]}`: "registers[3].foo:scada_unknown_register_field",
		`{"name":"m","registers":[{"name":"x","address":"1"}]}`:                               "registers[0].address:wrong_type",
		`{"name":"m","registers":[{"name":"x","values":{"1":[1]}}]}`:                          "registers[0].values.1:scada_code_value",
		`{"name":"m","bogus":1,"registers":[]}`:                                               "bogus:unknown_field",
	}
	for body, want := range cases {
		if got := field(decode(body)); got != want {
			t.Errorf("%s: %q, want %q", body, got, want)
		}
	}
	var in MapInput
	err := decode(`{"name":"m","registers":[{"name":"st","address":1,"function":"holding","dataType":"uint16","values":{"0x0200":"running","768":2},"bit":0,"offset":1,"byteOrder":"little","scaleRegister":"","sum":false}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if err := httpapi.DecodeLimit(req(`{"name":"m","registers":[{"name":"st","values":{"768":2}}]}`), &in, maxMapBody); err != nil {
		t.Fatal(err)
	}
	if in.Registers[0].Values["768"] != "2" {
		t.Fatalf("a number in a code table read as %q", in.Registers[0].Values["768"])
	}
}

// Every validation problem names the register's index and field.
func TestMapValidationNamesTheRegister(t *testing.T) {
	ok := func(r Register) Register {
		if r.Name == "" {
			r.Name = "r"
		}
		if r.Function == "" {
			r.Function = "holding"
		}
		if r.DataType == "" {
			r.DataType = "uint16"
		}
		return r
	}
	cases := []struct {
		regs []Register
		want string
	}{
		{[]Register{ok(Register{Address: 65535, DataType: "uint32"})}, "registers[0].address:out_of_range"},
		{[]Register{ok(Register{Name: "a", Address: 10, DataType: "uint32"}), ok(Register{Name: "b", Address: 11})}, "registers[1].address:scada_overlap"},
		{[]Register{ok(Register{Name: "a", ScaleRegister: "nothing"})}, "registers[0].scaleRegister:scada_scale_register"},
		{[]Register{ok(Register{Name: "a", Values: CodeTable{"0xZZ": "running"}})}, "registers[0].values.0xZZ:scada_code"},
		{[]Register{ok(Register{Name: "a", Values: CodeTable{"1": "broken"}})}, "registers[0].values.1:scada_code_value"},
		{[]Register{ok(Register{Name: "a", Bit: bitp(16)})}, "registers[0].bit:out_of_range"},
		{[]Register{ok(Register{Name: "a", DataType: "float32", Bit: bitp(1)})}, "registers[0].bit:scada_integer_only"},
		{[]Register{ok(Register{Name: "a", DataType: "string"})}, "registers[0].size:out_of_range"},
		{[]Register{ok(Register{Name: "a", DataType: "string", Size: 4, Target: "power"})}, "registers[0].dataType:scada_display_only"},
		{[]Register{ok(Register{Name: "a", Size: 4})}, "registers[0].size:scada_size_string"},
		{[]Register{ok(Register{Name: "a", Function: "coil"})}, "registers[0].dataType:scada_bool_function"},
		{[]Register{ok(Register{Name: "a", DataType: "bool"})}, "registers[0].dataType:scada_bool_function"},
		{[]Register{ok(Register{Name: "a", Target: "dcCurrent", Sum: true}), ok(Register{Name: "b", Address: 1, Target: "dcCurrent"})}, "registers[1].target:scada_duplicate_target"},
		{[]Register{ok(Register{Name: "a", Target: "status", Sum: true})}, "registers[0].sum:scada_sum_target"},
		{[]Register{ok(Register{Name: "a", ByteOrder: "middle"})}, "registers[0].byteOrder:one_of"},
		{[]Register{ok(Register{Name: "a", Offset: math.NaN()})}, "registers[0].offset:scada_offset"},
		{[]Register{ok(Register{Name: "a", Writable: true, Bit: bitp(1)})}, "registers[0].writable:scada_writable_plain"},
	}
	for i, c := range cases {
		in := MapInput{Name: "m", Registers: c.regs}
		err := in.Validate()
		var he *httpapi.Error
		if !errors.As(err, &he) {
			t.Errorf("case %d accepted", i)
			continue
		}
		field, key, _ := strings.Cut(c.want, ":")
		if m, ok := he.Fields[field]; !ok || m.Key != key {
			t.Errorf("case %d: %v, want %s", i, he.Fields, c.want)
		}
	}
	good := MapInput{Name: "m", Registers: []Register{
		ok(Register{Name: "alarm.grid", Address: 5, Bit: bitp(2), Target: "fault"}),
		ok(Register{Name: "alarm.temp", Address: 5, Bit: bitp(3), Target: "fault"}),
		ok(Register{Name: "pv1", Address: 6, Target: "dcCurrent", Sum: true}),
		ok(Register{Name: "pv2", Address: 7, Target: "dcCurrent", Sum: true}),
		ok(Register{Name: "sn", Address: 10, DataType: "string", Size: 10}),
		ok(Register{Name: "p", Address: 20, DataType: "int32", ScaleRegister: "p_sf"}),
		ok(Register{Name: "p_sf", Address: 22, DataType: "int16"}),
		ok(Register{Name: "run", Address: 0, Function: "coil", DataType: "bool"}),
		ok(Register{Name: "door", Address: 0, Function: "discrete", DataType: "bool"}),
	}}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
}

// A map using every field reads over a real Modbus TCP connection into the sample, and the
// live read names the map version and shows the display-only values.
func TestMapFieldsOverLoopback(t *testing.T) {
	hold, input, coils, discrete := sunspectest.NewImage(), sunspectest.NewImage(), sunspectest.NewImage(), sunspectest.NewImage()
	hold.Set(0, 0x5355, 0x4E32, 0x3030, 0x3000) // "SUN2000"
	hold.Set(10, 0x0200)                        // status: on grid
	hold.Set(11, 0x0000, 30000)                 // active power, int32, gain 1000 (kW)
	hold.Set(13, 0x0004)                        // alarm word: bit 2 off
	hold.Set(14, 0x4B00)                        // temperature 75 in the high byte (byte order little), offset -40
	hold.Set(15, 12345, 0xFFFE)                 // energy raw and its exponent (−2)
	input.Set(100, 650, 700)                    // per-string currents, 0.01 A
	coils.Set(3, 1)
	discrete.Set(4, 1)
	srv := sunspectest.Serve(t, map[uint8]*sunspectest.Unit{1: {Image: hold, Input: input, Coils: coils, Discrete: discrete}})
	in := MapInput{Name: "vendor", Registers: []Register{
		{Name: "model", Address: 0, Function: "holding", DataType: "string", Size: 4},
		{Name: "status", Address: 10, Function: "holding", DataType: "uint16", Target: "status", Values: CodeTable{"0x0200": "running", "0x0300": "fault"}},
		{Name: "power", Address: 11, Function: "holding", DataType: "int32", Scale: 0.001, Target: "power", Unit: "kW"},
		{Name: "alarm.bit1", Address: 13, Function: "holding", DataType: "uint16", Bit: bitp(1), Target: "fault"},
		{Name: "temp", Address: 14, Function: "holding", DataType: "uint16", ByteOrder: "little", Offset: -40, Target: "temperature"},
		{Name: "energy", Address: 15, Function: "holding", DataType: "uint16", ScaleRegister: "energy_sf", Target: "energy"},
		{Name: "energy_sf", Address: 16, Function: "holding", DataType: "int16"},
		{Name: "pv1", Address: 100, Function: "input", DataType: "uint16", Scale: 0.01, Target: "dcCurrent", Sum: true},
		{Name: "pv2", Address: 101, Function: "input", DataType: "uint16", Scale: 0.01, Target: "dcCurrent", Sum: true},
		{Name: "q", Address: 102, Function: "input", DataType: "int16", Target: "reactivePower", Unit: "kvar"},
		{Name: "running", Address: 3, Function: "coil", DataType: "bool"},
		{Name: "door", Address: 4, Function: "discrete", DataType: "bool"},
	}}
	input.Set(102, uint16(0xFFF6)) // −10 kvar
	if err := in.Validate(); err != nil {
		t.Fatal(err)
	}
	c := &collector{got: map[int64][]telemetry.Sample{}}
	p := NewPoller(Options{Sink: c.sink})
	defer p.Close()
	p.Apply([]Target{{DeviceID: 1, DeviceType: "inverter", Addr: srv.Addr, Unit: 1, Interval: 100 * time.Millisecond, Timeout: time.Second,
		MapID: 7, MapName: "vendor", MapVersion: 3, Registers: in.Registers}})
	var s telemetry.Sample
	waitFor(t, func() bool {
		got := c.samples(1)
		if len(got) > 0 {
			s = got[0]
		}
		return len(got) > 0
	})
	if s.Status != telemetry.StatusRunning || s.PowerKW != 30 || s.TempC != 35 || math.Abs(s.EnergyKWh-123.45) > 1e-9 || math.Abs(s.DCCurrentA-13.5) > 1e-9 {
		t.Fatalf("sample %+v", s)
	}
	var live *Live
	err := p.Do(context.Background(), 1, func(ss *Session) error {
		var err error
		live, err = liveRead(ss, 1)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if live.MapName != "vendor" || live.MapVersion != 3 {
		t.Fatalf("live read names map %q v%d", live.MapName, live.MapVersion)
	}
	byName := map[string]LiveRegister{}
	for _, r := range live.Registers {
		byName[r.Name] = r
	}
	if byName["model"].Text != "SUN2000" || byName["status"].Text != "running" || *byName["q"].Value != -10 ||
		*byName["running"].Value != 1 || *byName["door"].Value != 1 {
		t.Fatalf("live registers %+v", live.Registers)
	}
	// a fault status code from the device gives the fault status
	hold.Set(10, 0x0300)
	n := len(c.samples(1))
	waitFor(t, func() bool {
		got := c.samples(1)
		return len(got) > n && got[len(got)-1].Status == telemetry.StatusFault
	})
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
