package main

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/helio-energy/helio/internal/store"
)

// diskUse is what a store holds on disk.
type diskUse struct {
	rawBytes, rollupBytes, totalBytes int64
	rawSamples                        int64
	// the raw samples split: rows, and days sealed into blocks (with their power rows)
	rowBytes, blockBytes     int64
	rowSamples, blockSamples int64
}

// helioDisk reads, from SQLite's own page accounting (dbstat), the bytes of the raw-sample
// tables (rows, chunks, sealed blocks and their power rows) and of the roll-up tables (with their indexes) in the data directory dir, and the
// whole directory's size.
func helioDisk(ctx context.Context, dir string) (diskUse, error) {
	var u diskUse
	db, err := store.Open(ctx, dir, "")
	if err != nil {
		return u, err
	}
	defer db.Close()
	rows, err := db.Query(ctx, "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name")
	if err != nil {
		return u, fmt.Errorf("dbstat: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var size int64
		if err := rows.Scan(&name, &size); err != nil {
			return u, err
		}
		switch {
		case strings.HasPrefix(name, "telemetry_sample_blocks") || strings.Contains(name, "autoindex_telemetry_sample_blocks") ||
			strings.HasPrefix(name, "telemetry_sample_power") || strings.Contains(name, "autoindex_telemetry_sample_power"):
			u.blockBytes += size
		case strings.HasPrefix(name, "telemetry_samples") || strings.Contains(name, "autoindex_telemetry_samples") ||
			strings.HasPrefix(name, "telemetry_sample_chunks") || strings.Contains(name, "autoindex_telemetry_sample_chunks"):
			u.rowBytes += size
		case strings.Contains(name, "rollups") || strings.Contains(name, "month_days"):
			u.rollupBytes += size
		}
	}
	if err := rows.Err(); err != nil {
		return u, err
	}
	if err := db.QueryRow(ctx, "SELECT (SELECT COUNT(*) FROM telemetry_samples) + (SELECT COALESCE(SUM(n), 0) FROM telemetry_sample_chunks), (SELECT COALESCE(SUM(n), 0) FROM telemetry_sample_blocks)").Scan(&u.rowSamples, &u.blockSamples); err != nil {
		return u, err
	}
	u.rawBytes, u.rawSamples = u.rowBytes+u.blockBytes, u.rowSamples+u.blockSamples
	u.totalBytes, err = dirSize(dir)
	return u, err
}

// dirSize adds up the sizes of the regular files under dir.
func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
		return err
	})
	return n, err
}

// perPoint is bytes ÷ points, to one decimal.
func perPoint(bytes, points int64) string {
	if points <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f B", float64(bytes)/float64(points))
}

// diskSection compares what Helio and InfluxDB keep on disk for the same year of samples.
func (e *env) diskSection(h diskUse, influxBytes, samples int64, fields int, retention string, version string) {
	rawPoints := h.rawSamples * int64(fields)
	yearPoints := samples * int64(fields)
	r := e.rep
	verdict := "missed"
	if h.rawSamples > 0 && float64(h.rawBytes)/float64(rawPoints) < float64(influxBytes)/float64(yearPoints) {
		verdict = "met"
	}
	r.add(figure{area: "Disk", name: "Raw samples: bytes on disk per point", value: perPoint(h.rawBytes, rawPoints), goal: "below InfluxDB's",
		ref: fmt.Sprintf("InfluxDB %s: %s per point (TSM and WAL right after the load)", version, perPoint(influxBytes, yearPoints)), verdict: verdict})
	var b strings.Builder
	fmt.Fprintf(&b, "The same year of samples (%s samples of %d fields) as the section above, on disk once loaded. Helio keeps raw samples for "+
		"%s (the rest of the year lives in the roll-ups) and its figures come from SQLite's page accounting (`dbstat`: table and index pages); "+
		"InfluxDB keeps every sample, and its figure is the size of its data, WAL and meta directories right after the load (before its "+
		"background full compactions, so a little above what it settles at).\n\n", num(float64(samples)), fields, retention)
	fmt.Fprintf(&b, "| store | holds | bytes | per point |\n|---|---|---:|---:|\n")
	fmt.Fprintf(&b, "| Helio raw samples (`telemetry_samples`, `telemetry_sample_chunks`, `telemetry_sample_blocks` and `telemetry_sample_power`) | %s samples, %s points | %s | %s |\n", num(float64(h.rawSamples)), num(float64(rawPoints)),
		mib(float64(h.rawBytes)), perPoint(h.rawBytes, rawPoints))
	fmt.Fprintf(&b, "| … of which rows and chunks (the days not sealed yet) | %s samples | %s | %s |\n", num(float64(h.rowSamples)),
		mib(float64(h.rowBytes)), perPoint(h.rowBytes, h.rowSamples*int64(fields)))
	fmt.Fprintf(&b, "| … of which sealed blocks and their power rows (a device day each) | %s samples | %s | %s |\n", num(float64(h.blockSamples)),
		mib(float64(h.blockBytes)), perPoint(h.blockBytes, h.blockSamples*int64(fields)))
	fmt.Fprintf(&b, "| Helio roll-ups (hour, day, month, year; devices and stations) | the whole year | %s | %s of the year's points |\n",
		mib(float64(h.rollupBytes)), perPoint(h.rollupBytes, yearPoints))
	fmt.Fprintf(&b, "| Helio data directory | everything | %s | %s of the year's points |\n", mib(float64(h.totalBytes)), perPoint(h.totalBytes, yearPoints))
	fmt.Fprintf(&b, "| InfluxDB %s | every sample | %s | %s |\n", version, mib(float64(influxBytes)), perPoint(influxBytes, yearPoints))
	r.section("Disk", "Bytes on disk per point: Helio against InfluxDB", b.String())
}
