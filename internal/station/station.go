package station

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/store"
)

// Station types and system types the console knows.
var (
	StationTypes = []string{"ground", "rooftop", "residential"}
	SystemTypes  = []string{"pv", "pv_storage"}
)

// Station is a power station or sub-station (SPEC.md section 3) as stored.
type Station struct {
	ID             int64     `json:"id"`
	ParentID       int64     `json:"parentId" doc:"0 for a top-level station"`
	Name           string    `json:"name"`
	CoverImage     string    `json:"coverImage" doc:"URL of the 4:3 cover image, or empty"`
	Location       string    `json:"location"`
	Country        string    `json:"country" doc:"ISO 3166-1 alpha-2"`
	Region         string    `json:"region" doc:"administrative region"`
	Address        string    `json:"address"`
	Lat            float64   `json:"lat"`
	Lng            float64   `json:"lng"`
	Timezone       string    `json:"timezone" doc:"IANA zone; the station's calendar for energy totals"`
	StationType    string    `json:"stationType" doc:"ground, rooftop or residential"`
	SystemType     string    `json:"systemType" doc:"pv or pv_storage"`
	CapacityKWp    float64   `json:"capacityKwp" doc:"installed capacity, kWp"`
	Azimuth        float64   `json:"azimuth" doc:"array azimuth, degrees clockwise from north"`
	Inclination    float64   `json:"inclination" doc:"array tilt, degrees"`
	Line           string    `json:"line"`
	BuildDate      string    `json:"buildDate" doc:"yyyy-MM-dd"`
	CombineStatus  int       `json:"combineStatus" doc:"1 combined, 0 not yet"`
	CombineDate    string    `json:"combineDate"`
	GridStatus     int       `json:"gridStatus" doc:"1 connected to the grid, 0 not yet"`
	GridDate       string    `json:"gridDate"`
	Currency       string    `json:"currency" doc:"ISO 4217"`
	PricePerKWh    float64   `json:"pricePerKwh"`
	SubsidyPerKWh  float64   `json:"subsidyPerKwh"`
	TotalCost      float64   `json:"totalCost"`
	DailyRepayment float64   `json:"dailyRepayment"`
	OwnerName      string    `json:"ownerName"`
	OwnerPhone     string    `json:"ownerPhone"`
	OwnerCompany   string    `json:"ownerCompany"`
	ManagerName    string    `json:"managerName"`
	ManagerPhone   string    `json:"managerPhone"`
	Tags           []Tag     `json:"tags"`
	CreateTime     time.Time `json:"createTime"`
	UpdateTime     time.Time `json:"updateTime"`

	OrgID         int64  `json:"-"`
	CreatedByDept int64  `json:"-"`
	SimKey        string `json:"-"`
}

// Tag is an organisation's station label.
type Tag struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Color string `json:"color"`
}

const columns = `s.id, COALESCE(s.parent_id, 0), s.name, s.cover_image, s.location, s.country, s.region, s.address,
	s.lat, s.lng, s.timezone, s.station_type, s.system_type, s.capacity_kwp, s.azimuth, s.inclination, s.line,
	s.build_date, s.combine_status, s.combine_date, s.grid_status, s.grid_date, s.currency, s.price_per_kwh,
	s.subsidy_per_kwh, s.total_cost, s.daily_repayment, s.owner_name, s.owner_phone, s.owner_company,
	s.manager_name, s.manager_phone, s.created_at, s.updated_at, s.org_id, COALESCE(s.created_by_dept, 0), s.sim_key`

func scan(row interface{ Scan(...any) error }) (*Station, error) {
	var st Station
	var created, updated int64
	err := row.Scan(&st.ID, &st.ParentID, &st.Name, &st.CoverImage, &st.Location, &st.Country, &st.Region, &st.Address,
		&st.Lat, &st.Lng, &st.Timezone, &st.StationType, &st.SystemType, &st.CapacityKWp, &st.Azimuth, &st.Inclination,
		&st.Line, &st.BuildDate, &st.CombineStatus, &st.CombineDate, &st.GridStatus, &st.GridDate, &st.Currency,
		&st.PricePerKWh, &st.SubsidyPerKWh, &st.TotalCost, &st.DailyRepayment, &st.OwnerName, &st.OwnerPhone,
		&st.OwnerCompany, &st.ManagerName, &st.ManagerPhone, &created, &updated, &st.OrgID, &st.CreatedByDept, &st.SimKey)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("station: unable to read: %w", err)
	}
	st.CreateTime = time.UnixMilli(created).UTC()
	st.UpdateTime = time.UnixMilli(updated).UTC()
	st.Tags = []Tag{}
	return &st, nil
}

// Get loads a station the caller may see; anything else is store.ErrNotFound.
func Get(ctx context.Context, db *store.DB, p *httpapi.Principal, id int64) (*Station, error) {
	where, args := Scope(p)
	st, err := scan(db.QueryRow(ctx, "SELECT "+columns+" FROM stations s WHERE s.id = ? AND "+where, append([]any{id}, args...)...))
	if err != nil {
		return nil, err
	}
	if err := attachTags(ctx, db, []*Station{st}); err != nil {
		return nil, err
	}
	return st, nil
}

// VisibleIDs lists the ids of every station the caller may see (sub-stations included).
func VisibleIDs(ctx context.Context, db *store.DB, p *httpapi.Principal) ([]int64, error) {
	where, args := Scope(p)
	rows, err := db.Query(ctx, "SELECT s.id FROM stations s WHERE "+where+" ORDER BY s.id", args...)
	if err != nil {
		return nil, fmt.Errorf("station: unable to list ids: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// Filter narrows a station list.
type Filter struct {
	Name          string
	StationType   string
	SystemType    string
	TagIDs        []int64
	ParentID      int64 // -1: any level; 0: top-level only; n: children of n
	IDs           []int64
	Page, PerPage int
	Sort          listing.Sort // the list's order (Sorts; ranked on live figures, not in SQL)
}

// List returns the visible stations matching f and the total before paging.
func List(ctx context.Context, db *store.DB, p *httpapi.Principal, f Filter) ([]*Station, int64, error) {
	where, args := Scope(p)
	conds := []string{where}
	if f.Name != "" {
		conds = append(conds, "LOWER(s.name) LIKE ? ESCAPE '\\'")
		args = append(args, "%"+escapeLike(strings.ToLower(f.Name))+"%")
	}
	if f.StationType != "" {
		conds = append(conds, "s.station_type = ?")
		args = append(args, f.StationType)
	}
	if f.SystemType != "" {
		conds = append(conds, "s.system_type = ?")
		args = append(args, f.SystemType)
	}
	switch {
	case f.ParentID == 0:
		conds = append(conds, "s.parent_id IS NULL")
	case f.ParentID > 0:
		conds = append(conds, "s.parent_id = ?")
		args = append(args, f.ParentID)
	}
	if len(f.TagIDs) > 0 {
		// a station carries a tag when it or one of its sub-stations does (the list shows
		// top-level stations; tag/list counts the same way)
		ph := placeholders(len(f.TagIDs))
		conds = append(conds, "(s.id IN (SELECT station_id FROM station_tag_links WHERE tag_id IN ("+ph+
			")) OR s.id IN (SELECT c.parent_id FROM stations c JOIN station_tag_links l ON l.station_id = c.id WHERE l.tag_id IN ("+ph+")))")
		for range 2 {
			for _, id := range f.TagIDs {
				args = append(args, id)
			}
		}
	}
	if f.IDs != nil {
		if len(f.IDs) == 0 {
			return []*Station{}, 0, nil
		}
		conds = append(conds, "s.id IN ("+placeholders(len(f.IDs))+")")
		for _, id := range f.IDs {
			args = append(args, id)
		}
	}
	q := " FROM stations s WHERE " + strings.Join(conds, " AND ")
	var total int64
	if err := db.QueryRow(ctx, "SELECT COUNT(*)"+q, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("station: unable to count: %w", err)
	}
	sel := "SELECT " + columns + q + " ORDER BY s.name, s.id"
	if f.PerPage > 0 {
		sel += fmt.Sprintf(" LIMIT %d OFFSET %d", f.PerPage, (f.Page-1)*f.PerPage)
	}
	rows, err := db.Query(ctx, sel, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("station: unable to list: %w", err)
	}
	defer rows.Close()
	out := []*Station{}
	for rows.Next() {
		st, err := scan(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, st)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	return out, total, attachTags(ctx, db, out)
}

func attachTags(ctx context.Context, db *store.DB, list []*Station) error {
	if len(list) == 0 {
		return nil
	}
	byID := map[int64]*Station{}
	for _, st := range list {
		byID[st.ID] = st
	}
	// in chunks: an export lists every station, beyond the SQL variable limit
	for start := 0; start < len(list); start += 500 {
		chunk := list[start:min(start+500, len(list))]
		args := make([]any, 0, len(chunk))
		for _, st := range chunk {
			args = append(args, st.ID)
		}
		if err := readTags(ctx, db, byID, args); err != nil {
			return err
		}
	}
	return nil
}

func readTags(ctx context.Context, db *store.DB, byID map[int64]*Station, args []any) error {
	rows, err := db.Query(ctx, `SELECT l.station_id, t.id, t.name, t.color FROM station_tag_links l
		JOIN station_tags t ON t.id = l.tag_id WHERE l.station_id IN (`+placeholders(len(args))+`) ORDER BY t.name`, args...)
	if err != nil {
		return fmt.Errorf("station: unable to read tags: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var sid int64
		var t Tag
		if err := rows.Scan(&sid, &t.ID, &t.Name, &t.Color); err != nil {
			return err
		}
		byID[sid].Tags = append(byID[sid].Tags, t)
	}
	return rows.Err()
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// Insert stores a new station and returns its id.
func Insert(ctx context.Context, db *store.DB, st *Station) (int64, error) {
	now := time.Now().UnixMilli()
	var parent, dept any
	if st.ParentID != 0 {
		parent = st.ParentID
	}
	if st.CreatedByDept != 0 {
		dept = st.CreatedByDept
	}
	id, err := db.Insert(ctx, `INSERT INTO stations (org_id, parent_id, created_by_dept, name, cover_image, location,
		country, region, address, lat, lng, timezone, station_type, system_type, capacity_kwp, azimuth, inclination,
		line, build_date, combine_status, combine_date, grid_status, grid_date, currency, price_per_kwh, subsidy_per_kwh,
		total_cost, daily_repayment, owner_name, owner_phone, owner_company, manager_name, manager_phone, sim_key,
		created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		st.OrgID, parent, dept, st.Name, st.CoverImage, st.Location, st.Country, st.Region, st.Address, st.Lat, st.Lng,
		st.Timezone, st.StationType, st.SystemType, st.CapacityKWp, st.Azimuth, st.Inclination, st.Line, st.BuildDate,
		st.CombineStatus, st.CombineDate, st.GridStatus, st.GridDate, st.Currency, st.PricePerKWh, st.SubsidyPerKWh,
		st.TotalCost, st.DailyRepayment, st.OwnerName, st.OwnerPhone, st.OwnerCompany, st.ManagerName, st.ManagerPhone,
		st.SimKey, now, now)
	if err != nil {
		return 0, fmt.Errorf("station: unable to insert: %w", err)
	}
	st.ID = id
	return id, nil
}

// Update stores the editable fields of a station.
func Update(ctx context.Context, db *store.DB, st *Station) error {
	_, err := db.Exec(ctx, `UPDATE stations SET name = ?, cover_image = ?, location = ?, country = ?, region = ?,
		address = ?, lat = ?, lng = ?, timezone = ?, station_type = ?, system_type = ?, capacity_kwp = ?, azimuth = ?,
		inclination = ?, line = ?, build_date = ?, combine_status = ?, combine_date = ?, grid_status = ?, grid_date = ?,
		currency = ?, price_per_kwh = ?, subsidy_per_kwh = ?, total_cost = ?, daily_repayment = ?, owner_name = ?,
		owner_phone = ?, owner_company = ?, manager_name = ?, manager_phone = ?, updated_at = ? WHERE id = ?`,
		st.Name, st.CoverImage, st.Location, st.Country, st.Region, st.Address, st.Lat, st.Lng, st.Timezone,
		st.StationType, st.SystemType, st.CapacityKWp, st.Azimuth, st.Inclination, st.Line, st.BuildDate,
		st.CombineStatus, st.CombineDate, st.GridStatus, st.GridDate, st.Currency, st.PricePerKWh, st.SubsidyPerKWh,
		st.TotalCost, st.DailyRepayment, st.OwnerName, st.OwnerPhone, st.OwnerCompany, st.ManagerName,
		st.ManagerPhone, time.Now().UnixMilli(), st.ID)
	if err != nil {
		return fmt.Errorf("station: unable to update: %w", err)
	}
	return nil
}

// SetTags replaces a station's tags (ids must belong to the station's organisation).
func SetTags(ctx context.Context, db *store.DB, stationID int64, tagIDs []int64) error {
	return db.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.Exec(ctx, "DELETE FROM station_tag_links WHERE station_id = ?", stationID); err != nil {
			return err
		}
		for _, t := range tagIDs {
			if _, err := tx.Exec(ctx, "INSERT INTO station_tag_links (station_id, tag_id) VALUES (?, ?)", stationID, t); err != nil {
				return err
			}
		}
		return nil
	})
}

// Grant authorises a department to a station.
func Grant(ctx context.Context, db *store.DB, stationID, deptID int64) error {
	_, err := db.Exec(ctx, "INSERT INTO station_grants (station_id, dept_id) VALUES (?, ?) ON CONFLICT DO NOTHING", stationID, deptID)
	return err
}
