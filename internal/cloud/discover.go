package cloud

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/station"
)

// FoundSite is a vendor site as discovery lists it, marked with what Helio already has.
type FoundSite struct {
	Site
	// StationID is the station holding the site's devices already in Helio (0: none).
	StationID int64         `json:"stationId"`
	Devices   []FoundDevice `json:"devices"`
}

// FoundDevice is a vendor device marked with the Helio device of its serial number.
type FoundDevice struct {
	RemoteDevice
	DeviceID  int64 `json:"deviceId" doc:"the organisation's device of this serial number (0: none yet)"`
	Following bool  `json:"following" doc:"this connection already syncs it"`
}

// connector builds the vendor client of a connection, counting its calls.
func (w *Worker) connector(ctx context.Context, c *Connection) (Connector, error) {
	v, ok := w.Vendors[c.Vendor]
	if !ok {
		return nil, fmt.Errorf("cloud: unknown vendor %q", c.Vendor)
	}
	creds, err := w.Store.credentials(c)
	if err != nil {
		return nil, err
	}
	return v.New(creds, w.deps(ctx, c)), nil
}

// Discover lists the connection's sites and devices (one call per page of sites and one
// per site), each marked with the station and devices Helio already has by serial number.
func (w *Worker) Discover(ctx context.Context, c *Connection) ([]FoundSite, error) {
	conn, err := w.connector(ctx, c)
	if err != nil {
		return nil, err
	}
	sites, err := conn.Sites(ctx)
	if err != nil {
		w.noteFailure(ctx, c, err)
		return nil, err
	}
	following := map[int64]bool{}
	curs, err := w.Store.cursors(ctx, c.ID)
	if err != nil {
		return nil, err
	}
	for _, k := range curs {
		following[k.DeviceID] = true
	}
	out := make([]FoundSite, 0, len(sites))
	for _, s := range sites {
		f := FoundSite{Site: s, Devices: []FoundDevice{}}
		f.Site.Devices = nil
		for _, d := range s.Devices {
			id, stationID, err := w.deviceBySN(ctx, c.OrgID, d.Serial)
			if err != nil {
				return nil, err
			}
			if f.StationID == 0 {
				f.StationID = stationID
			}
			f.Devices = append(f.Devices, FoundDevice{RemoteDevice: d, DeviceID: id, Following: following[id]})
		}
		out = append(out, f)
	}
	return out, nil
}

// noteFailure shows a refused key or a spent quota met outside the worker on the connection.
func (w *Worker) noteFailure(ctx context.Context, c *Connection, err error) {
	switch {
	case errors.Is(err, ErrRefused):
		_ = w.Store.setState(ctx, c.ID, StateRefused, "the vendor refused the credentials: give new ones", c.Failures, w.now(), false)
	case errors.Is(err, ErrQuota):
		midnight := w.now().UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
		_ = w.Store.setState(ctx, c.ID, StateQuota, "the day's calls are spent; sync resumes after 00:00 UTC", 0, midnight, false)
	}
}

func (w *Worker) deviceBySN(ctx context.Context, orgID int64, sn string) (id, stationID int64, err error) {
	err = w.Store.DB.QueryRow(ctx, "SELECT id, station_id FROM devices WHERE org_id = ? AND sn = ?", orgID, sn).Scan(&id, &stationID)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, fmt.Errorf("cloud: unable to look up device %s: %w", sn, err)
	}
	return id, stationID, nil
}

// Pick is the administrator's choice for one site: the serial numbers to sync and the
// station they go to (0: a new station named after the site).
type Pick struct {
	SiteID    string   `json:"siteId"`
	StationID int64    `json:"stationId" doc:"0: create a station named after the site"`
	Serials   []string `json:"serials"`
}

// Confirmed says what a confirmation created and linked.
type Confirmed struct {
	StationsCreated int `json:"stationsCreated"`
	DevicesCreated  int `json:"devicesCreated"`
	DevicesLinked   int `json:"devicesLinked" doc:"existing devices of the same serial number now synced"`
}

// ErrNotOffered: a pick names a site or serial number the vendor did not list.
var ErrNotOffered = errors.New("cloud: not among the discovered sites and devices")

// Confirm creates the chosen stations and devices (through the station and device code)
// and starts following them; a device whose serial number exists is linked, not doubled.
// The sites are listed again from the vendor, so what is created is what the vendor holds.
func (w *Worker) Confirm(ctx context.Context, c *Connection, picks []Pick, createdByDept int64) (Confirmed, error) {
	var out Confirmed
	found, err := w.Discover(ctx, c)
	if err != nil {
		return out, err
	}
	bySite := map[string]*FoundSite{}
	for i := range found {
		bySite[found[i].ID] = &found[i]
	}
	// check every pick before creating anything
	for _, p := range picks {
		f := bySite[p.SiteID]
		if f == nil {
			return out, fmt.Errorf("%w: site %s", ErrNotOffered, p.SiteID)
		}
		for _, sn := range p.Serials {
			if findDevice(f, sn) == nil {
				return out, fmt.Errorf("%w: device %s", ErrNotOffered, sn)
			}
		}
	}
	for _, p := range picks {
		f := bySite[p.SiteID]
		stationID := p.StationID
		if stationID == 0 {
			stationID = f.StationID
		}
		for _, sn := range p.Serials {
			d := findDevice(f, sn)
			if d.Following {
				continue
			}
			id := d.DeviceID
			if id == 0 {
				if stationID == 0 {
					st := &station.Station{OrgID: c.OrgID, CreatedByDept: createdByDept, Name: f.Name, Timezone: f.TimeZone,
						CapacityKWp: f.PeakKW, Address: f.Address, StationType: "rooftop", SystemType: "pv"}
					if len(f.Country) == 2 {
						st.Country = strings.ToUpper(f.Country)
					}
					if st.Currency = strings.ToUpper(f.Currency); len(st.Currency) != 3 {
						// the organisation's base currency when the vendor names none
						if err := w.Store.DB.QueryRow(ctx, "SELECT base_currency FROM organizations WHERE id = ?", c.OrgID).Scan(&st.Currency); err != nil {
							return out, fmt.Errorf("cloud: unable to read the base currency: %w", err)
						}
					}
					if stationID, err = station.Insert(ctx, w.Store.DB, st); err != nil {
						return out, err
					}
					out.StationsCreated++
				}
				dev := &device.Device{OrgID: c.OrgID, StationID: stationID, Name: d.Name, SN: d.Serial, Type: "inverter",
					Model: d.Model, ComponentCapacityKWp: d.KWp}
				if id, err = device.Insert(ctx, w.Store.DB, dev); err != nil {
					return out, err
				}
				out.DevicesCreated++
			} else {
				out.DevicesLinked++
			}
			if err := w.Store.addCursor(ctx, c.ID, Cursor{DeviceID: id, SiteID: f.ID, Serial: d.DataKey(), TimeZone: f.TimeZone}); err != nil {
				return out, err
			}
		}
	}
	// the new devices are synced at once, history first
	_, err = w.Store.DB.Exec(ctx, "UPDATE cloud_connections SET state = ?, next_sync_at = ? WHERE id = ? AND state = ?",
		StateBackfill, w.now().UnixMilli(), c.ID, StateNew)
	if err == nil {
		_, err = w.Store.DB.Exec(ctx, "UPDATE cloud_connections SET next_sync_at = ? WHERE id = ? AND state IN (?, ?)",
			w.now().UnixMilli(), c.ID, StateLive, StateBackfill)
	}
	return out, err
}

func findDevice(f *FoundSite, sn string) *FoundDevice {
	for i := range f.Devices {
		if f.Devices[i].Serial == sn {
			return &f.Devices[i]
		}
	}
	return nil
}
