// Package listing holds what every filtered, paged list shares: the checks of its
// filters that tags cannot say (a time range, an order that needs a sort), building the
// SQL condition, counting and paging, and paging an already-judged slice. The filters
// themselves are the fields of the list's query struct, bound by httpapi (see
// httpapi.Bind); a struct's Check calls Span and SortOf.
package listing

import (
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
)

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

// Span reads a from-to pair of instants (see Instant; "to" is exclusive, a day "to" runs
// to its end), each optional ("" when absent); when both are given, to must follow from
// by at most maxDays days. Problems are added to v under the parameters' names.
func Span(v *httpapi.Validator, fromName, fromText, toName, toText string, maxDays int) (from, to time.Time) {
	var fromOK, toOK bool
	if fromText != "" {
		if from, fromOK = Instant(fromText, false); !fromOK {
			v.Add(fromName, "invalid_format")
		}
	}
	if toText != "" {
		if to, toOK = Instant(toText, true); !toOK {
			v.Add(toName, "invalid_format")
		}
	}
	if fromOK && toOK {
		switch {
		case !to.After(from):
			v.Add(toName, "range_reversed")
		case to.Sub(from) > time.Duration(maxDays)*24*time.Hour:
			v.Add(toName, "range_too_long_days", maxDays)
		}
	}
	return from, to
}
