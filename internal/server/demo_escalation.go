package server

import (
	"context"
	"fmt"

	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/escalate"
)

// seedDemoEscalation gives the demo organisation an on-call rota (the operator on weekdays'
// office hours, the administrator the rest of the week) and a rule that brings a fault nobody
// deals with to whoever is on call after 5 minutes, to the operations department after 30 and
// to the administrator after 2 hours, so the Escalation screen's log fills as the fleet runs.
func (s *Server) seedDemoEscalation(ctx context.Context, acc *demo.Accounts) error {
	st := &escalate.Store{DB: s.DB}
	var slots []escalate.OnCallSlot
	for day := 1; day <= 7; day++ {
		if day <= 5 {
			slots = append(slots,
				escalate.OnCallSlot{Weekday: day, Start: "00:00", End: "08:00", UserID: acc.AdminID},
				escalate.OnCallSlot{Weekday: day, Start: "08:00", End: "18:00", UserID: acc.OperatorID},
				escalate.OnCallSlot{Weekday: day, Start: "18:00", End: "24:00", UserID: acc.AdminID})
		} else {
			slots = append(slots, escalate.OnCallSlot{Weekday: day, Start: "00:00", End: "24:00", UserID: acc.AdminID})
		}
	}
	if err := st.SetRota(ctx, acc.OrgID, slots); err != nil {
		return fmt.Errorf("demo rota: %w", err)
	}
	if _, err := st.Create(ctx, acc.OrgID, escalate.EscalationRuleInput{Name: "Faults nobody takes on", Levels: []int{2},
		StopOnRecovery: true, Enabled: true, Steps: []escalate.EscalationStep{
			{AfterMinutes: 5, Target: escalate.TargetOnCall},
			{AfterMinutes: 30, Target: escalate.TargetDepartment, TargetID: acc.OpsDeptID},
			{AfterMinutes: 120, Target: escalate.TargetUser, TargetID: acc.AdminID},
		}}); err != nil {
		return fmt.Errorf("demo escalation rule: %w", err)
	}
	return nil
}
