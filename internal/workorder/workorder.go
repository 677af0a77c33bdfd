// Package workorder holds work orders: what to fix on a station, who owns it, whether it
// is late. An order is opened by hand or from an alarm (one open order per fault), goes
// through the statuses of SPEC.md section 4 by the allowed transitions only (each one
// recorded with who, when and a comment), and carries comments and attachments.
package workorder

import (
	"math"
	"time"
)

// Statuses (SPEC.md section 4).
const (
	PendingAccept  = 1
	PendingProcess = 2
	Executing      = 3
	Finished       = 4
	Rejected       = 5
)

// Statuses lists the statuses in order.
var Statuses = []int{PendingAccept, PendingProcess, Executing, Finished, Rejected}

// Priorities: 1 low, 2 normal, 3 urgent, 4 very urgent.
var Priorities = []int{1, 2, 3, 4}

// Open reports whether an order in this status still needs work.
func Open(status int) bool { return status >= PendingAccept && status <= Executing }

// Actions move an order between statuses.
const (
	ActAccept = "accept" // pending accept → pending process (the processor takes it)
	ActReject = "reject" // pending accept or pending process → rejected (comment required)
	ActStart  = "start"  // pending process → executing (work begins: actual start)
	ActFinish = "finish" // executing → finished (comment required: what was done)
	ActClose  = "close"  // any open status → finished, once the order's alarm has recovered
)

// Actions lists the actions.
var Actions = []string{ActAccept, ActReject, ActStart, ActFinish, ActClose}

// Who may make a transition.
const (
	ByProcessor = 1 << iota // the assigned user, or a member of the assigned department
	BySubmitter             // the user who opened the order
	ByAdmin                 // an administrator of the organisation
)

// Transition is one allowed move.
type Transition struct {
	Action         string
	From           []int
	To             int
	Who            int
	NeedsComment   bool
	NeedsRecovered bool // the order's alarm must have recovered
}

// Transitions is the whole table: any move not in it is refused.
var Transitions = []Transition{
	{Action: ActAccept, From: []int{PendingAccept}, To: PendingProcess, Who: ByProcessor | ByAdmin},
	{Action: ActReject, From: []int{PendingAccept, PendingProcess}, To: Rejected, Who: ByProcessor | ByAdmin, NeedsComment: true},
	{Action: ActStart, From: []int{PendingProcess}, To: Executing, Who: ByProcessor | ByAdmin},
	{Action: ActFinish, From: []int{Executing}, To: Finished, Who: ByProcessor | ByAdmin, NeedsComment: true},
	{Action: ActClose, From: []int{PendingAccept, PendingProcess, Executing}, To: Finished,
		Who: ByProcessor | BySubmitter | ByAdmin, NeedsRecovered: true},
}

// Refusals of Check, as message keys.
const (
	ErrUnknownAction = "wo_unknown_action"
	ErrNotFrom       = "wo_not_from_status"
	ErrNotYours      = "wo_not_yours"
	ErrNeedsComment  = "wo_comment_required"
	ErrNotRecovered  = "wo_alarm_not_recovered"
)

// Actor is what Check needs to know about the caller and the order.
type Actor struct {
	Roles          int  // ByProcessor, BySubmitter, ByAdmin as they apply
	AlarmRecovered bool // the order has an alarm and it has recovered
}

// Check returns the transition an action makes from a status, or the key of why it is
// refused.
func Check(action string, status int, a Actor, comment string) (Transition, string) {
	for _, t := range Transitions {
		if t.Action != action {
			continue
		}
		from := false
		for _, s := range t.From {
			from = from || s == status
		}
		switch {
		case !from:
			return t, ErrNotFrom
		case t.Who&a.Roles == 0:
			return t, ErrNotYours
		case t.NeedsComment && comment == "":
			return t, ErrNeedsComment
		case t.NeedsRecovered && !a.AlarmRecovered:
			return t, ErrNotRecovered
		}
		return t, ""
	}
	return Transition{}, ErrUnknownAction
}

// Allowed lists the actions an actor may take on an order in a status (comments aside).
func Allowed(status int, a Actor) []string {
	out := []string{}
	for _, t := range Transitions {
		if _, why := Check(t.Action, status, a, "x"); why == "" {
			out = append(out, t.Action)
		}
	}
	return out
}

// Timing is an order's timeout and deviation figures at an instant.
type Timing struct {
	// Timeout is 1 when the order is (or was, when finished) past its planned end.
	Timeout int
	// OvertimeHours is how far past the planned end it is (or was finished), 0 if not.
	OvertimeHours float64
	PlannedHours  float64
	// ActualHours runs from the actual start to the actual end (to now while executing).
	ActualHours float64
	// DeviationPercent is (actual − planned) ÷ planned × 100 once work has begun, else 0.
	DeviationPercent float64
}

func hours(d time.Duration) float64 { return math.Round(d.Hours()*100) / 100 }

// Time computes the timing of an order at now. A rejected order is never late.
func Time(status int, plannedStart, plannedEnd time.Time, actualStart, actualEnd *time.Time, now time.Time) Timing {
	var t Timing
	t.PlannedHours = hours(plannedEnd.Sub(plannedStart))
	if actualStart != nil {
		end := now
		if actualEnd != nil {
			end = *actualEnd
		}
		t.ActualHours = hours(max(end.Sub(*actualStart), 0))
		if t.PlannedHours > 0 {
			t.DeviationPercent = math.Round((t.ActualHours-t.PlannedHours)/t.PlannedHours*1000) / 10
		}
	}
	if status == Rejected {
		return t
	}
	end := now
	if status == Finished && actualEnd != nil {
		end = *actualEnd
	}
	if end.After(plannedEnd) {
		t.Timeout = 1
		t.OvertimeHours = hours(end.Sub(plannedEnd))
	}
	return t
}

// ProcessStatus is the message-centre status of an order's status.
func ProcessStatus(status int) string {
	switch status {
	case PendingAccept:
		return "pending_accept"
	case PendingProcess:
		return "pending"
	case Executing:
		return "processing"
	case Finished:
		return "finished"
	case Rejected:
		return "rejected"
	}
	return ""
}
