package ingest

import (
	"fmt"
	"net/http"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
)

// RuleRoutes registers the administrator's calls of line-protocol ingest: the rules and
// the series that arrived without one.
func (s *LineService) RuleRoutes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/ingest/line/rules", Tag: "ingest", Summary: "The organisation's line-protocol rules (measurement and field to device and sample field)",
		Access: httpapi.Admin, Resp: LineRules{}, Handle: s.rules})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/ingest/line/rules", Tag: "ingest", Summary: "Replace the organisation's line-protocol rules",
		Access: httpapi.Admin, Body: LineRules{}, Resp: LineRules{}, Handle: s.saveRules})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/ingest/line/unknown", Tag: "ingest", Summary: "Series that arrived without a rule or a device, most recent first",
		Access: httpapi.Admin, Resp: []UnknownSeries{}, Handle: s.unknown})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/ingest/line/unknown/clear", Tag: "ingest", Summary: "Empty the list of unmapped series (after mapping them)",
		Access: httpapi.Admin, Handle: s.clearUnknown})
}

func (s *LineService) rules(r *http.Request) (any, error) {
	out, err := LoadLineRules(r.Context(), s.DB, httpapi.Caller(r).OrgID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return out, nil
}

func (s *LineService) saveRules(r *http.Request) (any, error) {
	var in LineRules
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if in.Rules == nil { // [] clears the rules; a body without the list is a mistake
		var v httpapi.Validator
		v.Add("rules", "required")
		return nil, v.Err()
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	if err := SaveLineRules(r.Context(), s.DB, p.OrgID, in); err != nil {
		return nil, httpapi.Internal(err)
	}
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "ingest.line_rules", "", fmt.Sprintf("%d rules", len(in.Rules)), httpapi.ClientAddr(r))
	return in, nil
}

func (s *LineService) unknown(r *http.Request) (any, error) {
	out, err := ListUnknown(r.Context(), s.DB, httpapi.Caller(r).OrgID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return out, nil
}

func (s *LineService) clearUnknown(r *http.Request) (any, error) {
	p := httpapi.Caller(r)
	if _, err := s.DB.Exec(r.Context(), "DELETE FROM line_unknown WHERE org_id = ?", p.OrgID); err != nil {
		return nil, httpapi.Internal(fmt.Errorf("ingest: unable to clear unmapped series: %w", err))
	}
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "ingest.line_unknown_clear", "", "", httpapi.ClientAddr(r))
	return nil, nil
}
