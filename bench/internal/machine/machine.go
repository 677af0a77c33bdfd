// Package machine describes the machine a benchmark runs on.
package machine

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

// Facts are what a reader needs to weigh the figures.
type Facts struct {
	Cores    int
	MemoryGB float64
	CPU      string
	Go       string
	OS       string
	Kernel   string
}

// Describe reads the facts from the runtime and /proc.
func Describe() Facts {
	f := Facts{Cores: runtime.NumCPU(), Go: runtime.Version(), OS: runtime.GOOS + "/" + runtime.GOARCH}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if fs := strings.Fields(line); len(fs) >= 2 && fs[0] == "MemTotal:" {
				kb, _ := strconv.ParseFloat(fs[1], 64)
				f.MemoryGB = kb / 1024 / 1024
			}
		}
	}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				f.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/etc/os-release"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "PRETTY_NAME="); ok {
				f.OS = strings.Trim(v, `"`) + " (" + f.OS + ")"
			}
		}
	}
	var u syscall.Utsname
	if syscall.Uname(&u) == nil {
		var b strings.Builder
		for _, c := range u.Release {
			if c == 0 {
				break
			}
			b.WriteByte(byte(c))
		}
		f.Kernel = b.String()
	}
	return f
}

// LoadAverage is the 1-minute load average (from /proc/loadavg).
func LoadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	v, _ := strconv.ParseFloat(strings.Fields(string(b))[0], 64)
	return v
}

// BusyCPU is the machine's busy CPU seconds so far (all cores, from /proc/stat), to
// tell how much else ran beside a benchmark.
func BusyCPU() float64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	fs := strings.Fields(line)
	total := 0.0
	for i, v := range fs[1:] {
		if i == 3 || i == 4 { // idle, iowait
			continue
		}
		x, _ := strconv.ParseFloat(v, 64)
		total += x
	}
	return total / 100
}
