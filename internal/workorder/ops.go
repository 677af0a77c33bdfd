package workorder

import (
	"errors"
	"net/http"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/idempotent"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
)

// stationAndChildren resolves a visible station with its sub-stations (404 otherwise).
func stationAndChildren(r *http.Request, db *store.DB, id int64) ([]int64, error) {
	p := httpapi.Caller(r)
	st, err := station.Get(r.Context(), db, p, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.NotFound()
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	children, _, err := station.List(r.Context(), db, p, station.Filter{ParentID: st.ID})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	ids := []int64{st.ID}
	for _, c := range children {
		ids = append(ids, c.ID)
	}
	return ids, nil
}

// Person is a user an order can be given or copied to.
type Person struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	DeptID int64  `json:"deptId"`
	Admin  bool   `json:"admin" doc:"an administrator (may approve plans)"`
}

// Dept is a department an order can be given to.
type Dept struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// People are the organisation's active users and its departments.
type People struct {
	Users []Person `json:"users"`
	Depts []Dept   `json:"depts"`
}

// maxPeople bounds the picker lists.
const maxPeople = 2000

func (s *Service) people(r *http.Request) (any, error) {
	ctx, p := r.Context(), httpapi.Caller(r)
	out := People{Users: []Person{}, Depts: []Dept{}}
	rows, err := s.DB.Query(ctx, `SELECT id, COALESCE(NULLIF(name, ''), username), COALESCE(dept_id, 0), role FROM users
		WHERE org_id = ? AND status = 1 ORDER BY username LIMIT ?`, p.OrgID, maxPeople)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	for rows.Next() {
		var u Person
		var role string
		if err := rows.Scan(&u.ID, &u.Name, &u.DeptID, &role); err != nil {
			rows.Close()
			return nil, httpapi.Internal(err)
		}
		u.Admin = role == "admin"
		out.Users = append(out.Users, u)
	}
	rows.Close()
	rows, err = s.DB.Query(ctx, "SELECT id, name FROM departments WHERE org_id = ? ORDER BY name LIMIT ?", p.OrgID, maxPeople)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var d Dept
		if err := rows.Scan(&d.ID, &d.Name); err != nil {
			return nil, httpapi.Internal(err)
		}
		out.Depts = append(out.Depts, d)
	}
	return out, rows.Err()
}

func (s *Service) assign(r *http.Request) (any, error) {
	o, err := s.order(r)
	if err != nil {
		return nil, err
	}
	var in AssignInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	var v httpapi.Validator
	in.Comment = cleanText(&v, "comment", in.Comment, MaxCommentLen, false)
	switch {
	case in.AssigneeUserID < 0:
		v.Add("assigneeUserId", "invalid_format")
	case in.AssigneeDeptID < 0:
		v.Add("assigneeDeptId", "invalid_format")
	case in.AssigneeUserID > 0 && in.AssigneeDeptID > 0:
		v.Add("assigneeDeptId", "wo_user_or_dept")
	case in.AssigneeUserID == 0 && in.AssigneeDeptID == 0:
		v.Add("assigneeUserId", "required")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	if !p.IsAdmin() && o.SubmitterID != p.UserID {
		return nil, &httpapi.Error{Status: 403, Code: 403, Key: ErrNotYours}
	}
	if !canAssign(p, &o) {
		return nil, httpapi.Conflict(ErrNotFrom)
	}
	if err := checkAssignee(r.Context(), s.DB, p, o.StationID, in.AssigneeUserID, in.AssigneeDeptID); err != nil {
		return nil, err
	}
	at := s.now().UnixMilli()
	err = s.DB.InTx(r.Context(), func(tx *store.Tx) error {
		res, err := tx.Exec(r.Context(), `UPDATE work_orders SET assignee_user_id = ?, assignee_dept_id = ?, status = 1, updated_at = ?
			WHERE id = ? AND status = ?`, nullID(in.AssigneeUserID), nullID(in.AssigneeDeptID), at, o.ID, o.Status)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return errMoved
		}
		_, err = tx.Exec(r.Context(), `INSERT INTO work_order_events (order_id, action, from_status, to_status, user_id, comment, created_at)
			VALUES (?, 'assign', ?, 1, ?, ?, ?)`, o.ID, o.Status, p.UserID, in.Comment, at)
		if err != nil {
			return err
		}
		return idempotent.Applied(r.Context(), tx, o.ID)
	})
	if errors.Is(err, errMoved) {
		return nil, httpapi.Conflict(ErrNotFrom)
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	s.announce(r, o.ID, "assign")
	s.changed(r)
	return s.detailOf(r, o.ID)
}

func (s *Service) comment(r *http.Request) (any, error) {
	o, err := s.order(r)
	if err != nil {
		return nil, err
	}
	var in CommentInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	var v httpapi.Validator
	in.Body = cleanText(&v, "body", in.Body, MaxCommentLen, true)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.DB.InTx(r.Context(), func(tx *store.Tx) error {
		if _, err := tx.Exec(r.Context(), "INSERT INTO work_order_comments (order_id, user_id, body, created_at) VALUES (?, ?, ?, ?)",
			o.ID, httpapi.Caller(r).UserID, in.Body, s.now().UnixMilli()); err != nil {
			return err
		}
		return idempotent.Applied(r.Context(), tx, o.ID)
	}); err != nil {
		return nil, httpapi.Internal(err)
	}
	return s.detailOf(r, o.ID)
}
