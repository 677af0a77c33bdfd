package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// cpuGroup is a Linux control group that holds its processes to a fixed share of the
// machine's CPU (a CFS bandwidth quota). The replicas part gives each replica the same
// share, so that one replica and two, PostgreSQL and the load generator fit on a small
// machine, and what two replicas serve is what their quotas allow, not what the other
// replica happens to leave them.
type cpuGroup struct {
	dir string
	v2  bool
}

const cfsPeriod = 100_000 // µs

// newCPUGroup creates the group name with a quota of cores (0.5: half of one core). It
// needs the cpu controller writable: cgroup v2's cpu.max or v1's cpu.cfs_quota_us.
func newCPUGroup(name string, cores float64) (*cpuGroup, error) {
	if cores <= 0 {
		return nil, fmt.Errorf("a CPU quota of %g cores", cores)
	}
	quota := strconv.Itoa(int(cores * cfsPeriod))
	if _, err := os.Stat("/sys/fs/cgroup/cgroup.controllers"); err == nil {
		ctl, _ := os.ReadFile("/sys/fs/cgroup/cgroup.subtree_control")
		if !strings.Contains(" "+string(ctl)+" ", " cpu ") && !strings.Contains(string(ctl), "cpu\n") {
			return nil, errors.New("cgroup v2 without the cpu controller in /sys/fs/cgroup/cgroup.subtree_control")
		}
		g := &cpuGroup{dir: filepath.Join("/sys/fs/cgroup", name), v2: true}
		if err := os.Mkdir(g.dir, 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(g.dir, "cpu.max"), []byte(quota+" "+strconv.Itoa(cfsPeriod)), 0o644); err != nil {
			g.remove()
			return nil, err
		}
		return g, nil
	}
	g := &cpuGroup{dir: filepath.Join("/sys/fs/cgroup/cpu", name)}
	if err := os.Mkdir(g.dir, 0o755); err != nil {
		return nil, err
	}
	for file, v := range map[string]string{"cpu.cfs_period_us": strconv.Itoa(cfsPeriod), "cpu.cfs_quota_us": quota} {
		if err := os.WriteFile(filepath.Join(g.dir, file), []byte(v), 0o644); err != nil {
			g.remove()
			return nil, err
		}
	}
	return g, nil
}

// add moves a process, with all its threads, into the group.
func (g *cpuGroup) add(pid int) error {
	return os.WriteFile(filepath.Join(g.dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644)
}

// throttled is how many periods the group was held back by its quota so far.
func (g *cpuGroup) throttled() int64 {
	b, _ := os.ReadFile(filepath.Join(g.dir, "cpu.stat"))
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "nr_throttled "); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}

// remove deletes the group once its processes have ended.
func (g *cpuGroup) remove() { _ = os.Remove(g.dir) }
