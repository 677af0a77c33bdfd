// Package pvmodel is Helio's PV model: sun position, clear-sky irradiance and its split
// into direct and diffuse parts, plane-of-array irradiance, module temperature, the
// array's DC power and its inverter, the climate of a site, and the expected yield of a
// planned array (docs/simulator.md gives the formulas).
//
// It is pure physics: no randomness, no weather of its own, no clock. The demo simulator
// (internal/sim) steps its fleet with these models under its generated weather, and the
// features that need the sun or an expected yield (alarms, plans, the planning tools)
// call them directly; an expected yield takes its weather from a Weather the caller
// gives (sim.YieldWeather draws the simulator's).
package pvmodel
