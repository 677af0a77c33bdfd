// Command field measures the Modbus TCP poller: devices polled per second on two cores, and
// the CPU a thousand devices cost at a 60 s interval. The devices are real Modbus TCP
// servers (SunSpec maps built from ../shared/sunspec) in a child process, ten units behind
// each address as behind a gateway, so the poller's process is measured alone.
//
//	go run ./bench/field [-devices 1000] [-out docs/perf-field.md]
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/helio-energy/helio/internal/scada"
	"github.com/helio-energy/helio/internal/sunspec/sunspectest"
	"github.com/helio-energy/helio/internal/telemetry"
)

const perGateway = 10

func main() {
	serve := flag.Int("serve", 0, "child mode: serve this many devices and print their addresses")
	devices := flag.Int("devices", 1000, "devices to poll")
	out := flag.String("out", "", "write the figures as markdown to this file")
	flag.Parse()
	if *serve > 0 {
		if err := child(*serve); err != nil {
			log.Fatal(err)
		}
		return
	}
	runtime.GOMAXPROCS(2)
	load := "unknown"
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		load = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	addrs, stop, err := startChild(*devices)
	if err != nil {
		log.Fatal(err)
	}
	defer stop()

	// Throughput: every device polled back to back (1 ms interval) for 15 s.
	rate, rateCPU := measure(addrs, *devices, time.Millisecond, 3*time.Second, 15*time.Second)
	// Cost at a realistic pace: a 6 s interval for 30 s, scaled to 60 s.
	paced, pacedCPU := measure(addrs, *devices, 6*time.Second, 8*time.Second, 30*time.Second)
	per1000 := pacedCPU * (6.0 / 60.0) * 1000 / float64(*devices)

	report := fmt.Sprintf(`## Field devices (Modbus TCP poller)

Measured by `+"`go run ./bench/field`"+` on %s, %d CPUs, poller limited to GOMAXPROCS=2. %d devices
(a mix of SunSpec 103 + 160, 113, 203 and 802 maps, one or two reads per poll) behind %d
addresses with %d unit ids each, served over loopback by real Modbus TCP servers in a child
process on the same cores; samples handed to a counting sink (the write path's own cost is
in the ingest figures). Load average when the run started: %s (the machine is shared).

| figure | value |
|---|---|
| devices polled per second, back to back | %.0f |
| poller CPU while doing so | %.0f %% of one core |
| polls per second at a 6 s interval | %.0f |
| poller CPU per 1,000 devices at a 60 s interval | %.2f %% of one core |
`, time.Now().UTC().Format("2006-01-02"), runtime.NumCPU(), *devices, len(addrs), perGateway, load, rate, rateCPU*100, paced, per1000*100)
	fmt.Print(report)
	if *out != "" {
		if err := os.WriteFile(*out, []byte(report), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// measure polls n devices at an interval and returns polls per second and the CPU the
// process used per second (1.0 = one core), after a warm-up.
func measure(addrs []string, n int, interval, warm, window time.Duration) (float64, float64) {
	var polls atomic.Int64
	p := scada.NewPoller(scada.Options{Sink: func(_ context.Context, s []telemetry.Sample) { polls.Add(int64(len(s))) }})
	defer p.Close()
	kinds := []string{"inverter", "inverter", "meter", "battery"}
	targets := make([]scada.Target, n)
	for i := range targets {
		targets[i] = scada.Target{DeviceID: int64(i + 1), DeviceType: kinds[i%len(kinds)], Addr: addrs[i/perGateway],
			Unit: uint8(i%perGateway + 1), Interval: interval, Timeout: 2 * time.Second}
	}
	p.Apply(targets)
	time.Sleep(warm)
	start, cpu0, n0 := time.Now(), cpuTime(), polls.Load()
	time.Sleep(window)
	el := time.Since(start).Seconds()
	return float64(polls.Load()-n0) / el, (cpuTime() - cpu0).Seconds() / el
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func startChild(n int) ([]string, func(), error) {
	self, err := os.Executable()
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(self, "-serve", fmt.Sprint(n))
	cmd.Stderr = os.Stderr
	in, _ := cmd.StdinPipe()
	outp, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	line, err := bufio.NewReader(outp).ReadString('\n')
	if err != nil {
		return nil, nil, fmt.Errorf("child: %w", err)
	}
	var addrs []string
	if err := json.Unmarshal([]byte(line), &addrs); err != nil {
		return nil, nil, err
	}
	return addrs, func() { _ = in.Close(); _ = cmd.Wait() }, nil
}

// child serves n devices, ten unit ids per address, until its stdin closes.
func child(n int) error {
	dir, err := sunspectest.Find()
	if err != nil {
		return fmt.Errorf("SunSpec definitions not found (shared/sunspec beside the clone): %w", err)
	}
	images, err := deviceImages(dir)
	if err != nil {
		return err
	}
	var addrs []string
	for g := 0; g*perGateway < n; g++ {
		units := map[uint8]*sunspectest.Unit{}
		for u := 0; u < perGateway; u++ {
			units[uint8(u+1)] = &sunspectest.Unit{Image: images[(g*perGateway+u)%len(images)]}
		}
		var s *sunspectest.Server
		for range 5 {
			if s, err = sunspectest.Start(freeAddr(), units); err == nil {
				break
			}
		}
		if err != nil {
			return err
		}
		defer s.Stop()
		addrs = append(addrs, s.Addr)
	}
	b, _ := json.Marshal(addrs)
	fmt.Println(string(b))
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	return nil
}

func freeAddr() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "127.0.0.1:0"
	}
	defer l.Close()
	return l.Addr().String()
}

// deviceImages builds the four device kinds the units cycle through.
func deviceImages(dir string) ([]*sunspectest.Image, error) {
	defs := map[int]*sunspectest.Def{}
	for _, id := range []int{1, 103, 113, 160, 203, 802} {
		d, err := sunspectest.LoadFrom(dir, id)
		if err != nil {
			return nil, err
		}
		defs[id] = d
	}
	common := defs[1].Block(nil, nil, nil)
	copy(common[2:], sunspectest.String("Helio Bench", 16))
	inv := sunspectest.NewImage()
	inv.PutSunSpec(40000, common, defs[103].Block(map[string]float64{"W": 8000, "WH": 1e7, "DCV": 600, "DCA": 14, "PhVphA": 230, "Hz": 50, "TmpCab": 40, "St": 4},
		map[string]int{"W_SF": 0, "WH_SF": 0, "DCV_SF": 0, "DCA_SF": -1, "V_SF": 0, "Hz_SF": -2, "Tmp_SF": 0}, nil),
		defs[160].Block(nil, map[string]int{"DCA_SF": -1, "DCV_SF": 0, "DCW_SF": 0}, []map[string]float64{{"DCA": 7, "DCV": 600}, {"DCA": 7, "DCV": 598}}))
	flt := sunspectest.NewImage()
	flt.PutSunSpec(40000, common, defs[113].Block(map[string]float64{"W": 5000, "WH": 2e6, "PhVphA": 231, "Hz": 50, "St": 4}, nil, nil))
	met := sunspectest.NewImage()
	met.PutSunSpec(40000, common, defs[203].Block(map[string]float64{"W": -3000, "TotWhImp": 1e6, "TotWhExp": 2e6, "PhV": 230, "Hz": 50},
		map[string]int{"W_SF": 0, "TotWh_SF": 0, "V_SF": 0, "Hz_SF": -2}, nil))
	bat := sunspectest.NewImage()
	bat.PutSunSpec(40000, common, defs[802].Block(map[string]float64{"SoC": 55, "W": 2000, "V": 51, "A": 40, "State": 3},
		map[string]int{"SoC_SF": 0, "W_SF": 0, "V_SF": 0, "A_SF": 0}, nil))
	return []*sunspectest.Image{inv, flt, met, bat}, nil
}
