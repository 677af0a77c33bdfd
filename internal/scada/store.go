package scada

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Link is a device's Modbus TCP connection settings.
type Link struct {
	DeviceID  int64  `json:"deviceId"`
	Host      string `json:"host"`
	Port      int    `json:"port"`
	UnitID    int    `json:"unitId"`
	IntervalS int    `json:"intervalS" doc:"poll interval in seconds"`
	TimeoutMs int    `json:"timeoutMs"`
	MapID     int64  `json:"mapId" doc:"0: SunSpec discovery"`
	MapName   string `json:"mapName"`
}

// MapSummary is a register map in a list.
type MapSummary struct {
	ID         int64     `json:"id"`
	Name       string    `json:"name"`
	Model      string    `json:"model"`
	Version    int       `json:"version"`
	Registers  int       `json:"registers"`
	Devices    int       `json:"devices" doc:"devices read with this map"`
	UpdateTime time.Time `json:"updateTime"`
}

// MapVersion is one version of a map.
type MapVersion struct {
	Version    int       `json:"version"`
	UserID     int64     `json:"userId"`
	CreateTime time.Time `json:"createTime"`
}

// MapDetail is one version of a map with its registers and the list of versions.
type MapDetail struct {
	MapSummary
	Shown     int          `json:"shown" doc:"the version whose registers are listed"`
	List      []Register   `json:"list"`
	Versions  []MapVersion `json:"versions"`
	OrgID     int64        `json:"-"`
	CurrentID int64        `json:"-"`
}

var errNotFound = store.ErrNotFound

const mapCols = `m.id, m.name, m.model, m.version, m.body, m.updated_at, m.org_id,
	(SELECT COUNT(*) FROM field_links f WHERE f.map_id = m.id)`

func scanMap(row interface{ Scan(...any) error }) (*MapDetail, error) {
	var d MapDetail
	var body string
	var updated int64
	err := row.Scan(&d.ID, &d.Name, &d.Model, &d.Version, &body, &updated, &d.OrgID, &d.Devices)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("scada: unable to read map: %w", err)
	}
	if err := json.Unmarshal([]byte(body), &d.List); err != nil {
		return nil, fmt.Errorf("scada: map %d body: %w", d.ID, err)
	}
	d.Registers = len(d.List)
	d.Shown = d.Version
	d.UpdateTime = time.UnixMilli(updated).UTC()
	return &d, nil
}

// GetMap loads an organisation's map; version 0 is the current one.
func GetMap(ctx context.Context, db *store.DB, orgID, id int64, version int) (*MapDetail, error) {
	d, err := scanMap(db.QueryRow(ctx, "SELECT "+mapCols+" FROM register_maps m WHERE m.id = ? AND m.org_id = ?", id, orgID))
	if err != nil {
		return nil, err
	}
	rows, err := db.Query(ctx, "SELECT version, COALESCE(user_id, 0), created_at, body FROM register_map_versions WHERE map_id = ? ORDER BY version DESC", id)
	if err != nil {
		return nil, fmt.Errorf("scada: unable to list versions: %w", err)
	}
	defer rows.Close()
	found := version == 0
	for rows.Next() {
		var v MapVersion
		var at int64
		var body string
		if err := rows.Scan(&v.Version, &v.UserID, &at, &body); err != nil {
			return nil, err
		}
		v.CreateTime = time.UnixMilli(at).UTC()
		d.Versions = append(d.Versions, v)
		if v.Version == version {
			found = true
			d.Shown = version
			d.List = nil
			if err := json.Unmarshal([]byte(body), &d.List); err != nil {
				return nil, err
			}
		}
	}
	if !found {
		return nil, errNotFound
	}
	return d, rows.Err()
}

// ListMaps pages an organisation's maps, optionally by part of the name or model.
func ListMaps(ctx context.Context, db *store.DB, orgID int64, name string, page, size int) ([]MapSummary, int64, error) {
	where := "m.org_id = ?"
	args := []any{orgID}
	if name != "" {
		pat := "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.ToLower(name)) + "%"
		where += " AND (LOWER(m.name) LIKE ? ESCAPE '\\' OR LOWER(m.model) LIKE ? ESCAPE '\\')"
		args = append(args, pat, pat)
	}
	var total int64
	if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM register_maps m WHERE "+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("scada: unable to count maps: %w", err)
	}
	rows, err := db.Query(ctx, fmt.Sprintf("SELECT %s FROM register_maps m WHERE %s ORDER BY m.name, m.id LIMIT %d OFFSET %d",
		mapCols, where, size, (page-1)*size), args...)
	if err != nil {
		return nil, 0, fmt.Errorf("scada: unable to list maps: %w", err)
	}
	defer rows.Close()
	out := []MapSummary{}
	for rows.Next() {
		d, err := scanMap(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, d.MapSummary)
	}
	return out, total, rows.Err()
}

// errNameTaken means another map of the organisation has the name.
var errNameTaken = errors.New("scada: map name taken")

// SaveMap stores a validated map: a new map, or the next version of the map with in.ID,
// or (ID 0) of the map already called in.Name. It returns the map id and version.
func SaveMap(ctx context.Context, db *store.DB, orgID, userID int64, in *MapInput) (int64, int, error) {
	body, err := json.Marshal(in.Registers)
	if err != nil {
		return 0, 0, err
	}
	now := time.Now().UnixMilli()
	var id int64
	var version int
	err = db.InTx(ctx, func(tx *store.Tx) error {
		id = in.ID
		if id == 0 {
			err := tx.QueryRow(ctx, "SELECT id FROM register_maps WHERE org_id = ? AND name = ?", orgID, in.Name).Scan(&id)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
		}
		if id == 0 {
			version = 1
			id, err = tx.Insert(ctx, `INSERT INTO register_maps (org_id, name, model, version, body, created_at, updated_at)
				VALUES (?, ?, ?, 1, ?, ?, ?)`, orgID, in.Name, in.Model, string(body), now, now)
			if store.IsUniqueViolation(err) {
				return errNameTaken
			}
			if err != nil {
				return err
			}
		} else {
			if err := tx.QueryRow(ctx, "SELECT version FROM register_maps WHERE id = ? AND org_id = ?", id, orgID).Scan(&version); errors.Is(err, sql.ErrNoRows) {
				return errNotFound
			} else if err != nil {
				return err
			}
			version++
			_, err := tx.Exec(ctx, "UPDATE register_maps SET name = ?, model = ?, version = ?, body = ?, updated_at = ? WHERE id = ?",
				in.Name, in.Model, version, string(body), now, id)
			if store.IsUniqueViolation(err) {
				return errNameTaken
			}
			if err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, "INSERT INTO register_map_versions (map_id, version, body, user_id, created_at) VALUES (?, ?, ?, ?, ?)",
			id, version, string(body), userID, now)
		return err
	})
	return id, version, err
}

// errMapInUse means devices are read with the map.
var errMapInUse = errors.New("scada: map in use")

// DeleteMap removes an unused map and its versions.
func DeleteMap(ctx context.Context, db *store.DB, orgID, id int64) error {
	return db.InTx(ctx, func(tx *store.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM field_links WHERE map_id = ?", id).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return errMapInUse
		}
		if _, err := tx.Exec(ctx, "DELETE FROM register_map_versions WHERE map_id = ? AND map_id IN (SELECT id FROM register_maps WHERE org_id = ?)", id, orgID); err != nil {
			return err
		}
		res, err := tx.Exec(ctx, "DELETE FROM register_maps WHERE id = ? AND org_id = ?", id, orgID)
		if err != nil {
			return err
		}
		if k, _ := res.RowsAffected(); k == 0 {
			return errNotFound
		}
		return nil
	})
}

// Addr is host:port of a link.
func (l *Link) Addr() string { return net.JoinHostPort(l.Host, strconv.Itoa(l.Port)) }

const linkCols = `f.device_id, f.host, f.port, f.unit_id, f.interval_ms, f.timeout_ms, COALESCE(f.map_id, 0), COALESCE(m.name, '')`

func scanLink(row interface{ Scan(...any) error }) (*Link, error) {
	var l Link
	var interval, timeout int64
	err := row.Scan(&l.DeviceID, &l.Host, &l.Port, &l.UnitID, &interval, &timeout, &l.MapID, &l.MapName)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("scada: unable to read link: %w", err)
	}
	l.IntervalS, l.TimeoutMs = int(interval/1000), int(timeout)
	return &l, nil
}

// Links returns the links of the given devices, by device id.
func Links(ctx context.Context, db *store.DB, deviceIDs []int64) (map[int64]*Link, error) {
	out := map[int64]*Link{}
	if len(deviceIDs) == 0 {
		return out, nil
	}
	args := make([]any, len(deviceIDs))
	for i, id := range deviceIDs {
		args[i] = id
	}
	rows, err := db.Query(ctx, "SELECT "+linkCols+" FROM field_links f LEFT JOIN register_maps m ON m.id = f.map_id WHERE f.device_id IN ("+
		strings.TrimSuffix(strings.Repeat("?,", len(args)), ",")+")", args...)
	if err != nil {
		return nil, fmt.Errorf("scada: unable to list links: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		l, err := scanLink(rows)
		if err != nil {
			return nil, err
		}
		out[l.DeviceID] = l
	}
	return out, rows.Err()
}

// SaveLink creates or replaces a device's link.
func SaveLink(ctx context.Context, db *store.DB, orgID int64, l *Link) error {
	now := time.Now().UnixMilli()
	var mapID any
	if l.MapID != 0 {
		mapID = l.MapID
	}
	return db.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.Exec(ctx, "DELETE FROM field_links WHERE device_id = ?", l.DeviceID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO field_links (device_id, org_id, host, port, unit_id, interval_ms, timeout_ms, map_id, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, l.DeviceID, orgID, l.Host, l.Port, l.UnitID, int64(l.IntervalS)*1000, l.TimeoutMs, mapID, now, now)
		return err
	})
}

// DeleteLink removes a device's link and its stored poll status (ok false when it had
// no link).
func DeleteLink(ctx context.Context, db *store.DB, deviceID int64) (bool, error) {
	var n int64
	err := db.InTx(ctx, func(tx *store.Tx) error {
		res, err := tx.Exec(ctx, "DELETE FROM field_links WHERE device_id = ?", deviceID)
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		_, err = tx.Exec(ctx, "DELETE FROM scada_status WHERE device_id = ?", deviceID)
		return err
	})
	return n > 0, err
}

// Targets loads every link as a poll target, with its map's current registers.
func Targets(ctx context.Context, db *store.DB) ([]Target, error) { return targets(ctx, db, "") }

// targets loads the links matching where (a WHERE clause on f, field_links) as targets.
func targets(ctx context.Context, db *store.DB, where string, args ...any) ([]Target, error) {
	rows, err := db.Query(ctx, `SELECT f.device_id, f.org_id, d.type, f.host, f.port, f.unit_id, f.interval_ms, f.timeout_ms,
		COALESCE(m.id, 0), COALESCE(m.name, ''), COALESCE(m.version, 0), COALESCE(m.body, '')
		FROM field_links f JOIN devices d ON d.id = f.device_id LEFT JOIN register_maps m ON m.id = f.map_id `+where+` ORDER BY f.device_id`, args...)
	if err != nil {
		return nil, fmt.Errorf("scada: unable to load targets: %w", err)
	}
	defer rows.Close()
	var out []Target
	for rows.Next() {
		var t Target
		var host, body string
		var port, unit int
		var interval, timeout int64
		if err := rows.Scan(&t.DeviceID, &t.OrgID, &t.DeviceType, &host, &port, &unit, &interval, &timeout, &t.MapID, &t.MapName, &t.MapVersion, &body); err != nil {
			return nil, err
		}
		t.Addr = net.JoinHostPort(host, strconv.Itoa(port))
		t.Unit = uint8(unit)
		t.Interval, t.Timeout = time.Duration(interval)*time.Millisecond, time.Duration(timeout)*time.Millisecond
		if t.MapID != 0 {
			if err := json.Unmarshal([]byte(body), &t.Registers); err != nil {
				return nil, fmt.Errorf("scada: map %d body: %w", t.MapID, err)
			}
		}
		out = append(out, t)
	}
	return out, rows.Err()
}
