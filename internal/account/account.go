// Package account serves the organisation calls (departments with their station grants,
// roles, users and account cancellation) and the signed-in user's own settings (profile,
// avatar, security, configuration, enterprise certification). The records live in
// internal/org; sign-in and sessions in internal/auth.
package account

import (
	"context"
	"errors"
	"net/http"
	"regexp"
	"strings"

	"github.com/helio-energy/helio/internal/auth"
	"github.com/helio-energy/helio/internal/blob"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

// Service holds what the calls need.
type Service struct {
	DB    *store.DB
	Auth  *auth.Service
	Blobs blob.Store
	// Revoked is told, after the change is stored, that a user's sessions were ended
	// (disabled, deleted, password reset) so live connections can be closed at once.
	Revoked func(ctx context.Context, userID int64)
}

// Routes registers every organisation and account call.
func (s *Service) Routes(api *httpapi.API) {
	s.deptRoutes(api)
	s.userRoutes(api)
	s.selfRoutes(api)
	s.certRoutes(api)
	s.orgSettingsRoutes(api)
	s.moneyRoutes(api)
}

func (s *Service) revoked(ctx context.Context, userID int64) {
	if s.Revoked != nil {
		s.Revoked(ctx, userID)
	}
}

var (
	usernameRe = regexp.MustCompile(`^[A-Za-z0-9_.-]{3,32}$`)
	emailRe    = regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)
	phoneRe    = regexp.MustCompile(`^\+?[0-9][0-9 -]{4,19}$`)
	urlRe      = regexp.MustCompile(`^https?://[^\s]+$`)
)

func checkEmail(v *httpapi.Validator, field, value string, required bool) {
	if value == "" {
		if required {
			v.Add(field, "required")
		}
		return
	}
	v.MaxLen(field, value, 100)
	if !emailRe.MatchString(value) {
		v.Add(field, "email_format")
	}
}

func checkPhone(v *httpapi.Validator, field, value string, required bool) {
	if value == "" {
		if required {
			v.Add(field, "required")
		}
		return
	}
	if !phoneRe.MatchString(value) {
		v.Add(field, "phone_format")
	}
}

// checkNewPassword applies the one password rule and the confirmation.
func checkNewPassword(v *httpapi.Validator, field, pw, confirm string, hasConfirm bool) {
	if pw == "" {
		v.Add(field, "required")
	} else if k := auth.PasswordProblem(pw); k != "" {
		v.Add(field, k)
	}
	v.MaxLen(field, pw, 128)
	if hasConfirm && confirm != pw {
		v.Add("confirmPassword", "password_mismatch")
	}
}

// targetUser loads the {uid} user if it is a live account of the caller's organisation;
// any other id answers 404.
func (s *Service) targetUser(r *http.Request) (*org.User, error) {
	id, err := httpapi.PathID(r, "uid")
	if err != nil {
		return nil, err
	}
	u, err := org.UserByID(r.Context(), s.DB, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && (u.OrgID != httpapi.Caller(r).OrgID || u.Status < 0)) {
		return nil, httpapi.NotFound()
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return u, nil
}

func trim(ps ...*string) {
	for _, p := range ps {
		*p = strings.TrimSpace(*p)
	}
}
