package account

import (
	"errors"
	"net/http"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

func (s *Service) orgSettingsRoutes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/org/settings", Tag: "org", Summary: "The organisation's name and time zone",
		Access: httpapi.Admin, Resp: org.Settings{}, Handle: s.orgSettings})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/org/settings", Tag: "org", Summary: "Rename the organisation and set its time zone (the one scheduled reports keep)",
		Access: httpapi.Admin, Body: org.Settings{}, Resp: org.Settings{}, Handle: s.orgSettingsSave})
}

func (s *Service) orgSettings(r *http.Request) (any, error) {
	st, err := org.LoadSettings(r.Context(), s.DB, httpapi.Caller(r).OrgID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.NotFound()
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return st, nil
}

func (s *Service) orgSettingsSave(r *http.Request) (any, error) {
	var in org.Settings
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	if err := org.SaveSettings(r.Context(), s.DB, p.OrgID, in); err != nil {
		return nil, httpapi.Internal(err)
	}
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "org.settings", in.Name, in.Timezone, httpapi.ClientAddr(r))
	return in, nil
}
