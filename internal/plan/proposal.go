package plan

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/pvmodel"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// Proposal statuses (SPEC.md section 4: commit, in approval, finished; refused goes back
// to the drafter with a reason).
const (
	Commit     = 1
	InApproval = 2
	Finished   = 3
	Refused    = 4
)

// Proposal is a station's yearly plan on its way to approval.
type Proposal struct {
	ID            int64      `json:"id"`
	StationID     int64      `json:"stationId"`
	StationName   string     `json:"stationName"`
	Year          int        `json:"year"`
	Months        []float64  `json:"months" doc:"planned kWh of January to December"`
	TotalKWh      float64    `json:"totalKwh"`
	Status        int        `json:"status" doc:"1 commit (draft), 2 in approval, 3 finished (approved), 4 refused"`
	SubmitterID   int64      `json:"submitterId"`
	Submitter     string     `json:"submitter"`
	ApproverID    int64      `json:"approverId"`
	Approver      string     `json:"approver"`
	RefusalReason string     `json:"refusalReason"`
	SubmittedAt   *time.Time `json:"submittedAt"`
	DecidedAt     *time.Time `json:"decidedAt"`
	UpdatedAt     time.Time  `json:"updatedAt"`
}

const proposalColumns = `p.id, p.station_id, s.name, p.year, p.months, p.status, COALESCE(p.submitter_id, 0),
	COALESCE(NULLIF(su.name, ''), su.username, ''), COALESCE(p.approver_id, 0), COALESCE(NULLIF(ap.name, ''), ap.username, ''),
	p.refusal_reason, p.submitted_at, p.decided_at, p.updated_at`

const proposalFrom = ` FROM plan_proposals p JOIN stations s ON s.id = p.station_id
	LEFT JOIN users su ON su.id = p.submitter_id LEFT JOIN users ap ON ap.id = p.approver_id `

func optMs(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := time.UnixMilli(v.Int64).UTC()
	return &t
}

func scanProposal(row interface{ Scan(...any) error }) (Proposal, error) {
	var p Proposal
	var months string
	var submitted, decided sql.NullInt64
	var updated int64
	err := row.Scan(&p.ID, &p.StationID, &p.StationName, &p.Year, &months, &p.Status, &p.SubmitterID, &p.Submitter,
		&p.ApproverID, &p.Approver, &p.RefusalReason, &submitted, &decided, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return p, store.ErrNotFound
	}
	if err != nil {
		return p, fmt.Errorf("plan: unable to read a proposal: %w", err)
	}
	_ = json.Unmarshal([]byte(months), &p.Months)
	for _, m := range p.Months {
		p.TotalKWh += m
	}
	p.TotalKWh = r3(p.TotalKWh)
	p.SubmittedAt, p.DecidedAt, p.UpdatedAt = optMs(submitted), optMs(decided), time.UnixMilli(updated).UTC()
	return p, nil
}

// ProposalFilter narrows the proposal list.
type ProposalFilter struct {
	Year       int
	StationIDs []int64
	Status     int
	Mine       string // "approve": waiting for the caller's approval
	Page, Size int
}

// ListProposals returns the visible proposals, newest first.
func ListProposals(ctx context.Context, db *store.DB, p *httpapi.Principal, f ProposalFilter) ([]Proposal, int64, error) {
	var w listing.Where
	scope, args := station.Scope(p)
	w.Add(scope, args...)
	w.If(f.Year > 0, "p.year = ?", f.Year)
	w.In("p.station_id", f.StationIDs)
	w.If(f.Status > 0, "p.status = ?", f.Status)
	w.If(f.Mine == "approve", "p.approver_id = ? AND p.status = 2", p.UserID)
	q := listing.Query{Columns: proposalColumns, From: proposalFrom, Order: "p.updated_at DESC, p.id DESC"}
	return listing.Run(ctx, db, q, &w, f.Page, f.Size, func(rows *sql.Rows) (Proposal, error) { return scanProposal(rows) })
}

// GetProposal returns a visible proposal.
func GetProposal(ctx context.Context, db *store.DB, p *httpapi.Principal, id int64) (Proposal, error) {
	scope, args := station.Scope(p)
	return scanProposal(db.QueryRow(ctx, "SELECT "+proposalColumns+proposalFrom+" WHERE p.id = ? AND "+scope, append([]any{id}, args...)...))
}

// Spread shares a yearly total over the months in proportion to weights (the station's
// expected monthly yield); without usable weights it shares evenly. The months add up to
// the total exactly (rounded to whole kWh, the remainder on the largest month).
func Spread(total float64, weights []float64) []float64 {
	out := make([]float64, 12)
	sum := 0.0
	for i := 0; i < 12 && i < len(weights); i++ {
		if weights[i] > 0 {
			sum += weights[i]
		}
	}
	largest, given := 0, 0.0
	for i := range out {
		share := 1.0 / 12
		if sum > 0 && i < len(weights) {
			share = max(weights[i], 0) / sum
		}
		out[i] = math.Round(total * share)
		given += out[i]
		if out[i] > out[largest] {
			largest = i
		}
	}
	out[largest] = math.Round(out[largest] + math.Round(total) - given)
	return out
}

// ExpectedMonthly is a station's expected yield per month in a typical year, from its
// location, capacity and array orientation, under the weather the source draws for it
// (nil without a source).
func ExpectedMonthly(st *station.Station, year int, weather pvmodel.WeatherSource) []float64 {
	if st.CapacityKWp <= 0 || weather == nil {
		return nil
	}
	req := pvmodel.YieldRequest{Lat: st.Lat, Lng: st.Lng, CapacityKWp: st.CapacityKWp,
		TiltDeg: st.Inclination, AzimuthDeg: st.Azimuth, Year: year, Seed: st.ID}
	est, err := pvmodel.EstimateYield(req, weather(req))
	if err != nil {
		return nil
	}
	return est.MonthlyKWh[:]
}
