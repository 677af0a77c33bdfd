package scada

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// The replica that polls keeps its devices' statuses in memory and writes them to
// scada_status; the other replicas read them from there.

// SaveStatuses writes statuses (by device id) and removes the rows of gone devices.
func SaveStatuses(ctx context.Context, db *store.DB, sts map[int64]Status, gone []int64) error {
	if len(sts) == 0 && len(gone) == 0 {
		return nil
	}
	now := time.Now().UnixMilli()
	return db.InTx(ctx, func(tx *store.Tx) error {
		for id, st := range sts {
			body, err := json.Marshal(st)
			if err != nil {
				return err
			}
			// the link (or the device) may have gone meanwhile: write only while it is there
			if _, err := tx.Exec(ctx, `INSERT INTO scada_status (device_id, state, body, updated_at)
				SELECT device_id, ?, ?, ? FROM field_links WHERE device_id = ?
				ON CONFLICT (device_id) DO UPDATE SET state = excluded.state, body = excluded.body, updated_at = excluded.updated_at`,
				st.State, string(body), now, id); err != nil {
				return fmt.Errorf("scada: unable to save status of %d: %w", id, err)
			}
		}
		for _, id := range gone {
			if _, err := tx.Exec(ctx, "DELETE FROM scada_status WHERE device_id = ?", id); err != nil {
				return err
			}
		}
		return nil
	})
}

// LoadStatuses reads the stored statuses of the given devices (all when ids is nil).
func LoadStatuses(ctx context.Context, db *store.DB, ids []int64) (map[int64]Status, error) {
	out := map[int64]Status{}
	q := "SELECT device_id, body FROM scada_status"
	var args []any
	if ids != nil {
		if len(ids) == 0 {
			return out, nil
		}
		args = make([]any, len(ids))
		for i, id := range ids {
			args[i] = id
		}
		q += " WHERE device_id IN (" + strings.TrimSuffix(strings.Repeat("?,", len(ids)), ",") + ")"
	}
	rows, err := db.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("scada: unable to read statuses: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var body string
		if err := rows.Scan(&id, &body); err != nil {
			return nil, err
		}
		var st Status
		if err := json.Unmarshal([]byte(body), &st); err != nil {
			return nil, fmt.Errorf("scada: status of %d: %w", id, err)
		}
		out[id] = st
	}
	return out, rows.Err()
}

// commCache keeps every device's stored communication state for a short while: the
// stations' summaries ask for it device by device.
type commCache struct {
	db  *store.DB
	ttl time.Duration
	mu  sync.Mutex
	at  time.Time
	m   map[int64]string
	gen uint64
}

func (c *commCache) get(id int64) string {
	m, _ := c.all()
	return m[id]
}

// all returns every stored state and its generation; the map is replaced, never
// changed, so it may be read after the lock is released. A read that finds the same
// states keeps the generation: a new one makes every figure kept on it (each station's
// device tally, the fleet-wide parts) be computed again, which at 10,000 stations is
// most of a replica's CPU when it comes every CommTTL.
func (c *commCache) all() (map[int64]string, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || time.Since(c.at) > c.ttl {
		m, err := c.load()
		switch {
		case err != nil && c.m == nil:
			return nil, 0
		case err != nil:
		case c.m != nil && maps.Equal(m, c.m):
			c.at = time.Now()
		default:
			c.m, c.at, c.gen = m, time.Now(), nextCommGen()
		}
	}
	return c.m, c.gen
}

func (c *commCache) load() (map[int64]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rows, err := c.db.Query(ctx, "SELECT device_id, state FROM scada_status")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	m := map[int64]string{}
	for rows.Next() {
		var id int64
		var st string
		if err := rows.Scan(&id, &st); err != nil {
			return nil, err
		}
		m[id] = st
	}
	return m, rows.Err()
}

func (c *commCache) drop() {
	c.mu.Lock()
	c.m = nil
	c.mu.Unlock()
}
