package httpapi

import (
	"context"
	"net/http"
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
