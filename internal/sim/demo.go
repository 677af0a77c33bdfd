package sim

import (
	"fmt"
	"math"
	"time"

	"github.com/helio-energy/helio/internal/pvmodel"
)

// The demo fleet: 9 stations with 3 sub-stations each (SPEC.md section 9), in nine
// countries on both hemispheres, a mix of utility ground-mounted plants, commercial and
// industrial rooftops and homes with all-in-one storage. Companies, people and phone
// numbers are fictional. About 200 devices.

// inverterModel describes a string-inverter model of the demo fleet.
type inverterModel struct {
	manufacturer, model, prefix string
	ratedKW                     float64
	strings                     int
	counter                     CounterMode
}

var (
	invSF110   = inverterModel{"Sunforge", "SF-110KTL-M2", "SF110", 110, 12, CounterLifetime}
	invSF125   = inverterModel{"Sunforge", "SF-125KTL-US", "SF125", 125, 10, CounterLifetime}
	invSF100   = inverterModel{"Sunforge", "SF-100KTL-M1", "SF100", 100, 10, CounterLifetime}
	invNW100   = inverterModel{"Nordwatt", "NW-100TL-D", "NW100", 100, 10, CounterDaily}
	invSF50    = inverterModel{"Sunforge", "SF-50KTL-M3", "SF050", 50, 8, CounterLifetime}
	invKP495   = inverterModel{"Kairo Power", "KP-49.5K-J", "KP495", 49.5, 6, CounterLifetime}
	invKP495D  = inverterModel{"Kairo Power", "KP-49.5K-JD", "KP49D", 49.5, 6, CounterDaily}
	invHT60    = inverterModel{"Hsin Tien Electric", "HT-60K-T", "HT060", 60, 8, CounterDaily}
	invSF5     = inverterModel{"Sunforge", "SF-5KTL-H", "SF005", 5, 2, CounterLifetime}
	invKP3     = inverterModel{"Kairo Power", "KP-3K-S", "KP003", 3, 2, CounterDaily}
	loggerMain = "SF-Logger 3000"
	dongle     = "SF-WiFi Dongle"
)

type moduleSpec struct {
	watts     float64
	perString int
}

type stationInfo struct {
	key, name, location, address, region, country string
	lat, lng, alt                                 float64
	tz                                            string
	stype                                         StationType
	sys                                           SystemType
	azimuth, tilt                                 float64
	build, grid                                   string
	line                                          string
	currency                                      string
	price, subsidy                                float64
	costPerKWp, costPerKWh                        float64 // investment per kWp of PV and per kWh of storage
	owner, ownerPhone, company                    string
	manager, managerPhone                         string
	tags                                          []string
	voltage, freq                                 float64
	climate                                       pvmodel.Climate
}

type builder struct {
	serial  int
	station *Station
	info    stationInfo
	index   int
}

func (b *builder) nextSN(prefix string, year int) string {
	b.serial++
	return fmt.Sprintf("%s%02d%02d%05d", prefix, year%100, b.index+1, 10000+b.serial*38)
}

func mustDate(s, tz string) time.Time {
	loc, err := time.LoadLocation(tz)
	if err != nil {
		panic(err)
	}
	t, err := time.ParseInLocation("2006-01-02", s, loc)
	if err != nil {
		panic(err)
	}
	return t
}

func (b *builder) begin(idx int, in stationInfo) {
	b.index = idx
	b.info = in
	b.station = &Station{
		Key: in.key, Name: in.name, Location: in.location, Address: in.address,
		Region: in.region, Country: in.country, Lat: in.lat, Lng: in.lng, AltitudeM: in.alt,
		Timezone: in.tz, StationType: in.stype, SystemType: in.sys,
		AzimuthDeg: in.azimuth, TiltDeg: in.tilt,
		BuildDate: mustDate(in.build, in.tz), GridDate: mustDate(in.grid, in.tz), Line: in.line,
		Currency: in.currency, PricePerKWh: in.price, SubsidyPerKWh: in.subsidy,
		OwnerName: in.owner, OwnerPhone: in.ownerPhone, OwnerCompany: in.company,
		Manager: in.manager, ManagerPhone: in.managerPhone, Tags: in.tags,
		NominalVoltageV: in.voltage, NominalFrequencyHz: in.freq, Climate: in.climate,
	}
}

// sub adds a sub-station; dayOffset shifts its build and grid dates.
func (b *builder) sub(n int, name, addr string, load LoadProfile, dayOffset int) *Station {
	p := b.station
	c := *p
	c.Children, c.Devices, c.Collectors = nil, nil, nil
	c.Tags = append([]string(nil), p.Tags...)
	c.Key = fmt.Sprintf("%s-%d", p.Key, n)
	c.ParentKey = p.Key
	c.Name = p.Name + " · " + name
	if addr != "" {
		c.Address = addr
	}
	c.BuildDate = p.BuildDate.AddDate(0, 0, dayOffset)
	c.GridDate = p.GridDate.AddDate(0, 0, dayOffset)
	c.Load = load
	c.Climate = pvmodel.Climate{}
	if p.SystemType == SystemPVStorage {
		c.Dispatch = DispatchSelfConsumption
	}
	p.Children = append(p.Children, c)
	return &p.Children[len(p.Children)-1]
}

func (b *builder) collector(s *Station, name, model string) string {
	sn := b.nextSN("CL", s.BuildDate.Year())
	s.Collectors = append(s.Collectors, Collector{SN: sn, Name: name, Model: model})
	return sn
}

func (b *builder) inverters(s *Station, from, n int, m inverterModel, mod moduleSpec, enabled int, coll string, az, tilt float64) {
	for i := from; i < from+n; i++ {
		e := enabled
		if e == 0 || e > m.strings {
			e = m.strings
		}
		s.Devices = append(s.Devices, Device{
			Key:        fmt.Sprintf("%s-inv%02d", s.Key, i),
			StationKey: s.Key,
			SN:         b.nextSN(m.prefix, s.BuildDate.Year()),
			Name:       fmt.Sprintf("INV-%02d", i),
			Type:       DeviceInverter, CustomType: "string inverter",
			Manufacturer: m.manufacturer, Model: m.model, CollectorSN: coll, InBalance: true,
			RatedACKW: m.ratedKW, ComponentRatedW: mod.watts, ComponentCount: e * mod.perString,
			Strings: m.strings, EnabledStrings: e, AzimuthDeg: az, TiltDeg: tilt, Counter: m.counter,
		})
	}
}

func (b *builder) battery(s *Station, key, name, model string, kwh, kw float64, coll string) {
	s.Devices = append(s.Devices, Device{
		Key: s.Key + "-" + key, StationKey: s.Key, SN: b.nextSN("VB", s.BuildDate.Year()),
		Name: name, Type: DeviceBattery, CustomType: "BESS container", Manufacturer: "Voltara",
		Model: model, CollectorSN: coll, InBalance: true, CapacityKWh: kwh, RatedKW: kw,
	})
}

// storage adds an all-in-one home unit and its battery pack as a child device.
func (b *builder) storage(s *Station, model string, kwh, kw float64, coll string) {
	unit := Device{
		Key: s.Key + "-ess", StationKey: s.Key, SN: b.nextSN("VH", s.BuildDate.Year()),
		Name: "Home storage", Type: DeviceStorage, CustomType: "hybrid all-in-one",
		Manufacturer: "Voltara", Model: model, CollectorSN: coll, InBalance: true,
		CapacityKWh: kwh, RatedKW: kw,
	}
	pack := Device{
		Key: unit.Key + "-bat", ParentKey: unit.Key, StationKey: s.Key,
		SN: b.nextSN("VP", s.BuildDate.Year()), Name: "Battery pack", Type: DeviceBattery,
		CustomType: "battery pack", Manufacturer: "Voltara", Model: model + " pack",
		CollectorSN: coll, InBalance: false, CapacityKWh: kwh, RatedKW: kw,
	}
	s.Devices = append(s.Devices, unit, pack)
}

func (b *builder) meter(s *Station, pos MeterPosition, model, coll string) {
	key, name := "-meter", "Grid meter"
	if pos == MeterLoad {
		key, name = "-load", "Load meter"
	}
	s.Devices = append(s.Devices, Device{
		Key: s.Key + key, StationKey: s.Key, SN: b.nextSN("MX", s.BuildDate.Year()),
		Name: name, Type: DeviceMeter, CustomType: string(pos) + " meter", Manufacturer: "Meterix",
		Model: model, CollectorSN: coll, InBalance: true, MeterPosition: pos,
	})
}

// finish fills the capacities and the money figures.
func (b *builder) finish(f *Fleet) {
	p := b.station
	in := b.info
	total, totalCost := 0.0, 0.0
	for i := range p.Children {
		c := &p.Children[i]
		kwp, kwh := 0.0, 0.0
		for _, d := range c.Devices {
			kwp += d.ComponentCapacityKWp()
			if d.InBalance && (d.Type == DeviceBattery || d.Type == DeviceStorage) {
				kwh += d.CapacityKWh
			}
		}
		c.CapacityKWp = math.Round(kwp*100) / 100
		c.TotalCost = math.Round(kwp*in.costPerKWp + kwh*in.costPerKWh)
		c.DailyRepayment = dailyRepayment(c.TotalCost)
		total += c.CapacityKWp
		totalCost += c.TotalCost
	}
	p.CapacityKWp = math.Round(total*100) / 100
	p.TotalCost = totalCost
	p.DailyRepayment = dailyRepayment(totalCost)
	f.Stations = append(f.Stations, *p)
}

// dailyRepayment spreads an investment over a 10-year loan at 5 % (annuity).
func dailyRepayment(cost float64) float64 {
	r, n := 0.05, 10.0
	annual := cost * r / (1 - math.Pow(1+r, -n))
	return math.Round(annual/365*100) / 100
}
