package httpapi

import (
	"context"
	"net/http"
	"strconv"
)

// Principal is the signed-in caller, resolved from the session on every call.
type Principal struct {
	UserID           int64
	OrgID            int64
	DeptID           int64
	Username         string
	Role             string // "admin" or "user"
	StationAuthority string // "all", "own" or "authorized"
	TokenHash        string
}

// ViewKey names what the caller may see: their organisation, role and station authority
// (with the department it is measured from). Callers with equal keys see the same stations
// with the same rights.
func (p *Principal) ViewKey() string {
	k := strconv.FormatInt(p.OrgID, 10) + "/" + p.Role + "/" + p.StationAuthority
	if p.StationAuthority != "all" {
		k += "/" + strconv.FormatInt(p.DeptID, 10)
	}
	return k
}

// IsAdmin reports whether the caller is a super administrator.
func (p *Principal) IsAdmin() bool { return p.Role == "admin" }

type principalKey struct{}

// WithPrincipal stores the caller in a context.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// Caller returns the signed-in caller. Handlers behind Auth >= Signed always have one.
func Caller(r *http.Request) *Principal {
	p, _ := r.Context().Value(principalKey{}).(*Principal)
	return p
}
