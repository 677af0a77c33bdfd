package account

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/helio-energy/helio/internal/auth"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

// ChangePasswordRequest is the body of POST /v2/org/user/changepwd/{uid}: a user changes
// their own password with the current one.
type ChangePasswordRequest struct {
	OldPassword     string `json:"oldPassword" validate:"required"`
	Password        string `json:"password" validate:"required"`
	ConfirmPassword string `json:"confirmPassword" validate:"required"`
}

// ProfileInput is the body of POST /v2/user/profile (SPEC.md section 5: email, nickname,
// country/region and area required; profile up to 200 characters).
type ProfileInput struct {
	Name            string `json:"name" validate:"required" doc:"nickname"`
	Email           string `json:"email" validate:"required"`
	Country         string `json:"country" validate:"required" doc:"country or region"`
	Area            string `json:"area" validate:"required"`
	Address         string `json:"address"`
	Introduction    string `json:"introduction" doc:"up to 200 characters"`
	PersonalWebsite string `json:"personalWebsite" doc:"http:// or https:// address"`
	Phone           string `json:"phone"`
}

// SecurityInput is the body of POST /v2/user/security.
type SecurityInput struct {
	SecurityQuestion string `json:"securityQuestion"`
	SecurityAnswer   string `json:"securityAnswer" doc:"empty keeps the stored answer; stored hashed"`
	Phone            string `json:"phone"`
	Email            string `json:"email"`
}

// SettingsBody is the console configuration kept on the server, so it follows the user.
type SettingsBody struct {
	Settings json.RawMessage `json:"settings" validate:"required" doc:"a JSON object up to 8 KB: locale, location, theme and the page settings"`
}

// CancelRequest is the body of POST /v2/org/account/cancel.
type CancelRequest struct {
	Password string `json:"password" validate:"required"`
}

func (s *Service) selfRoutes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/org/user/changepwd/{uid}", Tag: "org", Summary: "Change your own password with the current one; ends your other sessions",
		Access: httpapi.Signed, Body: ChangePasswordRequest{}, Handle: s.changePassword})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/user/profile", Tag: "user", Summary: "Set your basic information",
		Access: httpapi.Signed, Body: ProfileInput{}, Handle: s.setProfile})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/user/security", Tag: "user", Summary: "Set your security question, phone and email",
		Access: httpapi.Signed, Body: SecurityInput{}, Handle: s.setSecurity})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/user/settings", Tag: "user", Summary: "Your console configuration",
		Access: httpapi.Signed, Resp: SettingsBody{}, Handle: s.getSettings})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/user/settings", Tag: "user", Summary: "Keep your console configuration on the server",
		Access: httpapi.Signed, Body: SettingsBody{}, Handle: s.putSettings})
	s.avatarRoutes(api)
}

func (s *Service) cancelRoutes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/org/account/cancel", Tag: "org", Summary: "What is left before the account can be cancelled",
		Access: httpapi.Admin, Resp: org.Leftovers{}, Handle: s.cancelCheck})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/org/account/cancel", Tag: "org", Summary: "Cancel the organisation's account (only once no departments, members or stations are left)",
		Access: httpapi.Admin, Body: CancelRequest{}, Handle: s.cancel})
}

func (s *Service) self(r *http.Request) (*org.User, error) {
	u, err := org.UserByID(r.Context(), s.DB, httpapi.Caller(r).UserID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return u, nil
}

func (s *Service) changePassword(r *http.Request) (any, error) {
	id, err := httpapi.PathID(r, "uid")
	if err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	if id != p.UserID {
		return nil, httpapi.NotFound() // another user's password is reset, never changed
	}
	var in ChangePasswordRequest
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	var v httpapi.Validator
	if in.OldPassword == "" {
		v.Add("oldPassword", "required")
	}
	checkNewPassword(&v, "password", in.Password, in.ConfirmPassword, true)
	if in.Password != "" && in.Password == in.OldPassword {
		v.Add("password", "password_unchanged")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	u, err := s.self(r)
	if err != nil {
		return nil, err
	}
	ok, err := auth.CheckPassword(u.PasswordHash, in.OldPassword)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	if !ok {
		return nil, httpapi.InvalidField("oldPassword", "wrong_password")
	}
	hash, err := auth.HashPassword(in.Password)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	ctx := r.Context()
	if err := org.SetPasswordHash(ctx, s.DB, u.ID, hash); err != nil {
		return nil, httpapi.Internal(err)
	}
	if err := s.Auth.Sessions.RevokeOthers(ctx, u.ID, p.TokenHash); err != nil {
		return nil, httpapi.Internal(err)
	}
	org.Audit(ctx, s.DB, p.OrgID, p.UserID, "user.changepwd", u.Username, "", httpapi.ClientAddr(r))
	return nil, nil
}

func profileOf(u *org.User) ProfileInput {
	return ProfileInput{Name: u.Name, Email: u.Email, Country: u.Country, Area: u.Area, Address: u.Address,
		Introduction: u.Introduction, PersonalWebsite: u.PersonalWebsite, Phone: u.Phone}
}

func (s *Service) setProfile(r *http.Request) (any, error) {
	var in ProfileInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	trim(&in.Name, &in.Email, &in.Country, &in.Area, &in.Address, &in.PersonalWebsite, &in.Phone)
	var v httpapi.Validator
	if v.Required("name", in.Name) {
		v.MaxLen("name", in.Name, 50)
	}
	checkEmail(&v, "email", in.Email, true)
	if v.Required("country", in.Country) {
		v.MaxLen("country", in.Country, 50)
	}
	if v.Required("area", in.Area) {
		v.MaxLen("area", in.Area, 100)
	}
	v.MaxLen("address", in.Address, 200)
	v.MaxLen("introduction", in.Introduction, 200)
	if in.PersonalWebsite != "" {
		v.MaxLen("personalWebsite", in.PersonalWebsite, 200)
		if !urlRe.MatchString(in.PersonalWebsite) {
			v.Add("personalWebsite", "url_format")
		}
	}
	checkPhone(&v, "phone", in.Phone, false)
	if err := v.Err(); err != nil {
		return nil, err
	}
	u, err := s.self(r)
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
	err = org.UpdateProfile(ctx, s.DB, u.ID, org.Profile{Name: in.Name, Email: in.Email, Country: in.Country, Area: in.Area,
		Address: in.Address, Introduction: in.Introduction, PersonalWebsite: in.PersonalWebsite, Phone: in.Phone})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	httpapi.LogChange(ctx, profileOf(u), in)
	org.Audit(ctx, s.DB, u.OrgID, u.ID, "user.profile", u.Username, "", httpapi.ClientAddr(r))
	return nil, nil
}

func (s *Service) setSecurity(r *http.Request) (any, error) {
	var in SecurityInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	trim(&in.SecurityQuestion, &in.Phone, &in.Email)
	var v httpapi.Validator
	v.MaxLen("securityQuestion", in.SecurityQuestion, 100)
	v.MaxLen("securityAnswer", in.SecurityAnswer, 100)
	u, err := s.self(r)
	if err != nil {
		return nil, err
	}
	if in.SecurityQuestion != "" && in.SecurityAnswer == "" && (u.SecurityAnswerHash == "" || in.SecurityQuestion != u.SecurityQuestion) {
		v.Add("securityAnswer", "required")
	}
	if in.SecurityQuestion == "" && in.SecurityAnswer != "" {
		v.Add("securityQuestion", "required")
	}
	checkPhone(&v, "phone", in.Phone, false)
	checkEmail(&v, "email", in.Email, true)
	if err := v.Err(); err != nil {
		return nil, err
	}
	hash := ""
	if in.SecurityAnswer != "" {
		if hash, err = auth.HashPassword(in.SecurityAnswer); err != nil {
			return nil, httpapi.Internal(err)
		}
	}
	ctx := r.Context()
	if err := org.SetSecurity(ctx, s.DB, u.ID, in.SecurityQuestion, hash, in.Phone, in.Email); err != nil {
		return nil, httpapi.Internal(err)
	}
	type shown struct{ SecurityQuestion, Phone, Email string }
	httpapi.LogChange(ctx, shown{u.SecurityQuestion, u.Phone, u.Email}, shown{in.SecurityQuestion, in.Phone, in.Email})
	org.Audit(ctx, s.DB, u.OrgID, u.ID, "user.security", u.Username, "", httpapi.ClientAddr(r))
	return nil, nil
}

func (s *Service) getSettings(r *http.Request) (any, error) {
	u, err := s.self(r)
	if err != nil {
		return nil, err
	}
	return SettingsBody{Settings: json.RawMessage(u.Settings)}, nil
}

func (s *Service) putSettings(r *http.Request) (any, error) {
	var in SettingsBody
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	raw := bytes.TrimSpace(in.Settings)
	var obj map[string]any
	if len(raw) == 0 || len(raw) > 8<<10 || raw[0] != '{' || json.Unmarshal(raw, &obj) != nil {
		return nil, httpapi.InvalidField("settings", "settings_json")
	}
	compact, _ := json.Marshal(obj)
	p := httpapi.Caller(r)
	if err := org.SetSettings(r.Context(), s.DB, p.UserID, string(compact)); err != nil {
		return nil, httpapi.Internal(err)
	}
	return nil, nil
}

func (s *Service) cancelCheck(r *http.Request) (any, error) {
	p := httpapi.Caller(r)
	l, err := org.CountLeftovers(r.Context(), s.DB, p.OrgID, p.UserID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return l, nil
}

func (s *Service) cancel(r *http.Request) (any, error) {
	var in CancelRequest
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if in.Password == "" {
		return nil, httpapi.InvalidField("password", "required")
	}
	u, err := s.self(r)
	if err != nil {
		return nil, err
	}
	if ok, err := auth.CheckPassword(u.PasswordHash, in.Password); err != nil {
		return nil, httpapi.Internal(err)
	} else if !ok {
		return nil, httpapi.InvalidField("password", "wrong_password")
	}
	ctx := r.Context()
	l, err := org.CountLeftovers(ctx, s.DB, u.OrgID, u.ID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	if !l.Empty() {
		return nil, httpapi.Conflict("cancel_leftovers", l.Departments, l.Members, l.Stations)
	}
	err = s.DB.InTx(ctx, func(tx *store.Tx) error {
		if err := org.CancelOrg(ctx, tx, u.OrgID, u.ID); err != nil {
			return err
		}
		return s.Auth.Sessions.RevokeIn(ctx, tx, u.ID)
	})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	s.revoked(ctx, u.ID)
	org.Audit(ctx, s.DB, u.OrgID, u.ID, "org.cancel", u.Username, "", httpapi.ClientAddr(r))
	return nil, nil
}
