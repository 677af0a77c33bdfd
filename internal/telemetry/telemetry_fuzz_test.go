package telemetry

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"time"
)

// Fuzz targets for the counter logic and the packed roll-ups (scripts/fuzz.sh runs them;
// the seed corpora are in testdata/fuzz). The properties:
//
//   - StepCounter never credits negative or non-finite energy, never places it outside
//     the readings it came from, and over any sequence of readings never credits more
//     than the plausibility bound allows: Σ CounterBound(rated, Δt) over the intervals
//     (rated power × 1.2 × elapsed time, plus 6 minutes of rated power and 0.1 kWh per
//     reading). It is pure, and its state survives the JSON of the cstate column.
//   - The bucket code conserves that energy: the hours of the roll-ups hold exactly what
//     the counter credited, and no hour holds negative energy.
//   - Packed hours and slots never panic the reader and round-trip.

// fuzzZones are calendars with the awkward days: DST in both hemispheres, a
// half-hour DST shift, a half-hour offset.
var fuzzZones = []string{"UTC", "Europe/Berlin", "America/Los_Angeles", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Chatham"}

type fuzzReading struct {
	x float64
	t int64
}

// fuzzReadings turns fuzz bytes into a counter's readings at strictly increasing times:
// 5 bytes per reading — the interval (2 bytes, seconds; ×60 when the op's top bit is
// set), an op and a 2-byte value.
func fuzzReadings(rated float64, t0 int64, seq []byte) []fuzzReading {
	truth := 0.0
	out := make([]fuzzReading, 0, len(seq)/5)
	t := t0
	power := rated
	if power <= 0 {
		power = 50
	}
	for len(seq) >= 5 && len(out) < 400 {
		dt := int64(binary.LittleEndian.Uint16(seq))*1000 + 1000
		op, v := seq[2], float64(binary.LittleEndian.Uint16(seq[3:]))
		seq = seq[5:]
		if op&0x80 != 0 {
			dt *= 60
		}
		t += dt
		h := float64(dt) / 3.6e6
		x := 0.0
		switch op & 0x7 {
		case 0: // producing at a share of rated power
			truth += power * h * v / 65535
			x = truth
		case 1: // any growth
			truth += v / 10
			x = truth
		case 2: // a glitch to zero (the device's counter goes on)
			truth += power * h * v / 65535 / 2
			x = 0
		case 3: // the counter restarts (daily counter, replaced device)
			truth = power * h * v / 65535
			x = truth
		case 4: // a 16-bit register at 0.1 kWh per count wraps
			truth += power * h * v / 65535
			x = math.Mod(truth, 6553.6)
		case 5: // a reading backwards
			x = truth * v / 65535
		case 6: // a jump ahead, which later readings may confirm
			truth += v * 100
			x = truth
		case 7: // a raw value
			x = v * v / 7
		}
		out = append(out, fuzzReading{x: math.Round(x*1000) / 1000, t: t})
	}
	return out
}

func fuzzRated(rated float64) float64 {
	if math.IsNaN(rated) || math.IsInf(rated, 0) {
		return 0
	}
	return math.Mod(math.Abs(rated), 5000)
}

// fuzzStart is an instant in 2024–2025 (so that every DST change is reachable).
func fuzzStart(start uint32) int64 {
	return time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli() + int64(start%(2*365*24*3600))*1000
}

func addCounterSeeds(f *testing.F) {
	grow := func(n int, dt uint16, op byte, v uint16) []byte {
		var b []byte
		for i := 0; i < n; i++ {
			b = binary.LittleEndian.AppendUint16(b, dt)
			b = append(b, op)
			b = binary.LittleEndian.AppendUint16(b, v)
		}
		return b
	}
	cat := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	f.Add(100.0, uint32(0), uint8(0), grow(20, 299, 0, 40000))
	f.Add(10.0, uint32(7776000), uint8(1), cat(grow(5, 299, 0, 60000), grow(1, 299, 2, 0), grow(5, 299, 0, 60000)))
	f.Add(5.0, uint32(7711200), uint8(1), cat(grow(10, 299, 0, 30000), grow(1, 299, 3, 100), grow(10, 299, 0, 30000)))
	f.Add(250.0, uint32(100), uint8(2), cat(grow(4, 299, 0, 65535), grow(1, 299, 4, 50000), grow(4, 299, 0, 65535)))
	f.Add(20.0, uint32(5000), uint8(3), cat(grow(3, 299, 0, 10000), grow(4, 299, 6, 9), grow(3, 299, 0, 10000)))
	f.Add(0.0, uint32(86000), uint8(4), cat(grow(3, 299, 1, 500), grow(1, 299, 5, 100), grow(3, 299, 1, 500)))
	f.Add(3.5, uint32(23000000), uint8(5), cat(grow(3, 299, 0, 65535), grow(1, 1000, 0x80, 65535), grow(3, 299, 7, 12345)))
}

func FuzzStepCounter(f *testing.F) {
	addCounterSeeds(f)
	f.Fuzz(func(t *testing.T, rated float64, start uint32, zone uint8, seq []byte) {
		rated = fuzzRated(rated)
		cal := CalendarFor(fuzzZones[int(zone)%len(fuzzZones)])
		readings := fuzzReadings(rated, fuzzStart(start), seq)
		if len(readings) == 0 {
			return
		}
		var st CounterState
		total, budget := 0.0, 0.0
		t0 := readings[0].t
		for i, r := range readings {
			n, step := StepCounter(st, r.x, r.t, rated, cal.Midnight)
			if n2, step2 := StepCounter(st, r.x, r.t, rated, cal.Midnight); !reflect.DeepEqual(n, n2) || step != step2 {
				t.Fatalf("reading %d: not a pure function: %+v %+v, then %+v %+v", i, n, step, n2, step2)
			}
			e := step.EnergyKWh
			if math.IsNaN(e) || math.IsInf(e, 0) || e < 0 {
				t.Fatalf("reading %d (%v at %d, %s): energy %v", i, r.x, r.t, step.Event, e)
			}
			if e > 0 && (step.From > r.t || step.From < t0) {
				t.Fatalf("reading %d (%s): energy %v placed from %d, outside [%d, %d]", i, step.Event, e, step.From, t0, r.t)
			}
			if i > 0 {
				budget += CounterBound(rated, r.t-readings[i-1].t)
			}
			total += e
			if rated > 0 && total > budget*(1+1e-9)+1e-9 {
				t.Fatalf("reading %d (%s): %v kWh credited in all, more than the bound allows (%v kWh for %.0f min at %v kW)",
					i, step.Event, total, budget, float64(r.t-t0)/60000, rated)
			}
			b, err := json.Marshal(n)
			if err != nil {
				t.Fatal(err)
			}
			var back CounterState
			if err := json.Unmarshal(b, &back); err != nil || back != n {
				t.Fatalf("counter state %+v does not survive its JSON %s: %+v %v", n, b, back, err)
			}
			st = n
		}
	})
}

func FuzzRollupEnergy(f *testing.F) {
	addCounterSeeds(f)
	f.Fuzz(func(t *testing.T, rated float64, start uint32, zone uint8, seq []byte) {
		rated = fuzzRated(rated)
		cal := CalendarFor(fuzzZones[int(zone)%len(fuzzZones)])
		readings := fuzzReadings(rated, fuzzStart(start), seq)
		if len(readings) == 0 {
			return
		}
		dev := &deviceInfo{cal: cal, stations: []stationRef{{id: 1, cal: cal}}}
		dev.ID, dev.StationID, dev.Type, dev.Kind, dev.RatedKW, dev.BoundKW, dev.KWp, dev.InStations =
			1, 1, "inverter", "inverter", rated, rated, rated*1.2, true
		// what the counter alone credits
		var st CounterState
		want := 0.0
		rows := make([]*rawRow, len(readings))
		for i, r := range readings {
			var step CounterStep
			st, step = StepCounter(st, r.x, r.t, rated, cal.Midnight)
			want += step.EnergyKWh
			p := math.Min(rated, r.x/1000)
			rows[i] = newRawRow(Sample{DeviceID: 1, Time: time.UnixMilli(r.t), PowerKW: p, EnergyKWh: r.x, IrradianceWm2: p * 8,
				Status: StatusRunning}, i)
		}
		acc := newAccum(DefaultMaxGap.Milliseconds())
		res := newResult(len(rows))
		if _, err := runDevice(dev, nil, emptySource{}, rows, acc, &res); err != nil {
			t.Fatal(err)
		}
		for _, owner := range []string{"", "inverter"} {
			got, samples := 0.0, int64(0)
			for k, d := range acc.days {
				if k.kind != owner {
					continue
				}
				for h := range d.hours {
					e := d.hours[h].EnergyKWh
					if e < -1e-9*math.Max(1, want) || math.IsNaN(e) {
						t.Fatalf("owner %q: hour %d of the day from %d holds %v kWh", owner, h, d.start, e)
					}
					got += e
					samples += d.hours[h].Samples
				}
			}
			if math.Abs(got-want) > 1e-9*math.Max(1, want) {
				t.Fatalf("owner %q: the hours hold %v kWh, the counter credited %v kWh", owner, got, want)
			}
			if samples != int64(len(rows)) {
				t.Fatalf("owner %q: %d samples counted, %d stored", owner, samples, len(rows))
			}
		}
	})
}

func sameStats(a, b *Stats) bool {
	fa, fb := a.fields(), b.fields()
	for i := range fa {
		if fa[i] != fb[i] && !(math.IsNaN(fa[i]) && math.IsNaN(fb[i])) {
			return false
		}
	}
	return true
}

func FuzzPackedRollups(f *testing.F) {
	hours := make([]Stats, 24)
	for i := range hours {
		hours[i] = emptyStats()
	}
	hours[3] = Stats{EnergyKWh: 1.5, PowerKWh: 1.4, MaxPowerKW: 9, MinPowerKW: 0, Samples: 12, TempSum: 300, OnlineMin: 60}
	hours[23] = Stats{EnergyKWh: 0.25, MaxPowerKW: math.NaN(), MinPowerKW: -3, Samples: 1}
	slots := make([]float64, 288)
	for i := range slots {
		slots[i] = math.NaN()
	}
	slots[0], slots[144], slots[287] = 0.5, 12.25, 0
	f.Add(packHours(hours), packSlots(slots), uint8(24))
	f.Add([]byte{1}, []byte{1}, uint8(23))
	f.Add([]byte{}, []byte{}, uint8(25))
	f.Add([]byte{1, 0, 1, 0, 0, 0}, []byte{1, 3, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f}, uint8(24))
	f.Add([]byte{2}, []byte{1, 0}, uint8(0))
	f.Fuzz(func(t *testing.T, hb, sb []byte, n uint8) {
		hours := make([]Stats, int(n)%26+1)
		for i := range hours {
			hours[i] = emptyStats()
		}
		slots := make([]float64, len(hours)*12)
		for i := range slots {
			slots[i] = math.NaN()
		}
		if unpackHours(hb, hours) == nil {
			again := make([]Stats, len(hours))
			for i := range again {
				again[i] = emptyStats()
			}
			if err := unpackHours(packHours(hours), again); err != nil {
				t.Fatalf("packed hours unreadable: %v", err)
			}
			for i := range hours {
				if !sameStats(&hours[i], &again[i]) {
					t.Fatalf("hour %d: %+v after a round trip, was %+v", i, again[i], hours[i])
				}
			}
		}
		if unpackSlots(sb, slots) == nil {
			again := make([]float64, len(slots))
			for i := range again {
				again[i] = math.NaN()
			}
			if err := unpackSlots(packSlots(slots), again); err != nil {
				t.Fatalf("packed slots unreadable: %v", err)
			}
			for i := range slots {
				if slots[i] != again[i] && !(math.IsNaN(slots[i]) && math.IsNaN(again[i])) {
					t.Fatalf("slot %d: %v after a round trip, was %v", i, again[i], slots[i])
				}
			}
		}
	})
}
