// Package madeup is the vendor stand-ins' made-up production: an inverter gives its peak
// power times a sine between 06:00 and 18:00 local time, a reading every five minutes, and
// its lifetime counter is what those readings add up to since its first day.
package madeup

import (
	"math"
	"time"
)

// Step is the reading interval.
const Step = 5 * time.Minute

// PowerW is the power at a local minute of the day, in W.
func PowerW(peakW float64, minute int) float64 {
	h := float64(minute) / 60
	if h <= 6 || h >= 18 {
		return 0
	}
	return math.Round(peakW * math.Sin(math.Pi*(h-6)/12))
}

// CounterWh is the energy produced from first (a local midnight) to the reading at lt
// (its zone the inverter's), that reading included.
func CounterWh(peakW float64, first, lt time.Time) float64 {
	mid := time.Date(lt.Year(), lt.Month(), lt.Day(), 0, 0, 0, 0, lt.Location())
	days := math.Round(mid.Sub(first).Hours() / 24)
	wh := days * dayWh(peakW)
	minute := lt.Hour()*60 + lt.Minute()
	for m := 0; m <= minute; m += 5 {
		wh += PowerW(peakW, m) * 5 / 60
	}
	return wh
}

func dayWh(peakW float64) float64 {
	wh := 0.0
	for m := 0; m < 24*60; m += 5 {
		wh += PowerW(peakW, m) * 5 / 60
	}
	return wh
}
