// Package monitor turns telemetry roll-ups into the figures operators read: a station's
// live state and KPIs, a device's energy and history, and the fleet summary calls.
// KPI formulas are defined here once and documented in docs/kpi.md.
package monitor

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/emission"
	"github.com/helio-energy/helio/internal/fleet"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// DefaultEmissionFactor is the grid emission factor used for carbon reduction of stations
// whose country internal/emission lacks, in kg CO₂ per kWh (a world-average grid; set per
// deployment with --emission-factor).
const DefaultEmissionFactor = 0.475

// Figures reads telemetry for the station, device and summary calls.
type Figures struct {
	DB             *store.DB
	Reader         *telemetry.Reader
	EmissionFactor float64
	Now            func() time.Time
	// Alarms reports which stations have an occurring alarm and the latest alarm text;
	// nil until the alarm engine is wired.
	Alarms func(ctx context.Context, stationIDs []int64) (map[int64]string, error)
	// AlarmStats feeds the project and maintenance rankings (nil until wired).
	AlarmStats AlarmStats
	// Weather is the stations' weather source (nil: none configured).
	Weather WeatherSource
	// Fleet keeps the live figures in memory (nil: read from the roll-ups every time).
	Fleet *fleet.State
	// Comms returns the field poller's communication state of each device it reads
	// ("connecting", "online", "offline"; devices it does not read are absent), as a map
	// read and not changed, with its generation. Nil: samples alone decide.
	Comms func() fleet.Comms
	// Afresh computes the fleet summary afresh on every call, keeping no parts
	// (allkept.go): tests compare the two.
	Afresh bool

	stretches  sync.Map // stretchKey → *stretchMemo: the compared stretches kept (stretch.go)
	allKept    sync.Map // organisation → *allKept: the fleet summary's parts kept (allkept.go)
	flagsKept  sync.Map // station → *keptLive: the stations' live flags kept (flagskept.go)
	zonesKept  sync.Map // organisation → *zonesMemo: its roots by zone (zones.go)
	flagParts  sync.Map // organisation → *keptParts[station.Live]: its roots' live flags (flagskept.go)
	stateParts sync.Map // organisation → *keptParts[stateCounts]: its roots' device counts (source.go)
	rankParts  sync.Map // organisation → *keptParts[AlarmCount]: its roots' alarms of the day (rankkept.go)
	topParts   sync.Map // topKey → *keptParts[rootTop]: its roots' best inverters (rankkept.go)
}

func (f *Figures) now() time.Time {
	if f.Now != nil {
		return f.Now()
	}
	return time.Now()
}

// KPI formulas (docs/kpi.md).

// EquivalentHours is energy ÷ installed capacity: the hours at full power that would
// have produced the energy.
func EquivalentHours(kwh, kwp float64) float64 {
	if kwp <= 0 {
		return 0
	}
	return kwh / kwp
}

// Normalization is current power ÷ installed capacity, in percent.
func Normalization(kw, kwp float64) float64 {
	if kwp <= 0 {
		return 0
	}
	return kw / kwp * 100
}

// PerformanceRatio is the IEC 61724 ratio of final yield (kWh ÷ kWp) to reference yield
// (plane-of-array irradiation ÷ 1 kW/m²), in percent. refKWh is the telemetry's reference
// energy: irradiation × the array's kWp, so PR = kWh ÷ refKWh.
func PerformanceRatio(kwh, refKWh float64) float64 {
	if refKWh <= 0 {
		return 0
	}
	return kwh / refKWh * 100
}

// CO2Reduction is the emissions avoided by kWh of PV energy, in kg.
func CO2Reduction(kwh, factor float64) float64 { return kwh * factor }

// Profit is kWh × (price per kWh + subsidy per kWh), in the station's currency.
func Profit(kwh, price, subsidy float64) float64 { return kwh * (price + subsidy) }

func r3(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return math.Round(f*1000) / 1000
}

type devRow struct {
	id, stationID, topID int64
	typ, meterPos        string
}

// devicesUnder lists the devices of the stations and of their sub-stations; topID is the
// listed station a device counts towards.
func (f *Figures) devicesUnder(ctx context.Context, ids []int64) ([]devRow, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	if f.Fleet != nil {
		return f.membersUnder(ctx, ids)
	}
	ph := strings.TrimSuffix(strings.Repeat("?,", len(ids)), ",")
	args := make([]any, 0, 2*len(ids))
	for _, id := range ids {
		args = append(args, id)
	}
	args = append(args, args...)
	rows, err := f.DB.Query(ctx, `SELECT d.id, d.station_id, COALESCE(s.parent_id, 0), d.type, d.meter_position FROM devices d
		JOIN stations s ON s.id = d.station_id WHERE d.station_id IN (`+ph+`) OR s.parent_id IN (`+ph+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("monitor: unable to list devices: %w", err)
	}
	defer rows.Close()
	listed := map[int64]bool{}
	for _, id := range ids {
		listed[id] = true
	}
	var out []devRow
	for rows.Next() {
		var d devRow
		var parent int64
		if err := rows.Scan(&d.id, &d.stationID, &parent, &d.typ, &d.meterPos); err != nil {
			return nil, err
		}
		if listed[d.stationID] {
			d.topID = d.stationID
			out = append(out, d)
		}
		if parent != 0 && listed[parent] {
			d.topID = parent
			out = append(out, d)
		}
	}
	return out, rows.Err()
}

// Live implements station.Telemetry.
func (f *Figures) Live(ctx context.Context, stations []*station.Station) (map[int64]station.Live, error) {
	return f.live(ctx, stations, liveFull)
}

// LiveFlags implements station.Kept: Live without the latest alarm's text.
func (f *Figures) LiveFlags(ctx context.Context, stations []*station.Station) (map[int64]station.Live, error) {
	if f.Fleet != nil && !f.Afresh {
		return f.keptFlags(ctx, stations)
	}
	return f.live(ctx, stations, liveFlags)
}

// What live reads besides the devices' states and power.
const (
	liveFull  = iota // energy totals, the alarm flag and the latest alarm's text
	liveFlags        // energy totals and the alarm flag (LatestAlarm left empty)
	livePower        // nothing else: no totals, no alarms
)

// live is Live, reading what mode asks for.
func (f *Figures) live(ctx context.Context, stations []*station.Station, mode int) (map[int64]station.Live, error) {
	return f.liveUntil(ctx, stations, mode, nil)
}

// liveUntil is live, also telling (into until, when not nil; fleet state only) the first
// instant each station's device counts change with time alone.
func (f *Figures) liveUntil(ctx context.Context, stations []*station.Station, mode int, until map[int64]int64) (map[int64]station.Live, error) {
	out := make(map[int64]station.Live, len(stations))
	if len(stations) == 0 {
		return out, nil
	}
	ids := make([]int64, len(stations))
	for i, st := range stations {
		ids[i] = st.ID
	}
	accs, err := f.deviceCounts(ctx, ids)
	if err != nil {
		return nil, err
	}
	var totals map[int64]telemetry.Totals
	var alarms map[int64]string
	var prev map[int64][2]float64 // yesterday's PV and reference energy
	if mode != livePower {
		if totals, err = f.stationTotals(ctx, ids); err != nil {
			return nil, err
		}
		if alarms, err = f.occurring(ctx, ids, mode == liveFlags); err != nil {
			return nil, err
		}
		if prev, err = f.yesterdays(ctx, stations); err != nil {
			return nil, err
		}
	}
	for _, st := range stations {
		a := accs[st.ID]
		if a == nil {
			a = &devCount{until: math.MaxInt64}
		}
		if until != nil {
			until[st.ID] = a.until
		}
		l := station.Live{DevicesTotal: a.total, DevicesOnline: a.online}
		switch {
		case a.reported == 0:
			l.CommunicationStatus = station.CommConnecting
		case a.online == a.total:
			l.CommunicationStatus = station.CommNormal
		case a.online == 0:
			l.CommunicationStatus = station.CommAllOffline
		default:
			l.CommunicationStatus = station.CommSomeOffline
		}
		if !a.lastSeen.IsZero() {
			t := a.lastSeen.UTC()
			l.LastSeen = &t
		}
		t := totals[st.ID]
		l.CurrentPowerKW = r3(a.powerKW)
		l.PowerNormalization = r3(Normalization(a.powerKW, st.CapacityKWp))
		l.DailyEnergyKWh = r3(t.Today.PVKWh)
		l.DailyEquivalentHours = r3(EquivalentHours(t.Today.PVKWh, st.CapacityKWp))
		l.TotalEnergyKWh = r3(t.Total.PVKWh)
		if y := prev[st.ID]; mode != livePower {
			l.PerformanceRatio = r3(PerformanceRatio(y[0], y[1]))
		}
		if msg, ok := alarms[st.ID]; ok {
			l.AlarmExist = 1
			l.LatestAlarm = msg
		}
		out[st.ID] = l
	}
	return out, nil
}

// factor is the deployment's factor: that of stations whose country the table lacks.
func (f *Figures) factor() float64 {
	if f.EmissionFactor > 0 {
		return f.EmissionFactor
	}
	return DefaultEmissionFactor
}

// factorOf is a station's grid emission factor: its country's (internal/emission).
func (f *Figures) factorOf(st *station.Station) float64 {
	return emission.Factor(st.Country, f.factor())
}

// location is the zone tz (UTC when unknown), loaded once per zone: time.LoadLocation
// reads the zone file at every call.
func location(tz string) *time.Location { return telemetry.CalendarFor(tz).Loc }
