package fleet

import (
	"fmt"
	"math"
	"time"

	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/sim"
)

// Fleet returns n stations cloned from the demo stations that have at least perStation
// devices (in turn), each trimmed or grown to exactly perStation devices, under new keys
// and serial numbers, all grid-connected before gridBy.
func Fleet(n, perStation int, gridBy time.Time) (sim.Fleet, error) {
	if perStation < 4 {
		return sim.Fleet{}, fmt.Errorf("fleet: at least 4 devices per station")
	}
	templates := templates(perStation)
	var f sim.Fleet
	for i := range n {
		c := demo.CloneStation(templates[i%len(templates)], fmt.Sprintf("b%03d-", i), fmt.Sprintf("B%03d", i))
		c.Name = fmt.Sprintf("Bench %03d — %s", i, c.Name)
		resize(&c, perStation)
		connect(&c, gridBy)
		f.Stations = append(f.Stations, c)
	}
	return f, f.Validate()
}

func templates(perStation int) []sim.Station {
	var out []sim.Station
	for _, s := range sim.DemoFleet().Stations {
		if count(s) >= min(perStation, 21) && len(s.Children) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// Templates names the demo stations the fleet's stations are cloned from, in turn.
func Templates(perStation int) []string {
	var out []string
	for _, s := range templates(perStation) {
		out = append(out, s.Name)
	}
	return out
}

func count(s sim.Station) int {
	n := 0
	for _, c := range s.Children {
		n += len(c.Devices)
	}
	return n
}

func inverters(s sim.Station) []int {
	var out []int
	for i, d := range s.Devices {
		if d.Type == sim.DeviceInverter {
			out = append(out, i)
		}
	}
	return out
}

// resize drops inverters from the sub-station with the most of them, or adds copies of
// an inverter to the one with the fewest, until the station has n devices, then sets
// the capacities from the inverters.
func resize(s *sim.Station, n int) {
	for count(*s) > n {
		best := -1
		for i := range s.Children {
			if k := len(inverters(s.Children[i])); k > 1 && (best < 0 || k > len(inverters(s.Children[best]))) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		sub := &s.Children[best]
		inv := inverters(*sub)
		last := inv[len(inv)-1]
		sub.Devices = append(sub.Devices[:last:last], sub.Devices[last+1:]...)
	}
	for extra := 0; count(*s) < n; extra++ {
		best := 0
		for i := range s.Children {
			if len(inverters(s.Children[i])) < len(inverters(s.Children[best])) {
				best = i
			}
		}
		sub := &s.Children[best]
		d := sub.Devices[inverters(*sub)[0]]
		d.Key = fmt.Sprintf("%s-x%02d", d.Key, extra)
		d.SN = fmt.Sprintf("%sX%02d", d.SN, extra)
		d.Name = fmt.Sprintf("%s (%d)", d.Name, extra+2)
		sub.Devices = append(sub.Devices, d)
	}
	s.CapacityKWp = 0
	for i := range s.Children {
		sub := &s.Children[i]
		kwp := 0.0
		for _, d := range sub.Devices {
			if d.Type == sim.DeviceInverter {
				kwp += d.ComponentCapacityKWp()
			}
		}
		sub.CapacityKWp = math.Round(kwp*1000) / 1000
		s.CapacityKWp += sub.CapacityKWp
	}
}

// connect moves build and grid-connection dates before t, so that the whole history
// has data.
func connect(s *sim.Station, t time.Time) {
	if s.GridDate.After(t) {
		s.BuildDate, s.GridDate = t.AddDate(0, -3, 0), t
	}
	for i := range s.Children {
		connect(&s.Children[i], t)
	}
}
