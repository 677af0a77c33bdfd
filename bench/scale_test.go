package main

import (
	"reflect"
	"testing"
	"time"

	"github.com/helio-energy/helio/bench/internal/fleet"
)

func TestScaleSizes(t *testing.T) {
	for _, tc := range []struct {
		stations, days string
		want           []scaleSize
	}{
		{"1000", "7", []scaleSize{{1000, 7}}},
		{"1000,10000", "7", []scaleSize{{1000, 7}, {10000, 7}}},
		{"1000, 10000", "7,1", []scaleSize{{1000, 7}, {10000, 1}}},
	} {
		got, err := scaleSizes(tc.stations, tc.days)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("scaleSizes(%q, %q) = %v, %v; want %v", tc.stations, tc.days, got, err, tc.want)
		}
	}
	for _, bad := range [][2]string{{"1000,10000", "7,1,2"}, {"1000", "x"}, {"0", "7"}, {"1000", "0"}} {
		if got, err := scaleSizes(bad[0], bad[1]); err == nil {
			t.Errorf("scaleSizes(%q, %q) = %v; want an error", bad[0], bad[1], got)
		}
	}
}

func TestPGFleetURL(t *testing.T) {
	if got := pgFleetDB("fleet-10000x20-1d-pg"); got != "helio_bench_fleet_10000x20_1d_pg" {
		t.Errorf("pgFleetDB = %q", got)
	}
	got, err := pgURLFor("postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "helio_bench_x")
	if want := "postgres://postgres@127.0.0.1:5432/helio_bench_x?sslmode=disable"; err != nil || got != want {
		t.Errorf("pgURLFor = %q, %v; want %q", got, err, want)
	}
	if _, err := pgURLFor("mysql://x/y", "z"); err == nil {
		t.Error("pgURLFor took a non-PostgreSQL URL")
	}
}

func TestPartSpan(t *testing.T) {
	for _, tc := range []struct {
		devices int
		want    time.Duration
	}{
		{2_000, 3 * time.Hour},      // 100 stations: capped at 3 hours
		{20_020, 3 * time.Hour},     // 1,000 stations
		{200_020, 15 * time.Minute}, // 10,000 stations: the same samples per batch
		{10_000_000, fleet.Step},    // never less than one step
	} {
		if got := fleet.PartSpan(tc.devices); got != tc.want {
			t.Errorf("PartSpan(%d) = %s; want %s", tc.devices, got, tc.want)
		}
	}
}
