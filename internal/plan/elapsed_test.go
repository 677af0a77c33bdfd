package plan

import (
	"testing"
	"time"
)

func TestElapsed(t *testing.T) {
	berlin, _ := time.LoadLocation("Europe/Berlin")
	at := func(s string) time.Time {
		v, err := time.ParseInLocation("2006-01-02 15:04", s, berlin)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		year, month int
		now         string
		want        float64
	}{
		{2026, 1, "2026-11-27 12:00", 1},                    // a past month counts whole
		{2026, 12, "2026-11-27 12:00", 0},                   // a future month not at all
		{2025, 12, "2026-11-27 12:00", 1},                   // a past year whole
		{2026, 11, "2026-11-16 00:00", 15.0 / 30},           // half of November
		{2026, 3, "2026-03-29 12:00", (28*24 + 11) / 743.0}, // March has 743 hours in Berlin (spring forward)
		{2026, 11, "2026-11-01 00:00", 0},                   // the month's first instant
	} {
		if got := elapsed(c.year, c.month, at(c.now)); got < c.want-1e-9 || got > c.want+1e-9 {
			t.Errorf("elapsed(%d-%02d) at %s = %v, want %v", c.year, c.month, c.now, got, c.want)
		}
	}
}
