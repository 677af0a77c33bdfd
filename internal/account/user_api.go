package account

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/auth"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

// UserInput is the body of POST /v2/org/user/add (SPEC.md section 5: username, real
// name, department, email, phone and role required).
type UserInput struct {
	Username         string `json:"username" validate:"required" doc:"3 to 32 letters, digits, dots, dashes or underscores"`
	Password         string `json:"password" validate:"required" doc:"longer than 6 characters, digits plus upper- and lower-case letters, no spaces"`
	Name             string `json:"name" validate:"required"`
	DeptID           int64  `json:"deptId" validate:"required"`
	Email            string `json:"email" validate:"required"`
	Phone            string `json:"phone" validate:"required"`
	Role             string `json:"role" validate:"required" doc:"admin or user"`
	StationAuthority string `json:"stationAuthority" doc:"all, own or authorized (default authorized)"`
	JobName          string `json:"jobName"`
}

// UserEdit is the body of POST /v2/org/user/edit/{uid}.
type UserEdit struct {
	Name             string `json:"name" validate:"required"`
	DeptID           int64  `json:"deptId" validate:"required"`
	Email            string `json:"email" validate:"required"`
	Phone            string `json:"phone" validate:"required"`
	Role             string `json:"role" validate:"required"`
	StationAuthority string `json:"stationAuthority" validate:"required"`
	JobName          string `json:"jobName"`
}

// ResetPasswordRequest is the body of POST /v2/org/user/resetpwd/{uid}.
type ResetPasswordRequest struct {
	Password string `json:"password" validate:"required"`
}

// UserRow is a user as the organisation screens show it.
type UserRow struct {
	UID              int64     `json:"uid"`
	Username         string    `json:"username"`
	Name             string    `json:"name"`
	Email            string    `json:"email"`
	Phone            string    `json:"phone"`
	Role             string    `json:"role"`
	StationAuthority string    `json:"stationAuthority"`
	Status           int       `json:"status" doc:"1 active, 0 disabled"`
	DeptID           int64     `json:"deptId"`
	DeptName         string    `json:"deptName"`
	JobName          string    `json:"jobName"`
	Avatar           string    `json:"avatar"`
	CreatedAt        time.Time `json:"createdAt"`
}

func rowOf(u *org.User) UserRow {
	return UserRow{UID: u.ID, Username: u.Username, Name: u.Name, Email: u.Email, Phone: u.Phone, Role: u.Role,
		StationAuthority: u.StationAuthority, Status: u.Status, DeptID: u.DeptID, DeptName: u.DeptName,
		JobName: u.JobName, Avatar: u.Avatar, CreatedAt: u.CreatedAt}
}

// UserQuery are the filters of GET /v2/org/user/list.
type UserQuery struct {
	Keyword string `query:"keyword" maxLen:"64"`
	DeptID  int64  `query:"deptId" validate:"id"`
	Role    string `query:"role" enum:"admin,user"`
	Status  *int   `query:"status" enum:"0,1" doc:"1 active, 0 disabled; empty: both"`
	httpapi.Paging
}

func (s *Service) userRoutes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/org/user/list", Tag: "org", Summary: "The organisation's users, filtered and paged",
		Access: httpapi.Admin, Query: UserQuery{}, Resp: httpapi.Page[UserRow]{}, Handle: s.userList})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/org/user/get/{uid}", Tag: "org", Summary: "One user of the organisation",
		Access: httpapi.Admin, Resp: UserRow{}, Handle: s.userGet})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/org/user/add", Tag: "org", Summary: "Add a user",
		Access: httpapi.Admin, Body: UserInput{}, Resp: Created{}, Handle: s.userAdd})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/org/user/edit/{uid}", Tag: "org", Summary: "Edit a user's account: department, role, station authority, contact",
		Access: httpapi.Admin, Body: UserEdit{}, Handle: s.userEdit})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/org/user/resetpwd/{uid}", Tag: "org", Summary: "Set a user's password; ends the user's sessions",
		Access: httpapi.Admin, Body: ResetPasswordRequest{}, Handle: s.resetPassword})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/org/user/validdisable/{uid}", Tag: "org", Summary: "Disable a user; ends the user's sessions",
		Access: httpapi.Admin, Handle: s.setStatus(0)})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/org/user/validenable/{uid}", Tag: "org", Summary: "Enable a user",
		Access: httpapi.Admin, Handle: s.setStatus(1)})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/org/user/delete/{uid}", Tag: "org", Summary: "Delete a user; ends the user's sessions and frees the name",
		Access: httpapi.Admin, Handle: s.userDelete})
	s.cancelRoutes(api)
}

func (s *Service) userList(r *http.Request) (any, error) {
	q := httpapi.Query[UserQuery](r)
	page, size := q.Page, q.PageSize
	f := org.UserFilter{OrgID: httpapi.Caller(r).OrgID, Keyword: q.Keyword, Role: q.Role, Status: -1, DeptID: q.DeptID}
	if q.Status != nil {
		f.Status = *q.Status
	}
	if f.DeptID != 0 {
		if _, err := org.DeptByID(r.Context(), s.DB, f.OrgID, f.DeptID); err != nil {
			return nil, httpapi.InvalidField("deptId", "unknown_dept")
		}
	}
	users, total, err := org.ListUsers(r.Context(), s.DB, f, page, size)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	list := make([]UserRow, 0, len(users))
	for _, u := range users {
		list = append(list, rowOf(u))
	}
	return httpapi.Page[UserRow]{List: list, Total: total, Page: page, PageSize: size}, nil
}

func (s *Service) userGet(r *http.Request) (any, error) {
	u, err := s.targetUser(r)
	if err != nil {
		return nil, err
	}
	return rowOf(u), nil
}

// checkAccount validates the account fields shared by add and edit.
func (s *Service) checkAccount(r *http.Request, v *httpapi.Validator, a *org.Account) {
	trim(&a.Name, &a.Email, &a.Phone, &a.JobName)
	if v.Required("name", a.Name) {
		v.MaxLen("name", a.Name, 50)
	}
	checkEmail(v, "email", a.Email, true)
	checkPhone(v, "phone", a.Phone, true)
	if v.Required("role", a.Role) {
		v.OneOf("role", a.Role, "admin", "user")
	}
	if a.StationAuthority == "" {
		a.StationAuthority = org.AuthorityAuthorized
	}
	v.OneOf("stationAuthority", a.StationAuthority, org.AuthorityAll, org.AuthorityOwn, org.AuthorityAuthorized)
	v.MaxLen("jobName", a.JobName, 50)
	if a.DeptID <= 0 {
		v.Add("deptId", "required")
	} else if _, err := org.DeptByID(r.Context(), s.DB, httpapi.Caller(r).OrgID, a.DeptID); err != nil {
		v.Add("deptId", "unknown_dept")
	}
}

func (s *Service) userAdd(r *http.Request) (any, error) {
	var in UserInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	in.Username = strings.TrimSpace(in.Username)
	var v httpapi.Validator
	if v.Required("username", in.Username) && !usernameRe.MatchString(in.Username) {
		v.Add("username", "username_format")
	}
	checkNewPassword(&v, "password", in.Password, "", false)
	a := org.Account{DeptID: in.DeptID, Name: in.Name, Email: in.Email, Phone: in.Phone, Role: in.Role,
		StationAuthority: in.StationAuthority, JobName: in.JobName}
	s.checkAccount(r, &v, &a)
	if err := v.Err(); err != nil {
		return nil, err
	}
	hash, err := auth.HashPassword(in.Password)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	p := httpapi.Caller(r)
	u := &org.User{OrgID: p.OrgID, DeptID: a.DeptID, Username: in.Username, PasswordHash: hash, Role: a.Role,
		StationAuthority: a.StationAuthority, Name: a.Name, Email: a.Email, Phone: a.Phone, JobName: a.JobName}
	id, err := org.CreateUser(r.Context(), s.DB, u)
	if errors.Is(err, org.ErrDuplicate) {
		return nil, &httpapi.Error{Status: http.StatusConflict, Code: http.StatusConflict, Key: "username_taken",
			Fields: map[string]httpapi.Msg{"username": {Key: "username_taken"}}}
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	created, _ := org.UserByID(r.Context(), s.DB, id)
	if created != nil {
		httpapi.LogChange(r.Context(), nil, rowOf(created))
	}
	org.Audit(r.Context(), s.DB, p.OrgID, p.UserID, "user.add", in.Username, "", httpapi.ClientAddr(r))
	return Created{ID: id}, nil
}

// activeAdmins counts the organisation's active administrators other than userID.
func (s *Service) otherActiveAdmins(ctx context.Context, orgID, userID int64) (int, error) {
	var n int
	err := s.DB.QueryRow(ctx, "SELECT COUNT(*) FROM users WHERE org_id = ? AND role = 'admin' AND status = 1 AND id <> ?",
		orgID, userID).Scan(&n)
	return n, err
}

func (s *Service) userEdit(r *http.Request) (any, error) {
	u, err := s.targetUser(r)
	if err != nil {
		return nil, err
	}
	var in UserEdit
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	a := org.Account{DeptID: in.DeptID, Name: in.Name, Email: in.Email, Phone: in.Phone, Role: in.Role,
		StationAuthority: in.StationAuthority, JobName: in.JobName}
	var v httpapi.Validator
	s.checkAccount(r, &v, &a)
	if err := v.Err(); err != nil {
		return nil, err
	}
	ctx := r.Context()
	p := httpapi.Caller(r)
	if u.Role == "admin" && a.Role != "admin" {
		if n, err := s.otherActiveAdmins(ctx, p.OrgID, u.ID); err != nil {
			return nil, httpapi.Internal(err)
		} else if n == 0 {
			return nil, httpapi.Conflict("last_admin")
		}
	}
	if err := org.UpdateAccount(ctx, s.DB, u.ID, a); err != nil {
		return nil, httpapi.Internal(err)
	}
	after, _ := org.UserByID(ctx, s.DB, u.ID)
	if after != nil {
		httpapi.LogChange(ctx, rowOf(u), rowOf(after))
	}
	org.Audit(ctx, s.DB, p.OrgID, p.UserID, "user.edit", u.Username, "", httpapi.ClientAddr(r))
	return nil, nil
}

func (s *Service) resetPassword(r *http.Request) (any, error) {
	u, err := s.targetUser(r)
	if err != nil {
		return nil, err
	}
	var in ResetPasswordRequest
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	var v httpapi.Validator
	checkNewPassword(&v, "password", in.Password, "", false)
	if err := v.Err(); err != nil {
		return nil, err
	}
	ctx := r.Context()
	if err := s.Auth.SetPassword(ctx, u.ID, in.Password); err != nil {
		return nil, httpapi.Internal(err)
	}
	s.revoked(ctx, u.ID)
	p := httpapi.Caller(r)
	org.Audit(ctx, s.DB, p.OrgID, p.UserID, "user.resetpwd", u.Username, "", httpapi.ClientAddr(r))
	return nil, nil
}

func (s *Service) setStatus(status int) func(r *http.Request) (any, error) {
	return func(r *http.Request) (any, error) {
		u, err := s.targetUser(r)
		if err != nil {
			return nil, err
		}
		p := httpapi.Caller(r)
		ctx := r.Context()
		if status == 0 {
			if u.ID == p.UserID {
				return nil, httpapi.Conflict("not_yourself")
			}
			if u.Role == "admin" {
				if n, err := s.otherActiveAdmins(ctx, p.OrgID, u.ID); err != nil {
					return nil, httpapi.Internal(err)
				} else if n == 0 {
					return nil, httpapi.Conflict("last_admin")
				}
			}
		}
		if err := s.Auth.SetStatus(ctx, u.ID, status); err != nil {
			return nil, httpapi.Internal(err)
		}
		action := "user.enable"
		if status == 0 {
			action = "user.disable"
			s.revoked(ctx, u.ID)
		}
		httpapi.LogChange(ctx, map[string]int{"status": u.Status}, map[string]int{"status": status})
		org.Audit(ctx, s.DB, p.OrgID, p.UserID, action, u.Username, "", httpapi.ClientAddr(r))
		return nil, nil
	}
}

func (s *Service) userDelete(r *http.Request) (any, error) {
	u, err := s.targetUser(r)
	if err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	ctx := r.Context()
	if u.ID == p.UserID {
		return nil, httpapi.Conflict("not_yourself")
	}
	if u.Role == "admin" {
		if n, err := s.otherActiveAdmins(ctx, p.OrgID, u.ID); err != nil {
			return nil, httpapi.Internal(err)
		} else if n == 0 {
			return nil, httpapi.Conflict("last_admin")
		}
	}
	err = s.DB.InTx(ctx, func(tx *store.Tx) error {
		if err := org.DeleteUser(ctx, tx, u.ID); err != nil {
			return err
		}
		return s.Auth.Sessions.RevokeIn(ctx, tx, u.ID)
	})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	s.revoked(ctx, u.ID)
	httpapi.LogChange(ctx, rowOf(u), nil)
	org.Audit(ctx, s.DB, p.OrgID, p.UserID, "user.delete", u.Username, "", httpapi.ClientAddr(r))
	return nil, nil
}
