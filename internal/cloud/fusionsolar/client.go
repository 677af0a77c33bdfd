// Package fusionsolar is the Huawei FusionSolar SmartPVMS Northbound API ("thirdData")
// connector: a session from /thirdData/login (the XSRF-TOKEN it answers goes with every
// later call), the account's plants (/thirdData/stations, 100 a page), their inverters
// (/thirdData/getDevList) and each inverter's five-minute history
// (/thirdData/getDevFiveMinutes, one day a call). Every call is a POST of JSON and every
// answer the envelope {success, failCode, data, message}; times are epoch milliseconds and
// a day is the plant's local day.
package fusionsolar

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/telemetry"
)

// BaseURL is the API host when the credentials name none (Huawei's European region).
const BaseURL = "https://eu5.fusionsolar.huawei.com"

// The API's limits and conventions.
const (
	// DailyBudget: the five-minute history allows Roundup(devices ÷ 10) + 24 calls a day
	// per device type, the login, plant and device lists have allowances of their own; a
	// round here is a login and a call per inverter (docs/ingest.md, "FusionSolar").
	DailyBudget = 48
	// DaySpan is the longest range one DeviceData call covers: a day (two calls when the
	// range crosses a local midnight).
	DaySpan        = 24 * time.Hour
	plantsPageSize = 100 // /thirdData/stations' page
	devListMax     = 100 // plant codes per /thirdData/getDevList call
	// TokenHeader carries the session token: answered by the login, sent with every call.
	TokenHeader    = "XSRF-TOKEN"
	maxAnswerBytes = 16 << 20
)

// Vendor registers FusionSolar with the cloud package.
var Vendor = cloud.Vendor{Name: "fusionsolar", Label: "FusionSolar", DefaultBudget: DailyBudget,
	Fields: Fields, New: func(credentials string, d cloud.Deps) cloud.Connector {
		c, err := FromCredentials(credentials, d)
		if err != nil {
			return broken{err}
		}
		return c
	}}

// Fields are the Northbound account's user name and system code, and the region's host.
var Fields = []cloud.Field{{Key: "userName"}, {Key: "systemCode", Secret: true}, {Key: "host", Optional: true}}

// FromCredentials builds a client from the credentials' JSON object; Deps.BaseURL, when
// set, wins over the host.
func FromCredentials(credentials string, d cloud.Deps) (*Client, error) {
	f, err := cloud.ParseFields(credentials, Fields)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", cloud.ErrRefused, err)
	}
	base := d.BaseURL
	if base == "" {
		if base, err = HostURL(f["host"]); err != nil {
			return nil, err
		}
	}
	return New(strings.TrimSpace(f["userName"]), f["systemCode"], base, d.HTTP, d.Count), nil
}

// HostURL turns the host the administrator typed ("eu5.fusionsolar.huawei.com" or its
// https address; empty: BaseURL) into the API's address. Only Huawei's FusionSolar hosts
// are taken: the system code is sent to it.
func HostURL(host string) (string, error) {
	host = strings.TrimSpace(host)
	if host == "" {
		return BaseURL, nil
	}
	if !strings.Contains(host, "://") {
		host = "https://" + host
	}
	u, err := url.Parse(host)
	if err != nil || u.Scheme != "https" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.User != nil ||
		!(u.Hostname() == "fusionsolar.huawei.com" || strings.HasSuffix(u.Hostname(), ".fusionsolar.huawei.com")) {
		return "", fmt.Errorf("%w: host must be a FusionSolar address such as eu5.fusionsolar.huawei.com", cloud.ErrRefused)
	}
	return "https://" + u.Host, nil
}

// broken is the connector of credentials that cannot be read: every call is refused.
type broken struct{ err error }

func (b broken) Sites(context.Context) ([]cloud.Site, error) { return nil, b.err }
func (b broken) DataStart(context.Context, string, *time.Location) (time.Time, error) {
	return time.Time{}, b.err
}
func (b broken) MaxSpan() time.Duration { return DaySpan }
func (b broken) DeviceData(context.Context, string, string, *time.Location, time.Time, time.Time) ([]telemetry.Sample, error) {
	return nil, b.err
}

// Client calls the API with one Northbound account. It logs in at its first call and
// again, once, when a call answers that the session expired.
type Client struct {
	user, code string
	base       string
	hc         *http.Client
	count      cloud.Counter

	mu     sync.Mutex
	token  string
	plants []Plant // the plant list, read once per client
}

// New returns a client; base "" is BaseURL, count (nil: none) is told of each call.
func New(user, systemCode, base string, hc *http.Client, count cloud.Counter) *Client {
	if base == "" {
		base = BaseURL
	}
	if hc == nil {
		hc = &http.Client{Timeout: 60 * time.Second}
	}
	return &Client{user: user, code: systemCode, base: strings.TrimRight(base, "/"), hc: hc, count: count}
}

// RoundCalls is a live round's cost: the login and its data calls (one per ten inverters
// of a plant).
func (c *Client) RoundCalls(dataCalls int) int { return dataCalls + 1 }

// post sends one counted call and answers the envelope and the response.
func (c *Client) post(ctx context.Context, path string, body any, token string) (*Answer, *http.Response, error) {
	if c.count != nil {
		if err := c.count(); err != nil {
			return nil, nil, err
		}
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, nil, err
	}
	req, err := http.NewRequestWithContext(ctx, "POST", c.base+path, bytes.NewReader(b))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if token != "" {
		req.Header.Set(TokenHeader, token)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		return nil, nil, &cloud.TemporaryError{Err: fmt.Errorf("fusionsolar: %s: request failed", path)}
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	switch {
	case resp.StatusCode == http.StatusOK:
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return nil, nil, cloud.ErrRefused
	case resp.StatusCode == http.StatusTooManyRequests:
		return nil, nil, cloud.ErrQuota
	case resp.StatusCode >= 500:
		return nil, nil, &cloud.TemporaryError{Err: fmt.Errorf("fusionsolar: %s answered %d", path, resp.StatusCode)}
	default:
		return nil, nil, fmt.Errorf("fusionsolar: %s answered %d: %.200s", path, resp.StatusCode, raw)
	}
	var a Answer
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, nil, fmt.Errorf("fusionsolar: %s: unreadable answer: %w", path, err)
	}
	return &a, resp, nil
}

// failure maps an answer's failCode to the shared errors.
func failure(path string, a *Answer) error {
	switch {
	case a.FailCode == CodeFrequency:
		return fmt.Errorf("%w (fusionsolar %s: failCode 407, access frequency too high)", cloud.ErrQuota, path)
	case refusedCodes[a.FailCode]:
		return fmt.Errorf("%w (fusionsolar failCode %d)", cloud.ErrRefused, a.FailCode)
	}
	msg := ""
	if a.Message != nil {
		msg = *a.Message
	}
	return fmt.Errorf("fusionsolar: %s failed: failCode %d %.200s", path, a.FailCode, msg)
}

// login opens a session and keeps its token.
func (c *Client) login(ctx context.Context) (string, error) {
	a, resp, err := c.post(ctx, "/thirdData/login", LoginRequest{UserName: c.user, SystemCode: c.code}, "")
	if err != nil {
		return "", err
	}
	if !a.Success || a.FailCode != CodeOK {
		if a.FailCode == CodeRelogin { // no session can be had: the account is refused
			return "", cloud.ErrRefused
		}
		return "", failure("/thirdData/login", a)
	}
	token := resp.Header.Get("xsrf-token")
	if token == "" {
		for _, k := range resp.Cookies() {
			if strings.EqualFold(k.Name, TokenHeader) {
				token = k.Value
			}
		}
	}
	if token == "" {
		return "", errors.New("fusionsolar: the login answered no XSRF-TOKEN")
	}
	c.mu.Lock()
	c.token = token
	c.mu.Unlock()
	return token, nil
}

// call sends body to path within the session (logging in first when there is none, and
// once more when the session expired) and decodes the answer's data into out.
func (c *Client) call(ctx context.Context, path string, body, out any) error {
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
		a, _, err := c.post(ctx, path, body, token)
		if err != nil {
			return err
		}
		if a.FailCode == CodeRelogin && attempt == 0 {
			token = ""
			continue
		}
		if !a.Success || a.FailCode != CodeOK {
			return failure(path, a)
		}
		if out == nil || len(a.Data) == 0 || string(a.Data) == "null" {
			return nil
		}
		if err := json.Unmarshal(a.Data, out); err != nil {
			return fmt.Errorf("fusionsolar: %s: unreadable data: %w", path, err)
		}
		return nil
	}
}
