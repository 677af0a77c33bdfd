package auth_test

import (
	"net/http/httptest"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
	"github.com/helio-energy/helio/internal/auth"
)

// TestBearerSchemeAnyCase: the scheme's name is matched in any case (RFC 7235, 2.1) and
// blanks around the token do not matter; another scheme or none gives no token. Through
// the server: a signed call with "bearer" and "BEARER" is let in.
func TestBearerSchemeAnyCase(t *testing.T) {
	for header, want := range map[string]string{
		"Bearer abc":     "abc",
		"bearer abc":     "abc",
		"BEARER   abc  ": "abc",
		" Bearer abc":    "abc",
		"Basic abc":      "",
		"Bearerabc":      "",
		"abc":            "",
		"":               "",
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Authorization", header)
		if got := auth.BearerToken(r); got != want {
			t.Errorf("%q: token %q, want %q", header, got, want)
		}
	}

	e := apitest.New(t)
	token := e.Tokens["admin"]
	for _, scheme := range []string{"bearer", "BEARER", "Bearer"} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/v2/user/info", nil)
		req.Header.Set("Authorization", scheme+" "+token)
		e.Server.API.ServeHTTP(rec, req)
		if rec.Code != 200 {
			t.Errorf("%s: %d %s", scheme, rec.Code, rec.Body.String())
		}
	}
}
