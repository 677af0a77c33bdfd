package alarm

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Notification frequencies (SPEC.md section 9): how long an alarm must have been
// occurring before a user is told.
const (
	FrequencyLow    = "low"    // after 60 minutes of continuous alarm
	FrequencyMedium = "medium" // after 15 minutes
	FrequencyHigh   = "high"   // at once
)

// Frequencies lists the frequencies.
var Frequencies = []string{FrequencyLow, FrequencyMedium, FrequencyHigh}

// Delay is how long an alarm must have been occurring before a user with the given
// frequency is notified.
func Delay(frequency string) time.Duration {
	switch frequency {
	case FrequencyLow:
		return 60 * time.Minute
	case FrequencyMedium:
		return 15 * time.Minute
	}
	return 0
}

// Notification methods.
const (
	MethodInSite  = 1 // the message centre and the console's live connection
	MethodAppPush = 2 // Web Push to the browsers the user subscribed (internal/notify); an AppPusher, when set, gets them too
	MethodEmail   = 3 // an e-mail to the user's verified address (internal/notify), alone or in a digest
)

// The digest period of alarm e-mails: 0 sends each alarm at once, else one e-mail per
// period holds every alarm of it.
const (
	MinDigestMinutes = 5
	MaxDigestMinutes = 1440
)

// DailyLimitChoices are the limits the console offers; any number from 1 to
// MaxDailyLimit is accepted ("other").
var DailyLimitChoices = []int{2, 10, 20, 50}

// MaxDailyLimit bounds the daily limit.
const MaxDailyLimit = 10000

// Settings are a user's alarm notification settings.
type Settings struct {
	Levels     []int  `json:"levels" validate:"required" doc:"alarm levels to notify (0 signal change, 1 alarm, 2 fault); at least one"`
	Frequency  string `json:"frequency" validate:"required" doc:"low (after 60 min of continuous alarm), medium (after 15 min) or high (at once)"`
	DailyLimit int    `json:"dailyLimit" validate:"required" doc:"most in-site (method 1) alarm notifications per local day (2, 10, 20, 50 or another number, 1-10000)"`
	// PushLimit and EmailLimit are the daily limits of app push and e-mail: each method
	// counts its own day (limit.go).
	PushLimit  int    `json:"pushLimit" doc:"most app pushes (method 2) of alarms per local day, 1-10000 (absent when saved: dailyLimit)"`
	EmailLimit int    `json:"emailLimit" doc:"most alarms notified by e-mail (method 3) per local day, 1-10000; a digest counts each alarm in it (absent when saved: dailyLimit)"`
	Methods    []int  `json:"methods" validate:"required" doc:"1 in-site (message centre and live push), 2 app push, 3 e-mail (to the verified address); at least one"`
	Allowed    int    `json:"allowed" validate:"required" doc:"1 allow notifications, 0 disallow"`
	Timezone   string `json:"timezone" doc:"IANA zone whose days the daily limit counts (default UTC)"`
	// DigestMinutes: 0 sends each alarm e-mail at once, else one e-mail per that many minutes
	// holds every alarm of them.
	DigestMinutes int `json:"digestMinutes" doc:"alarm e-mails (method 3): 0 one per alarm, else one digest per 5-1440 minutes"`
}

// DefaultSettings apply to a user who has not saved any.
func DefaultSettings() Settings {
	return Settings{Levels: []int{LevelAlarm, LevelFault}, Frequency: FrequencyHigh, DailyLimit: 20, PushLimit: 20, EmailLimit: 20,
		Methods: []int{MethodInSite}, Allowed: 1, Timezone: "UTC"}
}

// Limit is the daily limit of a method (a method's limit not set is the in-site one).
func (s *Settings) Limit(method int) int {
	n := s.DailyLimit
	switch {
	case method == MethodAppPush && s.PushLimit > 0:
		n = s.PushLimit
	case method == MethodEmail && s.EmailLimit > 0:
		n = s.EmailLimit
	}
	return n
}

func (s *Settings) has(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ",")
}

func splitInts(s string) []int {
	out := []int{}
	for _, p := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(p)); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// LoadSettings returns a user's settings (the defaults when none are saved).
func LoadSettings(ctx context.Context, db *store.DB, userID int64) (Settings, error) {
	var levels, methods, freq, tz string
	var limit, pushLimit, emailLimit, allowed, digest int
	err := db.QueryRow(ctx, `SELECT levels, frequency, daily_limit, push_limit, email_limit, methods, allowed, timezone, digest_minutes
		FROM alarm_notify_settings WHERE user_id = ?`, userID).Scan(&levels, &freq, &limit, &pushLimit, &emailLimit, &methods, &allowed, &tz, &digest)
	if errors.Is(err, sql.ErrNoRows) {
		return DefaultSettings(), nil
	}
	if err != nil {
		return Settings{}, fmt.Errorf("alarm: unable to read notification settings: %w", err)
	}
	st := Settings{Levels: splitInts(levels), Frequency: freq, DailyLimit: limit, PushLimit: pushLimit, EmailLimit: emailLimit,
		Methods: splitInts(methods), Allowed: allowed, Timezone: tz, DigestMinutes: digest}
	st.PushLimit, st.EmailLimit = st.Limit(MethodAppPush), st.Limit(MethodEmail)
	return st, nil
}

// SaveSettings stores a user's (validated) settings.
func SaveSettings(ctx context.Context, db *store.DB, userID int64, s Settings, now time.Time) error {
	levels := append([]int(nil), s.Levels...)
	methods := append([]int(nil), s.Methods...)
	sort.Ints(levels)
	sort.Ints(methods)
	if s.PushLimit <= 0 {
		s.PushLimit = s.DailyLimit
	}
	if s.EmailLimit <= 0 {
		s.EmailLimit = s.DailyLimit
	}
	_, err := db.Exec(ctx, `INSERT INTO alarm_notify_settings (user_id, levels, frequency, daily_limit, push_limit, email_limit, methods,
		allowed, timezone, digest_minutes, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET levels = excluded.levels, frequency = excluded.frequency,
		daily_limit = excluded.daily_limit, push_limit = excluded.push_limit, email_limit = excluded.email_limit,
		methods = excluded.methods, allowed = excluded.allowed,
		timezone = excluded.timezone, digest_minutes = excluded.digest_minutes, updated_at = excluded.updated_at`,
		userID, joinInts(dedupeInts(levels)), s.Frequency, s.DailyLimit, s.PushLimit, s.EmailLimit, joinInts(dedupeInts(methods)),
		s.Allowed, s.Timezone, s.DigestMinutes, now.UnixMilli())
	if err != nil {
		return fmt.Errorf("alarm: unable to save notification settings: %w", err)
	}
	settingsGen.Add(1) // the engines' recipient lists read them again
	return nil
}

func dedupeInts(xs []int) []int {
	out := xs[:0:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}
