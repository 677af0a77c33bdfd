package sim

import (
	"math"
	"testing"
	"time"
)

func TestDemoFleetShape(t *testing.T) {
	f := DemoFleet()
	if err := f.Validate(); err != nil {
		t.Fatalf("demo fleet invalid: %v", err)
	}
	if len(f.Stations) != 9 {
		t.Fatalf("%d stations, want 9", len(f.Stations))
	}
	zones := map[string]bool{}
	countries := map[string]bool{}
	types := map[DeviceType]int{}
	stationTypes := map[StationType]bool{}
	systemTypes := map[SystemType]bool{}
	north, south := false, false
	sns := map[string]bool{}
	devices := 0
	for _, s := range f.Stations {
		if len(s.Children) != 3 {
			t.Errorf("%s: %d sub-stations, want 3", s.Key, len(s.Children))
		}
		if _, err := time.LoadLocation(s.Timezone); err != nil {
			t.Errorf("%s: %v", s.Key, err)
		}
		zones[s.Timezone] = true
		countries[s.Country] = true
		stationTypes[s.StationType] = true
		systemTypes[s.SystemType] = true
		north = north || s.Lat > 0
		south = south || s.Lat < 0
		// Arrays face the equator.
		if s.Lat > 0 && math.Abs(s.AzimuthDeg-180) > 30 || s.Lat < 0 && math.Min(s.AzimuthDeg, 360-s.AzimuthDeg) > 30 {
			t.Errorf("%s: azimuth %.0f does not face the equator", s.Key, s.AzimuthDeg)
		}
		sum := 0.0
		for _, c := range s.Children {
			checkStationFields(t, c)
			if c.ParentKey != s.Key {
				t.Errorf("%s: parent %q", c.Key, c.ParentKey)
			}
			kwp := 0.0
			for _, d := range c.Devices {
				devices++
				types[d.Type]++
				if sns[d.SN] {
					t.Errorf("duplicate serial %s", d.SN)
				}
				sns[d.SN] = true
				if d.Name == "" || d.Model == "" || d.CollectorSN == "" || d.Key == "" {
					t.Errorf("%s: missing descriptive fields", d.Key)
				}
				if d.Type == DeviceInverter {
					kwp += d.ComponentCapacityKWp()
					if r := d.ComponentCapacityKWp() / d.RatedACKW; r < 1 || r > 1.5 {
						t.Errorf("%s: DC/AC ratio %.2f", d.Key, r)
					}
				}
			}
			if math.Abs(kwp-c.CapacityKWp) > 0.01 {
				t.Errorf("%s: capacity %.2f, devices sum to %.2f", c.Key, c.CapacityKWp, kwp)
			}
			sum += c.CapacityKWp
		}
		checkStationFields(t, s)
		if math.Abs(sum-s.CapacityKWp) > 0.05 {
			t.Errorf("%s: capacity %.2f, sub-stations sum to %.2f", s.Key, s.CapacityKWp, sum)
		}
	}
	if !north || !south {
		t.Errorf("stations must be on both hemispheres")
	}
	if len(zones) < 6 || len(countries) < 6 {
		t.Errorf("%d timezones, %d countries: want several", len(zones), len(countries))
	}
	if devices < 150 || devices > 250 {
		t.Errorf("%d devices, want about 200", devices)
	}
	for _, typ := range []DeviceType{DeviceInverter, DeviceBattery, DeviceStorage, DeviceMeter} {
		if types[typ] == 0 {
			t.Errorf("no %s in the demo fleet", typ)
		}
	}
	if len(stationTypes) != 3 || len(systemTypes) != 2 {
		t.Errorf("station types %v, system types %v", stationTypes, systemTypes)
	}
	// Deterministic: a second call gives the same fleet.
	g := DemoFleet()
	if a, b := f.Devices(), g.Devices(); len(a) != len(b) || a[7].SN != b[7].SN || a[100].Key != b[100].Key {
		t.Errorf("DemoFleet is not deterministic")
	}
	// Lookups.
	if _, ok := f.Device("au-perth-1-ess-bat"); !ok {
		t.Errorf("device lookup failed")
	}
	if st, ok := f.Station("kr-jeju-2"); !ok || st.ParentKey != "kr-jeju" {
		t.Errorf("station lookup failed")
	}
}

func checkStationFields(t *testing.T, s Station) {
	t.Helper()
	for name, v := range map[string]string{
		"name": s.Name, "location": s.Location, "address": s.Address, "region": s.Region,
		"country": s.Country, "timezone": s.Timezone, "currency": s.Currency, "owner": s.OwnerName,
		"ownerPhone": s.OwnerPhone, "ownerCompany": s.OwnerCompany, "manager": s.Manager, "line": s.Line,
		"stationType": string(s.StationType), "systemType": string(s.SystemType),
	} {
		if v == "" {
			t.Errorf("%s: empty %s", s.Key, name)
		}
	}
	if s.Lat == 0 || s.Lng == 0 || s.CapacityKWp <= 0 || s.PricePerKWh <= 0 || s.TotalCost <= 0 ||
		s.DailyRepayment <= 0 || s.BuildDate.IsZero() || s.GridDate.Before(s.BuildDate) || len(s.Tags) == 0 ||
		s.NominalVoltageV <= 0 || s.NominalFrequencyHz <= 0 {
		t.Errorf("%s: incomplete station fields", s.Key)
	}
}

func TestValidateRejects(t *testing.T) {
	f := DemoFleet()
	f.Stations[1].Children[0].Devices[0].SN = f.Stations[0].Children[0].Devices[0].SN
	f.Stations[2].Timezone = "Mars/Olympus"
	f.Stations[3].Children[0].Devices[0].EnabledStrings = 99
	err := f.Validate()
	if err == nil {
		t.Fatal("expected errors")
	}
	if _, err := New(f, 1); err == nil {
		t.Fatal("New must reject an invalid fleet")
	}
}
