package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// The client process (many WebSockets, and when each message frame arrived), and the
// measures both processes take: CPU time, load average, resident memory, the file limit.

// raiseFileLimit lifts the soft open-file limit to the hard one: each client holds two
// descriptors in this process (its end and the server's).
func raiseFileLimit() uint64 {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0
	}
	if l.Cur < l.Max {
		l.Cur = l.Max
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l)
		_ = syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l)
	}
	return l.Cur
}

// clientMain holds one WebSocket per token line and reports, on stdout, READY with its
// CPU time once all are connected, F <alarmId> <unixNanos> for every message frame, and
// CPU <nanos> when stdin closes.
func clientMain() {
	raiseFileLimit()
	b, err := os.ReadFile(*clientTokens)
	if err != nil {
		log.Fatal(err)
	}
	tokens := strings.Fields(string(b))
	// Each connection keeps its arrivals in memory; while the alarms run, this process
	// only reports how many frames are in (N <count>, every 2 ms while it moves), so that
	// reporting costs the measured server process next to nothing. The arrivals follow
	// when stdin closes.
	var got atomic.Int64
	stopCount := make(chan struct{})
	countDone := make(chan struct{})
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	var wmu sync.Mutex
	go func() {
		defer close(countDone)
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		last := int64(-1)
		for {
			select {
			case <-stopCount:
				return
			case <-t.C:
			}
			if n := got.Load(); n != last {
				last = n
				wmu.Lock()
				fmt.Fprintf(w, "N %d\n", n)
				w.Flush()
				wmu.Unlock()
			}
		}
	}()
	sem := make(chan struct{}, *dialPar)
	var wg sync.WaitGroup
	prefix := []byte(`{"type":"message"`)
	key := []byte(`"alarmId":`)
	type arrival struct{ alarm, at int64 }
	arrivals := make([][]arrival, len(tokens))
	var readers sync.WaitGroup
	conns := make([]*rawConn, len(tokens))
	for i, tok := range tokens {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			c, err := rawDial(*clientURL+tok, 60*time.Second)
			if err != nil {
				log.Fatalf("dial %s: %v", strip(*clientURL), err)
			}
			conns[i] = c
			readers.Add(1)
			go func() {
				defer readers.Done()
				for {
					b, err := c.next()
					if err != nil {
						return
					}
					at := time.Now().UnixNano()
					if !bytes.HasPrefix(b, prefix) {
						continue
					}
					// the alarm id, without decoding the whole frame
					k := bytes.Index(b, key)
					if k < 0 {
						continue
					}
					var id int64
					for _, ch := range b[k+len(key):] {
						if ch < '0' || ch > '9' {
							break
						}
						id = id*10 + int64(ch-'0')
					}
					arrivals[i] = append(arrivals[i], arrival{id, at})
					got.Add(1)
				}
			}()
		}()
	}
	wg.Wait()
	wmu.Lock()
	fmt.Fprintf(w, "READY %d\n", cpuTime().Nanoseconds())
	w.Flush()
	wmu.Unlock()
	_, _ = io.Copy(io.Discard, os.Stdin)
	cpu := cpuTime()
	close(stopCount)
	<-countDone
	for _, c := range conns {
		c.Close()
	}
	readers.Wait()
	for _, list := range arrivals {
		for _, a := range list {
			fmt.Fprintf(w, "F %d %d\n", a.alarm, a.at)
		}
	}
	fmt.Fprintf(w, "N %d\n", got.Load())
	fmt.Fprintf(w, "CPU %d\n", cpu.Nanoseconds())
	w.Flush()
}

// cpuTime is the process's user plus system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadAvg is the 1-minute load average (0 where /proc is missing).
func loadAvg() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f, _ := strconv.ParseFloat(strings.Fields(string(b))[0], 64)
	return f
}

// rssMB reads the process's resident memory from /proc (0 elsewhere).
func rssMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			f := strings.Fields(line)
			if len(f) >= 2 {
				kb, _ := strconv.ParseFloat(f[1], 64)
				return kb / 1024
			}
		}
	}
	return 0
}
