// Package enphase is the Enphase Monitoring API v4 connector: the account's systems
// (/api/v4/systems, page by page), each system's summary (/systems/{system_id}/summary: size
// and first day) and the production of all a system's microinverters together
// (/systems/{system_id}/telemetry/production_micro, a week a call). Every call carries the
// application's API key as the key query parameter and an OAuth access token as a bearer;
// the token is obtained with the refresh token the administrator gave, which Enphase
// replaces at every refresh (the new one is stored in place of the old). Times are epoch
// seconds (UTC).
//
// A system is one Helio device, "enphase-<system_id>": its microinverters' aggregate
// production. Its lifetime counter is built by summing each interval's energy onto the
// device's stored counter (cloud.Deps.EnergyBefore).
package enphase

import (
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

// BaseURL is Enphase's own API host (the API under /api/v4, the tokens at /oauth/token).
const BaseURL = "https://api.enphaseenergy.com"

// APIPath is the Monitoring API v4's root.
const APIPath = "/api/v4"

// The API's limits (the free Watt plan; the developer portal's plans and each call's rules).
const (
	MonthlyCalls    = 1000                     // calls a month on the Watt plan
	DailyBudget     = MonthlyCalls / 31        // 32 calls a day: the month's calls over its longest month
	MinuteCalls     = 10                       // calls a minute on the Watt plan
	WeekSpan        = 7 * 24 * time.Hour       // production_micro with granularity=week
	HistoryDepth    = 2 * 365 * 24 * time.Hour // telemetry starts at most two years back
	systemsPageSize = 100                      // /systems' largest page
	maxAnswerBytes  = 16 << 20
	// tokenMargin: an access token is renewed this long before Enphase says it expires.
	tokenMargin = 5 * time.Minute
)

// Fields are the credentials the administrator gives: the application's API key, client
// id and secret (Enphase developer portal) and a refresh token obtained once through
// Enphase's authorization-code flow.
var Fields = []cloud.Field{
	{Key: "apiKey", Secret: true},
	{Key: "clientId"},
	{Key: "clientSecret", Secret: true},
	{Key: "refreshToken", Secret: true},
}

// Vendor registers Enphase with the cloud package.
var Vendor = cloud.Vendor{Name: "enphase", Label: "Enphase", DefaultBudget: DailyBudget, Fields: Fields,
	New: func(credentials string, d cloud.Deps) cloud.Connector { return New(credentials, d) }}

// Credentials are the connection's credentials, as stored (a JSON object of the Fields).
type Credentials struct {
	APIKey       string `json:"apiKey"`
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret"`
	RefreshToken string `json:"refreshToken"`
}

// Client calls the API with one application's credentials.
type Client struct {
	creds   Credentials
	bad     bool // the credentials do not read: every call is refused
	base    string
	hc      *http.Client
	count   cloud.Counter
	save    func(ctx context.Context, credentials string) error
	counter func(ctx context.Context, serial string, t time.Time) (float64, error)
	// Pacer keeps the calls under the plan's per-minute limit (shared by every client of
	// the same API key; tests give their own).
	Pacer *Pacer
	// Now is the clock the access token's expiry and the history's depth are judged by.
	Now func() time.Time
}

// New returns a client for credentials (a JSON object of Fields) with d's address, HTTP
// client, counter, credential store and counters.
func New(credentials string, d cloud.Deps) *Client {
	c := &Client{base: d.BaseURL, hc: d.HTTP, count: d.Count, save: d.Save, counter: d.EnergyBefore, Now: time.Now}
	if c.base == "" {
		c.base = BaseURL
	}
	c.base = strings.TrimRight(c.base, "/")
	if c.hc == nil {
		c.hc = &http.Client{Timeout: 60 * time.Second}
	}
	f, err := cloud.ParseFields(credentials, Fields)
	if err != nil {
		c.bad = true
	} else {
		c.creds = Credentials{APIKey: f["apiKey"], ClientID: f["clientId"], ClientSecret: f["clientSecret"], RefreshToken: f["refreshToken"]}
	}
	c.Pacer = pacerFor(c.creds.APIKey)
	return c
}

// token is an access token and the newest refresh token of one set of credentials,
// shared by every client of them in this process: a refresh token is good for one
// refresh, so two clients must not both spend it.
type token struct {
	mu      sync.Mutex
	access  string
	expires time.Time
	refresh string
}

// tokens holds the tokens by API address, client id and refresh token; a refreshed entry
// is found under the old refresh token and the new one.
var tokens sync.Map

func tokenKey(base, clientID, refresh string) string {
	return base + "\x00" + clientID + "\x00" + refresh
}

func (c *Client) entry() *token {
	e, _ := tokens.LoadOrStore(tokenKey(c.base, c.creds.ClientID, c.creds.RefreshToken), &token{refresh: c.creds.RefreshToken})
	return e.(*token)
}

// accessToken answers a token to call with; failed is one the API refused (a refresh is
// made unless another client already replaced it).
func (c *Client) accessToken(ctx context.Context, failed string) (string, error) {
	if c.bad {
		return "", cloud.ErrRefused
	}
	e := c.entry()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.refresh != c.creds.RefreshToken {
		// another client refreshed these credentials: keep its refresh token
		if err := c.store(ctx, e.refresh); err != nil {
			return "", err
		}
	}
	if e.access != "" && e.access != failed && c.Now().Before(e.expires) {
		return e.access, nil
	}
	var a TokenAnswer
	if err := c.refresh(ctx, e.refresh, &a); err != nil {
		return "", err
	}
	e.access, e.expires = a.AccessToken, c.Now().Add(time.Duration(a.ExpiresIn)*time.Second-tokenMargin)
	if a.RefreshToken != "" && a.RefreshToken != e.refresh {
		e.refresh = a.RefreshToken
		tokens.Store(tokenKey(c.base, c.creds.ClientID, a.RefreshToken), e)
		if err := c.store(ctx, a.RefreshToken); err != nil {
			return "", err
		}
	}
	return e.access, nil
}

// store keeps a rotated refresh token: in the client, and sealed in the connection.
func (c *Client) store(ctx context.Context, refresh string) error {
	c.creds.RefreshToken = refresh
	if c.save == nil {
		return nil
	}
	b, _ := json.Marshal(c.creds)
	if err := c.save(ctx, string(b)); err != nil {
		return fmt.Errorf("enphase: unable to keep the new refresh token: %w", err)
	}
	return nil
}

// refresh trades a refresh token for an access token (and a new refresh token).
func (c *Client) refresh(ctx context.Context, refresh string, out *TokenAnswer) error {
	q := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}}
	status, body, err := c.do(ctx, "POST", "/oauth/token?"+q.Encode(), func(r *http.Request) {
		r.SetBasicAuth(c.creds.ClientID, c.creds.ClientSecret)
	})
	if err != nil {
		return err
	}
	switch {
	case status == http.StatusOK:
	case status == http.StatusBadRequest || status == http.StatusUnauthorized || status == http.StatusForbidden:
		// invalid_grant (expired, revoked or already used), or a wrong client id or secret
		return cloud.ErrRefused
	case status == http.StatusTooManyRequests:
		return cloud.ErrQuota
	case status >= 500:
		return &cloud.TemporaryError{Err: fmt.Errorf("enphase: the token endpoint answered %d", status)}
	default:
		return fmt.Errorf("enphase: the token endpoint answered %d: %.200s", status, body)
	}
	if err := json.Unmarshal(body, out); err != nil || out.AccessToken == "" {
		return fmt.Errorf("enphase: unreadable token answer")
	}
	return nil
}

// do makes one HTTP call (paced, counted) and answers its status and body. Errors name
// neither the URL nor its query: they carry the key and tokens.
func (c *Client) do(ctx context.Context, method, pathQuery string, set func(*http.Request)) (int, []byte, error) {
	if err := c.Pacer.Wait(ctx); err != nil {
		return 0, nil, err
	}
	if c.count != nil {
		if err := c.count(); err != nil {
			return 0, nil, err
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+pathQuery, nil)
	if err != nil {
		return 0, nil, errors.New("enphase: unable to build a request")
	}
	req.Header.Set("Accept", "application/json")
	set(req)
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return 0, nil, ctx.Err()
		}
		return 0, nil, &cloud.TemporaryError{Err: errors.New("enphase: request failed")}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	return resp.StatusCode, body, nil
}

// get calls an API path (under APIPath) with query q and decodes the JSON answer into
// out. A refused access token is renewed once; refused again, the credentials are.
func (c *Client) get(ctx context.Context, path string, q url.Values, out any) error {
	if q == nil {
		q = url.Values{}
	}
	q.Set("key", c.creds.APIKey)
	failed := ""
	for attempt := 0; ; attempt++ {
		tok, err := c.accessToken(ctx, failed)
		if err != nil {
			return err
		}
		status, body, err := c.do(ctx, "GET", APIPath+path+"?"+q.Encode(), func(r *http.Request) {
			r.Header.Set("Authorization", "Bearer "+tok)
		})
		if err != nil {
			return err
		}
		switch {
		case status == http.StatusOK:
			if err := json.Unmarshal(body, out); err != nil {
				return fmt.Errorf("enphase: %s: unreadable answer: %w", path, err)
			}
			return nil
		case status == http.StatusUnauthorized && attempt == 0:
			failed = tok // expired or revoked: renew it once
			continue
		case status == http.StatusUnauthorized || status == http.StatusForbidden:
			return cloud.ErrRefused
		case status == http.StatusTooManyRequests:
			// the body's period says which of the plan's limits is spent: the minute's
			// (another program shares the key) passes within minutes, so it is tried
			// again with the worker's back-off; the month's waits for the next day
			var e ErrorAnswer
			_ = json.Unmarshal(body, &e)
			if strings.EqualFold(e.Period, "minute") {
				return &cloud.TemporaryError{Err: fmt.Errorf("enphase: the plan's calls of the minute are spent")}
			}
			return cloud.ErrQuota
		case status >= 500:
			return &cloud.TemporaryError{Err: fmt.Errorf("enphase: %s answered %d", path, status)}
		default:
			var e ErrorAnswer
			_ = json.Unmarshal(body, &e)
			return fmt.Errorf("enphase: %s answered %d: %.200s", path, status, e.Details)
		}
	}
}

// Serial is the Helio serial number of a system: its production as one device.
func Serial(systemID string) string { return "enphase-" + systemID }

// Sites lists every system of the account (/systems, 100 a page) with its summary (size
// and module count; one call a system). Each system is one device.
func (c *Client) Sites(ctx context.Context) ([]cloud.Site, error) {
	var systems []System
	for page := 1; ; page++ {
		var a SystemsAnswer
		q := url.Values{"page": {strconv.Itoa(page)}, "size": {strconv.Itoa(systemsPageSize)}}
		if err := c.get(ctx, "/systems", q, &a); err != nil {
			return nil, err
		}
		systems = append(systems, a.Systems...)
		if len(a.Systems) < systemsPageSize || page*systemsPageSize >= a.Total {
			break
		}
	}
	out := make([]cloud.Site, 0, len(systems))
	for _, s := range systems {
		id := strconv.FormatInt(s.SystemID, 10)
		var sum SummaryAnswer
		if err := c.get(ctx, "/systems/"+id+"/summary", nil, &sum); err != nil {
			return nil, err
		}
		kw := float64(max(sum.SizeW, 0)) / 1000
		site := cloud.Site{ID: id, Name: s.Name, TimeZone: s.TimeZone, PeakKW: kw, Country: s.Address.Country,
			Address: address(s.Address)}
		model := "Enphase microinverters"
		if sum.Modules > 0 {
			model = fmt.Sprintf("Enphase microinverters (%d modules)", sum.Modules)
		}
		site.Devices = []cloud.RemoteDevice{{Serial: Serial(id), Name: s.Name, Model: model, Type: "inverter", KWp: kw}}
		out = append(out, site)
	}
	return out, nil
}

func address(a Address) string {
	var parts []string
	for _, p := range []string{a.City, strings.TrimSpace(a.State + " " + a.PostalCode)} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

// DataStart is the system's first day (the summary's operational_at, at local midnight),
// or the earliest day the telemetry still reaches (two years back).
func (c *Client) DataStart(ctx context.Context, siteID string, loc *time.Location) (time.Time, error) {
	var sum SummaryAnswer
	if err := c.get(ctx, "/systems/"+url.PathEscape(siteID)+"/summary", nil, &sum); err != nil {
		return time.Time{}, err
	}
	earliest := midnight(c.Now().Add(-HistoryDepth).AddDate(0, 0, 1), loc)
	if sum.OperationalAt <= 0 {
		return earliest, nil
	}
	start := midnight(time.Unix(sum.OperationalAt, 0), loc)
	if start.Before(earliest) {
		start = earliest
	}
	return start, nil
}

func midnight(t time.Time, loc *time.Location) time.Time {
	l := t.In(loc)
	return time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, loc)
}

// MaxSpan is a week: production_micro's coarsest granularity, one call.
func (c *Client) MaxSpan() time.Duration { return WeekSpan }
