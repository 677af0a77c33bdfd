package cloud

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

// Service is the administrator's calls of vendor-cloud connections.
type Service struct {
	Worker *Worker
}

// ConnectionInput adds or edits a connection. Credentials are write-only: no answer ever
// carries them; empty on an edit keeps the stored ones.
type ConnectionInput struct {
	Vendor      string `json:"vendor" validate:"required" doc:"a vendor's name (GET /v2/cloud/vendors): solaredge, isolarcloud, enphase, …"`
	Name        string `json:"name" validate:"required"`
	Credentials string `json:"credentials" doc:"the vendor's one secret as typed, or for a vendor of several fields (GET /v2/cloud/vendors) a JSON object of them; required when adding, empty on an edit keeps the stored ones"`
	DailyBudget int    `json:"dailyBudget" doc:"calls a day (0: the vendor's default, GET /v2/cloud/vendors)"`
}

// ConfirmInput is the administrator's choice after discovery.
type ConfirmInput struct {
	Sites []Pick `json:"sites" validate:"required"`
}

// Routes registers the calls (administrators only, their organisation's connections only).
func (s *Service) Routes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/cloud/connections", Tag: "cloud", Summary: "The organisation's vendor-cloud connections: state, quota used today, next sync, last error",
		Access: httpapi.Admin, Resp: []Connection{}, Handle: s.list})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/cloud/vendors", Tag: "cloud", Summary: "The vendors a connection may name, with the credentials each needs and its default daily budget",
		Access: httpapi.Admin, Resp: []VendorInfo{}, Handle: s.vendors})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/cloud/connection/add", Tag: "cloud", Summary: "Connect a vendor cloud account (credentials are sealed and never shown again)",
		Access: httpapi.Admin, Body: ConnectionInput{}, Resp: Connection{}, Handle: s.add})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/cloud/connection/edit/{id}", Tag: "cloud", Summary: "Rename a connection, change its daily budget or give new credentials",
		Access: httpapi.Admin, Body: ConnectionInput{}, Resp: Connection{}, Handle: s.edit})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/cloud/connection/delete/{id}", Tag: "cloud", Summary: "Delete a connection (its stations, devices and data stay)",
		Access: httpapi.Admin, Handle: s.delete})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/cloud/connection/discover/{id}", Tag: "cloud", Summary: "The sites and devices the vendor lists, marked with those Helio already has (costs 1 call plus 1 per site)",
		Access: httpapi.Admin, Resp: []FoundSite{}, Handle: s.discover})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/cloud/connection/confirm/{id}", Tag: "cloud", Summary: "Create the chosen stations and devices and start syncing them, history first",
		Access: httpapi.Admin, Body: ConfirmInput{}, Resp: Confirmed{}, Handle: s.confirm})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/cloud/connection/sync/{id}", Tag: "cloud", Summary: "Sync the connection now (within its budget)",
		Access: httpapi.Admin, Resp: Connection{}, Handle: s.syncNow})
}

func (s *Service) vendorNames() []string {
	names := make([]string, 0, len(s.Worker.Vendors))
	for n := range s.Worker.Vendors {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (s *Service) validate(in *ConnectionInput, adding bool) error {
	var v httpapi.Validator
	in.Name = strings.TrimSpace(in.Name)
	if v.Required("vendor", in.Vendor) {
		v.OneOf("vendor", in.Vendor, s.vendorNames()...)
	}
	if v.Required("name", in.Name) {
		v.MaxLen("name", in.Name, 100)
	}
	if adding {
		v.Required("credentials", in.Credentials)
	}
	v.MaxLen("credentials", in.Credentials, 4096)
	if vendor, ok := s.Worker.Vendors[in.Vendor]; ok && in.Credentials != "" {
		checkCredentials(&v, vendor, in.Credentials)
	}
	v.Range("dailyBudget", float64(in.DailyBudget), 0, 100000)
	if err := v.Err(); err != nil {
		return err
	}
	if in.DailyBudget == 0 {
		in.DailyBudget = s.Worker.Vendors[in.Vendor].DefaultBudget
	}
	return nil
}

// checkCredentials: one secret has no blanks; several fields are a JSON object with every
// required field given (the error names the field: "credentials.appKey").
func checkCredentials(v *httpapi.Validator, vendor Vendor, credentials string) {
	if len(vendor.Fields) <= 1 {
		if strings.ContainsAny(credentials, "\r\n\t ") {
			v.Add("credentials", "invalid_format")
		}
		return
	}
	_, err := ParseFields(credentials, vendor.Fields)
	var missing *MissingFieldError
	switch {
	case errors.As(err, &missing):
		v.Add("credentials."+missing.Key, "required")
	case err != nil:
		v.Add("credentials", "invalid_format")
	}
}

// VendorInfo is a vendor as the console's connection form needs it.
type VendorInfo struct {
	Name          string  `json:"name"`
	Label         string  `json:"label"`
	DefaultBudget int     `json:"defaultBudget" doc:"calls a day"`
	Fields        []Field `json:"fields"`
}

func (s *Service) vendors(*http.Request) (any, error) {
	out := make([]VendorInfo, 0, len(s.Worker.Vendors))
	for _, n := range s.vendorNames() {
		v := s.Worker.Vendors[n]
		out = append(out, VendorInfo{Name: v.Name, Label: v.Label, DefaultBudget: v.DefaultBudget, Fields: v.Fields})
	}
	return out, nil
}

// fail turns the package's errors into answers the administrator can act on.
func fail(err error) error {
	var temp *TemporaryError
	switch {
	case errors.Is(err, store.ErrNotFound):
		return httpapi.NotFound()
	case errors.Is(err, ErrNoSecretKey):
		return httpapi.InvalidField("credentials", "cloud_no_secret_key")
	case errors.Is(err, ErrNameTaken):
		return httpapi.InvalidField("name", "cloud_name_taken")
	case errors.Is(err, ErrRefused):
		return httpapi.Conflict("cloud_refused")
	case errors.Is(err, ErrQuota):
		return httpapi.TooManyRequests("cloud_quota")
	case errors.Is(err, ErrNotOffered):
		return httpapi.InvalidField("sites", "cloud_not_offered")
	case errors.As(err, &temp):
		return &httpapi.Error{Status: http.StatusBadGateway, Code: http.StatusBadGateway, Key: "cloud_vendor_unavailable"}
	}
	return httpapi.Internal(err)
}

func (s *Service) list(r *http.Request) (any, error) {
	out, err := s.Worker.Store.List(r.Context(), httpapi.Caller(r).OrgID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return out, nil
}

func (s *Service) add(r *http.Request) (any, error) {
	var in ConnectionInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if err := s.validate(&in, true); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	c, err := s.Worker.Store.Create(r.Context(), p.OrgID, in.Vendor, in.Name, in.Credentials, in.DailyBudget)
	if err != nil {
		return nil, fail(err)
	}
	org.Audit(r.Context(), s.Worker.Store.DB, p.OrgID, p.UserID, "cloud.add", in.Vendor, in.Name, httpapi.ClientAddr(r))
	return c, nil
}

// connection loads the path's connection of the caller's organisation (another's: 404).
func (s *Service) connection(r *http.Request) (*Connection, error) {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return nil, err
	}
	c, err := s.Worker.Store.Get(r.Context(), httpapi.Caller(r).OrgID, id)
	if err != nil {
		return nil, fail(err)
	}
	return c, nil
}

func (s *Service) edit(r *http.Request) (any, error) {
	c, err := s.connection(r)
	if err != nil {
		return nil, err
	}
	var in ConnectionInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if err := s.validate(&in, false); err != nil {
		return nil, err
	}
	if in.Vendor != c.Vendor {
		return nil, httpapi.InvalidField("vendor", "cloud_vendor_fixed")
	}
	p := httpapi.Caller(r)
	out, err := s.Worker.Store.Update(r.Context(), p.OrgID, c.ID, in.Name, in.Credentials, in.DailyBudget)
	if err != nil {
		return nil, fail(err)
	}
	what := in.Name
	if in.Credentials != "" {
		what += " (new credentials)"
	}
	org.Audit(r.Context(), s.Worker.Store.DB, p.OrgID, p.UserID, "cloud.edit", c.Vendor, what, httpapi.ClientAddr(r))
	return out, nil
}

func (s *Service) delete(r *http.Request) (any, error) {
	c, err := s.connection(r)
	if err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	if err := s.Worker.Store.Delete(r.Context(), p.OrgID, c.ID); err != nil {
		return nil, fail(err)
	}
	org.Audit(r.Context(), s.Worker.Store.DB, p.OrgID, p.UserID, "cloud.delete", c.Vendor, c.Name, httpapi.ClientAddr(r))
	return nil, nil
}

func (s *Service) discover(r *http.Request) (any, error) {
	c, err := s.connection(r)
	if err != nil {
		return nil, err
	}
	out, err := s.Worker.Discover(context.WithoutCancel(r.Context()), c)
	if err != nil {
		return nil, fail(err)
	}
	return out, nil
}

func (s *Service) confirm(r *http.Request) (any, error) {
	c, err := s.connection(r)
	if err != nil {
		return nil, err
	}
	var in ConfirmInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	var v httpapi.Validator
	if in.Sites == nil {
		v.Add("sites", "required")
	}
	if len(in.Sites) > 500 {
		v.Add("sites", "too_long", 500)
	}
	for _, p := range in.Sites {
		if strings.TrimSpace(p.SiteID) == "" || len(p.SiteID) > 64 || p.StationID < 0 || len(p.Serials) > 1000 ||
			slices.ContainsFunc(p.Serials, func(s string) bool { return s == "" || len(s) > 64 }) {
			v.Add("sites", "invalid_format")
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	for _, pick := range in.Sites { // a chosen station must be the organisation's
		if pick.StationID != 0 {
			var n int
			if err := s.Worker.Store.DB.QueryRow(r.Context(), "SELECT COUNT(*) FROM stations WHERE id = ? AND org_id = ?",
				pick.StationID, p.OrgID).Scan(&n); err != nil {
				return nil, httpapi.Internal(err)
			}
			if n == 0 {
				return nil, httpapi.InvalidField("stationId", "not_found")
			}
		}
	}
	out, err := s.Worker.Confirm(context.WithoutCancel(r.Context()), c, in.Sites, p.DeptID)
	if err != nil {
		return nil, fail(err)
	}
	org.Audit(r.Context(), s.Worker.Store.DB, p.OrgID, p.UserID, "cloud.confirm", c.Vendor, c.Name, httpapi.ClientAddr(r))
	return out, nil
}

func (s *Service) syncNow(r *http.Request) (any, error) {
	c, err := s.connection(r)
	if err != nil {
		return nil, err
	}
	out, err := s.Worker.Store.SyncNow(r.Context(), c.OrgID, c.ID)
	if err != nil {
		return nil, fail(err)
	}
	return out, nil
}
