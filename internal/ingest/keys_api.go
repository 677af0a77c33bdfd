package ingest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"time"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// KeyInfo is an issued ingest key as listed: never the key itself, which is shown once.
type KeyInfo struct {
	Kind string `json:"kind" doc:"device or collector"`
	// Target is the device's serial number or the collector's.
	Target     string    `json:"target"`
	DeviceID   int64     `json:"deviceId" doc:"device keys: the device"`
	DeviceName string    `json:"deviceName"`
	Station    string    `json:"station" doc:"device keys: the device's station"`
	IssuedAt   time.Time `json:"issuedAt" doc:"RFC 3339; issued or last rotated (zero for device keys issued before this was recorded)"`
	// Fingerprint is the start of the key's SHA-256, to tell keys apart.
	Fingerprint string `json:"fingerprint"`
}

// KeyRequest names the key to issue, rotate or revoke.
type KeyRequest struct {
	Kind        string `json:"kind" validate:"required" doc:"device or collector"`
	DeviceID    int64  `json:"deviceId" doc:"kind device: the device"`
	CollectorSN string `json:"collectorSn" doc:"kind collector: the collector's serial number"`
}

// IssuedKey is the answer of issue: the key, shown this once.
type IssuedKey struct {
	Key string `json:"key" doc:"send it as X-Helio-Key; only its hash is kept"`
	KeyInfo
}

var collectorRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._\-]{2,63}$`)

// KeyRoutes registers the key calls (administrators only; device keys only for devices
// the caller's station authority covers).
func (s *Service) KeyRoutes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/ingest/key/list", Tag: "ingest", Summary: "The organisation's ingest keys (never the keys themselves)",
		Access: httpapi.Admin, Resp: []KeyInfo{}, Handle: s.listKeys})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/ingest/key/issue", Tag: "ingest",
		Summary: "Issue a device or collector ingest key, or rotate it (the old key stops at once); the key is shown only in this answer",
		Access:  httpapi.Admin, Body: KeyRequest{}, Resp: IssuedKey{}, Handle: s.issueKey})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/ingest/key/revoke", Tag: "ingest", Summary: "Revoke a device or collector ingest key",
		Access: httpapi.Admin, Body: KeyRequest{}, Handle: s.revokeKey})
}

func fingerprint(hash string) string {
	if len(hash) < 8 {
		return ""
	}
	return hash[:8]
}

func (s *Service) listKeys(r *http.Request) (any, error) {
	p := httpapi.Caller(r)
	out, err := ListKeys(r.Context(), s.DB, p)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return out, nil
}

// ListKeys lists the organisation's collector keys and the device keys of the devices
// the principal may see.
func ListKeys(ctx context.Context, db *store.DB, p *httpapi.Principal) ([]KeyInfo, error) {
	out := []KeyInfo{}
	rows, err := db.Query(ctx, "SELECT sn, ingest_key_hash, created_at FROM collectors WHERE org_id = ? ORDER BY sn", p.OrgID)
	if err != nil {
		return nil, fmt.Errorf("ingest: unable to list keys: %w", err)
	}
	for rows.Next() {
		var k KeyInfo
		var hash string
		var at int64
		if err := rows.Scan(&k.Target, &hash, &at); err != nil {
			rows.Close()
			return nil, err
		}
		k.Kind, k.IssuedAt, k.Fingerprint = "collector", time.UnixMilli(at).UTC(), fingerprint(hash)
		out = append(out, k)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	where, args := station.Scope(p)
	rows, err = db.Query(ctx, `SELECT d.id, d.sn, d.name, s.name, d.ingest_key_hash, d.ingest_key_at FROM devices d
		JOIN stations s ON s.id = d.station_id WHERE d.ingest_key_hash <> '' AND `+where+` ORDER BY s.name, d.sn`, args...)
	if err != nil {
		return nil, fmt.Errorf("ingest: unable to list keys: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k KeyInfo
		var hash string
		var at int64
		if err := rows.Scan(&k.DeviceID, &k.Target, &k.DeviceName, &k.Station, &hash, &at); err != nil {
			return nil, err
		}
		k.Kind, k.Fingerprint = "device", fingerprint(hash)
		if at > 0 {
			k.IssuedAt = time.UnixMilli(at).UTC()
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// target checks a key request: the device must be one the caller sees (else 404), the
// collector serial number well formed.
func (s *Service) target(r *http.Request) (*KeyRequest, *device.Device, error) {
	var in KeyRequest
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, nil, err
	}
	var v httpapi.Validator
	if v.Required("kind", in.Kind) {
		v.OneOf("kind", in.Kind, "device", "collector")
	}
	switch in.Kind {
	case "device":
		if in.DeviceID <= 0 {
			v.Add("deviceId", "required")
		}
		if in.CollectorSN != "" {
			v.Add("collectorSn", "one_of", "")
		}
	case "collector":
		if in.CollectorSN == "" {
			v.Add("collectorSn", "required")
		} else if !collectorRe.MatchString(in.CollectorSN) {
			v.Add("collectorSn", "invalid_format")
		}
		if in.DeviceID != 0 {
			v.Add("deviceId", "one_of", "")
		}
	}
	if err := v.Err(); err != nil {
		return nil, nil, err
	}
	if in.Kind != "device" {
		return &in, nil, nil
	}
	d, err := device.Get(r.Context(), s.DB, httpapi.Caller(r), in.DeviceID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, httpapi.NotFound()
	}
	if err != nil {
		return nil, nil, httpapi.Internal(err)
	}
	return &in, d, nil
}

func (s *Service) issueKey(r *http.Request) (any, error) {
	in, d, err := s.target(r)
	if err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	ctx := r.Context()
	out := IssuedKey{KeyInfo: KeyInfo{Kind: in.Kind, IssuedAt: time.Now().UTC().Truncate(time.Millisecond)}}
	if d != nil {
		out.Key, err = SetDeviceKey(ctx, s.DB, p.OrgID, d.ID)
		out.Target, out.DeviceID, out.DeviceName, out.Station = d.SN, d.ID, d.Name, d.StationName
	} else {
		out.Key, err = SetCollectorKey(ctx, s.DB, p.OrgID, in.CollectorSN)
		out.Target = in.CollectorSN
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	out.Fingerprint = fingerprint(HashKey(out.Key))
	org.Audit(ctx, s.DB, p.OrgID, p.UserID, "ingest.key.issue", in.Kind+":"+out.Target, out.Fingerprint, httpapi.ClientAddr(r))
	return out, nil
}

func (s *Service) revokeKey(r *http.Request) (any, error) {
	in, d, err := s.target(r)
	if err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	ctx := r.Context()
	target := in.CollectorSN
	if d != nil {
		target = d.SN
		err = RevokeDeviceKey(ctx, s.DB, p.OrgID, d.ID)
	} else {
		err = RevokeCollectorKey(ctx, s.DB, p.OrgID, in.CollectorSN)
	}
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.NotFound()
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	org.Audit(ctx, s.DB, p.OrgID, p.UserID, "ingest.key.revoke", in.Kind+":"+target, "", httpapi.ClientAddr(r))
	return nil, nil
}
