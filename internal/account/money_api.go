package account

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/money"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

func (s *Service) moneyRoutes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/org/money", Tag: "org", Summary: "The organisation's base currency and dated rates",
		Access: httpapi.Admin, Resp: money.Book{}, Handle: s.money})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/org/money", Tag: "org", Summary: "Set the base currency and replace the dated rates (every total is shown in the base currency)",
		Access: httpapi.Admin, Body: money.Book{}, Resp: money.Book{}, Handle: s.moneySave})
}

func (s *Service) money(r *http.Request) (any, error) {
	b, err := money.Load(r.Context(), s.DB, httpapi.Caller(r).OrgID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.NotFound()
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return b, nil
}

func (s *Service) moneySave(r *http.Request) (any, error) {
	var in money.Book
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if in.Rates == nil {
		in.Rates = []money.Rate{}
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	if err := money.Save(r.Context(), s.DB, p.OrgID, &in); err != nil {
		return nil, httpapi.Internal(err)
	}
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "org.money", in.Base, fmt.Sprintf("%d rates", len(in.Rates)), httpapi.ClientAddr(r))
	return in, nil
}
