package ingest

import (
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// The merge: collectors such as OpenDTU publish each reading of a device on a topic of
// its own (power, yield, voltage…), a moment apart. A device's readings are gathered into
// a round, and a round becomes one sample when
//
//   - a field of the round arrives again (the collector's next cycle has begun),
//   - the round is mergeWindow old, or
//   - the messages held unacknowledged reach the consumer's share of the broker's
//     in-flight window (every round is closed, so the broker keeps sending).
//
// The sample's time is the round's first message's arrival (the collectors' own topics
// carry no usable timestamp), at least 1 ms after the device's previous sample.
//
// Carrying: a field missing from a round takes the device's last known value — always
// for the counters (energyKwh, energy2Kwh: a missing counter sent as 0 would read as a
// counter reset, internal/telemetry/counter.go), and for other fields when last seen
// within carryFor. A counter never seen since start is read from the device's latest
// stored sample (seed), or else from a retained message. A retained message (sent again by
// the broker on every subscription) opens no round: its values only stand in for fields
// not known yet. Messages are acknowledged only when their sample is committed.

// mergeWindow is how long a round collects fields.
const mergeWindow = 1500 * time.Millisecond

// carryFor is how long a non-counter field's last value stands in for a missing one.
const carryFor = 10 * time.Minute

// maxMergeDevices bounds the devices whose state is kept; past it the least recently
// heard idle device is forgotten (its counters are seeded again from the database).
const maxMergeDevices = 20_000

// devState is what the merge keeps about one device.
type devState struct {
	id    int64
	heard time.Time // last message

	known   [nFields]float64
	knownAt [nFields]time.Time
	seeded  bool

	open    bool
	start   time.Time
	set     uint16
	vals    [nFields]float64
	acks    []func(ok bool)
	src     source // the round's latest message, named if its sample is refused
	lastOut int64  // time of the last sample, unix ms
}

// source is where a round's latest value came from.
type source struct {
	org       int64
	topic, sn string
	payload   []byte
}

// round is a closed round: one sample and the acknowledgements that wait for it.
type round struct {
	sample telemetry.Sample
	acks   []func(ok bool)
	src    source
}

type merger struct {
	mu      sync.Mutex
	devs    map[int64]*devState
	held    int // messages in open rounds
	maxHeld int
	window  time.Duration
	now     func() time.Time
}

func newMerger(maxHeld int) *merger {
	return &merger{devs: map[int64]*devState{}, maxHeld: max(1, maxHeld), window: mergeWindow, now: time.Now}
}

// needsSeed tells whether a device's counters must be read from the database first.
func (g *merger) needsSeed(id int64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	d := g.devs[id]
	return d == nil || !d.seeded
}

// seed sets a device's counters from its latest stored sample (when it has none yet).
func (g *merger) seed(id int64, latest telemetry.Sample, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	d := g.state(id)
	if d.seeded {
		return
	}
	d.seeded = true
	if !ok {
		return
	}
	for _, f := range [...]struct {
		i int
		v float64
	}{{telemetry.FieldEnergy, latest.EnergyKWh}, {telemetry.FieldEnergy2, latest.Energy2KWh}} {
		if d.knownAt[f.i].IsZero() && f.v > 0 {
			d.known[f.i], d.knownAt[f.i] = f.v, latest.Time
		}
	}
}

func (g *merger) state(id int64) *devState {
	d := g.devs[id]
	if d != nil {
		return d
	}
	if len(g.devs) >= maxMergeDevices {
		var oldest *devState
		for _, x := range g.devs {
			if !x.open && (oldest == nil || x.heard.Before(oldest.heard)) {
				oldest = x
			}
		}
		if oldest != nil {
			delete(g.devs, oldest.id)
		}
	}
	d = &devState{id: id}
	g.devs[id] = d
	return d
}

// remember takes a retained message's values as the device's last known ones, for the
// fields it knows nothing of yet, without a round: the broker re-sends retained messages on
// every subscription, so their values are old news, not a reading of this instant.
func (g *merger) remember(id int64, found uint16, vals [nFields]float64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	d := g.state(id)
	now := g.now()
	d.heard = now
	for i := 0; i < nFields; i++ {
		if found&(1<<i) != 0 && d.knownAt[i].IsZero() {
			d.known[i], d.knownAt[i] = vals[i], now
		}
	}
}

// add folds a message's fields into its device's round; ack is told whether the sample
// holding them was committed. It returns the rounds that closed.
func (g *merger) add(id int64, found uint16, vals [nFields]float64, src source, ack func(ok bool)) []round {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	var out []round
	d := g.state(id)
	d.heard = now
	if d.open && d.set&found != 0 {
		out = append(out, g.close(d))
	}
	if !d.open {
		d.open, d.start, d.set = true, now, 0
	}
	for i := 0; i < nFields; i++ {
		if found&(1<<i) != 0 {
			d.vals[i] = vals[i]
		}
	}
	d.set |= found
	d.src = src
	d.acks = append(d.acks, ack)
	g.held++
	if g.held >= g.maxHeld {
		out = append(out, g.closeAll(time.Time{})...)
	}
	return out
}

// due closes the rounds older than the window (all rounds: flush).
func (g *merger) due(flush bool) []round {
	g.mu.Lock()
	defer g.mu.Unlock()
	if flush {
		return g.closeAll(time.Time{})
	}
	return g.closeAll(g.now().Add(-g.window))
}

// closeAll closes open rounds started before cutoff (zero: every open round).
func (g *merger) closeAll(cutoff time.Time) []round {
	var out []round
	for _, d := range g.devs {
		if d.open && (cutoff.IsZero() || d.start.Before(cutoff)) {
			out = append(out, g.close(d))
		}
	}
	return out
}

// close turns a device's open round into a sample, carrying missing fields.
func (g *merger) close(d *devState) round {
	t := max(d.start.UnixMilli(), d.lastOut+1)
	s := telemetry.Sample{DeviceID: d.id, Time: time.UnixMilli(t).UTC()}
	for i := 0; i < nFields; i++ {
		switch {
		case d.set&(1<<i) != 0:
			d.known[i], d.knownAt[i] = d.vals[i], d.start
			s.SetField(i, d.vals[i])
		case d.knownAt[i].IsZero():
		case i == telemetry.FieldEnergy || i == telemetry.FieldEnergy2 || d.start.Sub(d.knownAt[i]) <= carryFor:
			s.SetField(i, d.known[i])
		}
	}
	r := round{sample: s, acks: d.acks, src: d.src}
	g.held -= len(d.acks)
	d.open, d.set, d.acks, d.src, d.lastOut = false, 0, nil, source{}, t
	return r
}
