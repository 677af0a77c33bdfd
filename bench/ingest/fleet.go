package main

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"time"

	"github.com/helio-energy/helio/internal/ingest"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// The bench fleet and its samples, shared by every part.

// fleet creates an organisation with stations, devices and collector keys.
type fleet struct {
	org      int64
	devices  []int64
	sns      []string
	colls    []string // collector of each device
	keys     map[string]string
	stations int
}

func newFleet(ctx context.Context, db *store.DB, n int) *fleet {
	now := time.Now().UnixMilli()
	f := &fleet{keys: map[string]string{}}
	must := func(id int64, err error) int64 {
		if err != nil {
			log.Fatal(err)
		}
		return id
	}
	f.org = must(db.Insert(ctx, "INSERT INTO organizations (name, created_at) VALUES (?, ?)", "Bench", now))
	zones := []string{"Asia/Shanghai", "America/Los_Angeles", "Europe/Madrid", "Australia/Perth", "Africa/Johannesburg",
		"Europe/Berlin", "Asia/Tokyo", "Asia/Seoul", "Asia/Taipei"}
	var subs []int64
	for i, z := range zones {
		p := must(db.Insert(ctx, "INSERT INTO stations (org_id, name, timezone, capacity_kwp, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
			f.org, fmt.Sprintf("Plant %d", i), z, 3000, now, now))
		for j := 0; j < 3; j++ {
			subs = append(subs, must(db.Insert(ctx, "INSERT INTO stations (org_id, parent_id, name, timezone, capacity_kwp, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
				f.org, p, fmt.Sprintf("Plant %d-%d", i, j), z, 1000, now, now)))
		}
	}
	f.stations = len(subs) + len(zones)
	for i := 0; i < n; i++ {
		st := subs[i%len(subs)]
		typ, pos, rated := "inverter", "", 100.0
		switch i % 20 {
		case 7:
			typ, rated = "battery", 250
		case 13:
			typ, pos, rated = "meter", "grid", 0
		}
		sn := fmt.Sprintf("SN%05d", i)
		coll := fmt.Sprintf("COLL%02d", i%*httpClients)
		id := must(db.Insert(ctx, `INSERT INTO devices (org_id, station_id, name, sn, type, meter_position, rated_power_kw, component_capacity_kwp,
			collector_sn, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, f.org, st, sn, sn, typ, pos, rated, rated*1.2, coll, now, now))
		f.devices, f.sns, f.colls = append(f.devices, id), append(f.sns, sn), append(f.colls, coll)
	}
	for i := 0; i < *httpClients; i++ {
		coll := fmt.Sprintf("COLL%02d", i)
		k, err := ingest.SetCollectorKey(ctx, db, f.org, coll)
		if err != nil {
			log.Fatal(err)
		}
		f.keys[coll] = k
	}
	return f
}

func openDB(dir, name string) *store.DB {
	ctx := context.Background()
	db, err := store.Open(ctx, "", "sqlite://"+dir+"/"+name+".db")
	if err != nil {
		log.Fatal(err)
	}
	if _, err := db.Migrate(ctx); err != nil {
		log.Fatal(err)
	}
	return db
}

type wire struct {
	SN            string `json:"sn,omitempty"`
	Time          int64  `json:"time"`
	PowerKW       float64
	EnergyKWh     float64
	DCVoltageV    float64
	DCCurrentA    float64
	ACVoltageV    float64
	FrequencyHz   float64
	TempC         float64
	IrradianceWm2 float64
	Status        int
	StringsActive int
}

func encode(list []wire) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, w := range list {
		if i > 0 {
			b.WriteByte(',')
		}
		if w.SN != "" {
			fmt.Fprintf(&b, `{"sn":%q,`, w.SN)
		} else {
			b.WriteByte('{')
		}
		fmt.Fprintf(&b, `"time":%d,"powerKw":%g,"energyKwh":%g,"dcVoltageV":%g,"dcCurrentA":%g,"acVoltageV":%g,"frequencyHz":%g,"tempC":%g,"irradianceWm2":%g,"status":%d,"stringsActive":%d}`,
			w.Time, w.PowerKW, w.EnergyKWh, w.DCVoltageV, w.DCCurrentA, w.ACVoltageV, w.FrequencyHz, w.TempC, w.IrradianceWm2, w.Status, w.StringsActive)
	}
	b.WriteByte(']')
	return b.Bytes()
}

func toWire(sn string, s telemetry.Sample) wire {
	return wire{SN: sn, Time: s.Time.UnixMilli(), PowerKW: s.PowerKW, EnergyKWh: s.EnergyKWh, DCVoltageV: s.DCVoltageV,
		DCCurrentA: s.DCCurrentA, ACVoltageV: s.ACVoltageV, FrequencyHz: s.FrequencyHz, TempC: s.TempC,
		IrradianceWm2: s.IrradianceWm2, Status: s.Status, StringsActive: s.StringsActive}
}

func steps() (start time.Time, k int) {
	k = *nSamples / *nDevices
	return time.Now().Add(-time.Duration(k+1) * 5 * time.Minute).Truncate(5 * time.Minute), k
}
