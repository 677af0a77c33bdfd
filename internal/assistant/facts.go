package assistant

import (
	"context"
	"fmt"
	"time"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// StationFact is what the assistant knows of a visible top-level station.
type StationFact struct {
	ID           int64
	Name         string
	CapacityKWp  float64
	TodayKWh     float64
	YesterdayKWh float64
	// YesterdayRefKWh is the reference energy for yesterday (PR = kWh ÷ reference).
	YesterdayRefKWh float64
	YesterdayFault  float64 // device-minutes in fault yesterday
	LiveKW          float64
	Comm            int // station.Live.CommunicationStatus
	AlarmExist      int
}

// AlarmFact is an occurring alarm of a visible station.
type AlarmFact struct {
	ID          int64
	StationID   int64
	StationName string
	Device      string
	Level       int
	Description string
	Start       time.Time
	Dealt       bool
}

// DeviceFact is a visible device and its state.
type DeviceFact struct {
	ID          int64
	Name        string
	SN          string
	Type        string
	StationID   int64
	StationName string
	State       string
	PowerKW     float64
	LastSeen    *time.Time
}

// Fleet gives the assistant facts within the asker's station authority.
type Fleet interface {
	Stations(ctx context.Context, p *httpapi.Principal) ([]StationFact, error)
	OpenAlarms(ctx context.Context, p *httpapi.Principal, stationID int64, limit int) ([]AlarmFact, error)
	Devices(ctx context.Context, p *httpapi.Principal, name string, limit int) ([]DeviceFact, error)
}

// SQLFleet reads the facts from the station list, the live figures and the roll-ups.
type SQLFleet struct {
	DB        *store.DB
	Reader    *telemetry.Reader
	Telemetry station.Telemetry
	Now       func() time.Time
}

func (f *SQLFleet) now() time.Time {
	if f.Now != nil {
		return f.Now()
	}
	return time.Now()
}

// Stations implements Fleet: the visible top-level stations with today's and yesterday's
// energy on each station's own calendar.
func (f *SQLFleet) Stations(ctx context.Context, p *httpapi.Principal) ([]StationFact, error) {
	list, _, err := station.List(ctx, f.DB, p, station.Filter{ParentID: 0})
	if err != nil {
		return nil, err
	}
	live, err := f.Telemetry.Live(ctx, list)
	if err != nil {
		return nil, err
	}
	out := make([]StationFact, 0, len(list))
	now := f.now()
	for _, st := range list {
		loc, err := time.LoadLocation(st.Timezone)
		if err != nil {
			loc = time.UTC
		}
		local := now.In(loc)
		today := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, loc)
		days, err := f.Reader.StationEnergy(ctx, []int64{st.ID}, telemetry.Day, today.AddDate(0, 0, -1), today)
		if err != nil {
			return nil, fmt.Errorf("assistant: energy of %d: %w", st.ID, err)
		}
		fact := StationFact{ID: st.ID, Name: st.Name, CapacityKWp: st.CapacityKWp}
		for _, d := range days[st.ID] {
			fact.YesterdayKWh += d.PVKWh
			fact.YesterdayRefKWh += d.RefEnergyKWh
			fact.YesterdayFault += d.FaultMin
		}
		if l, ok := live[st.ID]; ok {
			fact.TodayKWh, fact.LiveKW, fact.Comm, fact.AlarmExist = l.DailyEnergyKWh, l.CurrentPowerKW, l.CommunicationStatus, l.AlarmExist
		}
		out = append(out, fact)
	}
	return out, nil
}

// OpenAlarms implements Fleet: occurring alarms of a visible station and its sub-stations
// (stationID 0: of every visible station), newest first.
func (f *SQLFleet) OpenAlarms(ctx context.Context, p *httpapi.Principal, stationID int64, limit int) ([]AlarmFact, error) {
	where, args := station.Scope(p)
	q := `SELECT a.id, COALESCE(top.id, s.id), COALESCE(top.name, s.name), a.device_name, a.level, a.description, a.start_at, a.deal_status
		FROM alarms a JOIN stations s ON s.id = a.station_id LEFT JOIN stations top ON top.id = s.parent_id
		WHERE a.status = 1 AND ` + where
	if stationID != 0 {
		q += " AND (s.id = ? OR s.parent_id = ?)"
		args = append(args, stationID, stationID)
	}
	q += " ORDER BY a.start_at DESC, a.id DESC LIMIT ?"
	rows, err := f.DB.Query(ctx, q, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("assistant: open alarms: %w", err)
	}
	defer rows.Close()
	var out []AlarmFact
	for rows.Next() {
		var a AlarmFact
		var start int64
		var dealt int
		if err := rows.Scan(&a.ID, &a.StationID, &a.StationName, &a.Device, &a.Level, &a.Description, &start, &dealt); err != nil {
			return nil, err
		}
		a.Start, a.Dealt = time.UnixMilli(start).UTC(), dealt == 1
		out = append(out, a)
	}
	return out, rows.Err()
}

// Devices implements Fleet: visible devices whose name or serial number contains name.
func (f *SQLFleet) Devices(ctx context.Context, p *httpapi.Principal, name string, limit int) ([]DeviceFact, error) {
	list, _, err := device.List(ctx, f.DB, p, device.Filter{Name: name, Page: 1, PerPage: limit})
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(list))
	for i, d := range list {
		ids[i] = d.ID
	}
	latest, err := f.Reader.Latest(ctx, ids)
	if err != nil {
		return nil, err
	}
	now := f.now()
	var comms map[int64]string // the device screens' rule: the poller's states too
	if c, ok := f.Telemetry.(device.Comms); ok {
		comms = c.CommStates()
	}
	out := make([]DeviceFact, 0, len(list))
	for _, d := range list {
		fact := DeviceFact{ID: d.ID, Name: d.Name, SN: d.SN, Type: d.Type, StationID: d.StationID, StationName: d.StationName}
		if s, ok := latest[d.ID]; ok {
			fact.State = device.StateOf(&s, comms[d.ID], now)
			fact.PowerKW = s.PowerKW
			t := s.Time
			fact.LastSeen = &t
		} else {
			fact.State = device.StateOf(nil, comms[d.ID], now)
		}
		out = append(out, fact)
	}
	return out, nil
}
