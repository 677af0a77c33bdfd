package telemetry

import "math"

// Counter logic: turning a device's cumulative energy counter into energy per interval.
//
// A counter is never trusted as-is. Each reading is judged against the last trusted reading
// (Ref) with a plausibility bound derived from the device's rated power:
//
//	bound(Δt) = P × (1.2 × Δt[h] + 0.1 h) + 0.1 kWh
//
// and the reading is taken as one of the events below. docs/telemetry.md gives the rules
// with examples; counter_test.go has a scenario for each.

// CounterEvent says how a reading was interpreted.
type CounterEvent uint8

const (
	// EventFirst is the first reading of a counter: nothing to compare with, no energy.
	EventFirst CounterEvent = iota
	// EventNormal is a reading at or above Ref within the bound: energy = x − Ref.
	EventNormal
	// EventRollover is a drop explained by a 16- or 32-bit register wrapping:
	// energy = (M − Ref) + x for the smallest modulus M that fits the bound.
	EventRollover
	// EventReset is a drop to a value the device could have counted from 0 since the
	// last reading (a daily counter at night, a replaced device): energy = x.
	EventReset
	// EventResume is a reading that continues from the value held before a recent reset,
	// showing the "reset" was a glitch: energy = max(0, x − Held − what was credited since).
	EventResume
	// EventSuspect is a reading inconsistent with Ref that is not a reset or rollover: a
	// glitch until proven otherwise. No energy; Ref is kept.
	EventSuspect
	// EventRebase is the ConfirmReadings-th consecutive suspect reading, each consistent
	// with the one before: the counter really moved. Energy = x − the first suspect reading.
	EventRebase
	// EventIgnored is a drop on a device without a rated power: there is no bound to tell a
	// reset from a glitch, so the counter is re-based without energy.
	EventIgnored
	// EventNoise is a small backwards step: a drop no larger than the device could produce
	// in the interval, to a value above half the last trusted reading (not near zero). The
	// reading is noise (a meter re-reading, an out-of-order register): no energy, Ref is
	// kept, so the energy is counted once when the counter passes Ref again.
	EventNoise
)

var counterEventNames = [...]string{"first", "normal", "rollover", "reset", "resume", "suspect", "rebase", "ignored", "noise"}

func (e CounterEvent) String() string { return counterEventNames[e] }

const (
	// ConfirmReadings consecutive self-consistent suspect readings re-base a counter.
	ConfirmReadings = 3
	// HoldReadings is how many readings after a reset a glitch-to-zero can still be undone.
	HoldReadings = 6
)

// rolloverModuli are the wrap points of 16- and 32-bit registers at the usual scalings
// (×10, ×1, ×0.1, ×0.01, ×0.001 kWh per count), smallest first.
var rolloverModuli = func() []float64 {
	var out []float64
	for _, bits := range []float64{16, 32} {
		for _, scale := range []float64{0.001, 0.01, 0.1, 1, 10} {
			out = append(out, math.Pow(2, bits)*scale)
		}
	}
	// sort ascending (a tiny insertion sort keeps this dependency-free)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}()

// CounterState is what the counter logic keeps about one counter between readings. The
// zero value means "no reading yet". Times are unix milliseconds.
type CounterState struct {
	Ref  float64 `json:"r,omitempty"`  // last trusted reading
	RefT int64   `json:"rt,omitempty"` // its time; 0 = none yet
	// Held is the trusted reading just before the last reset, kept for HoldReadings
	// readings in case the reset was a glitch to zero.
	Held  float64 `json:"h,omitempty"`
	HeldT int64   `json:"ht,omitempty"` // 0 = nothing held
	HeldN int     `json:"hn,omitempty"` // readings since the reset
	HeldE float64 `json:"he,omitempty"` // energy credited since the reset (its own included)
	// Suspect readings: the first (PendV at PendT), the last (LastV at LastT), how many.
	PendV float64 `json:"pv,omitempty"`
	PendT int64   `json:"pt,omitempty"`
	LastV float64 `json:"lv,omitempty"`
	LastT int64   `json:"lt,omitempty"`
	PendN int     `json:"pn,omitempty"`
}

// trivial reports whether the state says nothing beyond "the last reading was trusted":
// such states are not stored, since they can be rebuilt from the reading itself.
func (s CounterState) trivial(v float64, t int64) bool {
	return s.HeldT == 0 && s.PendN == 0 && s.RefT == t && s.Ref == v
}

// CounterStep is the outcome of one reading.
type CounterStep struct {
	Event CounterEvent
	// EnergyKWh is the energy credited by this reading (never negative).
	EnergyKWh float64
	// From is where that energy starts (unix ms): the last trusted reading's time, or for
	// a reset across local midnight the later of that and the midnight.
	From int64
}

// CounterBound is the most energy a device rated ratedKW can plausibly deliver in dtMillis,
// or +Inf when the rating is unknown.
func CounterBound(ratedKW float64, dtMillis int64) float64 {
	if ratedKW <= 0 {
		return math.Inf(1)
	}
	h := float64(dtMillis) / 3.6e6
	return ratedKW*(1.2*h+0.1) + 0.1
}

// StepCounter judges reading x at time t (unix ms) against state st for a device rated
// ratedKW. midnight returns the start of the station-local day containing an instant; it
// places the energy of a reset after the local midnight the counter restarted at. It is a
// pure function: the same inputs always give the same outputs.
func StepCounter(st CounterState, x float64, t int64, ratedKW float64, midnight func(int64) int64) (CounterState, CounterStep) {
	if st.RefT == 0 {
		return CounterState{Ref: x, RefT: t}, CounterStep{Event: EventFirst, From: t}
	}
	dt := t - st.RefT
	bound := CounterBound(ratedKW, dt)
	from := st.RefT
	trust := func(ev CounterEvent, e float64, from int64) (CounterState, CounterStep) {
		e = math.Max(0, e)
		n := st
		n.Ref, n.RefT = x, t
		n.PendV, n.PendT, n.LastV, n.LastT, n.PendN = 0, 0, 0, 0, 0
		if n.HeldT != 0 {
			n.HeldN++
			n.HeldE += e
			if n.HeldN >= HoldReadings {
				n.Held, n.HeldT, n.HeldN, n.HeldE = 0, 0, 0, 0
			}
		}
		return n, CounterStep{Event: ev, EnergyKWh: e, From: from}
	}

	d := x - st.Ref
	// A reading continuing from the value held before a recent reset: the reset was a
	// glitch to (near) zero. Checked first, since such a reading may also look like
	// normal growth from the glitch value.
	if st.HeldT != 0 && d > 0 && x >= st.Held && x-st.Held <= CounterBound(ratedKW, t-st.HeldT) {
		n, step := trust(EventResume, x-st.Held-st.HeldE, from)
		n.Held, n.HeldT, n.HeldN, n.HeldE = 0, 0, 0, 0
		return n, step
	}
	if d >= 0 && d <= bound {
		return trust(EventNormal, d, from)
	}
	if d < 0 {
		if math.IsInf(bound, 1) {
			return trust(EventIgnored, 0, from)
		}
		for _, m := range rolloverModuli {
			if m > st.Ref && (m-st.Ref)+x <= bound {
				return trust(EventRollover, (m-st.Ref)+x, from)
			}
		}
		if x <= bound && x <= st.Ref/2 {
			// near zero: the counter restarted
			n, step := trust(EventReset, x, from)
			if midnight != nil {
				if mid := midnight(t); mid > from && mid < t {
					step.From = mid
				}
			}
			n.Held, n.HeldT, n.HeldN, n.HeldE = st.Ref, st.RefT, 0, step.EnergyKWh
			return n, step
		}
		if -d <= bound {
			return st, CounterStep{Event: EventNoise, From: from}
		}
	}
	// Suspect: a jump beyond the bound or a drop that is neither wrap nor reset.
	n := st
	if st.PendN > 0 && x >= st.LastV && x-st.LastV <= CounterBound(ratedKW, t-st.LastT) {
		if st.PendN+1 >= ConfirmReadings {
			first := st.PendV
			n2, step := trust(EventRebase, x-first, st.PendT)
			n2.Held, n2.HeldT, n2.HeldN, n2.HeldE = 0, 0, 0, 0
			return n2, step
		}
		n.LastV, n.LastT, n.PendN = x, t, st.PendN+1
		return n, CounterStep{Event: EventSuspect, From: t}
	}
	n.PendV, n.PendT, n.LastV, n.LastT, n.PendN = x, t, x, t, 1
	return n, CounterStep{Event: EventSuspect, From: t}
}
