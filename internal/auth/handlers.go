package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

// Service holds what the sign-in calls need.
type Service struct {
	DB       *store.DB
	Sessions *Sessions
	Limiter  *Limiter
	// Hashing bounds the concurrent password checks of sign-ins (nil: a default gate).
	Hashing *HashGate
	// SessionsEnded, when set, is told once sessions have ended in the database (logout:
	// that session's token hash; password reset or account disabled: "" for all of the
	// user's), so that live connections (WebSockets) close at once on every replica.
	SessionsEnded func(ctx context.Context, userID int64, tokenHash string)
}

func (s *Service) ended(ctx context.Context, userID int64, tokenHash string) {
	if s.SessionsEnded != nil {
		s.SessionsEnded(ctx, userID, tokenHash)
	}
}

// LoginRequest is the body of POST /v2/login.
type LoginRequest struct {
	Username string `json:"username" validate:"required"`
	Password string `json:"password" validate:"required"`
}

// LoginResponse carries the bearer token for every later call.
type LoginResponse struct {
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// UserInfo is the signed-in user's profile (SPEC.md section 3).
type UserInfo struct {
	UID              int64  `json:"uid"`
	Username         string `json:"username"`
	Name             string `json:"name"`
	Avatar           string `json:"avatar"`
	Job              string `json:"job"`
	JobName          string `json:"jobName"`
	Organization     int64  `json:"organization"`
	OrganizationName string `json:"organizationName"`
	// OrganizationTimezone is the organisation's IANA zone ("" until an administrator sets it).
	OrganizationTimezone string `json:"organizationTimezone" doc:"IANA time zone or empty"`
	Department           int64  `json:"department"`
	DepartmentName       string `json:"departmentName"`
	Location             string `json:"location"`
	LocationName         string `json:"locationName"`
	Email                string `json:"email"`
	Introduction         string `json:"introduction"`
	PersonalWebsite      string `json:"personalWebsite"`
	Phone                string `json:"phone"`
	RegistrationDate     string `json:"registrationDate" doc:"RFC 3339"`
	AccountID            string `json:"accountId"`
	Certification        int    `json:"certification"`
	Role                 string `json:"role" doc:"admin or user"`
	Status               int    `json:"status" doc:"1 active, 0 disabled"`
	StationAuthority     string `json:"stationAuthority" doc:"all, own or authorized"`
	Country              string `json:"country"`
	Area                 string `json:"area"`
	Address              string `json:"address"`
	SecurityQuestion     string `json:"securityQuestion"`
	HasSecurityAnswer    bool   `json:"hasSecurityAnswer"`
}

// Routes registers the sign-in calls (the account calls are internal/account's).
func (s *Service) Routes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/login", Tag: "auth", Summary: "Sign in with username and password",
		Access: httpapi.Public, Body: LoginRequest{}, Resp: LoginResponse{}, Handle: s.login})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/logout", Tag: "auth", Summary: "End the current session",
		Access: httpapi.Signed, Handle: s.logout})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/user/info", Tag: "auth", Summary: "The signed-in user's profile, role and station authority",
		Access: httpapi.Signed, Resp: UserInfo{}, Handle: s.userInfo})
}

func (s *Service) login(r *http.Request) (any, error) {
	var req LoginRequest
	if err := httpapi.Decode(r, &req); err != nil {
		return nil, err
	}
	req.Username = strings.TrimSpace(req.Username)
	var v httpapi.Validator
	v.Required("username", req.Username)
	v.MaxLen("username", req.Username, 64)
	if req.Password == "" {
		v.Add("password", "required")
	}
	v.MaxLen("password", req.Password, 256)
	if err := v.Err(); err != nil {
		return nil, err
	}
	client := httpapi.ClientAddr(r)
	ctx := r.Context()
	blocked, wait, err := s.Limiter.Blocked(ctx, req.Username, client)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	if blocked {
		mins := int(wait.Minutes()) + 1
		return nil, httpapi.TooManyRequests("too_many_attempts", mins)
	}
	u, err := org.UserByUsername(ctx, s.DB, req.Username)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.Internal(err)
	}
	hash := dummyHash
	if u != nil {
		hash = u.PasswordHash
	}
	var ok bool
	if err := s.hashing().Do(ctx, func() { ok, err = CheckPassword(hash, req.Password) }); err != nil {
		if errors.Is(err, ErrBusy) {
			return nil, &httpapi.Error{Status: http.StatusServiceUnavailable, Code: http.StatusServiceUnavailable,
				Key: "sign_in_busy", RetryAfter: time.Second}
		}
		return nil, err
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	if u == nil || !ok {
		if err := s.Limiter.Fail(ctx, req.Username, client); err != nil {
			return nil, httpapi.Internal(err)
		}
		var orgID, userID int64
		if u != nil {
			orgID, userID = u.OrgID, u.ID
		}
		org.Audit(ctx, s.DB, orgID, userID, "login.failed", req.Username, "", client)
		return nil, &httpapi.Error{Status: http.StatusUnauthorized, Code: http.StatusUnauthorized, Key: "invalid_credentials"}
	}
	if u.Status != 1 {
		return nil, &httpapi.Error{Status: http.StatusForbidden, Code: http.StatusForbidden, Key: "account_disabled"}
	}
	if err := s.Limiter.Reset(ctx, req.Username, client); err != nil {
		return nil, httpapi.Internal(err)
	}
	token, exp, err := s.Sessions.Create(ctx, u.ID, client)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	org.Audit(ctx, s.DB, u.OrgID, u.ID, "login", u.Username, "", client)
	return LoginResponse{Token: token, ExpiresAt: exp}, nil
}

var defaultGate = NewHashGate(0, 0, 0)

func (s *Service) hashing() *HashGate {
	if s.Hashing != nil {
		return s.Hashing
	}
	return defaultGate
}

func (s *Service) logout(r *http.Request) (any, error) {
	p := httpapi.Caller(r)
	if err := s.Sessions.End(r.Context(), p.TokenHash); err != nil {
		return nil, httpapi.Internal(err)
	}
	s.ended(r.Context(), p.UserID, p.TokenHash)
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "logout", p.Username, "", httpapi.ClientAddr(r))
	return nil, nil
}

func (s *Service) userInfo(r *http.Request) (any, error) {
	p := httpapi.Caller(r)
	u, err := org.UserByID(r.Context(), s.DB, p.UserID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return UserInfo{
		UID: u.ID, Username: u.Username, Name: u.Name, Avatar: u.Avatar, Job: u.Job, JobName: u.JobName,
		Organization: u.OrgID, OrganizationName: u.OrgName, OrganizationTimezone: u.OrgTimezone, Department: u.DeptID, DepartmentName: u.DeptName,
		Location: u.Location, LocationName: u.LocationName, Email: u.Email, Introduction: u.Introduction,
		PersonalWebsite: u.PersonalWebsite, Phone: u.Phone, RegistrationDate: u.CreatedAt.Format(time.RFC3339),
		AccountID: fmt.Sprintf("HL%08d", u.ID), Certification: u.Certification, Role: u.Role, Status: u.Status,
		StationAuthority: u.StationAuthority, Country: u.Country, Area: u.Area, Address: u.Address,
		SecurityQuestion: u.SecurityQuestion, HasSecurityAnswer: u.SecurityAnswerHash != "",
	}, nil
}

// SetPassword hashes and stores a new password and ends the user's sessions, in one
// transaction.
func (s *Service) SetPassword(ctx context.Context, userID int64, password string) error {
	hash, err := HashPassword(password)
	if err != nil {
		return err
	}
	err = s.DB.InTx(ctx, func(tx *store.Tx) error {
		if err := org.SetPasswordHash(ctx, tx, userID, hash); err != nil {
			return err
		}
		return revokeSessions(ctx, tx, userID, s.Sessions.now())
	})
	if err == nil {
		s.ended(ctx, userID, "")
	}
	return err
}

// SetStatus enables or disables a user; disabling ends the user's sessions at once.
func (s *Service) SetStatus(ctx context.Context, userID int64, status int) error {
	err := s.DB.InTx(ctx, func(tx *store.Tx) error {
		if err := org.SetStatus(ctx, tx, userID, status); err != nil {
			return err
		}
		if status == 1 {
			return nil
		}
		return revokeSessions(ctx, tx, userID, s.Sessions.now())
	})
	if err == nil && status != 1 {
		s.ended(ctx, userID, "")
	}
	return err
}
