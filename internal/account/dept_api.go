package account

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

// DeptInput is the body of the department add and edit calls.
type DeptInput struct {
	Name       string  `json:"name" validate:"required" doc:"up to 50 characters, unique among its siblings"`
	StationIDs []int64 `json:"stationIds" doc:"top-level stations granted to the department (at most 500)"`
}

// ChildDeptInput is the body of POST /v2/org/dept/addchild.
type ChildDeptInput struct {
	ParentID   int64   `json:"parentId" validate:"required"`
	Name       string  `json:"name" validate:"required"`
	StationIDs []int64 `json:"stationIds"`
}

// Role is one role with its member count.
type Role struct {
	Key     string `json:"key" doc:"admin or user"`
	Members int    `json:"members"`
}

// Created names a new record.
type Created struct {
	ID int64 `json:"id"`
}

func (s *Service) deptRoutes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/org/list", Tag: "org", Summary: "The organisation's department tree with members, created stations and grants",
		Access: httpapi.Admin, Resp: []org.Dept{}, Handle: s.deptList})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/org/role/list", Tag: "org", Summary: "The roles and how many members hold each",
		Access: httpapi.Admin, Resp: []Role{}, Handle: s.roleList})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/org/dept/add", Tag: "org", Summary: "Add a top-level department",
		Access: httpapi.Admin, Body: DeptInput{}, Resp: Created{}, Handle: s.deptAdd})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/org/dept/addchild", Tag: "org", Summary: "Add a department under another",
		Access: httpapi.Admin, Body: ChildDeptInput{}, Resp: Created{}, Handle: s.deptAddChild})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/org/dept/edit/{uid}", Tag: "org", Summary: "Rename a department and set its station grants",
		Access: httpapi.Admin, Body: DeptInput{}, Handle: s.deptEdit})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/org/dept/delete/{uid}", Tag: "org", Summary: "Delete a department without members or sub-departments",
		Access: httpapi.Admin, Handle: s.deptDelete})
}

func (s *Service) deptList(r *http.Request) (any, error) {
	tree, err := org.Departments(r.Context(), s.DB, httpapi.Caller(r).OrgID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return tree, nil
}

func (s *Service) roleList(r *http.Request) (any, error) {
	out := []Role{{Key: "admin"}, {Key: "user"}}
	for i := range out {
		err := s.DB.QueryRow(r.Context(), "SELECT COUNT(*) FROM users WHERE org_id = ? AND role = ? AND deleted_at IS NULL",
			httpapi.Caller(r).OrgID, out[i].Key).Scan(&out[i].Members)
		if err != nil {
			return nil, httpapi.Internal(err)
		}
	}
	return out, nil
}

// checkDept validates a department's name (unique among its siblings) and grants.
func (s *Service) checkDept(r *http.Request, id, parentID int64, name *string, stations []int64) error {
	*name = strings.TrimSpace(*name)
	var v httpapi.Validator
	if v.Required("name", *name) {
		v.MaxLen("name", *name, 50)
	}
	if len(stations) > 500 {
		v.Add("stationIds", "too_long", 500)
	}
	if err := v.Err(); err != nil {
		return err
	}
	ctx := r.Context()
	orgID := httpapi.Caller(r).OrgID
	ok, err := org.TopStations(ctx, s.DB, orgID, stations)
	if err != nil {
		return httpapi.Internal(err)
	}
	for _, st := range stations {
		if !ok[st] {
			return httpapi.InvalidField("stationIds", "unknown_station", st)
		}
	}
	var taken int
	err = s.DB.QueryRow(ctx, `SELECT COUNT(*) FROM departments WHERE org_id = ? AND COALESCE(parent_id, 0) = ?
		AND LOWER(name) = LOWER(?) AND id <> ?`, orgID, parentID, *name, id).Scan(&taken)
	if err != nil {
		return httpapi.Internal(err)
	}
	if taken > 0 {
		return &httpapi.Error{Status: http.StatusConflict, Code: http.StatusConflict, Key: "dept_name_taken",
			Fields: map[string]httpapi.Msg{"name": {Key: "dept_name_taken"}}}
	}
	return nil
}

func (s *Service) addDept(r *http.Request, parentID int64, name string, stations []int64) (any, error) {
	if err := s.checkDept(r, 0, parentID, &name, stations); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	ctx := r.Context()
	id, err := org.CreateDept(ctx, s.DB, p.OrgID, parentID, name)
	if err == nil {
		err = org.SetGrants(ctx, s.DB, id, stations)
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	after, _ := org.DeptByID(ctx, s.DB, p.OrgID, id)
	httpapi.LogChange(ctx, nil, after)
	org.Audit(ctx, s.DB, p.OrgID, p.UserID, "dept.add", name, strconv.FormatInt(id, 10), httpapi.ClientAddr(r))
	return Created{ID: id}, nil
}

func (s *Service) deptAdd(r *http.Request) (any, error) {
	var in DeptInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	return s.addDept(r, 0, in.Name, in.StationIDs)
}

func (s *Service) deptAddChild(r *http.Request) (any, error) {
	var in ChildDeptInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if in.ParentID <= 0 {
		return nil, httpapi.InvalidField("parentId", "required")
	}
	if _, err := org.DeptByID(r.Context(), s.DB, httpapi.Caller(r).OrgID, in.ParentID); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, httpapi.InvalidField("parentId", "unknown_dept")
		}
		return nil, httpapi.Internal(err)
	}
	return s.addDept(r, in.ParentID, in.Name, in.StationIDs)
}

func (s *Service) targetDept(r *http.Request) (*org.Dept, error) {
	id, err := httpapi.PathID(r, "uid")
	if err != nil {
		return nil, err
	}
	d, err := org.DeptByID(r.Context(), s.DB, httpapi.Caller(r).OrgID, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.NotFound()
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return d, nil
}

func (s *Service) deptEdit(r *http.Request) (any, error) {
	d, err := s.targetDept(r)
	if err != nil {
		return nil, err
	}
	var in DeptInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if err := s.checkDept(r, d.ID, d.ParentID, &in.Name, in.StationIDs); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	ctx := r.Context()
	err = s.DB.InTx(ctx, func(tx *store.Tx) error {
		if err := org.RenameDept(ctx, tx, p.OrgID, d.ID, in.Name); err != nil {
			return err
		}
		return org.SetGrants(ctx, tx, d.ID, in.StationIDs)
	})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	after, _ := org.DeptByID(ctx, s.DB, p.OrgID, d.ID)
	httpapi.LogChange(ctx, d, after)
	org.Audit(ctx, s.DB, p.OrgID, p.UserID, "dept.edit", in.Name, strconv.FormatInt(d.ID, 10), httpapi.ClientAddr(r))
	return nil, nil
}

func (s *Service) deptDelete(r *http.Request) (any, error) {
	d, err := s.targetDept(r)
	if err != nil {
		return nil, err
	}
	if d.Members > 0 || len(d.Children) > 0 {
		return nil, httpapi.Conflict("dept_in_use", d.Members, len(d.Children))
	}
	p := httpapi.Caller(r)
	ctx := r.Context()
	err = s.DB.InTx(ctx, func(tx *store.Tx) error { return org.DeleteDept(ctx, tx, p.OrgID, d.ID) })
	if errors.Is(err, org.ErrInUse) {
		return nil, httpapi.Conflict("dept_in_use", d.Members, len(d.Children))
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	httpapi.LogChange(ctx, d, nil)
	org.Audit(ctx, s.DB, p.OrgID, p.UserID, "dept.delete", d.Name, strconv.FormatInt(d.ID, 10), httpapi.ClientAddr(r))
	return nil, nil
}
