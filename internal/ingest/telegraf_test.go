package ingest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/sunspec/sunspectest"
)

// telegrafBin is the Telegraf binary `make telegraf` builds (only its Modbus input and
// InfluxDB outputs). HELIO_TELEGRAF names it; `make test` always does, so there the test
// cannot be skipped.
func telegrafBin(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("HELIO_TELEGRAF"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("HELIO_TELEGRAF: %v", err)
		}
		return p
	}
	p, _ := filepath.Abs("../../bin/telegraf")
	if _, err := os.Stat(p); err != nil {
		t.Skip("no Telegraf: run make telegraf (make test does)")
	}
	return p
}

// A real collector no one here wrote: Telegraf reads a Modbus TCP device on loopback and
// writes line protocol to Helio through both of its InfluxDB outputs; the rules put the
// registers on the device, and a register without a rule is listed as unmapped.
func TestTelegrafModbusToHelio(t *testing.T) {
	bin := telegrafBin(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		g := newLineRig(t, db)
		f := g.f
		// the device: 30.5 kW as watts (uint32), 1,234,567 Wh (uint32, low word first),
		// status running, 41.5 °C as tenths (int16), a fan speed no rule maps
		im := sunspectest.NewImage()
		im.Set(0, 0, 30500)
		im.Set(2, 0xD687, 0x0012)
		im.Set(4, 1)
		im.Set(5, 415)
		im.Set(6, 1800)
		mb := sunspectest.Serve(t, map[uint8]*sunspectest.Unit{1: {Image: im}})
		rules, err := LoadLineRules(context.Background(), db, f.org)
		if err != nil {
			t.Fatal(err)
		}
		rules.Rules = append(rules.Rules, LineRule{Measurement: "inverter", DeviceTag: "sn", Field: "temp", Target: "tempC", Scale: 1})
		if err := SaveLineRules(context.Background(), db, f.org, rules); err != nil {
			t.Fatal(err)
		}

		for _, output := range []struct{ name, conf string }{
			{"v2", fmt.Sprintf(`[[outputs.influxdb_v2]]
  urls = ["%s"]
  token = "%s"
  organization = "plant"
  bucket = "helio"
  content_encoding = "gzip"`, g.srv.URL, f.collKey)},
			{"v1", fmt.Sprintf(`[[outputs.influxdb]]
  urls = ["%s"]
  database = "helio"
  skip_database_creation = true
  username = "telegraf"
  password = "%s"`, g.srv.URL, f.collKey)},
		} {
			t.Run(output.name, func(t *testing.T) {
				before := len(g.stored(t, f.inv1))
				conf := filepath.Join(t.TempDir(), "telegraf.conf")
				body := fmt.Sprintf(`[agent]
  omit_hostname = true
  flush_interval = "1s"
  precision = "1ms"

[[inputs.modbus]]
  name = "inverter-1"
  name_override = "inverter"
  slave_id = 1
  timeout = "2s"
  controller = "tcp://%s"
  holding_registers = [
    { name = "power",  byte_order = "ABCD", data_type = "UINT32", scale = 1.0, address = [0, 1] },
    { name = "energy", byte_order = "CDAB", data_type = "UINT32", scale = 1.0, address = [2, 3] },
    { name = "state",  byte_order = "AB",   data_type = "UINT16", scale = 1.0, address = [4] },
    { name = "temp",   byte_order = "AB",   data_type = "FIXED",  scale = 0.1, address = [5] },
    { name = "fan",    byte_order = "AB",   data_type = "UINT16", scale = 1.0, address = [6] },
  ]
  [inputs.modbus.tags]
    sn = "%s"

%s
`, mb.Addr, f.inv1SN, output.conf)
				if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				out, err := exec.CommandContext(ctx, bin, "--config", conf, "--once").CombinedOutput()
				if err != nil {
					t.Fatalf("telegraf: %v\n%s", err, out)
				}
				if strings.Contains(string(out), "E! ") {
					t.Fatalf("telegraf reported an error:\n%s", out)
				}
				got := g.stored(t, f.inv1)
				if len(got) != before+1 {
					t.Fatalf("stored %d samples, want %d\ntelegraf:\n%s", len(got), before+1, out)
				}
				s := got[len(got)-1]
				if s.PowerKW != 30.5 || s.EnergyKWh != 1234.567 || s.Status != 1 || s.TempC != 41.5 || time.Since(s.Time) > time.Minute {
					t.Fatalf("stored %+v", s)
				}
				unknown, err := ListUnknown(context.Background(), db, f.org)
				if err != nil {
					t.Fatal(err)
				}
				if len(unknown) != 1 || unknown[0].Field != "fan" || unknown[0].Reason != "no_rule" || !strings.Contains(unknown[0].Tags, "sn") {
					t.Fatalf("unmapped series %+v", unknown)
				}
			})
		}
	})
}
