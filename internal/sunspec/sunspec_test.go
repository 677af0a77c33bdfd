package sunspec_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/sunspec"
	"github.com/helio-energy/helio/internal/sunspec/sunspectest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// The product's tables agree with the Alliance's definitions: every point's offset, type,
// size and scale factor, the fixed block's length and the repeating groups' layout.
func TestTablesMatchDefinitions(t *testing.T) {
	for _, id := range sunspec.Supported() {
		m, _ := sunspec.Lookup(id)
		def := sunspectest.Load(t, id)
		offs, size := def.Group.Offsets()
		if size != m.Fixed {
			t.Errorf("model %d: fixed block %d registers, definition %d", id, m.Fixed, size)
		}
		if def.Group.Name != m.Name {
			t.Errorf("model %d: name %q, definition %q", id, m.Name, def.Group.Name)
		}
		check := func(g *sunspectest.DefGroup, pts []sunspec.Point, where string) {
			offs, _ := g.Offsets()
			for _, pt := range pts {
				off, ok := offs[pt.Name]
				if !ok {
					t.Errorf("model %d %s: point %s not in the definition", id, where, pt.Name)
					continue
				}
				var dp sunspectest.DefPoint
				for _, x := range g.Points {
					if x.Name == pt.Name {
						dp = x
					}
				}
				if off != pt.Offset || dp.Type != pt.Type || dp.Size != pt.Size || dp.SFName() != pt.SF {
					t.Errorf("model %d %s %s: table (%d %s %d %q), definition (%d %s %d %q)", id, where, pt.Name,
						pt.Offset, pt.Type, pt.Size, pt.SF, off, dp.Type, dp.Size, dp.SFName())
				}
			}
		}
		check(&def.Group, m.Points, "fixed")
		for _, pt := range m.Points {
			if pt.SF != "" {
				if _, ok := offs[pt.SF]; !ok {
					t.Errorf("model %d: scale factor %s of %s not in the definition", id, pt.SF, pt.Name)
				}
			}
		}
		if m.Repeat != nil {
			if len(def.Group.Groups) != 1 {
				t.Fatalf("model %d: %d repeating groups in the definition", id, len(def.Group.Groups))
			}
			g := &def.Group.Groups[0]
			_, gsize := g.Offsets()
			if gsize != m.Repeat.Size || g.Name != m.Repeat.Name || m.Repeat.Start != size {
				t.Errorf("model %d group: table (%s %d at %d), definition (%s %d at %d)", id, m.Repeat.Name, m.Repeat.Size, m.Repeat.Start, g.Name, gsize, size)
			}
			if c, _ := g.Count.(string); c != m.Repeat.Count {
				t.Errorf("model %d group count: %q, definition %q", id, m.Repeat.Count, c)
			}
			check(g, m.Repeat.Points, "group")
		}
	}
}

// imageReader reads from an in-memory image (the loopback tests use real Modbus).
type imageReader struct{ im *sunspectest.Image }

type exc struct{}

func (exc) Error() string   { return "illegal data address" }
func (exc) Exception() bool { return true }

func (r imageReader) ReadHolding(addr, n uint16) ([]uint16, error) {
	if int(addr)+int(n) > 65536 {
		return nil, exc{}
	}
	return r.im.Get(addr, n), nil
}

func near(t *testing.T, name string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-6*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %v, want %v", name, got, want)
	}
}

func TestThreePhaseInverterWithScaleFactors(t *testing.T) {
	im := sunspectest.NewImage()
	common := sunspectest.Load(t, 1).Block(nil, nil, nil)
	copy(common[2:], sunspectest.String("Helio Test", 16))
	inv := sunspectest.Load(t, 103).Block(map[string]float64{"W": 12345, "WH": 98765400, "DCV": 612.3, "DCA": 20.5,
		"PhVphA": 231.4, "Hz": 50.01, "TmpCab": -4.5, "St": 4}, map[string]int{"W_SF": 0, "WH_SF": 2, "DCV_SF": -1, "DCA_SF": -2,
		"V_SF": -1, "Hz_SF": -2, "Tmp_SF": -1}, nil)
	im.PutSunSpec(40000, common, inv)
	l, err := sunspec.Discover(imageReader{im})
	if err != nil {
		t.Fatal(err)
	}
	if l.Base != 40000 || len(l.Models) != 2 || l.Models[1].ID != 103 || l.Models[1].Addr != 40002+68 {
		t.Fatalf("layout %+v", l)
	}
	blocks, err := sunspec.Read(imageReader{im}, l, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := blocks[0].Text("Mn"); got != "Helio Test" {
		t.Errorf("manufacturer %q", got)
	}
	s := sunspec.ToSample(7, time.Unix(0, 0), "inverter", blocks, &sunspec.Accumulators{})
	near(t, "power", s.PowerKW, 12.345)
	near(t, "energy", s.EnergyKWh, 98765.4)
	near(t, "dcV", s.DCVoltageV, 612.3)
	near(t, "dcA", s.DCCurrentA, 20.5)
	near(t, "acV", s.ACVoltageV, 231.4)
	near(t, "hz", s.FrequencyHz, 50.01)
	near(t, "temp", s.TempC, -4.5)
	if s.Status != telemetry.StatusRunning {
		t.Errorf("status %d", s.Status)
	}
}

// Points a device does not implement stay empty; a missing scale factor empties its points.
func TestNotImplemented(t *testing.T) {
	im := sunspectest.NewImage()
	inv := sunspectest.Load(t, 101).Block(map[string]float64{"W": 900, "DCV": 300}, map[string]int{"W_SF": 0}, nil)
	im.PutSunSpec(0, inv)
	l, err := sunspec.Discover(imageReader{im})
	if err != nil {
		t.Fatal(err)
	}
	if l.Base != 0 {
		t.Fatalf("base %d, want 0 (nothing at 40000 or 50000)", l.Base)
	}
	blocks, _ := sunspec.Read(imageReader{im}, l, false)
	s := sunspec.ToSample(1, time.Unix(0, 0), "inverter", blocks, nil)
	near(t, "power", s.PowerKW, 0.9)
	if s.DCVoltageV != 0 || s.EnergyKWh != 0 || s.TempC != 0 {
		t.Errorf("not implemented points filled: %+v", s)
	}
	var rd *sunspec.Reading
	for _, r := range sunspec.Readings(blocks) {
		if r.Name == "DCV" {
			rd = &r
		}
	}
	if rd == nil || rd.Value != nil || len(rd.Raw) != 1 {
		t.Errorf("DCV reading %+v, want raw without value (DCV_SF not implemented)", rd)
	}
}

// A 32-bit energy accumulator that wraps keeps counting up.
func TestAccumulatorWrap(t *testing.T) {
	def := sunspectest.Load(t, 203)
	acc := &sunspec.Accumulators{}
	var last float64
	for i, wh := range []float64{4294967000, 4294967290, 200, 5000} {
		im := sunspectest.NewImage()
		im.PutSunSpec(50000, def.Block(map[string]float64{"W": -1500, "TotWhImp": wh, "TotWhExp": 10, "PhV": 230, "Hz": 50},
			map[string]int{"W_SF": 0, "TotWh_SF": 0, "V_SF": 0, "Hz_SF": 0}, nil))
		l, err := sunspec.Discover(imageReader{im})
		if err != nil || l.Base != 50000 {
			t.Fatalf("%v %+v", err, l)
		}
		blocks, _ := sunspec.Read(imageReader{im}, l, false)
		s := sunspec.ToSample(1, time.Unix(0, 0), "meter", blocks, acc)
		if s.EnergyKWh < last {
			t.Fatalf("poll %d: import %v went back from %v", i, s.EnergyKWh, last)
		}
		last = s.EnergyKWh
		near(t, "power", s.PowerKW, -1.5)
	}
	near(t, "unwrapped import", last, (4294967296+5000)/1000.0)
}

func TestFloatInverterWithMPPT(t *testing.T) {
	im := sunspectest.NewImage()
	inv := sunspectest.Load(t, 113).Block(map[string]float64{"W": 8000.5, "WH": 1.5e6, "PhVphA": 229, "Hz": 49.98, "St": 4}, nil, nil)
	mppt := sunspectest.Load(t, 160).Block(map[string]float64{"N": 3}, map[string]int{"DCA_SF": -2, "DCV_SF": -1, "DCW_SF": 0},
		[]map[string]float64{{"DCA": 8.5, "DCV": 600}, {"DCA": 8.25, "DCV": 610}, {"DCA": 0, "DCV": 20}})
	im.PutSunSpec(40000, inv, mppt)
	l, _ := sunspec.Discover(imageReader{im})
	blocks, err := sunspec.Read(imageReader{im}, l, false)
	if err != nil {
		t.Fatal(err)
	}
	s := sunspec.ToSample(1, time.Unix(0, 0), "inverter", blocks, nil)
	near(t, "power", s.PowerKW, 8.0005)
	near(t, "energy", s.EnergyKWh, 1500)
	near(t, "dcA", s.DCCurrentA, 16.75)
	near(t, "dcV", s.DCVoltageV, 410)
	if s.StringsActive != 2 {
		t.Errorf("strings active %d, want 2", s.StringsActive)
	}
}

func TestBatteryAndDER(t *testing.T) {
	im := sunspectest.NewImage()
	der := sunspectest.Load(t, 701).Block(map[string]float64{"St": 1, "W": -2500, "TotWhInj": 4e6, "TotWhAbs": 5e6, "LNV": 230, "Hz": 50},
		map[string]int{"W_SF": 0, "TotWh_SF": 0, "V_SF": 0, "Hz_SF": -3}, nil)
	bat := sunspectest.Load(t, 802).Block(map[string]float64{"SoC": 56.5, "W": -2400, "V": 51.2, "A": -46.8, "State": 3},
		map[string]int{"SoC_SF": -1, "W_SF": 0, "V_SF": -1, "A_SF": -1}, nil)
	cap := sunspectest.Load(t, 713).Block(map[string]float64{"SoC": 99}, map[string]int{"Pct_SF": 0}, nil)
	dc := sunspectest.Load(t, 714).Block(map[string]float64{"NPrt": 1, "DCA": -40}, map[string]int{"DCA_SF": 0, "DCV_SF": -1},
		[]map[string]float64{{"DCA": -40, "DCV": 52}})
	im.PutSunSpec(40000, der, bat, cap, dc)
	l, _ := sunspec.Discover(imageReader{im})
	blocks, err := sunspec.Read(imageReader{im}, l, false)
	if err != nil {
		t.Fatal(err)
	}
	s := sunspec.ToSample(1, time.Unix(0, 0), "storage", blocks, nil)
	near(t, "power (701 first)", s.PowerKW, -2.5)
	near(t, "discharged", s.EnergyKWh, 4000)
	near(t, "charged", s.Energy2KWh, 5000)
	near(t, "soc (802 before 713)", s.SOC, 56.5)
	near(t, "dcV", s.DCVoltageV, 51.2)
	near(t, "hz", s.FrequencyHz, 50)
	if s.Status != telemetry.StatusRunning {
		t.Errorf("status %d", s.Status)
	}
}

func TestStorageBasic(t *testing.T) {
	im := sunspectest.NewImage()
	st := sunspectest.Load(t, 124).Block(map[string]float64{"ChaState": 80, "InBatV": 48.5}, map[string]int{"ChaState_SF": 0, "InBatV_SF": -1}, nil)
	im.PutSunSpec(40000, st)
	l, _ := sunspec.Discover(imageReader{im})
	blocks, _ := sunspec.Read(imageReader{im}, l, false)
	s := sunspec.ToSample(1, time.Unix(0, 0), "battery", blocks, nil)
	near(t, "soc", s.SOC, 80)
	near(t, "dcV", s.DCVoltageV, 48.5)
}

func TestNoMarker(t *testing.T) {
	if _, err := sunspec.Discover(imageReader{sunspectest.NewImage()}); !errors.Is(err, sunspec.ErrNotSunSpec) {
		t.Fatalf("err %v", err)
	}
	im := sunspectest.NewImage()
	im.Set(40000, 0x5375, 0x6E53, 103, 50000)
	if _, err := sunspec.Discover(imageReader{im}); err == nil {
		t.Fatal("a chain running past the last register was accepted")
	}
}
