package escalate

import (
	"slices"
	"testing"
	"time"
)

func TestMinuteOf(t *testing.T) {
	for s, want := range map[string]int{"00:00": 0, "08:30": 510, "23:59": 1439, "24:00": 1440} {
		if got, ok := minuteOf(s); !ok || got != want {
			t.Fatalf("minuteOf(%q) = %d, %v; want %d", s, got, ok, want)
		}
	}
	for _, s := range []string{"", "8:30", "24:01", "12:60", "-1:00", "ab:cd", "12-30", "12:300"} {
		if _, ok := minuteOf(s); ok {
			t.Fatalf("minuteOf(%q) accepted", s)
		}
	}
	if clock(510) != "08:30" || clock(1440) != "24:00" {
		t.Fatalf("clock: %s %s", clock(510), clock(1440))
	}
}

// The slots follow the organisation's zone: Monday 08:00-18:00 in Shanghai is Monday
// 00:00-10:00 UTC; Sunday night's slot ends at midnight.
func TestOnCallAt(t *testing.T) {
	sh, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	slots := []slot{
		{weekday: 1, start: 8 * 60, end: 18 * 60, user: 10},
		{weekday: 1, start: 8 * 60, end: 18 * 60, user: 11},
		{weekday: 1, start: 18 * 60, end: 1440, user: 12},
		{weekday: 7, start: 0, end: 1440, user: 13},
		{weekday: 1, start: 12 * 60, end: 13 * 60, user: 10}, // overlaps: 10 once
	}
	for _, c := range []struct {
		utc  string
		want []int64
	}{
		{"2026-11-30T00:00:00Z", []int64{10, 11}}, // Monday 08:00 Shanghai
		{"2026-11-30T04:30:00Z", []int64{10, 11}}, // 12:30
		{"2026-11-29T23:59:00Z", nil},             // Monday 07:59 Shanghai: before the day slot
		{"2026-11-30T10:00:00Z", []int64{12}},     // Monday 18:00
		{"2026-11-30T15:59:00Z", []int64{12}},     // Monday 23:59
		{"2026-11-30T16:00:00Z", nil},             // Tuesday 00:00
		{"2026-11-29T10:00:00Z", []int64{13}},     // Sunday 18:00
	} {
		at, _ := time.Parse(time.RFC3339, c.utc)
		got := onCallAt(slots, sh, at)
		if !slices.Equal(got, c.want) {
			t.Fatalf("on call at %s (%s Shanghai): %v, want %v", c.utc, at.In(sh).Format("Mon 15:04"), got, c.want)
		}
	}
}
