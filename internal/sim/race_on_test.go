//go:build race

package sim

// The race detector slows the simulator down about fifteen-fold.
const raceEnabled = true
