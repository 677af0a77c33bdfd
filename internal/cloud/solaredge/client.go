// Package solaredge is the SolarEdge Monitoring Server API connector: the account's sites
// (/sites/list), their inverters (/equipment/{siteId}/list), the first day of data
// (/site/{siteId}/dataPeriod), site power and energy, and each inverter's technical data
// (/equipment/{siteId}/{serialNumber}/data, at most one week a call). The key travels as the
// api_key query parameter; times are "YYYY-MM-DD hh:mm:ss" in the site's local zone.
package solaredge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
)

// BaseURL is SolarEdge's own API.
const BaseURL = "https://monitoringapi.solaredge.com"

// The API's limits (SolarEdge Monitoring Server API, "Usage Limitations" and each call's
// date-range rule).
const (
	DailyBudget    = 300                 // calls a day per account or site key
	Concurrency    = 3                   // calls at once from one source address
	EquipmentSpan  = 7 * 24 * time.Hour  // equipment data: one week a call
	PowerSpan      = 31 * 24 * time.Hour // quarter-hour site power: one month a call
	sitesPageSize  = 100                 // /sites/list's largest page
	TimeLayout     = "2006-01-02 15:04:05"
	DateLayout     = "2006-01-02"
	maxAnswerBytes = 16 << 20
)

// Vendor registers SolarEdge with the cloud package.
var Vendor = cloud.Vendor{Name: "solaredge", Label: "SolarEdge", DefaultBudget: DailyBudget,
	Fields: []cloud.Field{{Key: "apiKey", Secret: true}},
	New: func(key string, d cloud.Deps) cloud.Connector {
		return New(key, d.BaseURL, d.HTTP, d.Count)
	}}

// Client calls the API with one key.
type Client struct {
	key   string
	base  string
	hc    *http.Client
	count cloud.Counter
	slots chan struct{} // at most Concurrency calls at once
}

// New returns a client; base "" is SolarEdge's API, count (nil: none) is told of each call.
func New(key, base string, hc *http.Client, count cloud.Counter) *Client {
	if base == "" {
		base = BaseURL
	}
	if hc == nil {
		hc = &http.Client{Timeout: 60 * time.Second}
	}
	return &Client{key: key, base: base, hc: hc, count: count, slots: make(chan struct{}, Concurrency)}
}

// get calls path with query q (api_key added) and decodes the JSON answer into out.
func (c *Client) get(ctx context.Context, path string, q url.Values, out any) error {
	if c.count != nil {
		if err := c.count(); err != nil {
			return err
		}
	}
	select {
	case c.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-c.slots }()
	if q == nil {
		q = url.Values{}
	}
	q.Set("api_key", c.key)
	req, err := http.NewRequestWithContext(ctx, "GET", c.base+path+"?"+q.Encode(), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// the error names the URL, key included: keep it out of logs and answers
		return &cloud.TemporaryError{Err: errors.New("solaredge: request failed")}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	switch {
	case resp.StatusCode == http.StatusOK:
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return cloud.ErrRefused
	case resp.StatusCode == http.StatusTooManyRequests:
		return cloud.ErrQuota
	case resp.StatusCode >= 500:
		return &cloud.TemporaryError{Err: fmt.Errorf("solaredge: %s answered %d", path, resp.StatusCode)}
	default:
		return fmt.Errorf("solaredge: %s answered %d: %.200s", path, resp.StatusCode, body)
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("solaredge: %s: unreadable answer: %w", path, err)
	}
	return nil
}

// Sites lists every site of the account with its inverters: /sites/list page by page,
// then /equipment/{siteId}/list per site.
func (c *Client) Sites(ctx context.Context) ([]cloud.Site, error) {
	var out []cloud.Site
	for start := 0; ; start += sitesPageSize {
		var page SitesAnswer
		q := url.Values{"size": {strconv.Itoa(sitesPageSize)}, "startIndex": {strconv.Itoa(start)}}
		if err := c.get(ctx, "/sites/list", q, &page); err != nil {
			return nil, err
		}
		for _, s := range page.Sites.Site {
			out = append(out, cloud.Site{ID: strconv.FormatInt(s.ID, 10), Name: s.Name, TimeZone: s.Location.TimeZone,
				PeakKW: s.PeakPower, Country: s.Location.CountryCode, Currency: s.Currency, Address: s.Location.Address})
		}
		if len(page.Sites.Site) < sitesPageSize || start+sitesPageSize >= page.Sites.Count {
			break
		}
	}
	for i := range out {
		var eq EquipmentAnswer
		if err := c.get(ctx, "/equipment/"+url.PathEscape(out[i].ID)+"/list", nil, &eq); err != nil {
			return nil, err
		}
		out[i].Devices = []cloud.RemoteDevice{}
		for _, r := range eq.Reporters.List {
			out[i].Devices = append(out[i].Devices, cloud.RemoteDevice{Serial: r.SerialNumber, Name: r.Name,
				Model: r.Model, Type: "inverter", KWp: r.KWpDC})
		}
	}
	return out, nil
}

// DataStart is the site's first day of data (/site/{siteId}/dataPeriod), at local midnight.
func (c *Client) DataStart(ctx context.Context, siteID string, loc *time.Location) (time.Time, error) {
	var a DataPeriodAnswer
	if err := c.get(ctx, "/site/"+url.PathEscape(siteID)+"/dataPeriod", nil, &a); err != nil {
		return time.Time{}, err
	}
	t, err := time.ParseInLocation(DateLayout, a.DataPeriod.StartDate, loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("solaredge: dataPeriod startDate %q: %w", a.DataPeriod.StartDate, err)
	}
	return t, nil
}

// MaxSpan is the equipment-data range limit.
func (c *Client) MaxSpan() time.Duration { return EquipmentSpan }

// Power returns the site's quarter-hour power in W over [from, to] (at most a month):
// local times, null values (no data) left out.
func (c *Client) Power(ctx context.Context, siteID string, loc *time.Location, from, to time.Time) ([]PowerValue, error) {
	if to.Sub(from) > PowerSpan {
		return nil, fmt.Errorf("solaredge: site power spans at most a month")
	}
	var a PowerAnswer
	q := url.Values{"startTime": {from.In(loc).Format(TimeLayout)}, "endTime": {to.In(loc).Format(TimeLayout)}}
	if err := c.get(ctx, "/site/"+url.PathEscape(siteID)+"/power", q, &a); err != nil {
		return nil, err
	}
	return a.Power.Values, nil
}
