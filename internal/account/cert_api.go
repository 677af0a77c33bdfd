package account

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

// CertInput is the body of POST /v2/user/certification/submit.
type CertInput struct {
	AccountType        string `json:"accountType" validate:"required" doc:"enterprise or individual"`
	LegalPerson        string `json:"legalPerson" validate:"required"`
	LegalCertType      string `json:"legalCertType" validate:"required" doc:"id_card, passport or other"`
	LegalCertNumber    string `json:"legalCertNumber" validate:"required"`
	EnterpriseName     string `json:"enterpriseName" validate:"required"`
	EnterpriseCertType string `json:"enterpriseCertType" validate:"required" doc:"business_license, uscc or other"`
	OrganizationCode   string `json:"organizationCode" validate:"required"`
}

// RefuseInput is the body of POST /v2/org/certification/refuse/{id}.
type RefuseInput struct {
	Reason string `json:"reason" validate:"required"`
}

// CertQuery filters the organisation's certification records.
type CertQuery struct {
	Status string `query:"status" enum:"auditing,passed,refused,withdrawn" doc:"auditing, passed, refused or withdrawn; empty: all"`
}

func (s *Service) certRoutes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/user/certification/list", Tag: "user", Summary: "Your enterprise certification records",
		Access: httpapi.Signed, Resp: []org.Certification{}, Handle: s.myCerts})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/user/certification/submit", Tag: "user", Summary: "Submit an enterprise certification for audit",
		Access: httpapi.Signed, Body: CertInput{}, Resp: Created{}, Handle: s.submitCert})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/user/certification/withdraw/{id}", Tag: "user", Summary: "Withdraw your certification while it is being audited",
		Access: httpapi.Signed, Handle: s.withdrawCert})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/org/certification/list", Tag: "org", Summary: "The organisation's certification records",
		Access: httpapi.Admin, Query: CertQuery{}, Resp: []org.Certification{}, Handle: s.orgCerts})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/org/certification/pass/{id}", Tag: "org", Summary: "Pass a certification being audited",
		Access: httpapi.Admin, Handle: s.decideCert(org.CertPass)})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/org/certification/refuse/{id}", Tag: "org", Summary: "Refuse a certification being audited, with the reason",
		Access: httpapi.Admin, Body: RefuseInput{}, Handle: s.decideCert(org.CertRefuse)})
}

func (s *Service) myCerts(r *http.Request) (any, error) {
	p := httpapi.Caller(r)
	list, err := org.CertsOf(r.Context(), s.DB, p.OrgID, p.UserID, "")
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return list, nil
}

func (s *Service) orgCerts(r *http.Request) (any, error) {
	st := httpapi.Query[CertQuery](r).Status
	list, err := org.CertsOf(r.Context(), s.DB, httpapi.Caller(r).OrgID, 0, st)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return list, nil
}

func (s *Service) submitCert(r *http.Request) (any, error) {
	var in CertInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	trim(&in.AccountType, &in.LegalPerson, &in.LegalCertType, &in.LegalCertNumber, &in.EnterpriseName,
		&in.EnterpriseCertType, &in.OrganizationCode)
	var v httpapi.Validator
	if v.Required("accountType", in.AccountType) {
		v.OneOf("accountType", in.AccountType, "enterprise", "individual")
	}
	if v.Required("legalCertType", in.LegalCertType) {
		v.OneOf("legalCertType", in.LegalCertType, "id_card", "passport", "other")
	}
	if v.Required("enterpriseCertType", in.EnterpriseCertType) {
		v.OneOf("enterpriseCertType", in.EnterpriseCertType, "business_license", "uscc", "other")
	}
	for field, val := range map[string]string{"legalPerson": in.LegalPerson, "legalCertNumber": in.LegalCertNumber,
		"enterpriseName": in.EnterpriseName, "organizationCode": in.OrganizationCode} {
		if v.Required(field, val) {
			v.MaxLen(field, val, 100)
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	c := &org.Certification{AccountType: in.AccountType, LegalPerson: in.LegalPerson, LegalCertType: in.LegalCertType,
		LegalCertNumber: in.LegalCertNumber, EnterpriseName: in.EnterpriseName, EnterpriseCertType: in.EnterpriseCertType,
		OrganizationCode: in.OrganizationCode}
	err := org.SubmitCert(r.Context(), s.DB, p.OrgID, p.UserID, c)
	if errors.Is(err, org.ErrTransition) {
		return nil, httpapi.Conflict("cert_open")
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	httpapi.LogChange(r.Context(), nil, in)
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "cert.submit", in.EnterpriseName, strconv.FormatInt(c.ID, 10), httpapi.ClientAddr(r))
	return Created{ID: c.ID}, nil
}

func (s *Service) targetCert(r *http.Request) (*org.Certification, error) {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return nil, err
	}
	c, err := org.CertByID(r.Context(), s.DB, httpapi.Caller(r).OrgID, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.NotFound()
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return c, nil
}

func (s *Service) apply(r *http.Request, c *org.Certification, action, reason string) (any, error) {
	p := httpapi.Caller(r)
	err := org.DecideCert(r.Context(), s.DB, c, action, p.UserID, reason)
	if errors.Is(err, org.ErrTransition) {
		return nil, httpapi.Conflict("cert_transition", c.Status)
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	next, _ := org.NextCertStatus(c.Status, action)
	httpapi.LogChange(r.Context(), map[string]string{"status": c.Status}, map[string]string{"status": next, "reason": reason})
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "cert."+action, c.EnterpriseName, strconv.FormatInt(c.ID, 10), httpapi.ClientAddr(r))
	return nil, nil
}

func (s *Service) withdrawCert(r *http.Request) (any, error) {
	c, err := s.targetCert(r)
	if err != nil {
		return nil, err
	}
	if c.UserID != httpapi.Caller(r).UserID {
		return nil, httpapi.NotFound()
	}
	return s.apply(r, c, org.CertWithdraw, "")
}

func (s *Service) decideCert(action string) func(r *http.Request) (any, error) {
	return func(r *http.Request) (any, error) {
		c, err := s.targetCert(r)
		if err != nil {
			return nil, err
		}
		reason := ""
		if action == org.CertRefuse {
			var in RefuseInput
			if err := httpapi.Decode(r, &in); err != nil {
				return nil, err
			}
			var v httpapi.Validator
			if v.Required("reason", in.Reason) {
				v.MaxLen("reason", in.Reason, 200)
			}
			if err := v.Err(); err != nil {
				return nil, err
			}
			reason = in.Reason
		}
		return s.apply(r, c, action, reason)
	}
}
