package fusionsolar

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
)

// Plants and their inverters as sites, the zone a plant's data is in, and where its data starts.

// Plants lists every plant of the account, page by page (read once per client).
func (c *Client) Plants(ctx context.Context) ([]Plant, error) {
	c.mu.Lock()
	if c.plants != nil {
		defer c.mu.Unlock()
		return c.plants, nil
	}
	c.mu.Unlock()
	out := []Plant{}
	for page := 1; ; page++ {
		var p StationsPage
		if err := c.call(ctx, "/thirdData/stations", StationsRequest{PageNo: page}, &p); err != nil {
			return nil, err
		}
		out = append(out, p.List...)
		if page >= p.PageCount || len(p.List) == 0 {
			break
		}
	}
	c.mu.Lock()
	c.plants = out
	c.mu.Unlock()
	return out, nil
}

// Devices lists the plants' devices, 100 plant codes a call.
func (c *Client) Devices(ctx context.Context, plantCodes []string) ([]Device, error) {
	var out []Device
	for i := 0; i < len(plantCodes); i += devListMax {
		var devs []Device
		codes := strings.Join(plantCodes[i:min(i+devListMax, len(plantCodes))], ",")
		if err := c.call(ctx, "/thirdData/getDevList", DevListRequest{StationCodes: codes}, &devs); err != nil {
			return nil, err
		}
		for _, d := range devs {
			remember(c.base, c.user, d)
		}
		out = append(out, devs...)
	}
	return out, nil
}

// IsInverter says whether Helio syncs a device type.
func IsInverter(devTypeID int) bool {
	return devTypeID == TypeStringInverter || devTypeID == TypeResidentialInverter
}

// Sites lists every plant with its inverters: /thirdData/stations page by page, then
// /thirdData/getDevList for up to 100 plants a call.
func (c *Client) Sites(ctx context.Context) ([]cloud.Site, error) {
	plants, err := c.Plants(ctx)
	if err != nil {
		return nil, err
	}
	codes := make([]string, len(plants))
	out := make([]cloud.Site, len(plants))
	for i, p := range plants {
		codes[i] = p.PlantCode
		out[i] = cloud.Site{ID: p.PlantCode, Name: p.PlantName, TimeZone: Zone(p.GridConnectionDate),
			PeakKW: p.Capacity, Address: p.PlantAddress, Devices: []cloud.RemoteDevice{}}
	}
	if len(codes) == 0 {
		return out, nil
	}
	devs, err := c.Devices(ctx, codes)
	if err != nil {
		return nil, err
	}
	for _, d := range devs {
		if !IsInverter(d.DevTypeID) || d.EsnCode == "" {
			continue
		}
		for i := range out {
			if out[i].ID == d.StationCode {
				model := d.Model
				if model == "" {
					model = d.InvType
				}
				out[i].Devices = append(out[i].Devices, cloud.RemoteDevice{Serial: d.EsnCode, Name: d.DevName,
					Model: model, Type: "inverter"})
			}
		}
	}
	return out, nil
}

// Zone is the time zone a plant's days are read in: the UTC offset of its grid connection
// date as a fixed zone ("Etc/GMT-2" for +02:00; the API names no IANA zone), UTC when the
// date is missing or its offset not a whole hour.
func Zone(gridConnectionDate string) string {
	t, err := time.Parse(time.RFC3339, gridConnectionDate)
	if err != nil {
		return "UTC"
	}
	_, off := t.Zone()
	if off == 0 || off%3600 != 0 || off > 14*3600 || off < -12*3600 {
		return "UTC"
	}
	// the Etc zones' signs are POSIX's: east of Greenwich is negative
	return fmt.Sprintf("Etc/GMT%+d", -off/3600)
}

// DataStart is the local midnight of the plant's grid connection day.
func (c *Client) DataStart(ctx context.Context, siteID string, loc *time.Location) (time.Time, error) {
	plants, err := c.Plants(ctx)
	if err != nil {
		return time.Time{}, err
	}
	for _, p := range plants {
		if p.PlantCode != siteID {
			continue
		}
		t, err := time.Parse(time.RFC3339, p.GridConnectionDate)
		if err != nil {
			return time.Time{}, fmt.Errorf("fusionsolar: plant %s: gridConnectionDate %q: %w", siteID, p.GridConnectionDate, err)
		}
		lt := t.In(loc)
		return time.Date(lt.Year(), lt.Month(), lt.Day(), 0, 0, 0, 0, loc), nil
	}
	return time.Time{}, fmt.Errorf("fusionsolar: plant %s is no longer listed", siteID)
}

// MaxSpan is a day: the five-minute history answers one day a call.
func (c *Client) MaxSpan() time.Duration { return DaySpan }

// devIDs remembers each inverter's device id by host, account and serial number: ids never
// change, so after a restart a plant's device list is asked once.
var devIDs sync.Map // devKey → Device

type devKey struct{ base, user, esn string }

func remember(base, user string, d Device) {
	if d.EsnCode != "" {
		devIDs.Store(devKey{base, user, d.EsnCode}, d)
	}
}

// device finds an inverter of a plant by serial number.
func (c *Client) device(ctx context.Context, siteID, serial string) (Device, error) {
	if d, ok := devIDs.Load(devKey{c.base, c.user, serial}); ok {
		return d.(Device), nil
	}
	devs, err := c.Devices(ctx, []string{siteID})
	if err != nil {
		return Device{}, err
	}
	for _, d := range devs {
		if d.EsnCode == serial {
			return d, nil
		}
	}
	return Device{}, fmt.Errorf("fusionsolar: plant %s lists no device %s", siteID, serial)
}
