// Package sim is Helio's demo-fleet simulator: a seeded, deterministic model of what
// real PV plants, batteries and meters report, used to back-fill history and to feed the
// console live in demo mode (docs/simulator.md describes the models). The physics (sun,
// irradiance, array, inverter, climate, expected yield) is internal/pvmodel's; the
// simulator adds the generated weather, the devices, loads, storage, meters, counters and
// faults, and YieldWeather, its weather for pvmodel.EstimateYield.
//
// Usage:
//
//	s, err := sim.New(sim.DemoFleet(), seed)
//	s.SetDeviceIDs(ids) // optional: device key → database id
//	for t := from; t.Before(to); t = t.Add(5 * time.Minute) {
//		s.Step(t, func(key string, smp telemetry.Sample) { /* write */ })
//	}
//
// Each top-level station has its own StationStepper with independent state, so a
// back-fill can step stations on several goroutines and get exactly the same samples.
// The simulator never reads the wall clock: instants come from the caller, which makes
// a faster-than-real-time or test clock trivial.
//
// Randomness is a pure function of (seed, station or device key, instant): weather,
// noise and the fault schedule do not depend on where stepping started. Only energy
// counters and states of charge carry state from step to step; Restore resumes them
// from stored samples after a restart.
package sim
