package plan_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/plan"
	"github.com/helio-energy/helio/internal/sim"
	"github.com/helio-energy/helio/internal/telemetry"
)

func TestSpreadKeepsTheTotal(t *testing.T) {
	weights := []float64{1, 2, 3, 4, 5, 6, 6, 5, 4, 3, 2, 1}
	months := plan.Spread(120_001, weights)
	sum := 0.0
	for _, m := range months {
		sum += m
	}
	if sum != 120_001 || months[5] < months[0]*5 {
		t.Fatalf("spread %v adds to %v", months, sum)
	}
	even := plan.Spread(1200, nil)
	if even[0] != 100 || even[11] != 100 {
		t.Fatalf("even spread %v", even)
	}
}

func TestProposalWorkflow(t *testing.T) {
	e := apitest.NewWithFleet(t)
	msgs := &message.Store{DB: e.DB}
	api := httpapi.New(e.Server.Sessions.Authenticate)
	e.Server.Auth.Routes(api)
	// as the server wires it: expected yields under the simulator's weather
	(&plan.Service{DB: e.DB, Reader: telemetry.NewReader(e.DB, telemetry.Options{}), Messages: msgs,
		Weather: sim.YieldWeather}).Routes(api)
	(&message.Service{Store: msgs}).Routes(api)
	*e.Server.API = *api
	var station, hidden int64
	ctx := context.Background()
	_ = e.DB.QueryRow(ctx, "SELECT id FROM stations WHERE sim_key = ?", e.Fleet.Stations[0].Key).Scan(&station)
	_ = e.DB.QueryRow(ctx, "SELECT id FROM stations WHERE sim_key = ?", e.Fleet.Stations[4].Key).Scan(&hidden)
	do := func(as, method, url, body string, status int) *apitest.Result {
		t.Helper()
		r := e.Do(t, apitest.Scenario{Method: method, URL: url, As: as, Body: body})
		if r.Status != status {
			t.Fatalf("%s %s as %s: %d, want %d: %s", method, url, as, r.Status, status, r.Body)
		}
		return r
	}
	proposal := func(r *apitest.Result) plan.Proposal {
		var p plan.Proposal
		_ = json.Unmarshal(r.Env.Data, &p)
		return p
	}
	// The editor's spread follows the station's expected yield: summer above winter in the north.
	sp := do("operator", "GET", fmt.Sprintf("/v2/plan/proposal/spread?stationId=%d&year=2026&totalKwh=1200000", station), "", 200)
	var spread plan.SpreadResult
	_ = json.Unmarshal(sp.Env.Data, &spread)
	if len(spread.Months) != 12 || len(spread.Weights) != 12 || spread.Months[5] <= spread.Months[11] {
		t.Fatalf("spread: %+v", spread)
	}
	months, _ := json.Marshal(spread.Months)
	do("operator", "POST", "/v2/plan/proposal/save", fmt.Sprintf(`{"stationId":%d,"year":2026,"months":[1,2]}`, station), 400)
	do("operator", "POST", "/v2/plan/proposal/save", fmt.Sprintf(`{"stationId":%d,"year":2026,"months":%s}`, hidden, months), 400)
	p := proposal(do("operator", "POST", "/v2/plan/proposal/save", fmt.Sprintf(`{"stationId":%d,"year":2026,"months":%s}`, station, months), 200))
	if p.Status != plan.Commit || p.TotalKWh != 1200000 {
		t.Fatalf("draft: %+v", p)
	}
	// Submit to an administrator (not to oneself, not to a plain user).
	submit := fmt.Sprintf("/v2/plan/proposal/submit/%d", p.ID)
	do("operator", "POST", submit, fmt.Sprintf(`{"approverId":%d}`, e.Accounts.OperatorID), 400)
	p = proposal(do("operator", "POST", submit, fmt.Sprintf(`{"approverId":%d}`, e.Accounts.AdminID), 200))
	if p.Status != plan.InApproval || p.Approver == "" {
		t.Fatalf("submitted: %+v", p)
	}
	do("operator", "POST", "/v2/plan/proposal/save", fmt.Sprintf(`{"stationId":%d,"year":2026,"months":%s}`, station, months), 409)
	decide := fmt.Sprintf("/v2/plan/proposal/decide/%d", p.ID)
	do("operator", "POST", decide, `{"decision":"approve"}`, 403)
	do("other", "POST", decide, `{"decision":"approve"}`, 404)
	do("admin", "POST", decide, `{"decision":"refuse"}`, 400)
	p = proposal(do("admin", "POST", decide, `{"decision":"refuse","reason":"Too low for June"}`, 200))
	if p.Status != plan.Refused || p.RefusalReason != "Too low for June" {
		t.Fatalf("refused: %+v", p)
	}
	// Not yet in the plan the monitor reads.
	overview := func() plan.Overview {
		var o plan.Overview
		_ = json.Unmarshal(do("admin", "GET", fmt.Sprintf("/v2/plan/get/%d?year=2026", station), "", 200).Env.Data, &o)
		return o
	}
	if o := overview(); o.PlanKWh != 0 {
		t.Fatalf("a refused plan counts: %+v", o)
	}
	do("operator", "POST", submit, fmt.Sprintf(`{"approverId":%d}`, e.Accounts.AdminID), 200)
	p = proposal(do("admin", "POST", decide, `{"decision":"approve"}`, 200))
	if p.Status != plan.Finished || p.DecidedAt == nil {
		t.Fatalf("approved: %+v", p)
	}
	if o := overview(); o.PlanKWh != 1200000 || o.Months[5].PlanKWh != spread.Months[5] {
		t.Fatalf("approved plan not in force: %+v", o)
	}
	list := do("operator", "GET", "/v2/plan/proposal/list?year=2026&status=3", "", 200)
	if !strings.Contains(list.Body, `"total":1`) {
		t.Fatalf("list: %s", list.Body)
	}
	if n := e.Count(t, "SELECT COUNT(*) FROM messages WHERE kind = 'workorder' AND user_id = ?", e.Accounts.OperatorID); n != 2 {
		t.Fatalf("the submitter got %d messages, want 2 (refused, approved)", n)
	}
}
