package telemetry

import (
	"math"
	"sort"
	"testing"
	"time"
)

const tol = 1e-6

// testDevice is an inverter on a station with the given zone.
func testDevice(id int64, zone string, ratedKW float64) *deviceInfo {
	cal := CalendarFor(zone)
	d := &deviceInfo{cal: cal, stations: []stationRef{{id: 1, cal: cal}}}
	d.ID, d.StationID, d.Type, d.Kind, d.RatedKW, d.BoundKW, d.InStations = id, 1, "inverter", "inverter", ratedKW, ratedKW, true
	return d
}

// runMemory runs samples (any order, one per instant) through the counter and bucket code
// without a database.
func runMemory(t *testing.T, dev *deviceInfo, samples []Sample) *accum {
	t.Helper()
	acc := newAccum(DefaultMaxGap.Milliseconds())
	res := newResult(len(samples))
	rows := make([]*rawRow, len(samples))
	for i, s := range samples {
		s.DeviceID = dev.ID
		rows[i] = newRawRow(s, i)
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].T < rows[j].T })
	if _, err := runDevice(dev, nil, emptySource{}, uniq(rows, &res), acc, &res); err != nil {
		t.Fatal(err)
	}
	return acc
}

// dailyEnergy sums the device's hours per local date.
func dailyEnergy(acc *accum, dev *deviceInfo) map[string]float64 {
	out := map[string]float64{}
	for k, d := range acc.days {
		if k.kind != "" || k.id != dev.ID {
			continue
		}
		date := time.UnixMilli(d.start).In(dev.cal.Loc).Format(time.DateOnly)
		tot := d.total()
		out[date] += tot.EnergyKWh
	}
	return out
}

func hourlyEnergy(acc *accum, dev *deviceInfo, date string) []float64 {
	for k, d := range acc.days {
		if k.kind == "" && k.id == dev.ID && time.UnixMilli(d.start).In(dev.cal.Loc).Format(time.DateOnly) == date {
			out := make([]float64, len(d.hours))
			for i := range d.hours {
				out[i] = d.hours[i].EnergyKWh
			}
			return out
		}
	}
	return nil
}

func checkDaily(t *testing.T, got map[string]float64, want map[string]float64) {
	t.Helper()
	for date, w := range want {
		if math.Abs(got[date]-w) > tol {
			t.Errorf("%s: energy %.6f kWh, want %.6f", date, got[date], w)
		}
	}
	for date, g := range got {
		if _, ok := want[date]; !ok && math.Abs(g) > tol {
			t.Errorf("%s: unexpected energy %.6f kWh", date, g)
		}
	}
}

// series produces a sample every 5 minutes from start for days, with energy per step
// given by perStep(local time) and the counter reading given by counter(previous reading,
// energy of the step, local time).
func series(loc *time.Location, start time.Time, end time.Time, perStep func(time.Time) float64,
	counter func(prev, e float64, at time.Time) float64, first float64) []Sample {
	var out []Sample
	c := first
	for at := start; !at.After(end); at = at.Add(5 * time.Minute) {
		if at != start {
			c = counter(c, perStep(at.Add(-5*time.Minute).In(loc)), at.In(loc))
		}
		out = append(out, Sample{Time: at, EnergyKWh: c, PowerKW: perStep(at.In(loc)) * 12, Status: StatusRunning})
	}
	return out
}

// daylight produces 0.5 kWh per 5 minutes (6 kW) between 06:00 and 18:00 local: 72 kWh a day.
func daylight(at time.Time) float64 {
	if h := at.Hour(); h >= 6 && h < 18 {
		return 0.5
	}
	return 0
}

func lifetime(prev, e float64, _ time.Time) float64 { return prev + e }

func TestStepCounterEvents(t *testing.T) {
	const rated = 10.0
	min5 := int64(5 * 60000)
	cases := []struct {
		name  string
		ref   float64
		x     float64
		event CounterEvent
		kwh   float64
	}{
		{"normal", 100, 100.5, EventNormal, 0.5},
		{"flat", 100, 100, EventNormal, 0},
		{"16-bit rollover", 65535.5, 0.2, EventRollover, 0.7},
		{"32-bit rollover at 0.001", 4294967.295, 0.4, EventRollover, 0.401},
		{"reset to zero", 36, 0, EventReset, 0},
		{"reset counting again", 5000, 0.3, EventReset, 0.3},
		{"backwards glitch", 5000, 4990, EventSuspect, 0},
		{"jump beyond rated", 5000, 5100, EventSuspect, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := CounterState{Ref: c.ref, RefT: 1_000_000}
			_, step := StepCounter(st, c.x, 1_000_000+min5, rated, nil)
			if step.Event != c.event || math.Abs(step.EnergyKWh-c.kwh) > 1e-9 {
				t.Fatalf("got %v %.6f kWh, want %v %.6f kWh", step.Event, step.EnergyKWh, c.event, c.kwh)
			}
		})
	}
}

func TestStepCounterNeverNegativeOrSpiking(t *testing.T) {
	// Any sequence of readings gives energy >= 0 and within the bound of its interval.
	const rated = 5.0
	st := CounterState{}
	vals := []float64{10, 11, 0, 65535, 3, 3, 2, 1e9, 12, 12.2, 4294967.2, 0.1, 0, 0, 7, 6.5, 6.6, 6.7, 6.8}
	ts := int64(0)
	for i, v := range vals {
		ts += 5 * 60000
		var step CounterStep
		prevRef := st.RefT
		st, step = StepCounter(st, v, ts, rated, nil)
		if step.EnergyKWh < 0 || math.IsNaN(step.EnergyKWh) {
			t.Fatalf("reading %d (%v): energy %v", i, v, step.EnergyKWh)
		}
		if prevRef != 0 && step.EnergyKWh > CounterBound(rated, ts-step.From)+CounterBound(rated, ts-prevRef) {
			t.Fatalf("reading %d (%v): energy %v beyond the bound", i, v, step.EnergyKWh)
		}
	}
}

func TestCounterScenarios(t *testing.T) {
	berlin, _ := time.LoadLocation("Europe/Berlin")
	day := func(d int, hh, mm int) time.Time { return time.Date(2024, 6, d, hh, mm, 0, 0, berlin) }
	want3 := map[string]float64{"2024-06-10": 72, "2024-06-11": 72, "2024-06-12": 72}

	t.Run("nightly reset", func(t *testing.T) {
		dev := testDevice(1, "Europe/Berlin", 10)
		daily := func(prev, e float64, at time.Time) float64 {
			if at.Hour() == 0 && at.Minute() == 0 {
				return 0 // the counter restarts at local midnight
			}
			return prev + e
		}
		s := series(berlin, day(10, 0, 0), day(12, 23, 55), daylight, daily, 0)
		checkDaily(t, dailyEnergy(runMemory(t, dev, s), dev), want3)
	})

	t.Run("nightly reset with no samples at night", func(t *testing.T) {
		dev := testDevice(1, "Europe/Berlin", 10)
		daily := func(prev, e float64, at time.Time) float64 {
			if at.Hour() == 0 && at.Minute() == 0 {
				return 0
			}
			return prev + e
		}
		var s []Sample
		for _, x := range series(berlin, day(10, 0, 0), day(12, 23, 55), daylight, daily, 0) {
			if h := x.Time.In(berlin).Hour(); h >= 5 && h < 20 {
				s = append(s, x)
			}
		}
		checkDaily(t, dailyEnergy(runMemory(t, dev, s), dev), want3)
	})

	for _, wrap := range []struct {
		name       string
		modulus    float64
		start, inc float64
	}{{"16-bit rollover", 65536, 65520, 0.5}, {"32-bit rollover scaled 0.001", 4294967.296, 4294960, 0.5}} {
		t.Run(wrap.name, func(t *testing.T) {
			dev := testDevice(1, "Europe/Berlin", 10)
			wrapped := false
			counter := func(prev, e float64, _ time.Time) float64 {
				v := prev + e
				if v >= wrap.modulus {
					wrapped = true
					v -= wrap.modulus
				}
				return v
			}
			s := series(berlin, day(10, 0, 0), day(12, 23, 55), daylight, counter, wrap.start)
			if !wrapped {
				t.Fatal("the scenario never wrapped")
			}
			checkDaily(t, dailyEnergy(runMemory(t, dev, s), dev), want3)
		})
	}

	t.Run("replaced device starts again at 0", func(t *testing.T) {
		dev := testDevice(1, "Europe/Berlin", 10)
		swap := day(11, 12, 0)
		counter := func(prev, e float64, at time.Time) float64 {
			if at.Equal(swap) {
				return 0 // the new inverter's first reading; nothing produced during the swap
			}
			return prev + e
		}
		perStep := func(at time.Time) float64 {
			if !at.Before(swap.Add(-5*time.Minute)) && at.Before(swap) {
				return 0
			}
			return daylight(at)
		}
		s := series(berlin, day(10, 0, 0), day(12, 23, 55), perStep, counter, 12000)
		checkDaily(t, dailyEnergy(runMemory(t, dev, s), dev), map[string]float64{"2024-06-10": 72, "2024-06-11": 71.5, "2024-06-12": 72})
	})

	glitches := []struct {
		name   string
		glitch map[time.Time]float64
	}{
		{"backwards glitch", map[time.Time]float64{day(11, 10, 0): 4990}},
		{"two backwards readings", map[time.Time]float64{day(11, 10, 0): 4990, day(11, 10, 5): 4990.5}},
		{"glitch to zero", map[time.Time]float64{day(11, 10, 0): 0}},
		{"glitch to zero twice", map[time.Time]float64{day(11, 10, 0): 0, day(11, 10, 5): 0}},
		{"spike", map[time.Time]float64{day(11, 10, 0): 999999}},
	}
	for _, g := range glitches {
		t.Run(g.name, func(t *testing.T) {
			dev := testDevice(1, "Europe/Berlin", 10)
			s := series(berlin, day(10, 0, 0), day(12, 23, 55), daylight, lifetime, 5000)
			for i := range s {
				if v, ok := g.glitch[s[i].Time]; ok {
					s[i].EnergyKWh = v
				}
			}
			checkDaily(t, dailyEnergy(runMemory(t, dev, s), dev), want3)
		})
	}

	t.Run("counter moved for good", func(t *testing.T) {
		// A counter that really jumps (a device swapped for a used one) is re-based after
		// ConfirmReadings consistent readings, counting from the first of them; only the
		// interval of the jump itself is lost.
		dev := testDevice(1, "Europe/Berlin", 10)
		s := series(berlin, day(10, 0, 0), day(12, 23, 55), daylight, lifetime, 5000)
		for i := range s {
			if !s[i].Time.Before(day(11, 10, 0)) {
				s[i].EnergyKWh += 20000
			}
		}
		got := dailyEnergy(runMemory(t, dev, s), dev)
		checkDaily(t, got, map[string]float64{"2024-06-10": 72, "2024-06-11": 72 - 0.5, "2024-06-12": 72})
	})

	t.Run("6-hour gap spread over its hours", func(t *testing.T) {
		dev := testDevice(1, "Europe/Berlin", 10)
		var s []Sample
		for _, x := range series(berlin, day(10, 0, 0), day(12, 23, 55), daylight, lifetime, 5000) {
			if lt := x.Time.In(berlin); lt.Day() == 11 && lt.Hour() >= 9 && lt.Hour() < 15 {
				continue // outage from 09:00 to 15:00; the counter keeps counting
			}
			s = append(s, x)
		}
		acc := runMemory(t, dev, s)
		checkDaily(t, dailyEnergy(acc, dev), want3)
		hours := hourlyEnergy(acc, dev, "2024-06-11")
		// the gap runs from the 08:55 reading to the 15:00 one: 6 h 5 min, 36.5 kWh
		per5 := 36.5 / 73
		for h := 9; h < 15; h++ {
			if math.Abs(hours[h]-per5*12) > tol {
				t.Errorf("hour %d: %.6f kWh, want %.6f (spread evenly)", h, hours[h], per5*12)
			}
		}
		if math.Abs(hours[8]-(5.5+per5)) > tol {
			t.Errorf("hour 8: %.6f kWh, want %.6f", hours[8], 5.5+per5)
		}
	})

	t.Run("gap beyond rated power is not counted", func(t *testing.T) {
		// After a 6-hour outage the counter is 500 kWh higher than 10 kW could make: the
		// gap's energy is dropped, not dumped into one hour; counting resumes once three
		// readings agree (the energy between them is kept).
		dev := testDevice(1, "Europe/Berlin", 10)
		var s []Sample
		for _, x := range series(berlin, day(10, 0, 0), day(12, 23, 55), daylight, lifetime, 5000) {
			lt := x.Time.In(berlin)
			if lt.Day() == 11 && lt.Hour() >= 9 && lt.Hour() < 15 {
				continue
			}
			if !x.Time.Before(day(11, 15, 0)) {
				x.EnergyKWh += 500
			}
			s = append(s, x)
		}
		acc := runMemory(t, dev, s)
		checkDaily(t, dailyEnergy(acc, dev), map[string]float64{"2024-06-10": 72, "2024-06-11": 72 - 36.5, "2024-06-12": 72})
		for h, e := range hourlyEnergy(acc, dev, "2024-06-11") {
			if e > 10+tol {
				t.Errorf("hour %d: %.3f kWh from a 10 kW inverter", h, e)
			}
		}
	})

	t.Run("DST days", func(t *testing.T) {
		dev := testDevice(1, "Europe/Berlin", 10)
		flat := func(time.Time) float64 { return 1.0 / 12 } // 1 kW day and night
		for _, c := range []struct {
			from, to string
			want     map[string]float64
			hours    int
		}{
			{"2024-03-30", "2024-04-01", map[string]float64{"2024-03-30": 24, "2024-03-31": 23, "2024-04-01": 24}, 23},
			{"2024-10-26", "2024-10-28", map[string]float64{"2024-10-26": 24, "2024-10-27": 25, "2024-10-28": 24}, 25},
		} {
			from, _ := time.ParseInLocation(time.DateOnly, c.from, berlin)
			to, _ := time.ParseInLocation(time.DateOnly, c.to, berlin)
			s := series(berlin, from, to.AddDate(0, 0, 1), flat, lifetime, 100)
			acc := runMemory(t, dev, s)
			checkDaily(t, dailyEnergy(acc, dev), c.want)
			mid := from.AddDate(0, 0, 1).Format(time.DateOnly)
			hours := hourlyEnergy(acc, dev, mid)
			if len(hours) != c.hours {
				t.Fatalf("%s has %d hours, want %d", mid, len(hours), c.hours)
			}
			for h, e := range hours {
				if math.Abs(e-1) > tol {
					t.Errorf("%s hour %d: %.6f kWh, want 1", mid, h, e)
				}
			}
		}
	})
	t.Run("DST day with a daily counter", func(t *testing.T) {
		// The counter restarts at local midnight, so the last 5 minutes before each
		// midnight are never seen (a PV inverter makes nothing then).
		dev := testDevice(1, "Europe/Berlin", 10)
		flat := func(time.Time) float64 { return 1.0 / 12 }
		daily := func(prev, e float64, at time.Time) float64 {
			if at.Hour() == 0 && at.Minute() == 0 {
				return 0
			}
			return prev + e
		}
		from := time.Date(2024, 10, 26, 0, 0, 0, 0, berlin)
		s := series(berlin, from, from.AddDate(0, 0, 3), flat, daily, 0)
		checkDaily(t, dailyEnergy(runMemory(t, dev, s), dev), map[string]float64{
			"2024-10-26": 24 - 1.0/12, "2024-10-27": 25 - 1.0/12, "2024-10-28": 24 - 1.0/12})
	})
}

func TestCalendarDST(t *testing.T) {
	cal := CalendarFor("America/Los_Angeles")
	loc := cal.Loc
	for _, c := range []struct {
		date  string
		hours int
	}{{"2024-03-10", 23}, {"2024-11-03", 25}, {"2024-06-01", 24}} {
		d, _ := time.ParseInLocation(time.DateOnly, c.date, loc)
		s, e := cal.LocalDate(d)
		if got := hoursIn(s, e); got != c.hours {
			t.Errorf("%s: %d hours, want %d", c.date, got, c.hours)
		}
		if time.UnixMilli(s).In(loc).Format("2006-01-02 15:04") != c.date+" 00:00" {
			t.Errorf("%s starts at %s", c.date, time.UnixMilli(s).In(loc))
		}
	}
	ms, me := cal.Month(time.Date(2024, 3, 15, 12, 0, 0, 0, loc).UnixMilli())
	if (me-ms)/hourMs != 31*24-1 {
		t.Errorf("March 2024 in Los Angeles has %d hours", (me-ms)/hourMs)
	}
}
