// Package escalate brings an alarm nobody deals with to the next person: an organisation's
// rules (which alarm levels and stations) name steps, each "after N minutes unprocessed,
// notify the on-call rota, a user or a department", and a pass run every half minute on one
// replica takes the steps that fell due, once per alarm, rule and step, until someone deals
// with the alarm (or, when the rule says so, it recovers). The on-call rota is the
// organisation's weekly slots in its own time zone. docs/notifications.md, "Escalation".
package escalate

import (
	"errors"
	"time"
)

// The targets of a step.
const (
	TargetOnCall     = "oncall"     // whoever holds an on-call slot at the moment the step is taken
	TargetUser       = "user"       // one user
	TargetDepartment = "department" // every active user of a department
)

// Targets are the targets a step may name.
var Targets = []string{TargetOnCall, TargetUser, TargetDepartment}

// Bounds of the rules and the rota.
const (
	MaxRules     = 50   // per organisation
	MaxSteps     = 10   // per rule
	MaxAfter     = 1440 // minutes: a step falls due at most a day after the alarm began
	MaxSlots     = 500  // per organisation's rota
	MaxNameChars = 100
	// Window is how late a step may still be taken: a step due longer ago than this (the
	// server was down, the rule is new) is not taken, so old alarms do not flood anyone.
	Window = 24 * time.Hour
)

// ErrNameTaken: another rule of the organisation has the name.
var ErrNameTaken = errors.New("escalate: the name is taken")

// ErrTooMany: the organisation has MaxRules rules.
var ErrTooMany = errors.New("escalate: too many rules")

// EscalationStep is one step of a rule.
type EscalationStep struct {
	AfterMinutes int    `json:"afterMinutes" doc:"minutes after the alarm began, 1-1440, increasing from step to step"`
	Target       string `json:"target" doc:"oncall (whoever is on call then), user or department"`
	TargetID     int64  `json:"targetId" doc:"the user or department (0 for oncall)"`
	TargetName   string `json:"targetName,omitempty" doc:"the user's or department's name (answers only)"`
}

// EscalationRule is an organisation's escalation rule.
type EscalationRule struct {
	ID             int64            `json:"id"`
	Name           string           `json:"name"`
	Levels         []int            `json:"levels" doc:"alarm levels it escalates (0 signal change, 1 alarm, 2 fault)"`
	StationIDs     []int64          `json:"stationIds" doc:"the stations whose alarms it escalates (empty: every station)"`
	StopOnRecovery bool             `json:"stopOnRecovery" doc:"no further step once the alarm recovered"`
	Enabled        bool             `json:"enabled"`
	Steps          []EscalationStep `json:"steps"`
	CreatedAt      int64            `json:"createdAt"`
	UpdatedAt      int64            `json:"updatedAt"`
}

// EscalationRuleInput adds or changes a rule.
type EscalationRuleInput struct {
	Name           string           `json:"name" validate:"required"`
	Levels         []int            `json:"levels" validate:"required"`
	StationIDs     []int64          `json:"stationIds"`
	StopOnRecovery bool             `json:"stopOnRecovery"`
	Enabled        bool             `json:"enabled"`
	Steps          []EscalationStep `json:"steps" validate:"required"`
}

// OnCallSlot is one weekly on-call slot, in the organisation's time zone.
type OnCallSlot struct {
	Weekday  int    `json:"weekday" doc:"1 Monday … 7 Sunday"`
	Start    string `json:"start" doc:"HH:MM, 00:00-23:59"`
	End      string `json:"end" doc:"HH:MM after start, up to 24:00"`
	UserID   int64  `json:"userId"`
	UserName string `json:"userName,omitempty" doc:"answers only"`
}

// OnCallRota is the organisation's on-call rota.
type OnCallRota struct {
	TimeZone string       `json:"timeZone" doc:"the organisation's zone, whose weeks the slots follow"`
	Slots    []OnCallSlot `json:"slots"`
	OnCall   []NamedRef   `json:"onCall" doc:"who is on call now"`
	// The choices of the rota and the rules' steps.
	Users       []NamedRef `json:"users" doc:"the organisation's active users"`
	Departments []NamedRef `json:"departments" doc:"the organisation's departments"`
}

// OnCallRotaInput replaces the rota's slots.
type OnCallRotaInput struct {
	Slots []OnCallSlot `json:"slots"`
}

// NamedRef is a user or department by id and name.
type NamedRef struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// EscalationTaken is one step taken, for the escalation log.
type EscalationTaken struct {
	AlarmID     int64      `json:"alarmId"`
	AlarmRule   string     `json:"alarmRule" doc:"the alarm's rule key (its name is alarm_rule_<key>)"`
	Level       int        `json:"level"`
	StationName string     `json:"stationName"`
	RuleID      int64      `json:"ruleId"`
	RuleName    string     `json:"ruleName"`
	Step        int        `json:"step" doc:"from 1"`
	Target      string     `json:"target"`
	Users       []NamedRef `json:"users" doc:"who was notified (none: nobody was on call or could see the station)"`
	At          int64      `json:"at"`
	TimeZone    string     `json:"timeZone" doc:"the station's zone"`
}
