package main

import (
	"context"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/helio-energy/helio/bench/internal/fleet"
	"github.com/helio-energy/helio/bench/internal/helio"
	"github.com/helio-energy/helio/bench/internal/influx"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/telemetry"
)

const (
	benchSeed    = 20260101
	rawRetention = 14 * 24 * time.Hour // helio serve's default --raw-retention
)

// buildFleet builds (or, with -keep and the same spec, reuses) a fleet directory.
func (e *env) buildFleet(ctx context.Context, name string, spec fleet.Spec) (string, *fleet.Info, error) {
	dir := filepath.Join(e.work, name)
	if info := fleet.Reuse(dir, spec); info != nil {
		log.Printf("   reusing %s (history to %s)", dir, info.To.Format(time.RFC3339))
		return dir, info, nil
	}
	os.RemoveAll(dir)
	log.Printf("   building %s: %d stations × %d devices × %d days through the write path", name, spec.Stations, spec.DevicesPerStation, spec.Days)
	info, err := fleet.Build(ctx, dir, spec, nil, func(s string) { log.Printf("   %s", s) })
	if err != nil {
		return "", nil, err
	}
	log.Printf("   %s samples in %.0f s (%s samples/s)", num(float64(info.Samples)), info.BackfillSeconds, num(float64(info.Samples)/info.BackfillSeconds))
	return dir, info, nil
}

// year asks Helio and InfluxDB the same question over the same year of samples: the daily
// PV energy of one station over twelve months.
func (e *env) year(ctx context.Context) error {
	c := e.cfg
	spec := fleet.Spec{Stations: c.yearStations, DevicesPerStation: c.perStation, Days: c.yearDays, Seed: benchSeed, RawRetention: rawRetention}
	dir, info, err := e.buildFleet(ctx, fmt.Sprintf("year-%dx%d-%dd", spec.Stations, spec.DevicesPerStation, spec.Days), spec)
	if err != nil {
		return err
	}

	// InfluxDB: the same samples (the simulator is deterministic), 12 fields, tagged by
	// station, serial number and kind.
	idir := filepath.Join(e.work, "influx-year")
	os.RemoveAll(idir)
	if err := os.MkdirAll(idir, 0o755); err != nil {
		return err
	}
	defer os.RemoveAll(idir)
	ix, err := influx.Start(ctx, idir)
	if err != nil {
		return err
	}
	defer ix.Stop()
	if _, err := ix.Query("", "CREATE DATABASE year"); err != nil {
		return err
	}
	log.Printf("   loading the same samples into InfluxDB %s", ix.Version)
	t0 := time.Now()
	bodies := make(chan []byte, 8)
	var wg sync.WaitGroup
	var writeErr error
	var once sync.Once
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range bodies {
				if err := ix.Write("year", b); err != nil {
					once.Do(func() { writeErr = err })
				}
			}
		}()
	}
	var loaded int64
	err = fleet.Replay(ctx, dir, info, func(batch []telemetry.Sample, tags map[int64]fleet.Tags) error {
		var buf []byte
		n := 0
		for i := range batch {
			t := tags[batch[i].DeviceID]
			buf = influx.AppendLine(buf, "samples", [][2]string{{"kind", t.Kind}, {"sn", t.SN}, {"station", t.Station}}, &batch[i], true)
			if n++; n == 5000 {
				bodies <- buf
				buf, n = nil, 0
			}
		}
		if n > 0 {
			bodies <- buf
		}
		loaded += int64(len(batch))
		return nil
	})
	close(bodies)
	wg.Wait()
	if err != nil {
		return err
	}
	if writeErr != nil {
		return writeErr
	}
	influxLoad := time.Since(t0)
	if loaded != info.Samples {
		return fmt.Errorf("replayed %d samples, Helio accepted %d", loaded, info.Samples)
	}

	// bytes on disk, both stores quiescent
	disk, err := helioDisk(ctx, dir)
	if err != nil {
		return err
	}
	influxBytes, err := dirSize(idir)
	if err != nil {
		return err
	}

	p, err := helio.Start(ctx, e.bin, dir)
	if err != nil {
		return err
	}
	defer p.Stop()
	if _, err := p.WaitReady(2*time.Minute, 50*time.Millisecond); err != nil {
		return err
	}
	cl, err := helio.Login(p.URL, "admin", demo.Password)
	if err != nil {
		return err
	}

	// The question: the twelve local months before the current one, by day.
	id, key, zone := info.StationIDs[0], info.StationKeys[0], info.Zones[0]
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return err
	}
	now := info.To.In(loc)
	first := time.Date(now.Year(), now.Month()-12, 1, 0, 0, 0, 0, loc)
	last := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, loc)
	if c.yearDays < 365 {
		first = time.Date(now.Year(), now.Month()-time.Month(max(1, c.yearDays/31)), 1, 0, 0, 0, 0, loc)
	}
	var months []string
	for m := first; m.Before(last); m = m.AddDate(0, 1, 0) {
		months = append(months, m.Format("2006-01"))
	}
	type series struct {
		Unit   string       `json:"unit"`
		Points [][2]float64 `json:"points"`
	}
	askHelio := func() (map[string]float64, error) {
		out := map[string]float64{}
		for _, m := range months {
			var s series
			if err := cl.Get(fmt.Sprintf("/v2/site/powerdatabymonth/%d?date=%s", id, m), &s); err != nil {
				return nil, err
			}
			for _, pt := range s.Points {
				out[time.UnixMilli(int64(pt[0])).In(loc).Format(time.DateOnly)] += pt[1]
			}
		}
		return out, nil
	}
	q := fmt.Sprintf(`SELECT sum("e") FROM (SELECT spread("energy_kwh") AS "e" FROM "samples" WHERE "station" = '%s' AND "kind" = 'inverter' `+
		`AND time >= %dms AND time < %dms GROUP BY time(1d), "sn" tz('%s')) GROUP BY time(1d) tz('%s')`,
		key, first.UnixMilli(), last.UnixMilli(), zone, zone)
	askInflux := func() (map[string]float64, error) {
		b, err := ix.Query("year", q)
		if err != nil {
			return nil, err
		}
		ss, err := influx.Parse(b)
		if err != nil {
			return nil, err
		}
		out := map[string]float64{}
		for _, s := range ss {
			for _, v := range s.Values {
				if len(v) < 2 || v[1] == nil {
					continue
				}
				out[time.UnixMilli(int64(influx.Float(v[0]))).In(loc).Format(time.DateOnly)] += influx.Float(v[1])
			}
		}
		return out, nil
	}
	timeIt := func(ask func() (map[string]float64, error)) ([]time.Duration, map[string]float64, error) {
		var ds []time.Duration
		var ans map[string]float64
		for i := 0; i < c.yearRuns+2; i++ {
			t := time.Now()
			a, err := ask()
			if err != nil {
				return nil, nil, err
			}
			if i >= 2 { // two unmeasured warm-up runs each
				ds = append(ds, time.Since(t))
			}
			ans = a
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		return ds, ans, nil
	}
	log.Printf("   asking both %d times: daily energy of %s, %s to %s", c.yearRuns, key, months[0], months[len(months)-1])
	hd, hAns, err := timeIt(askHelio)
	if err != nil {
		return err
	}
	id2, iAns, err := timeIt(askInflux)
	if err != nil {
		return err
	}
	med := func(d []time.Duration) time.Duration { return d[len(d)/2] }
	p95 := func(d []time.Duration) time.Duration { return d[int(math.Ceil(0.95*float64(len(d))))-1] }
	var hTot, iTot, worst float64
	days := 0
	for d, v := range hAns {
		hTot += v
		iTot += iAns[d]
		if v > 1 {
			worst = math.Max(worst, math.Abs(v-iAns[d])/v)
		}
		days++
	}

	r := e.rep
	r.scale = append(r.scale, fmt.Sprintf("A year of daily energy: %s × %d devices × %d days of 5-minute samples (%s samples, %s points with 12 fields) "+
		"loaded into both Helio and InfluxDB; the question is asked of one of the stations", plural(spec.Stations, "station"), spec.DevicesPerStation, spec.Days,
		num(float64(info.Samples)), num(float64(info.Samples*12))))
	r.add(figure{area: "Year", name: fmt.Sprintf("Daily energy of a station over %s (%s)", plural(len(months), "month"), plural(len(months), "call")),
		value: ms(med(hd)) + " median", ref: fmt.Sprintf("InfluxDB %s: %s median for one GROUP BY time(1d) query (%s)", ix.Version, ms(med(id2)),
			times(float64(med(hd))/float64(med(id2))))})
	r.add(figure{area: "Year", name: "Loading that history", value: num(float64(info.Samples)/info.BackfillSeconds) + " samples/s",
		ref: fmt.Sprintf("InfluxDB /write: %s samples/s (Helio %s)", num(float64(loaded)/influxLoad.Seconds()),
			times((float64(info.Samples)/info.BackfillSeconds)/(float64(loaded)/influxLoad.Seconds())))})

	var b strings.Builder
	fmt.Fprintf(&b, "The same question asked of both over the same samples: the daily PV energy of station `%s` (%s, %d devices) for each local day "+
		"from %s to %s. The history (%s samples: %d stations × %d devices × %d days at 5 minutes, from the demo simulator) was loaded into "+
		"Helio through `telemetry.Writer.Backfill` (%.0f s, with the day, month and year roll-ups) and into InfluxDB %s as line protocol over "+
		"`/write` (%.0f s, 5 000 lines per request from 4 clients). Each question was asked %d times after two warm-ups, one at a time.\n\n",
		key, zone, spec.DevicesPerStation, first.Format(time.DateOnly), last.AddDate(0, 0, -1).Format(time.DateOnly), num(float64(info.Samples)),
		spec.Stations, spec.DevicesPerStation, spec.Days, info.BackfillSeconds, ix.Version, influxLoad.Seconds(), c.yearRuns)
	fmt.Fprintf(&b, "| | how | median | p95 | total kWh |\n|---|---|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| Helio | %d × `GET /v2/site/powerdatabymonth/{id}?date=YYYY-MM` over HTTP (the station's month roll-ups by day) | %s | %s | %s |\n",
		len(months), ms(med(hd)), ms(p95(hd)), num(hTot))
	fmt.Fprintf(&b, "| InfluxDB %s | one InfluxQL query over HTTP: per inverter `spread(energy_kwh)` by local day, summed by day | %s | %s | %s |\n\n",
		ix.Version, ms(med(id2)), ms(p95(id2)), num(iTot))
	fmt.Fprintf(&b, "The InfluxDB query:\n\n```sql\n%s\n```\n\n", q)
	fmt.Fprintf(&b, "The answers agree: %d days, totals within %.2f%%, the largest difference on a day with more than 1 kWh %.2f%% "+
		"(Helio integrates each counter step over its interval, InfluxDB's spread misses the step across midnight).\n",
		days, 100*math.Abs(hTot-iTot)/math.Max(hTot, 1), 100*worst)
	r.section("Year", "A year of daily energy: Helio against InfluxDB", b.String())
	e.diskSection(disk, influxBytes, info.Samples, 12, fmt.Sprintf("%.0f days", rawRetention.Hours()/24), ix.Version)
	return nil
}
