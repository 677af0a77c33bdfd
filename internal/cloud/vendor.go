// Package cloud connects an organisation to a vendor's monitoring cloud (SolarEdge,
// FusionSolar, iSolarCloud, Enphase): the connection record with its sealed
// credentials, discovery of sites and devices, and the sync worker that back-fills history
// and then follows each device within the vendor's daily quota. A vendor is a Connector;
// everything else here is shared. docs/ingest.md, "Vendor clouds".
package cloud

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/telemetry"
)

// Site is a vendor site as discovery shows it, with its devices.
type Site struct {
	ID       string         `json:"id"`
	Name     string         `json:"name"`
	TimeZone string         `json:"timeZone" doc:"IANA zone the vendor reports the site's local times in"`
	PeakKW   float64        `json:"peakKw"`
	Country  string         `json:"country" doc:"ISO 3166-1 alpha-2 when the vendor gives it"`
	Currency string         `json:"currency" doc:"ISO 4217 when the vendor gives it"`
	Address  string         `json:"address"`
	Devices  []RemoteDevice `json:"devices"`
}

// RemoteDevice is a vendor device (an inverter) found under a site.
type RemoteDevice struct {
	Serial string  `json:"serial"`
	Name   string  `json:"name"`
	Model  string  `json:"model"`
	Type   string  `json:"type" doc:"Helio device type: inverter"`
	KWp    float64 `json:"kwp" doc:"PV array behind it, kWp (0: not reported)"`
	// Key is the vendor's own handle for the device's data calls where that is not the
	// serial number (iSolarCloud's ps_key); empty: the serial number.
	Key string `json:"-"`
}

// DataKey is what DeviceData is given for the device: its Key, or its serial number.
func (d RemoteDevice) DataKey() string {
	if d.Key != "" {
		return d.Key
	}
	return d.Serial
}

// Connector is one vendor's client, built per connection from its credentials. Every HTTP
// call it makes is one call of the vendor's quota and is reported through the Counter it
// was built with before it is sent.
type Connector interface {
	// Sites lists the account's sites and their devices.
	Sites(ctx context.Context) ([]Site, error)
	// DataStart is the first day the vendor holds data for the site.
	DataStart(ctx context.Context, siteID string, loc *time.Location) (time.Time, error)
	// MaxSpan is the longest range one DeviceData call may ask for.
	MaxSpan() time.Duration
	// DeviceData returns the device's readings in (from, to], oldest first, with Time set
	// and DeviceID left 0; key is the device's RemoteDevice.DataKey.
	DeviceData(ctx context.Context, siteID, key string, loc *time.Location, from, to time.Time) ([]telemetry.Sample, error)
}

// Counter is told of every call a connector is about to make; it answers ErrQuota when the
// connection's budget for the day is spent, and the call is then not made.
type Counter func() error

// Deps is what a connector is built with besides its credentials.
type Deps struct {
	// BaseURL is the API's address (empty: the vendor's own; tests point it at a stand-in).
	BaseURL string
	HTTP    *http.Client
	// Count is told of every call before it is made (nil: nothing counted).
	Count Counter
	// Save seals and stores new credentials in place of the connection's (a vendor that
	// rotates its refresh tokens); nil where nothing can be stored (a preview).
	Save func(ctx context.Context, credentials string) error
	// EnergyBefore answers the stored lifetime counter (kWh) of the connection's device of
	// this serial number just before t, for a vendor that reports energy per interval: its
	// readings' counters continue from it (telemetry.Reader.CountersBefore, the rule history
	// files' interval energy follows). 0 for a device without readings; nil in a preview.
	EnergyBefore func(ctx context.Context, serial string, t time.Time) (float64, error)
}

// Factory builds a vendor's connector from the plain credentials (one secret, or for a
// vendor with several fields a JSON object of them: Fields).
type Factory func(credentials string, d Deps) Connector

// Vendor describes a vendor the connections may name.
type Vendor struct {
	Name  string
	Label string // the brand name, the same in every language
	// DefaultBudget is the calls a day one key may spend (a monthly plan divided by 31).
	DefaultBudget int
	// Fields are the credentials the administrator gives. One field: the credentials are
	// that secret as typed. Several: a JSON object of them, keyed by Field.Key.
	Fields []Field
	New    Factory
}

// Field is one credential the administrator types; its label is the console's
// "cloud.field.<key>" text.
type Field struct {
	Key    string `json:"key"`
	Secret bool   `json:"secret" doc:"typed in a password box"`
	// Optional fields may stay empty.
	Optional bool `json:"optional"`
}

// ParseFields reads credentials of several fields (a JSON object of strings) and answers
// each field's value; an error names the first missing one.
func ParseFields(credentials string, fields []Field) (map[string]string, error) {
	out := map[string]string{}
	if err := json.Unmarshal([]byte(credentials), &out); err != nil {
		return nil, fmt.Errorf("cloud: credentials are not a JSON object of strings: %w", err)
	}
	for _, f := range fields {
		if !f.Optional && strings.TrimSpace(out[f.Key]) == "" {
			return nil, &MissingFieldError{Key: f.Key}
		}
	}
	return out, nil
}

// MissingFieldError names a required credential that was left empty.
type MissingFieldError struct{ Key string }

func (e *MissingFieldError) Error() string { return "cloud: credential " + e.Key + " is required" }

// The errors a connector answers with, by what the worker does about them.
var (
	// ErrRefused: the vendor refused the credentials (expired, revoked, mistyped). The
	// connection stops until the administrator gives new ones.
	ErrRefused = errors.New("cloud: the vendor refused the credentials")
	// ErrQuota: the day's calls are spent (ours, or the vendor said 429). Sync resumes
	// the next day where it stopped.
	ErrQuota = errors.New("cloud: the day's quota of calls is spent")
)

// TemporaryError is a failure worth trying again later (5xx, a network fault).
type TemporaryError struct{ Err error }

func (e *TemporaryError) Error() string { return fmt.Sprintf("cloud: vendor unavailable: %v", e.Err) }
func (e *TemporaryError) Unwrap() error { return e.Err }
