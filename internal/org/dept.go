package org

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"

	"github.com/helio-energy/helio/internal/store"
)

// Dept is a department with what the tree shows about it.
type Dept struct {
	ID       int64   `json:"id"`
	ParentID int64   `json:"parentId"`
	Name     string  `json:"name"`
	Members  int     `json:"members"`
	Stations []int64 `json:"stationIds" doc:"top-level stations granted to the department (\"authorised to own unit\")"`
	Created  int     `json:"createdStations" doc:"stations the department created (\"created by own unit\")"`
	Children []*Dept `json:"children"`
}

// Departments returns the organisation's departments as a tree (roots in name order).
func Departments(ctx context.Context, db *store.DB, orgID int64) ([]*Dept, error) {
	rows, err := db.Query(ctx, `SELECT d.id, COALESCE(d.parent_id, 0), d.name,
		(SELECT COUNT(*) FROM users u WHERE u.dept_id = d.id AND u.deleted_at IS NULL),
		(SELECT COUNT(*) FROM stations s WHERE s.created_by_dept = d.id AND s.parent_id IS NULL)
		FROM departments d WHERE d.org_id = ? ORDER BY d.name, d.id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("org: unable to list departments: %w", err)
	}
	byID := map[int64]*Dept{}
	var order []*Dept
	for rows.Next() {
		d := &Dept{Stations: []int64{}, Children: []*Dept{}}
		if err := rows.Scan(&d.ID, &d.ParentID, &d.Name, &d.Members, &d.Created); err != nil {
			rows.Close()
			return nil, err
		}
		byID[d.ID] = d
		order = append(order, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	grants, err := db.Query(ctx, `SELECT g.dept_id, g.station_id FROM station_grants g
		JOIN departments d ON d.id = g.dept_id WHERE d.org_id = ? ORDER BY g.station_id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("org: unable to list grants: %w", err)
	}
	for grants.Next() {
		var dept, st int64
		if err := grants.Scan(&dept, &st); err != nil {
			grants.Close()
			return nil, err
		}
		if d := byID[dept]; d != nil {
			d.Stations = append(d.Stations, st)
		}
	}
	grants.Close()
	roots := []*Dept{}
	for _, d := range order {
		if p := byID[d.ParentID]; p != nil {
			p.Children = append(p.Children, d)
		} else {
			roots = append(roots, d)
		}
	}
	return roots, grants.Err()
}

// DeptByID loads one department of the organisation (ErrNotFound for any other).
func DeptByID(ctx context.Context, db *store.DB, orgID, id int64) (*Dept, error) {
	tree, err := Departments(ctx, db, orgID)
	if err != nil {
		return nil, err
	}
	var find func([]*Dept) *Dept
	find = func(ds []*Dept) *Dept {
		for _, d := range ds {
			if d.ID == id {
				return d
			}
			if f := find(d.Children); f != nil {
				return f
			}
		}
		return nil
	}
	if d := find(tree); d != nil {
		return d, nil
	}
	return nil, store.ErrNotFound
}

// ErrInUse is returned when a department still has members or sub-departments.
var ErrInUse = errors.New("org: in use")

// RenameDept renames a department of the organisation.
func RenameDept(ctx context.Context, x execer, orgID, id int64, name string) error {
	res, err := x.Exec(ctx, "UPDATE departments SET name = ? WHERE id = ? AND org_id = ?", name, id, orgID)
	if err != nil {
		return fmt.Errorf("org: unable to rename department: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// SetGrants replaces the top-level stations granted to a department. Every station must
// be a top-level station of the organisation (checked by the caller).
func SetGrants(ctx context.Context, x execer, deptID int64, stations []int64) error {
	if _, err := x.Exec(ctx, "DELETE FROM station_grants WHERE dept_id = ?", deptID); err != nil {
		return fmt.Errorf("org: unable to clear grants: %w", err)
	}
	ids := append([]int64(nil), stations...)
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for i, id := range ids {
		if i > 0 && ids[i-1] == id {
			continue
		}
		if _, err := x.Exec(ctx, "INSERT INTO station_grants (station_id, dept_id) VALUES (?, ?)", id, deptID); err != nil {
			return fmt.Errorf("org: unable to grant station: %w", err)
		}
	}
	return nil
}

// DeleteDept removes an empty department: one with members or sub-departments is
// refused with ErrInUse. Stations it created stay with the organisation.
func DeleteDept(ctx context.Context, tx *store.Tx, orgID, id int64) error {
	var members, children int
	err := tx.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM users WHERE dept_id = ? AND deleted_at IS NULL),
		(SELECT COUNT(*) FROM departments WHERE parent_id = ?)`, id, id).Scan(&members, &children)
	if err != nil {
		return err
	}
	if members > 0 || children > 0 {
		return fmt.Errorf("%w: %d members, %d sub-departments", ErrInUse, members, children)
	}
	for _, q := range []string{
		"DELETE FROM station_grants WHERE dept_id = ?",
		"UPDATE stations SET created_by_dept = NULL WHERE created_by_dept = ?",
		"UPDATE users SET dept_id = NULL WHERE dept_id = ?",
	} {
		if _, err := tx.Exec(ctx, q, id); err != nil {
			return err
		}
	}
	res, err := tx.Exec(ctx, "DELETE FROM departments WHERE id = ? AND org_id = ?", id, orgID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// TopStations returns which of ids are top-level stations of the organisation.
func TopStations(ctx context.Context, db *store.DB, orgID int64, ids []int64) (map[int64]bool, error) {
	ok := map[int64]bool{}
	if len(ids) == 0 {
		return ok, nil
	}
	rows, err := db.Query(ctx, "SELECT id FROM stations WHERE org_id = ? AND parent_id IS NULL", orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	want := map[int64]bool{}
	for _, id := range ids {
		want[id] = true
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		if want[id] {
			ok[id] = true
		}
	}
	return ok, rows.Err()
}

// execer is a database or a transaction.
type execer interface {
	Exec(ctx context.Context, q string, args ...any) (sql.Result, error)
}
