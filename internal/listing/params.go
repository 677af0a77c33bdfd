// Package listing holds what every filtered, paged list shares: reading its filters from
// the query (each problem named, nothing read half), building the SQL condition, counting
// and paging, and paging an already-judged slice.
package listing

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
)

// Params reads a list's query parameters and collects every problem in one validator.
type Params struct {
	Q    url.Values
	V    httpapi.Validator
	Page int
	Size int
}

// Read starts reading r's query; page and pageSize are read at once (1, 10 by default).
func Read(r *http.Request) *Params {
	p := &Params{Q: r.URL.Query()}
	page, size, err := httpapi.PageParams(r)
	p.Page, p.Size = page, size
	if err != nil {
		for k, m := range httpapi.AsError(err).Fields {
			p.V.Add(k, m.Key, m.Args...)
		}
	}
	return p
}

// Str is a trimmed parameter ("" when absent).
func (p *Params) Str(name string) string {
	return strings.TrimSpace(p.Q.Get(name))
}

// Text is a trimmed free-text parameter of at most max characters.
func (p *Params) Text(name string, max int) string {
	s := p.Str(name)
	p.V.MaxLen(name, s, max)
	return s
}

// Enum is a parameter that must be one of allowed ("" when absent).
func (p *Params) Enum(name string, allowed ...string) string {
	s := p.Str(name)
	if s != "" {
		p.V.OneOf(name, s, allowed...)
	}
	return s
}

// ID is a positive id (0 when absent).
func (p *Params) ID(name string) int64 {
	s := p.Str(name)
	if s == "" {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		p.V.Add(name, "invalid_format")
		return 0
	}
	return n
}

// IDs is a comma-separated list of positive ids (nil when absent), at most max of them.
func (p *Params) IDs(name string, max int) []int64 {
	s := p.Str(name)
	if s == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > max {
		p.V.Add(name, "too_many", max)
		return nil
	}
	out := make([]int64, 0, len(parts))
	for _, part := range parts {
		id, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
		if err != nil || id <= 0 {
			p.V.Add(name, "invalid_format")
			return nil
		}
		out = append(out, id)
	}
	return out
}

// OneOf is an integer that must be one of allowed (def when absent).
func (p *Params) OneOf(name string, def int, allowed ...int) int {
	s := p.Str(name)
	if s == "" {
		return def
	}
	if n, err := strconv.Atoi(s); err == nil {
		for _, a := range allowed {
			if n == a {
				return n
			}
		}
	}
	parts := make([]string, len(allowed))
	for i, a := range allowed {
		parts[i] = strconv.Itoa(a)
	}
	p.V.Add(name, "one_of", strings.Join(parts, ", "))
	return def
}

// Int is an integer in [lo, hi] (def when absent).
func (p *Params) Int(name string, lo, hi, def int64) int64 {
	s := p.Str(name)
	if s == "" {
		return def
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < lo || n > hi {
		p.V.Add(name, "out_of_range", lo, hi)
		return def
	}
	return n
}

// Instant reads RFC 3339 or yyyy-MM-dd (UTC midnight; endOfDay moves it to the next
// midnight).
func Instant(s string, endOfDay bool) (time.Time, bool) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, true
	}
	if d, err := time.Parse("2006-01-02", s); err == nil {
		if endOfDay {
			d = d.AddDate(0, 0, 1)
		}
		return d, true
	}
	return time.Time{}, false
}

// Range reads a from-to pair of instants (see Instant; "to" is exclusive, a day "to" runs
// to its end), each optional; when both are given, to must follow from by at most
// maxDays days.
func (p *Params) Range(fromName, toName string, maxDays int) (from, to time.Time) {
	var fromOK, toOK bool
	if s := p.Str(fromName); s != "" {
		if from, fromOK = Instant(s, false); !fromOK {
			p.V.Add(fromName, "invalid_format")
		}
	}
	if s := p.Str(toName); s != "" {
		if to, toOK = Instant(s, true); !toOK {
			p.V.Add(toName, "invalid_format")
		}
	}
	if fromOK && toOK {
		switch {
		case !to.After(from):
			p.V.Add(toName, "range_reversed")
		case to.Sub(from) > time.Duration(maxDays)*24*time.Hour:
			p.V.Add(toName, "range_too_long_days", maxDays)
		}
	}
	return from, to
}

// Err returns the collected problems as a 400, or nil.
func (p *Params) Err() error { return p.V.Err() }
