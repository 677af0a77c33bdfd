package escalate

import (
	"fmt"
	"time"
)

// minuteOf reads "HH:MM" as minutes after midnight (0-1440: "24:00" ends a day).
func minuteOf(s string) (int, bool) {
	var h, m int
	if len(s) != 5 || s[2] != ':' {
		return 0, false
	}
	if _, err := fmt.Sscanf(s, "%02d:%02d", &h, &m); err != nil || h < 0 || h > 24 || m < 0 || m > 59 || h == 24 && m != 0 {
		return 0, false
	}
	return h*60 + m, true
}

// clock writes minutes after midnight as "HH:MM".
func clock(min int) string { return fmt.Sprintf("%02d:%02d", min/60, min%60) }

// weekday is t's ISO weekday (1 Monday … 7 Sunday).
func weekday(t time.Time) int {
	d := int(t.Weekday())
	if d == 0 {
		return 7
	}
	return d
}

// slot is a stored slot.
type slot struct {
	weekday, start, end int // end exclusive
	user                int64
}

// onCallAt returns the users whose slot holds instant t in the zone loc, in slot order
// without repeats. A slot holds [start, end) of its weekday's local clock.
func onCallAt(slots []slot, loc *time.Location, t time.Time) []int64 {
	local := t.In(loc)
	day, min := weekday(local), local.Hour()*60+local.Minute()
	var out []int64
	seen := map[int64]bool{}
	for _, s := range slots {
		if s.weekday == day && s.start <= min && min < s.end && !seen[s.user] {
			seen[s.user] = true
			out = append(out, s.user)
		}
	}
	return out
}

// zone loads an organisation's zone (UTC when unset or unknown).
func zone(name string) *time.Location {
	if name == "" {
		return time.UTC
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return time.UTC
	}
	return loc
}
