package importer

import (
	"errors"
	"io"
	"slices"
	"strings"
	"time"
)

// SMA Sunny Explorer's CSV export is wide and has a header of several rows:
//
//	sep=;
//	Version CSV1|Tool SE|Linebreaks CR/LF|Delimiter semicolon|Decimalpoint comma|Precision 3
//
//	;SN: 2130000001;SN: 2130000001;SN: 2130000002;SN: 2130000002
//	;SB 4000TL-21;SB 4000TL-21;SB 4000TL-21;SB 4000TL-21
//	;2130000001;2130000001;2130000002;2130000002
//	;Total yield;Power;Total yield;Power          (in the exporting user's language)
//	;Counter;Analog;Counter;Analog
//	dd.MM.yyyy HH:mm:ss;kWh;kW;kWh;kW              (the time's own format, then each unit)
//	28.06.2024 00:05:00;70860,938;0,000;70212,784;0,000
//
// sunnyRows reads it as a long table any mapping can name: a header
// "Time;Serial;Counter kWh;Analog kW", then one row per inverter and time, its time
// rewritten as "2006-01-02 15:04:05" from the format the file states. The names row is
// left out (it changes with the language); a channel is known by its kind and unit.
type sunnyRows struct {
	src     *csvRows
	layout  string   // the Go layout of the file's time column
	header  []string // the long table's header
	serials []string // each column's inverter ("" : none)
	label   []int    // each column's place in the long row (-1 : left out)
	order   []string // the inverters in the file's order
	queue   [][]string
	sent    bool
}

// SunnyExplorerSignature starts the second line of a Sunny Explorer export (the first
// after "sep=;").
const SunnyExplorerSignature = "Version CSV1|Tool SE"

// Long-table column names (the shipped templates name them).
const (
	SunnyTime   = "Time"
	SunnySerial = "Serial"
	sunnyLayout = "2006-01-02 15:04:05"
)

var errSunnyHeader = errors.New("importer: the Sunny Explorer header is not complete (serial numbers, Counter/Analog and units rows)")

func newSunnyRows(src *csvRows) (*sunnyRows, error) {
	var pre [][]string
	var units []string
	for len(pre) < 20 {
		r, err := src.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, errSunnyHeader
			}
			return nil, err
		}
		if len(r) > 0 && strings.TrimSpace(r[0]) != "" && !strings.HasPrefix(strings.TrimSpace(r[0]), SunnyExplorerSignature) {
			units = append([]string(nil), r...)
			break
		}
		pre = append(pre, append([]string(nil), r...))
	}
	var serials, kinds []string
	for _, r := range pre {
		switch {
		case cellsStartWith(r, "SN:"):
			serials = make([]string, len(r))
			for i, c := range r[1:] {
				serials[i+1] = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(c), "SN:"))
			}
		case cellsIn(r, "Counter", "Analog"):
			kinds = r
		}
	}
	if units == nil || serials == nil || kinds == nil {
		return nil, errSunnyHeader
	}
	s := &sunnyRows{src: src, layout: dotNetLayout(strings.TrimSpace(units[0])),
		header: []string{SunnyTime, SunnySerial}, serials: make([]string, len(units)), label: make([]int, len(units))}
	at := map[string]int{}
	seen := map[string]bool{}
	for i := range units {
		s.label[i] = -1
		if i == 0 || i >= len(serials) || i >= len(kinds) || serials[i] == "" {
			continue
		}
		name := strings.TrimSpace(kinds[i]) + " " + strings.TrimSpace(units[i])
		p, ok := at[name]
		if !ok {
			p = len(s.header)
			at[name] = p
			s.header = append(s.header, name)
		}
		if seen[serials[i]+"\x00"+name] {
			continue // a second channel of the same kind and unit: the first is read
		}
		seen[serials[i]+"\x00"+name] = true
		s.serials[i], s.label[i] = serials[i], p
		if !seen[serials[i]] {
			seen[serials[i]] = true
			s.order = append(s.order, serials[i])
		}
	}
	return s, nil
}

func (s *sunnyRows) Next() ([]string, error) {
	if !s.sent {
		s.sent = true
		return s.header, nil
	}
	for len(s.queue) == 0 {
		r, err := s.src.Next()
		if err != nil {
			return nil, err
		}
		s.spread(r)
	}
	out := s.queue[0]
	s.queue = s.queue[1:]
	return out, nil
}

// spread turns one wide row into a row per inverter that has a value in it.
func (s *sunnyRows) spread(r []string) {
	if len(r) == 0 {
		return
	}
	at := strings.TrimSpace(r[0])
	if t, err := time.Parse(s.layout, at); err == nil {
		at = t.Format(sunnyLayout)
	} // else kept as written: the row is then named as a bad time
	rows := map[string][]string{}
	for i, v := range r {
		if i >= len(s.label) || s.label[i] < 0 || strings.TrimSpace(v) == "" {
			continue
		}
		row, ok := rows[s.serials[i]]
		if !ok {
			row = make([]string, len(s.header))
			row[0], row[1] = at, s.serials[i]
			rows[s.serials[i]] = row
		}
		row[s.label[i]] = v
	}
	for _, serial := range s.order {
		if row, ok := rows[serial]; ok {
			s.queue = append(s.queue, row)
		}
	}
}

func (s *sunnyRows) Close() error { return s.src.Close() }

// allCells reports whether every non-empty cell after the first holds, and there is one.
func allCells(r []string, holds func(c string) bool) bool {
	n := 0
	for _, c := range r[min(1, len(r)):] {
		if c = strings.TrimSpace(c); c == "" {
			continue
		}
		if !holds(c) {
			return false
		}
		n++
	}
	return n > 0
}

func cellsStartWith(r []string, prefix string) bool {
	return allCells(r, func(c string) bool { return strings.HasPrefix(c, prefix) })
}

func cellsIn(r []string, words ...string) bool {
	return allCells(r, func(c string) bool {
		return slices.ContainsFunc(words, func(w string) bool { return strings.EqualFold(c, w) })
	})
}

// dotNetLayout turns a .NET date format ("dd.MM.yyyy HH:mm:ss", "MM/dd/yyyy hh:mm tt") into
// a Go layout.
func dotNetLayout(f string) string {
	tokens := []struct{ net, goes string }{
		{"yyyy", "2006"}, {"yy", "06"}, {"MM", "01"}, {"M", "1"}, {"dd", "02"}, {"d", "2"},
		{"HH", "15"}, {"H", "15"}, {"hh", "03"}, {"h", "3"}, {"mm", "04"}, {"ss", "05"}, {"tt", "PM"},
	}
	var b strings.Builder
	for i := 0; i < len(f); {
		matched := false
		for _, t := range tokens {
			if strings.HasPrefix(f[i:], t.net) {
				b.WriteString(t.goes)
				i += len(t.net)
				matched = true
				break
			}
		}
		if !matched {
			b.WriteByte(f[i])
			i++
		}
	}
	return b.String()
}
