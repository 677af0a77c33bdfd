package monitor

// PartsStats reports how often kept parts were computed again: in full, in part, and
// the parts computed in all (parts.go).
func PartsStats() (full, some, filled int) {
	partsStats.Lock()
	defer partsStats.Unlock()
	return partsStats.full, partsStats.some, partsStats.filled
}

// ZoneSumsKept counts the zone sums answered as kept.
func ZoneSumsKept() int {
	partsStats.Lock()
	defer partsStats.Unlock()
	return partsStats.zoneKept
}

// PartsComputed is the parts computed again for why (helio_figures_parts_computed_total).
func PartsComputed(why string) float64 { return partsComputed.Value(why) }
