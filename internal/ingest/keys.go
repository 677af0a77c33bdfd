// Package ingest receives device telemetry from the field: an MQTT consumer and the
// HTTP ingest call, both feeding the telemetry write path. docs/telemetry.md documents
// the topic scheme, the payload and the keys.
package ingest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Ingest keys are random, shown once and stored only as their SHA-256 (hex): a device
// key (devices.ingest_key_hash) writes that device, a collector key
// (collectors.ingest_key_hash) every device of the organisation that reports through the
// collector (devices.collector_sn).

// HashKey returns the stored form of a key.
func HashKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// NewKey returns a fresh random key ("hk_" and 43 URL-safe characters).
func NewKey() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "hk_" + base64.RawURLEncoding.EncodeToString(b), nil
}

// SetDeviceKey creates or rotates a device's key (the old one stops working) and returns
// it. store.ErrNotFound when the device does not exist in the organisation.
func SetDeviceKey(ctx context.Context, db *store.DB, orgID, deviceID int64) (string, error) {
	key, err := NewKey()
	if err != nil {
		return "", err
	}
	now := time.Now().UnixMilli()
	res, err := db.Exec(ctx, "UPDATE devices SET ingest_key_hash = ?, ingest_key_at = ?, updated_at = ? WHERE id = ? AND org_id = ?",
		HashKey(key), now, now, deviceID, orgID)
	if err != nil {
		return "", fmt.Errorf("ingest: unable to set the device key: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return "", store.ErrNotFound
	}
	return key, nil
}

// RevokeDeviceKey removes a device's key.
func RevokeDeviceKey(ctx context.Context, db *store.DB, orgID, deviceID int64) error {
	_, err := db.Exec(ctx, "UPDATE devices SET ingest_key_hash = '', ingest_key_at = 0, updated_at = ? WHERE id = ? AND org_id = ?",
		time.Now().UnixMilli(), deviceID, orgID)
	if err != nil {
		return fmt.Errorf("ingest: unable to revoke the device key: %w", err)
	}
	return nil
}

// SetCollectorKey creates or rotates the key of a collector (by serial number) and
// returns it.
func SetCollectorKey(ctx context.Context, db *store.DB, orgID int64, collectorSN string) (string, error) {
	if collectorSN == "" {
		return "", fmt.Errorf("ingest: a collector key needs a collector serial number")
	}
	key, err := NewKey()
	if err != nil {
		return "", err
	}
	_, err = db.Exec(ctx, `INSERT INTO collectors (org_id, sn, ingest_key_hash, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (org_id, sn) DO UPDATE SET ingest_key_hash = excluded.ingest_key_hash, created_at = excluded.created_at`,
		orgID, collectorSN, HashKey(key), time.Now().UnixMilli())
	if err != nil {
		return "", fmt.Errorf("ingest: unable to set the collector key: %w", err)
	}
	return key, nil
}

// RevokeCollectorKey removes a collector's key (store.ErrNotFound when it has none).
func RevokeCollectorKey(ctx context.Context, db *store.DB, orgID int64, collectorSN string) error {
	res, err := db.Exec(ctx, "DELETE FROM collectors WHERE org_id = ? AND sn = ?", orgID, collectorSN)
	if err != nil {
		return fmt.Errorf("ingest: unable to revoke the collector key: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// scope is what a key may write: devices by serial number.
type scope struct {
	orgID   int64
	devices map[string]int64 // sn → device id
}

// resolveKey finds what a key may write (nil when the key is unknown or empty).
func resolveKey(ctx context.Context, db *store.DB, key string) (*scope, error) {
	if key == "" {
		return nil, nil
	}
	h := HashKey(key)
	sc := &scope{devices: map[string]int64{}}
	var id, org int64
	var sn string
	err := db.QueryRow(ctx, "SELECT id, org_id, sn FROM devices WHERE ingest_key_hash = ?", h).Scan(&id, &org, &sn)
	if err == nil {
		sc.orgID = org
		sc.devices[sn] = id
		return sc, nil
	}
	var coll string
	if err := db.QueryRow(ctx, "SELECT org_id, sn FROM collectors WHERE ingest_key_hash = ?", h).Scan(&org, &coll); err != nil {
		return nil, nil
	}
	rows, err := db.Query(ctx, "SELECT id, sn FROM devices WHERE org_id = ? AND collector_sn = ?", org, coll)
	if err != nil {
		return nil, fmt.Errorf("ingest: unable to resolve a key: %w", err)
	}
	defer rows.Close()
	sc.orgID = org
	for rows.Next() {
		if err := rows.Scan(&id, &sn); err != nil {
			return nil, fmt.Errorf("ingest: unable to resolve a key: %w", err)
		}
		sc.devices[sn] = id
	}
	return sc, rows.Err()
}
