package alarm

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/pvmodel"
	"github.com/helio-energy/helio/internal/telemetry"
)

// evaluate runs every rule that applies to the device on one sample.
func (e *Engine) evaluate(ctx context.Context, d *devInfo, s *telemetry.Sample, rules Rules) ([]obs, error) {
	t := s.Time.UnixMilli()
	var out []obs
	raise := func(rule, key string, start int64, from *devInfo, msgKey string, args ...any) {
		out = append(out, obs{rule: rule, key: key, cond: condTrue, at: t, start: start, dev: from,
			stationID: from.stationID, devType: from.typ, devSN: from.sn, devNam: from.name, msgKey: msgKey, args: args})
	}
	clearFn := func(rule, key string, anyDevice bool) {
		out = append(out, obs{rule: rule, key: key, cond: condFalse, at: t, dev: d, anyDevice: anyDevice})
	}
	known := s.Status != telemetry.StatusCommsLost

	// Lost communication reported by the collector; any other sample means the device
	// (and its collector) is heard again.
	if known {
		clearFn(RuleOffline, deviceKey(RuleOffline, d.id), true)
		if d.collector != "" {
			clearFn(RuleOffline, collectorKey(d.orgID, d.collector), true)
		}
	} else {
		raise(RuleOffline, deviceKey(RuleOffline, d.id), t, d, "alarm_desc_comms_lost")
	}

	switch d.typ {
	case "inverter":
		key := deviceKey(RuleInverterFault, d.id)
		if s.Status == telemetry.StatusFault {
			raise(RuleInverterFault, key, t, d, "alarm_desc_inverter_fault")
		} else if known {
			clearFn(RuleInverterFault, key, false)
		}
		if err := e.stringLoss(ctx, d, s, rules[RuleStringLoss], raise, clearFn); err != nil {
			return nil, err
		}
		if err := e.lowOutput(ctx, d, s, rules[RuleLowOutput], raise, clearFn); err != nil {
			return nil, err
		}
	case "battery", "storage":
		// One alarm per unit: a pack's fault counts towards its all-in-one unit.
		key := deviceKey(RuleBatteryFault, e.batteryRoot(d).id)
		if s.Status == telemetry.StatusFault {
			raise(RuleBatteryFault, key, t, d, "alarm_desc_battery_fault", fmt.Sprintf("%.0f", s.SOC))
		} else if known {
			clearFn(RuleBatteryFault, key, false)
		}
	}

	if d.typ == "inverter" || d.typ == "battery" || d.typ == "storage" {
		r := rules[RuleOverTemp]
		key := deviceKey(RuleOverTemp, d.id)
		limit := r.P("tempC")
		switch {
		case s.Status == telemetry.StatusOverTemp:
			raise(RuleOverTemp, key, t, d, "alarm_desc_over_temperature_status", round1(s.TempC))
		case s.TempC >= limit:
			raise(RuleOverTemp, key, t, d, "alarm_desc_over_temperature", round1(s.TempC), round1(limit))
		case known && s.TempC < limit-r.P("hysteresisC"):
			clearFn(RuleOverTemp, key, false)
		}
	}

	if d.typ != "" {
		e.gridCheck(ctx, d, s, rules[RuleGrid], raise, clearFn)
	}
	return out, nil
}

type raiseFunc func(rule, key string, start int64, from *devInfo, msgKey string, args ...any)
type clearFunc func(rule, key string, anyDevice bool)

// batteryRoot is the battery or storage unit a device belongs to (itself, or the unit
// its pack hangs under).
func (e *Engine) batteryRoot(d *devInfo) *devInfo {
	root := d
	for i := 0; i < 4 && root.parentID != 0; i++ {
		p := e.devs[root.parentID]
		if p == nil || (p.typ != "battery" && p.typ != "storage") {
			break
		}
		root = p
	}
	return root
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }

// stringLoss: while producing, fewer strings carry current than are enabled. A device
// that reports 0 strings while producing does not measure strings and is not judged.
func (e *Engine) stringLoss(ctx context.Context, d *devInfo, s *telemetry.Sample, r *Rule, raise raiseFunc, clearFn clearFunc) error {
	if d.strings <= 0 {
		return nil
	}
	key := deviceKey(RuleStringLoss, d.id)
	producing := s.Status == telemetry.StatusRunning && s.PowerKW > 0 && s.StringsActive > 0
	if !producing {
		return nil // night, standby or a fault: no judgement; an open alarm stays open
	}
	if s.StringsActive >= d.strings {
		clearFn(RuleStringLoss, key, false)
		return nil
	}
	start := s.Time.UnixMilli()
	if _, open := e.open[key]; !open {
		need := int(r.P("samples"))
		ok, first, err := e.consecutive(ctx, d, s, need, func(x *telemetry.Sample) bool {
			return x.Status == telemetry.StatusRunning && x.PowerKW > 0 && x.StringsActive > 0 && x.StringsActive < d.strings
		})
		if err != nil || !ok {
			return err
		}
		start = first
	}
	raise(RuleStringLoss, key, start, d, "alarm_desc_string_loss", s.StringsActive, d.strings)
	return nil
}

// expectedKW is the power an inverter should deliver at a plane-of-array irradiance:
// irradiance × component kWp ÷ 1000 × derate, capped at the rated AC power.
func expectedKW(d *devInfo, irr, derate float64) float64 {
	p := irr * d.kwp / 1000 * derate
	if d.ratedKW > 0 {
		p = math.Min(p, d.ratedKW)
	}
	return p
}

// lowOutput: in daylight, with enough irradiance and no fault or string loss to explain
// it, the output stays below a share of the expected power for several samples.
func (e *Engine) lowOutput(ctx context.Context, d *devInfo, s *telemetry.Sample, r *Rule, raise raiseFunc, clearFn clearFunc) error {
	if d.kwp <= 0 {
		return nil
	}
	ratio, derate := r.P("ratioPct")/100, r.P("derate")
	irrMin, elevMin := r.P("irradianceMin"), r.P("sunElevationMin")
	judgeable := func(x *telemetry.Sample) bool {
		if x.Status != telemetry.StatusRunning && x.Status != telemetry.StatusStandby {
			return false
		}
		if x.IrradianceWm2 < irrMin {
			return false
		}
		if x.Status == telemetry.StatusRunning && x.StringsActive > 0 && d.strings > 0 && x.StringsActive < d.strings {
			return false // string loss explains it
		}
		return pvmodel.SunAt(d.lat, d.lng, x.Time).ElevationDeg >= elevMin
	}
	low := func(x *telemetry.Sample) bool {
		return judgeable(x) && x.PowerKW < ratio*expectedKW(d, x.IrradianceWm2, derate)
	}
	if !judgeable(s) {
		return nil
	}
	key := deviceKey(RuleLowOutput, d.id)
	exp := expectedKW(d, s.IrradianceWm2, derate)
	if s.PowerKW >= ratio*exp {
		clearFn(RuleLowOutput, key, false)
		return nil
	}
	start := s.Time.UnixMilli()
	if _, open := e.open[key]; !open {
		ok, first, err := e.consecutive(ctx, d, s, int(r.P("samples")), low)
		if err != nil || !ok {
			return err
		}
		start = first
	}
	raise(RuleLowOutput, key, start, d, "alarm_desc_low_output", round1(s.PowerKW), round1(exp), math.Round(s.IrradianceWm2))
	return nil
}

// maxSampleGap is the longest gap between two samples that still counts as consecutive.
const maxSampleGap = 30 * time.Minute

// consecutive reports whether the sample and the need-1 stored samples before it all
// satisfy pred without a gap, and the time of the first of them.
func (e *Engine) consecutive(ctx context.Context, d *devInfo, s *telemetry.Sample, need int, pred func(*telemetry.Sample) bool) (bool, int64, error) {
	first := s.Time.UnixMilli()
	if need <= 1 {
		return true, first, nil
	}
	prior, err := telemetry.SamplesBefore(ctx, e.db, d.id, s.Time, need-1)
	if err != nil {
		return false, 0, fmt.Errorf("alarm: unable to read recent samples: %w", err)
	}
	n, prev := 1, first
	for i := range prior {
		x := &prior[i]
		ts := x.Time.UnixMilli()
		if prev-ts > maxSampleGap.Milliseconds() || !pred(x) {
			return false, 0, nil
		}
		n, prev, first = n+1, ts, ts
	}
	return n >= need, first, nil
}

// gridNominal learns a device's nominal grid voltage and frequency from its samples.
type gridNominal struct {
	volts   []float64 // recent in-band voltages (ring)
	next    int
	nominal float64
	freq    float64
}

const (
	gridWindow     = 24 // samples the nominal voltage is the median of
	gridMinSamples = 3  // samples needed before voltage is judged
)

func (g *gridNominal) add(v float64) {
	if len(g.volts) < gridWindow {
		g.volts = append(g.volts, v)
	} else {
		g.volts[g.next] = v
		g.next = (g.next + 1) % gridWindow
	}
	c := append([]float64(nil), g.volts...)
	sort.Float64s(c)
	g.nominal = c[len(c)/2]
}

// nominalFrequency is 50 or 60 Hz, whichever is closer.
func nominalFrequency(f float64) float64 {
	if math.Abs(f-60) < math.Abs(f-50) {
		return 60
	}
	return 50
}

// gridCheck judges the grid at the device's (sub-)station: a device reporting a grid
// fault, or voltage or frequency out of the band around the nominal. Voltage 0 or
// frequency 0 means "not measured" (a battery pack behind its unit).
func (e *Engine) gridCheck(ctx context.Context, d *devInfo, s *telemetry.Sample, r *Rule, raise raiseFunc, clearFn clearFunc) {
	g := e.grid[d.id]
	if g == nil {
		g = &gridNominal{}
		e.grid[d.id] = g
		e.bootstrapGrid(ctx, d, g, s)
	}
	key := stationKey(RuleGrid, d.stationID)
	t := s.Time.UnixMilli()
	hi, lo, df := r.P("voltageHighPct")/100, r.P("voltageLowPct")/100, r.P("frequencyDeltaHz")
	var msgKey string
	var args []any
	judged := false
	if s.ACVoltageV > 0 && len(g.volts) >= gridMinSamples {
		judged = true
		switch {
		case s.ACVoltageV > g.nominal*hi:
			msgKey, args = "alarm_desc_grid_over_voltage", []any{round1(s.ACVoltageV), round1(g.nominal)}
		case s.ACVoltageV < g.nominal*lo:
			msgKey, args = "alarm_desc_grid_under_voltage", []any{round1(s.ACVoltageV), round1(g.nominal)}
		}
	}
	if s.FrequencyHz > 0 {
		judged = true
		nf := nominalFrequency(s.FrequencyHz)
		if g.freq == 0 {
			g.freq = nf
		}
		switch {
		case msgKey != "":
		case s.FrequencyHz > g.freq+df:
			msgKey, args = "alarm_desc_grid_over_frequency", []any{math.Round(s.FrequencyHz*100) / 100, g.freq}
		case s.FrequencyHz < g.freq-df:
			msgKey, args = "alarm_desc_grid_under_frequency", []any{math.Round(s.FrequencyHz*100) / 100, g.freq}
		}
	}
	if msgKey == "" && s.Status == telemetry.StatusGridFault {
		msgKey = "alarm_desc_grid_fault"
	}
	// Learn from samples that show no grid trouble.
	if msgKey == "" && s.ACVoltageV > 0 && s.Status != telemetry.StatusGridFault {
		if len(g.volts) < gridMinSamples || math.Abs(s.ACVoltageV/g.nominal-1) < 0.05 {
			g.add(s.ACVoltageV)
		}
	}
	switch {
	case msgKey != "":
		raise(RuleGrid, key, t, d, msgKey, args...)
	case s.Status == telemetry.StatusCommsLost:
	case judged || s.Status != telemetry.StatusGridFault:
		clearFn(RuleGrid, key, false)
	}
}

// gridReaders is how many devices' stored samples bootstrapGrids reads at once.
const gridReaders = 8

// bootstrapGrids seeds the grid nominal of the batch's devices that have none yet (applyMu
// held), reading their stored samples gridReaders at a time: the first samples after a
// start come from every device of the fleet, and one read after another held the write
// path up (its after-commit hook waits for Observe).
func (e *Engine) bootstrapGrids(ctx context.Context, sorted []*telemetry.Sample) {
	type want struct {
		d *devInfo
		g *gridNominal
		s *telemetry.Sample
	}
	var ws []want
	for _, s := range sorted {
		d := e.devs[s.DeviceID]
		if d == nil || d.typ == "" || e.grid[d.id] != nil {
			continue
		}
		g := &gridNominal{}
		e.grid[d.id] = g
		ws = append(ws, want{d, g, s})
	}
	sem := make(chan struct{}, gridReaders)
	var wg sync.WaitGroup
	for _, w := range ws {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			e.bootstrapGrid(ctx, w.d, w.g, w.s) // w.g is this goroutine's alone until Wait
		}()
	}
	wg.Wait()
}

// bootstrapGrid seeds a device's nominal from its stored samples before s (the median
// of the last gridWindow of them), so that a restart does not forget it.
func (e *Engine) bootstrapGrid(ctx context.Context, d *devInfo, g *gridNominal, s *telemetry.Sample) {
	prior, err := telemetry.SamplesBefore(ctx, e.db, d.id, s.Time, gridWindow)
	if err != nil {
		return
	}
	var vs []float64
	for i := range prior {
		if v, st := prior[i].ACVoltageV, prior[i].Status; v > 0 && st != telemetry.StatusGridFault {
			vs = append(vs, v)
		}
	}
	if len(vs) < gridMinSamples {
		return
	}
	// Oldest first, and keep only those near the median (a fault in the history).
	c := append([]float64(nil), vs...)
	sort.Float64s(c)
	med := c[len(c)/2]
	for i := len(vs) - 1; i >= 0; i-- {
		if math.Abs(vs[i]/med-1) < 0.05 {
			g.add(vs[i])
		}
	}
}
