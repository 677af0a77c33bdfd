// Package influx runs InfluxDB 1.x (Debian's influxd) for the benchmarks: on loopback,
// with its own configuration and directories under a temporary directory, fed line
// protocol over HTTP /write and asked InfluxQL over /query.
package influx

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/helio-energy/helio/bench/internal/helio"
	"github.com/helio-energy/helio/internal/telemetry"
)

// Server is a running influxd.
type Server struct {
	URL     string
	Version string
	cmd     *exec.Cmd
	done    chan struct{}
	client  *http.Client
}

// Find returns the influxd binary, or an error saying how to install it.
func Find() (string, error) {
	p, err := exec.LookPath("influxd")
	if err != nil {
		return "", fmt.Errorf("influxd not found: install Debian's influxdb (apt-get install influxdb)")
	}
	return p, nil
}

// Start runs influxd with a configuration and data under dir, listening on loopback.
func Start(ctx context.Context, dir string) (*Server, error) {
	bin, err := Find()
	if err != nil {
		return nil, err
	}
	httpAddr, err := helio.FreeAddr()
	if err != nil {
		return nil, err
	}
	rpcAddr, err := helio.FreeAddr()
	if err != nil {
		return nil, err
	}
	conf := fmt.Sprintf(`reporting-disabled = true
bind-address = %q

[meta]
  dir = %q
  logging-enabled = false

[data]
  dir = %q
  wal-dir = %q
  query-log-enabled = false

[monitor]
  store-enabled = false

[subscriber]
  enabled = false

[continuous_queries]
  enabled = false

[http]
  enabled = true
  bind-address = %q
  log-enabled = false
  pprof-enabled = false
  max-body-size = 0

[logging]
  level = "warn"
`, rpcAddr, filepath.Join(dir, "meta"), filepath.Join(dir, "data"), filepath.Join(dir, "wal"), httpAddr)
	path := filepath.Join(dir, "influxdb.conf")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, bin, "-config", path)
	logf, err := os.Create(filepath.Join(dir, "influxd.log"))
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	s := &Server{URL: "http://" + httpAddr, cmd: cmd, done: make(chan struct{}), client: &http.Client{Timeout: 10 * time.Minute}}
	go func() {
		_ = cmd.Wait()
		logf.Close()
		close(s.done)
	}()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := s.client.Get(s.URL + "/ping")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusNoContent {
				s.Version = resp.Header.Get("X-Influxdb-Version")
				return s, nil
			}
		}
		select {
		case <-s.done:
			b, _ := os.ReadFile(filepath.Join(dir, "influxd.log"))
			return nil, fmt.Errorf("influxd exited: %s", b)
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("influxd not answering at %s", s.URL)
		}
	}
}

// Stop ends influxd (SIGTERM, then SIGKILL after 10 s).
func (s *Server) Stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// Query runs InfluxQL and returns the raw JSON answer.
func (s *Server) Query(db, q string) ([]byte, error) {
	v := url.Values{"q": {q}, "epoch": {"ms"}}
	if db != "" {
		v.Set("db", db)
	}
	resp, err := s.client.Post(s.URL+"/query", "application/x-www-form-urlencoded", strings.NewReader(v.Encode()))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != 200 || bytes.Contains(b, []byte(`"error"`)) {
		return nil, fmt.Errorf("influx query %q: %d %s", q, resp.StatusCode, b)
	}
	return b, nil
}

// Write posts line protocol (millisecond precision) to db.
func (s *Server) Write(db string, lines []byte) error {
	resp, err := s.client.Post(s.URL+"/write?precision=ms&db="+url.QueryEscape(db), "text/plain", bytes.NewReader(lines))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("influx write: %d %s", resp.StatusCode, b)
	}
	return nil
}

// Series is one series of a query answer.
type Series struct {
	Name    string            `json:"name"`
	Tags    map[string]string `json:"tags"`
	Columns []string          `json:"columns"`
	Values  [][]any           `json:"values"`
}

// Parse reads the series of the first statement of a query answer.
func Parse(b []byte) ([]Series, error) {
	var out struct {
		Results []struct {
			Series []Series `json:"series"`
			Error  string   `json:"error"`
		} `json:"results"`
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&out); err != nil {
		return nil, err
	}
	if len(out.Results) == 0 {
		return nil, nil
	}
	if out.Results[0].Error != "" {
		return nil, fmt.Errorf("influx: %s", out.Results[0].Error)
	}
	return out.Results[0].Series, nil
}

// Float reads a JSON number of a query answer (0 for null).
func Float(v any) float64 {
	if n, ok := v.(json.Number); ok {
		f, _ := n.Float64()
		return f
	}
	return 0
}

// escapeTag escapes a tag key or value for line protocol.
func escapeTag(s string) string {
	return strings.NewReplacer(",", `\,`, "=", `\=`, " ", `\ `).Replace(s)
}

// AppendLine appends one sample as a line of measurement m with the given tags (in
// key order) and the sample's fields: the ten that bench/ingest sends (power, energy,
// DC voltage and current, AC voltage, frequency, temperature, irradiance, status,
// strings) and, with all, the second counter and the state of charge.
func AppendLine(b []byte, m string, tags [][2]string, s *telemetry.Sample, all bool) []byte {
	b = append(b, m...)
	for _, t := range tags {
		b = append(b, ',')
		b = append(b, escapeTag(t[0])...)
		b = append(b, '=')
		b = append(b, escapeTag(t[1])...)
	}
	f := func(sep byte, k string, v float64) {
		b = append(b, sep)
		b = append(b, k...)
		b = append(b, '=')
		b = strconv.AppendFloat(b, v, 'g', -1, 64)
	}
	f(' ', "power_kw", s.PowerKW)
	f(',', "energy_kwh", s.EnergyKWh)
	f(',', "dc_voltage_v", s.DCVoltageV)
	f(',', "dc_current_a", s.DCCurrentA)
	f(',', "ac_voltage_v", s.ACVoltageV)
	f(',', "frequency_hz", s.FrequencyHz)
	f(',', "temp_c", s.TempC)
	f(',', "irradiance_wm2", s.IrradianceWm2)
	b = append(b, ",status="...)
	b = strconv.AppendInt(b, int64(s.Status), 10)
	b = append(b, "i,strings_active="...)
	b = strconv.AppendInt(b, int64(s.StringsActive), 10)
	b = append(b, 'i')
	if all {
		f(',', "energy2_kwh", s.Energy2KWh)
		f(',', "soc", s.SOC)
	}
	b = append(b, ' ')
	b = strconv.AppendInt(b, s.Time.UnixMilli(), 10)
	return append(b, '\n')
}
