package cloud

import (
	"context"
	"fmt"
	"time"
)

// Cursor is where a device's sync stands: every reading up to SyncedTo is written.
type Cursor struct {
	DeviceID int64
	SiteID   string
	Serial   string // the device's data key (RemoteDevice.DataKey)
	TimeZone string
	SyncedTo time.Time
}

func (s *Store) cursors(ctx context.Context, connID int64) ([]Cursor, error) {
	rows, err := s.DB.Query(ctx, `SELECT device_id, site_id, serial, time_zone, synced_to FROM cloud_cursors
		WHERE connection_id = ? ORDER BY device_id`, connID)
	if err != nil {
		return nil, fmt.Errorf("cloud: unable to read cursors: %w", err)
	}
	defer rows.Close()
	var out []Cursor
	for rows.Next() {
		var c Cursor
		var ms int64
		if err := rows.Scan(&c.DeviceID, &c.SiteID, &c.Serial, &c.TimeZone, &ms); err != nil {
			return nil, fmt.Errorf("cloud: unable to read a cursor: %w", err)
		}
		c.SyncedTo = time.UnixMilli(ms).UTC()
		out = append(out, c)
	}
	return out, rows.Err()
}

// advance moves a device's cursor forward (never back: a slower writer cannot undo one).
func (s *Store) advance(ctx context.Context, connID, deviceID int64, to time.Time) error {
	_, err := s.DB.Exec(ctx, "UPDATE cloud_cursors SET synced_to = ? WHERE connection_id = ? AND device_id = ? AND synced_to < ?",
		to.UnixMilli(), connID, deviceID, to.UnixMilli())
	if err != nil {
		return fmt.Errorf("cloud: unable to move the cursor: %w", err)
	}
	return nil
}

// addCursor starts following a device from an instant (the day before its history).
func (s *Store) addCursor(ctx context.Context, connID int64, c Cursor) error {
	var ms int64 // 0: not started; the worker asks the vendor for the first day
	if !c.SyncedTo.IsZero() {
		ms = c.SyncedTo.UnixMilli()
	}
	_, err := s.DB.Exec(ctx, `INSERT INTO cloud_cursors (connection_id, device_id, site_id, serial, time_zone, synced_to)
		VALUES (?, ?, ?, ?, ?, ?)`, connID, c.DeviceID, c.SiteID, c.Serial, c.TimeZone, ms)
	if err != nil {
		return fmt.Errorf("cloud: unable to follow device %d: %w", c.DeviceID, err)
	}
	return nil
}
