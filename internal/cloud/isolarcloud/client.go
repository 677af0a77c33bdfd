// Package isolarcloud is the Sungrow iSolarCloud OpenAPI connector: the account's plants
// (/openapi/getPowerStationList), their inverters (/openapi/getDeviceList) and each
// inverter's 5-minute points (/openapi/getDevicePointMinuteDataList, at most three hours a
// call). Every call is a POST of JSON carrying the app key, the language and, after
// /openapi/login, the token; the access key travels in the x-access-key header. Times are
// "yyyyMMddHHmmss" in the plant's local time.
package isolarcloud

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
)

// BaseURL is the international gateway, taken when the credentials name no host.
const BaseURL = "https://gateway.isolarcloud.com.hk"

// Gateways are the regional gateways a connection's host may name.
var Gateways = []string{"https://gateway.isolarcloud.com.hk", "https://gateway.isolarcloud.eu",
	"https://augateway.isolarcloud.com", "https://gateway.isolarcloud.com"}

// The API's limits and conventions.
const (
	// HourlyLimit is the calls an app key may make in an hour.
	HourlyLimit = 2000
	// DailyBudget is what Helio allows itself a day by default: below the hourly limit, so
	// a back-fill that spends the whole day's budget in one burst never meets the vendor's
	// limit and leaves a quarter of the hour to other programs using the same app key.
	DailyBudget = 1500
	// MinuteSpan is the longest range of one minute-data call.
	MinuteSpan     = 3 * time.Hour
	Interval       = 5 // minutes between readings asked for (minute_interval)
	pageSize       = 100
	TimeLayout     = "20060102150405"
	DateLayout     = "2006-01-02 15:04:05"
	SysCode        = "901"
	Lang           = "_en_US"
	maxAnswerBytes = 16 << 20
)

// Paths of the calls.
const (
	PathLogin      = "/openapi/login"
	PathStations   = "/openapi/getPowerStationList"
	PathDevices    = "/openapi/getDeviceList"
	PathMinuteData = "/openapi/getDevicePointMinuteDataList"
)

// Fields are the credentials an administrator types.
var Fields = []cloud.Field{{Key: "appKey"}, {Key: "accessKey", Secret: true}, {Key: "userAccount"},
	{Key: "userPassword", Secret: true}, {Key: "host", Optional: true}}

// Vendor registers iSolarCloud with the cloud package.
var Vendor = cloud.Vendor{Name: "isolarcloud", Label: "iSolarCloud", DefaultBudget: DailyBudget, Fields: Fields,
	New: func(credentials string, d cloud.Deps) cloud.Connector { return New(credentials, d) }}

// Client calls the API with one account. It keeps the token it logged in with in the
// connection's credentials (Deps.Save), so a later round does not log in again.
type Client struct {
	creds map[string]string
	bad   error // the credentials do not parse or name a host that is no gateway
	base  string
	hc    *http.Client
	count cloud.Counter
	save  func(ctx context.Context, credentials string) error

	mu    sync.Mutex
	token string
}

// New returns a client for the credentials (a JSON object of Fields, maybe with the token
// of an earlier login); d.BaseURL, when set, wins over the credentials' host.
func New(credentials string, d cloud.Deps) *Client {
	c := &Client{hc: d.HTTP, count: d.Count, save: d.Save, base: d.BaseURL}
	if c.hc == nil {
		c.hc = &http.Client{Timeout: 60 * time.Second}
	}
	c.creds, c.bad = cloud.ParseFields(credentials, Fields)
	if c.bad != nil {
		c.bad = fmt.Errorf("%w: %v", cloud.ErrRefused, c.bad)
		return c
	}
	c.token = c.creds["token"]
	if c.base == "" {
		c.base, c.bad = gateway(c.creds["host"])
	}
	return c
}

// gateway checks a host against the regional gateways ("" is the international one).
func gateway(host string) (string, error) {
	host = strings.TrimRight(strings.TrimSpace(host), "/")
	if host == "" {
		return BaseURL, nil
	}
	if !strings.Contains(host, "://") {
		host = "https://" + host
	}
	u, err := url.Parse(host)
	if err == nil && u.Scheme == "https" && u.Path == "" && u.User == nil {
		for _, g := range Gateways {
			if "https://"+u.Host == g {
				return g, nil
			}
		}
	}
	return "", fmt.Errorf("%w: host %q is not an iSolarCloud gateway", cloud.ErrRefused, host)
}

// errToken: the token is no longer valid; the call is made again after a new login.
var errToken = errors.New("isolarcloud: token invalid")

// post makes one call (counted first) and decodes result_data into out.
func (c *Client) post(ctx context.Context, path string, body map[string]any, out any) error {
	if c.count != nil {
		if err := c.count(); err != nil {
			return err
		}
	}
	body["appkey"], body["lang"] = c.creds["appKey"], Lang
	raw, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, "POST", c.base+path, bytes.NewReader(raw))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json;charset=UTF-8")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("x-access-key", c.creds["accessKey"])
	req.Header.Set("sys_code", SysCode)
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &cloud.TemporaryError{Err: fmt.Errorf("isolarcloud: %s: request failed", path)}
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	switch {
	case resp.StatusCode == http.StatusOK:
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return cloud.ErrRefused
	case resp.StatusCode == http.StatusTooManyRequests:
		return cloud.ErrQuota
	case resp.StatusCode >= 500:
		return &cloud.TemporaryError{Err: fmt.Errorf("isolarcloud: %s answered %d", path, resp.StatusCode)}
	default:
		return fmt.Errorf("isolarcloud: %s answered %d: %.200s", path, resp.StatusCode, data)
	}
	var a Answer
	if err := json.Unmarshal(data, &a); err != nil {
		return fmt.Errorf("isolarcloud: %s: unreadable answer: %w", path, err)
	}
	if err := resultError(a.ResultCode, a.ResultMsg); err != nil {
		if errors.Is(err, errToken) || errors.Is(err, cloud.ErrRefused) || errors.Is(err, cloud.ErrQuota) {
			return err
		}
		return fmt.Errorf("isolarcloud: %s: %w", path, err)
	}
	if out != nil {
		if err := json.Unmarshal(a.ResultData, out); err != nil {
			return fmt.Errorf("isolarcloud: %s: unreadable result_data: %w", path, err)
		}
	}
	return nil
}

// resultError maps a result code and message to the shared errors: the codes this
// package knows, and by their messages those it does not.
func resultError(code, msg string) error {
	m := strings.ToLower(msg)
	switch {
	case code == CodeSuccess:
		return nil
	case code == CodeTokenInvalid || code == CodeTokenInvalidAlt || strings.Contains(m, "token"):
		return errToken
	case code == CodeRateLimit || strings.Contains(m, "frequen") || strings.Contains(m, "limit") || strings.Contains(m, "exceed"):
		return cloud.ErrQuota
	case code == CodeKeyRefused || strings.Contains(m, "appkey") || strings.Contains(m, "access_key") || strings.Contains(m, "accesskey"):
		return cloud.ErrRefused
	}
	return fmt.Errorf("result %s %s", code, msg)
}

// call makes an authenticated call: logs in when there is no token, and once more when
// the vendor says the token is no longer valid.
func (c *Client) call(ctx context.Context, path string, body map[string]any, out any) error {
	if c.bad != nil {
		return c.bad
	}
	c.mu.Lock()
	token := c.token
	c.mu.Unlock()
	for attempt := 0; ; attempt++ {
		if token == "" {
			var err error
			if token, err = c.login(ctx); err != nil {
				return err
			}
		}
		body["token"] = token
		err := c.post(ctx, path, body, out)
		if !errors.Is(err, errToken) {
			return err
		}
		c.mu.Lock()
		if c.token == token {
			c.token = "" // not offered again
		}
		c.mu.Unlock()
		if attempt > 0 { // a fresh token refused: the account is
			return cloud.ErrRefused
		}
		token = ""
	}
}

// login asks for a token and keeps it in the connection's credentials.
func (c *Client) login(ctx context.Context) (string, error) {
	var a LoginAnswer
	err := c.post(ctx, PathLogin, map[string]any{"user_account": c.creds["userAccount"],
		"user_password": c.creds["userPassword"]}, &a)
	if errors.Is(err, errToken) {
		return "", cloud.ErrRefused
	}
	if err != nil {
		return "", err
	}
	if a.LoginState != "1" || a.Token == nil || *a.Token == "" {
		return "", cloud.ErrRefused // a wrong password, a locked account
	}
	c.mu.Lock()
	c.token = *a.Token
	c.creds["token"] = c.token
	kept, _ := json.Marshal(c.creds)
	c.mu.Unlock()
	if c.save != nil {
		// not kept: the next round logs in again, nothing worse
		_ = c.save(ctx, string(kept))
	}
	return *a.Token, nil
}

// stations lists the account's plants, a page of 100 a call.
func (c *Client) stations(ctx context.Context) ([]Station, error) {
	var out []Station
	for page := 1; ; page++ {
		var a StationListAnswer
		if err := c.call(ctx, PathStations, map[string]any{"curPage": page, "size": pageSize}, &a); err != nil {
			return nil, err
		}
		out = append(out, a.PageList...)
		if len(a.PageList) < pageSize || page*pageSize >= a.RowCount {
			return out, nil
		}
	}
}

// Sites lists the account's plants with their inverters: the plant list page by page,
// then each plant's device list page by page (device_type 1, inverters, only).
func (c *Client) Sites(ctx context.Context) ([]cloud.Site, error) {
	stations, err := c.stations(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]cloud.Site, 0, len(stations))
	for _, s := range stations {
		site := cloud.Site{ID: strconv.FormatInt(s.PsID, 10), Name: s.PsName, TimeZone: Zone(s.TimeZone),
			PeakKW: kilo(s.TotalCapacity), Address: s.PsLocation, Devices: []cloud.RemoteDevice{}}
		for page := 1; ; page++ {
			var a DeviceListAnswer
			if err := c.call(ctx, PathDevices, map[string]any{"ps_id": site.ID, "curPage": page, "size": pageSize}, &a); err != nil {
				return nil, err
			}
			for _, d := range a.PageList {
				if d.DeviceType != 1 || d.DeviceSN == "" || d.PsKey == "" {
					continue
				}
				site.Devices = append(site.Devices, cloud.RemoteDevice{Serial: d.DeviceSN, Name: d.DeviceName,
					Model: d.DeviceModelCode, Type: "inverter", Key: d.PsKey})
			}
			if len(a.PageList) < pageSize || page*pageSize >= a.RowCount {
				break
			}
		}
		out = append(out, site)
	}
	return out, nil
}

// kilo reads a capacity in kW whatever unit the API scaled it to.
func kilo(m Measure) float64 {
	v, err := strconv.ParseFloat(strings.TrimSpace(m.Value), 64)
	if err != nil {
		return 0
	}
	switch u := strings.ToLower(strings.TrimSpace(m.Unit)); {
	case strings.HasPrefix(u, "gw"):
		return v * 1e6
	case strings.HasPrefix(u, "mw"):
		return v * 1000
	case strings.HasPrefix(u, "kw"):
		return v
	case strings.HasPrefix(u, "w"):
		return v / 1000
	}
	return v
}

// DataStart is the plant's installation day (install_date of the plant list), at local
// midnight; today when the plant has none.
func (c *Client) DataStart(ctx context.Context, siteID string, loc *time.Location) (time.Time, error) {
	stations, err := c.stations(ctx)
	if err != nil {
		return time.Time{}, err
	}
	for _, s := range stations {
		if strconv.FormatInt(s.PsID, 10) != siteID {
			continue
		}
		t, err := time.ParseInLocation(DateLayout, s.InstallDate, loc)
		if err != nil {
			if t, err = time.ParseInLocation("2006-01-02", s.InstallDate, loc); err != nil {
				t = time.Now().In(loc)
			}
		}
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc), nil
	}
	return time.Time{}, fmt.Errorf("isolarcloud: plant %s is not listed", siteID)
}

// MaxSpan is the minute-data range limit.
func (c *Client) MaxSpan() time.Duration { return MinuteSpan }
