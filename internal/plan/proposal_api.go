package plan

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

// ProposalQuery documents the proposal list filters.
type ProposalQuery struct {
	Year      int    `query:"year" min:"2000" max:"2100" doc:"absent for every year"`
	StationID int64  `query:"stationId" validate:"id"`
	Status    int    `query:"status" enum:"1,2,3,4" doc:"1 commit, 2 in approval, 3 finished, 4 refused"`
	Mine      string `query:"mine" enum:"approve" doc:"approve: waiting for the caller's approval"`
	httpapi.Paging
}

// SpreadQuery asks how a yearly total spreads over the months.
type SpreadQuery struct {
	StationID int64   `query:"stationId" validate:"required,id"`
	Year      int     `query:"year" min:"2000" max:"2100" doc:"default this year"`
	TotalKWh  float64 `query:"totalKwh" validate:"required" min:"0" max:"10000000000" doc:"the year's planned kWh"`
}

// SpreadResult is the months of a spread and their weights.
type SpreadResult struct {
	Months  []float64 `json:"months"`
	Weights []float64 `json:"weights" doc:"the station's expected kWh per month (empty: spread evenly)"`
}

// SaveInput drafts a station's yearly plan.
type SaveInput struct {
	StationID int64     `json:"stationId" validate:"required"`
	Year      int       `json:"year" validate:"required"`
	Months    []float64 `json:"months" validate:"required" doc:"twelve monthly kWh, January first"`
}

// SubmitInput sends a draft for approval.
type SubmitInput struct {
	ApproverID int64 `json:"approverId" validate:"required" doc:"an administrator of the organisation other than the caller"`
}

// DecideInput approves or refuses a proposal (its approver only).
type DecideInput struct {
	Decision string `json:"decision" validate:"required" doc:"approve or refuse"`
	Reason   string `json:"reason" doc:"required to refuse; at most 500 characters"`
}

func (s *Service) proposalRoutes(api *httpapi.API) {
	add := func(rt httpapi.Route) {
		rt.Tag, rt.Access = "plan", httpapi.Signed
		api.Add(rt)
	}
	add(httpapi.Route{Method: "GET", Path: "/v2/plan/proposal/list", Summary: "Plan proposals with their workflow status",
		Query: ProposalQuery{}, Resp: httpapi.Page[Proposal]{}, Handle: s.proposals})
	add(httpapi.Route{Method: "GET", Path: "/v2/plan/proposal/spread", Summary: "Spread a yearly total over the months by the station's expected monthly yield",
		Query: SpreadQuery{}, Resp: SpreadResult{}, Handle: s.spread})
	add(httpapi.Route{Method: "GET", Path: "/v2/plan/proposal/detail/{uid}", Summary: "One plan proposal",
		Resp: Proposal{}, Handle: s.proposalDetail})
	add(httpapi.Route{Method: "POST", Path: "/v2/plan/proposal/save", Summary: "Draft a station's yearly plan (commit)",
		Body: SaveInput{}, Resp: Proposal{}, Handle: s.save})
	add(httpapi.Route{Method: "POST", Path: "/v2/plan/proposal/submit/{uid}", Summary: "Send a draft to an approver (in approval)",
		Body: SubmitInput{}, Resp: Proposal{}, Handle: s.submit})
	add(httpapi.Route{Method: "POST", Path: "/v2/plan/proposal/decide/{uid}", Summary: "Approve (finished: the plan takes effect) or refuse with a reason",
		Body: DecideInput{}, Resp: Proposal{}, Handle: s.decide})
}

func (s *Service) proposals(r *http.Request) (any, error) {
	q := httpapi.Query[ProposalQuery](r)
	f := ProposalFilter{Year: q.Year, Status: q.Status, Mine: q.Mine, Page: q.Page, Size: q.PageSize}
	if id := q.StationID; id != 0 {
		if _, err := s.visibleStation(r, id); err != nil {
			return nil, err
		}
		f.StationIDs = []int64{id}
	}
	list, total, err := ListProposals(r.Context(), s.DB, httpapi.Caller(r), f)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return httpapi.Page[Proposal]{List: list, Total: total, Page: f.Page, PageSize: f.Size}, nil
}

func (s *Service) spread(r *http.Request) (any, error) {
	q := httpapi.Query[SpreadQuery](r)
	year, total := q.Year, q.TotalKWh
	if year == 0 {
		year = s.now().Year()
	}
	st, err := s.visibleStation(r, q.StationID)
	if err != nil {
		return nil, err
	}
	weights := ExpectedMonthly(st, year, s.Weather)
	if weights == nil {
		weights = []float64{}
	}
	for i := range weights {
		weights[i] = r3(weights[i])
	}
	return SpreadResult{Months: Spread(total, weights), Weights: weights}, nil
}

func (s *Service) proposal(r *http.Request) (Proposal, error) {
	id, err := httpapi.PathID(r, "uid")
	if err != nil {
		return Proposal{}, err
	}
	p, err := GetProposal(r.Context(), s.DB, httpapi.Caller(r), id)
	if errors.Is(err, store.ErrNotFound) {
		return p, httpapi.NotFound()
	}
	if err != nil {
		return p, httpapi.Internal(err)
	}
	return p, nil
}

func (s *Service) proposalDetail(r *http.Request) (any, error) { return s.proposal(r) }

func (s *Service) reread(r *http.Request, id int64) (any, error) {
	p, err := GetProposal(r.Context(), s.DB, httpapi.Caller(r), id)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return p, nil
}

func (s *Service) save(r *http.Request) (any, error) {
	var in SaveInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	var v httpapi.Validator
	if in.StationID <= 0 {
		v.Add("stationId", "required")
	}
	if in.Year < 2000 || in.Year > 2100 {
		v.Add("year", "out_of_range", 2000, 2100)
	}
	if len(in.Months) != 12 {
		v.Add("months", "plan_twelve_months")
	}
	for _, m := range in.Months {
		v.Range("months", m, 0, 1e10)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if _, err := s.visibleStation(r, in.StationID); err != nil {
		if httpapi.AsError(err).Status == 404 {
			return nil, httpapi.InvalidField("stationId", "not_found")
		}
		return nil, err
	}
	return s.draft(r, in.StationID, in.Year, in.Months)
}

// draft saves a station's yearly plan as a draft proposal (a new one, or the station's
// proposal for that year back to draft), which takes effect only when approved.
func (s *Service) draft(r *http.Request, stationID int64, year int, monthly []float64) (any, error) {
	p := httpapi.Caller(r)
	in := SaveInput{StationID: stationID, Year: year}
	months, _ := json.Marshal(monthly)
	now := s.now().UnixMilli()
	var status int
	var id int64
	err := s.DB.QueryRow(r.Context(), "SELECT id, status FROM plan_proposals WHERE station_id = ? AND year = ?", in.StationID, in.Year).Scan(&id, &status)
	switch {
	case err == nil && status == InApproval:
		return nil, httpapi.Conflict("plan_in_approval")
	case err == nil:
		_, err = s.DB.Exec(r.Context(), `UPDATE plan_proposals SET months = ?, status = 1, submitter_id = ?, updated_at = ? WHERE id = ?`,
			string(months), p.UserID, now, id)
	default:
		id, err = s.DB.Insert(r.Context(), `INSERT INTO plan_proposals (org_id, station_id, year, months, status, submitter_id, created_at, updated_at)
			VALUES (?, ?, ?, ?, 1, ?, ?, ?)`, p.OrgID, in.StationID, in.Year, string(months), p.UserID, now, now)
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return s.reread(r, id)
}

func (s *Service) submit(r *http.Request) (any, error) {
	pr, err := s.proposal(r)
	if err != nil {
		return nil, err
	}
	var in SubmitInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	if in.ApproverID <= 0 {
		return nil, httpapi.InvalidField("approverId", "required")
	}
	u, err := org.UserByID(r.Context(), s.DB, in.ApproverID)
	if err != nil || u.OrgID != p.OrgID || u.Role != "admin" || u.Status != 1 || u.ID == p.UserID {
		return nil, httpapi.InvalidField("approverId", "plan_approver")
	}
	if pr.Status != Commit && pr.Status != Refused {
		return nil, httpapi.Conflict("plan_not_draft")
	}
	now := s.now().UnixMilli()
	res, err := s.DB.Exec(r.Context(), `UPDATE plan_proposals SET status = 2, approver_id = ?, submitter_id = ?, refusal_reason = '',
		submitted_at = ?, decided_at = NULL, updated_at = ? WHERE id = ? AND status = ?`, in.ApproverID, p.UserID, now, now, pr.ID, pr.Status)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return nil, httpapi.Conflict("plan_not_draft")
	}
	s.tell(r, in.ApproverID, "plan_msg_submitted", &pr, message.TypeTodo, "pending_verify")
	return s.reread(r, pr.ID)
}

func (s *Service) decide(r *http.Request) (any, error) {
	pr, err := s.proposal(r)
	if err != nil {
		return nil, err
	}
	var in DecideInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	var v httpapi.Validator
	in.Reason = strings.TrimSpace(in.Reason)
	v.OneOf("decision", in.Decision, "approve", "refuse")
	v.MaxLen("reason", in.Reason, 500)
	if in.Decision == "refuse" && in.Reason == "" {
		v.Add("reason", "required")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	if pr.ApproverID != p.UserID {
		return nil, &httpapi.Error{Status: 403, Code: 403, Key: "plan_not_approver"}
	}
	if pr.Status != InApproval {
		return nil, httpapi.Conflict("plan_not_in_approval")
	}
	status, key, process := Finished, "plan_msg_approved", "finished"
	if in.Decision == "refuse" {
		status, key, process = Refused, "plan_msg_refused", "rejected"
	}
	now := s.now().UnixMilli()
	err = s.DB.InTx(r.Context(), func(tx *store.Tx) error {
		if _, err := tx.Exec(r.Context(), `UPDATE plan_proposals SET status = ?, refusal_reason = ?, decided_at = ?, updated_at = ? WHERE id = ?`,
			status, in.Reason, now, now, pr.ID); err != nil {
			return err
		}
		if status != Finished {
			return nil
		}
		return putTx(r.Context(), tx, BuildList{StationID: pr.StationID, Year: pr.Year, Months: monthsOf(pr.Months)}, p.UserID, now)
	})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	s.tell(r, pr.SubmitterID, key, &pr, message.TypeMessage, process)
	return s.reread(r, pr.ID)
}

func monthsOf(values []float64) []MonthPlan {
	out := make([]MonthPlan, len(values))
	for i, v := range values {
		out[i] = MonthPlan{Month: i + 1, PlanKWh: v}
	}
	return out
}

// tell sends a plan event to a user's message centre (kind work order, the operations kind).
func (s *Service) tell(r *http.Request, userID int64, key string, pr *Proposal, typ, process string) {
	if s.Messages == nil || userID == 0 || userID == httpapi.Caller(r).UserID {
		return
	}
	_, err := s.Messages.Create(r.Context(), message.New{UserID: userID, OrgID: httpapi.Caller(r).OrgID, Kind: message.KindWorkOrder,
		Type: typ, Title: message.Text{Key: key, Args: []any{pr.StationName, pr.Year}}, SubTitle: message.Plain(pr.StationName),
		Content: message.Text{Key: "plan_msg_content", Args: []any{pr.TotalKWh}}, Priority: 2, ProcessStatus: process, RefID: pr.ID})
	if err != nil {
		slog.Warn("plan message not sent", "proposal", pr.ID, "err", err)
	}
}
