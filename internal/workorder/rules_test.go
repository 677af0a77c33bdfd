package workorder

import (
	"fmt"
	"testing"
	"time"
)

// allowed lists, by hand, every (action, from status, who) the rules accept; every other
// combination must be refused.
var allowed = map[string]bool{
	"accept 1 processor": true, "accept 1 admin": true,
	"reject 1 processor": true, "reject 1 admin": true, "reject 2 processor": true, "reject 2 admin": true,
	"start 2 processor": true, "start 2 admin": true,
	"finish 3 processor": true, "finish 3 admin": true,
	"close 1 processor": true, "close 1 submitter": true, "close 1 admin": true,
	"close 2 processor": true, "close 2 submitter": true, "close 2 admin": true,
	"close 3 processor": true, "close 3 submitter": true, "close 3 admin": true,
}

func TestEveryTransitionAndWhoMayMakeIt(t *testing.T) {
	who := map[string]int{"nobody": 0, "processor": ByProcessor, "submitter": BySubmitter, "admin": ByAdmin}
	for _, action := range Actions {
		for _, status := range Statuses {
			for name, roles := range who {
				key := fmt.Sprintf("%s %d %s", action, status, name)
				tr, why := Check(action, status, Actor{Roles: roles, AlarmRecovered: true}, "because")
				if got := why == ""; got != allowed[key] {
					t.Errorf("%s: allowed %v (%s), want %v", key, got, why, allowed[key])
				}
				if why == "" && tr.To != map[string]int{"accept": 2, "reject": 5, "start": 3, "finish": 4, "close": 4}[action] {
					t.Errorf("%s leads to %d", key, tr.To)
				}
			}
		}
	}
	// The reasons of refusals.
	cases := []struct {
		action  string
		status  int
		actor   Actor
		comment string
		want    string
	}{
		{"accept", Executing, Actor{Roles: ByAdmin}, "", ErrNotFrom},
		{"accept", PendingAccept, Actor{Roles: BySubmitter}, "", ErrNotYours},
		{"reject", PendingAccept, Actor{Roles: ByProcessor}, "", ErrNeedsComment},
		{"finish", Executing, Actor{Roles: ByProcessor}, "", ErrNeedsComment},
		{"close", Executing, Actor{Roles: BySubmitter}, "", ErrNotRecovered},
		{"close", Finished, Actor{Roles: ByAdmin, AlarmRecovered: true}, "", ErrNotFrom},
		{"reopen", Rejected, Actor{Roles: ByAdmin}, "x", ErrUnknownAction},
		{"accept", PendingAccept, Actor{Roles: ByProcessor}, "", ""},
	}
	for _, c := range cases {
		if _, why := Check(c.action, c.status, c.actor, c.comment); why != c.want {
			t.Errorf("%s from %d: %q, want %q", c.action, c.status, why, c.want)
		}
	}
	if got := Allowed(PendingAccept, Actor{Roles: ByProcessor}); fmt.Sprint(got) != "[accept reject]" {
		t.Errorf("allowed for the processor of a new order: %v", got)
	}
}

func TestTimeoutAndDeviation(t *testing.T) {
	start := time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC)
	end := start.Add(8 * time.Hour)
	at := func(h float64) time.Time { return start.Add(time.Duration(h * float64(time.Hour))) }
	ptr := func(t time.Time) *time.Time { return &t }

	// Waiting, before the planned end: on time; after it the overtime grows with the clock.
	if tm := Time(PendingAccept, start, end, nil, nil, at(7)); tm.Timeout != 0 || tm.OvertimeHours != 0 || tm.PlannedHours != 8 {
		t.Fatalf("before the end: %+v", tm)
	}
	if tm := Time(PendingProcess, start, end, nil, nil, at(9.5)); tm.Timeout != 1 || tm.OvertimeHours != 1.5 {
		t.Fatalf("1.5 h late: %+v", tm)
	}
	if tm := Time(PendingProcess, start, end, nil, nil, at(12)); tm.OvertimeHours != 4 {
		t.Fatalf("4 h late: %+v", tm)
	}
	// Executing: actual hours run to now.
	if tm := Time(Executing, start, end, ptr(at(1)), nil, at(5)); tm.ActualHours != 4 || tm.DeviationPercent != -50 || tm.Timeout != 0 {
		t.Fatalf("executing: %+v", tm)
	}
	// Finished late: 10 h of work against 8 planned, 3 h past the end, and it stays so.
	tm := Time(Finished, start, end, ptr(at(1)), ptr(at(11)), at(100))
	if tm.ActualHours != 10 || tm.DeviationPercent != 25 || tm.Timeout != 1 || tm.OvertimeHours != 3 {
		t.Fatalf("finished late: %+v", tm)
	}
	// Finished in time stays on time, however late it is read.
	if tm := Time(Finished, start, end, ptr(at(0)), ptr(at(6)), at(100)); tm.Timeout != 0 || tm.DeviationPercent != -25 {
		t.Fatalf("finished in time: %+v", tm)
	}
	// A rejected order is never late.
	if tm := Time(Rejected, start, end, nil, nil, at(100)); tm.Timeout != 0 || tm.OvertimeHours != 0 {
		t.Fatalf("rejected: %+v", tm)
	}
}
