package escalate

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

// Service is the administrator's calls of escalation: the rules, the on-call rota and the
// log of steps taken.
type Service struct {
	Store *Store
}

// Routes registers the calls (administrators only, their organisation's only).
func (s *Service) Routes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/escalation/rules", Tag: "escalation", Summary: "The organisation's escalation rules",
		Access: httpapi.Admin, Resp: []EscalationRule{}, Handle: s.rules})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/escalation/rules/add", Tag: "escalation", Summary: "Add an escalation rule",
		Access: httpapi.Admin, Body: EscalationRuleInput{}, Resp: EscalationRule{}, Handle: s.add})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/escalation/rules/edit/{id}", Tag: "escalation", Summary: "Change an escalation rule (steps taken stay taken)",
		Access: httpapi.Admin, Body: EscalationRuleInput{}, Resp: EscalationRule{}, Handle: s.edit})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/escalation/rules/delete/{id}", Tag: "escalation", Summary: "Delete an escalation rule",
		Access: httpapi.Admin, Handle: s.delete})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/escalation/rota", Tag: "escalation", Summary: "The on-call rota (weekly slots in the organisation's zone) and who is on call now",
		Access: httpapi.Admin, Resp: OnCallRota{}, Handle: s.rota})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/escalation/rota", Tag: "escalation", Summary: "Replace the on-call rota's slots",
		Access: httpapi.Admin, Body: OnCallRotaInput{}, Resp: OnCallRota{}, Handle: s.setRota})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/escalation/log", Tag: "escalation", Summary: "The latest escalation steps taken (100), newest first",
		Access: httpapi.Admin, Resp: []EscalationTaken{}, Handle: s.log})
}

func fail(err error) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return httpapi.NotFound()
	case errors.Is(err, ErrNameTaken):
		return httpapi.InvalidField("name", "escalation_name_taken")
	case errors.Is(err, ErrTooMany):
		return httpapi.Conflict("escalation_too_many", MaxRules)
	}
	return httpapi.Internal(err)
}

func (s *Service) rules(r *http.Request) (any, error) {
	out, err := s.Store.Rules(r.Context(), httpapi.Caller(r).OrgID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return out, nil
}

// validRule checks a rule's input as stored: a name, levels, 1-10 steps with increasing
// minutes, known targets, and every station, user and department the organisation's.
func (s *Service) validRule(r *http.Request, in *EscalationRuleInput) error {
	var v httpapi.Validator
	in.Name = strings.TrimSpace(in.Name)
	if v.Required("name", in.Name) {
		v.MaxLen("name", in.Name, MaxNameChars)
	}
	if len(in.Levels) == 0 {
		v.Add("levels", "at_least_one")
	}
	for _, l := range in.Levels {
		if l < 0 || l > 2 {
			v.Add("levels", "one_of", "0, 1, 2")
		}
	}
	slices.Sort(in.Levels)
	in.Levels = slices.Compact(in.Levels)
	slices.Sort(in.StationIDs)
	in.StationIDs = slices.Compact(in.StationIDs)
	if len(in.StationIDs) > 1000 {
		v.Add("stationIds", "too_many", 1000)
	}
	switch {
	case len(in.Steps) == 0:
		v.Add("steps", "at_least_one")
	case len(in.Steps) > MaxSteps:
		v.Add("steps", "too_many", MaxSteps)
	}
	prev := 0
	for i, st := range in.Steps {
		field := "steps." + strconv.Itoa(i)
		if st.AfterMinutes < 1 || st.AfterMinutes > MaxAfter {
			v.Add(field+".afterMinutes", "out_of_range", 1, MaxAfter)
		} else if st.AfterMinutes <= prev {
			v.Add(field+".afterMinutes", "escalation_steps_order")
		}
		prev = max(prev, st.AfterMinutes)
		if !slices.Contains(Targets, st.Target) {
			v.Add(field+".target", "one_of", strings.Join(Targets, ", "))
		} else if st.Target != TargetOnCall && st.TargetID <= 0 {
			v.Add(field+".targetId", "required")
		}
		if st.Target == TargetOnCall {
			in.Steps[i].TargetID = 0
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	unknown, err := s.Store.Unknown(r.Context(), httpapi.Caller(r).OrgID, *in)
	if err != nil {
		return httpapi.Internal(err)
	}
	for _, f := range unknown {
		v.Add(f, "escalation_unknown")
	}
	return v.Err()
}

func (s *Service) add(r *http.Request) (any, error) {
	var in EscalationRuleInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if err := s.validRule(r, &in); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	out, err := s.Store.Create(r.Context(), p.OrgID, in)
	if err != nil {
		return nil, fail(err)
	}
	org.Audit(r.Context(), s.Store.DB, p.OrgID, p.UserID, "escalation.add", in.Name, describe(in), httpapi.ClientAddr(r))
	return out, nil
}

// rule loads the path's rule of the caller's organisation (another's: 404).
func (s *Service) rule(r *http.Request) (*EscalationRule, error) {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return nil, err
	}
	out, err := s.Store.Rule(r.Context(), httpapi.Caller(r).OrgID, id)
	if err != nil {
		return nil, fail(err)
	}
	return out, nil
}

func (s *Service) edit(r *http.Request) (any, error) {
	old, err := s.rule(r)
	if err != nil {
		return nil, err
	}
	var in EscalationRuleInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if err := s.validRule(r, &in); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	out, err := s.Store.Update(r.Context(), p.OrgID, old.ID, in)
	if err != nil {
		return nil, fail(err)
	}
	org.Audit(r.Context(), s.Store.DB, p.OrgID, p.UserID, "escalation.edit", in.Name, describe(in), httpapi.ClientAddr(r))
	return out, nil
}

func (s *Service) delete(r *http.Request) (any, error) {
	old, err := s.rule(r)
	if err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	if err := s.Store.Delete(r.Context(), p.OrgID, old.ID); err != nil {
		return nil, fail(err)
	}
	org.Audit(r.Context(), s.Store.DB, p.OrgID, p.UserID, "escalation.delete", old.Name, "", httpapi.ClientAddr(r))
	return nil, nil
}

// describe is a rule's steps for the audit log: "15 min → oncall, 30 min → user 4".
func describe(in EscalationRuleInput) string {
	parts := make([]string, len(in.Steps))
	for i, st := range in.Steps {
		parts[i] = fmt.Sprintf("%d min → %s", st.AfterMinutes, st.Target)
		if st.Target != TargetOnCall {
			parts[i] += " " + strconv.FormatInt(st.TargetID, 10)
		}
	}
	return strings.Join(parts, ", ")
}

func (s *Service) rota(r *http.Request) (any, error) {
	out, err := s.Store.OnCallRota(r.Context(), httpapi.Caller(r).OrgID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return out, nil
}

func (s *Service) setRota(r *http.Request) (any, error) {
	var in OnCallRotaInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	var v httpapi.Validator
	if len(in.Slots) > MaxSlots {
		v.Add("slots", "too_many", MaxSlots)
	}
	for i, sl := range in.Slots {
		field := "slots." + strconv.Itoa(i)
		if sl.Weekday < 1 || sl.Weekday > 7 {
			v.Add(field+".weekday", "out_of_range", 1, 7)
		}
		start, ok1 := minuteOf(sl.Start)
		end, ok2 := minuteOf(sl.End)
		switch {
		case !ok1 || start >= 1440:
			v.Add(field+".start", "invalid_format")
		case !ok2:
			v.Add(field+".end", "invalid_format")
		case end <= start:
			v.Add(field+".end", "escalation_slot_order")
		}
		if sl.UserID <= 0 {
			v.Add(field+".userId", "required")
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	unknown, err := s.Store.UnknownUsers(r.Context(), p.OrgID, in.Slots)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	if unknown {
		return nil, httpapi.InvalidField("slots", "escalation_unknown")
	}
	if err := s.Store.SetRota(r.Context(), p.OrgID, in.Slots); err != nil {
		return nil, httpapi.Internal(err)
	}
	org.Audit(r.Context(), s.Store.DB, p.OrgID, p.UserID, "escalation.rota", strconv.Itoa(len(in.Slots))+" slots", "", httpapi.ClientAddr(r))
	return s.rota(r)
}

func (s *Service) log(r *http.Request) (any, error) {
	out, err := s.Store.Log(r.Context(), httpapi.Caller(r).OrgID, 100)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return out, nil
}
