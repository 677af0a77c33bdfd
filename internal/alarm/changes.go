package alarm

// ChangeKind says what a committed alarm change did.
type ChangeKind int8

// Alarm changes.
const (
	Opened    ChangeKind = iota + 1 // inserted occurring (status 1)
	Recovered                       // status 2
	Dealt                           // deal_status 1
)

// Change is one committed change of one alarm.
type Change struct {
	Kind        ChangeKind
	ID          int64
	StationID   int64
	StartAt     int64  // unix ms
	Description string // an opened alarm's, in English
}

// changed reports a committed change to OnChange.
func (e *Engine) changed(c Change) {
	if e.opt.OnChange != nil {
		e.opt.OnChange(c)
	}
}
