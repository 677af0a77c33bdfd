package org

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/store"
)

// UserFilter narrows the user list of an organisation.
type UserFilter struct {
	OrgID   int64
	Keyword string // part of the username, name, email or phone
	DeptID  int64  // the department and its sub-departments; 0: all
	Role    string
	Status  int // 1 active, 0 disabled, -1 either
}

// ListUsers returns a page of the organisation's users (deleted accounts never show).
func ListUsers(ctx context.Context, db *store.DB, f UserFilter, page, size int) ([]*User, int64, error) {
	var w listing.Where
	w.Add("u.org_id = ?", f.OrgID)
	w.Add("u.deleted_at IS NULL")
	if k := strings.TrimSpace(f.Keyword); k != "" {
		like := "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(strings.ToLower(k)) + "%"
		w.Add(`(LOWER(u.username) LIKE ? ESCAPE '\' OR LOWER(u.name) LIKE ? ESCAPE '\'
			OR LOWER(u.email) LIKE ? ESCAPE '\' OR u.phone LIKE ? ESCAPE '\')`, like, like, like, like)
	}
	if f.DeptID != 0 {
		ids, err := subtree(ctx, db, f.OrgID, f.DeptID)
		if err != nil {
			return nil, 0, err
		}
		w.In("u.dept_id", ids)
	}
	w.If(f.Role != "", "u.role = ?", f.Role)
	w.If(f.Status == 0 || f.Status == 1, "u.status = ?", f.Status)
	q := listing.Query{Columns: userColumns, From: userFrom, CountFrom: " FROM users u ", Order: "u.username"}
	return listing.Run(ctx, db, q, &w, page, size, func(rows *sql.Rows) (*User, error) { return scanUser(rows) })
}

// subtree returns a department and every department below it (a bounded walk: a
// department tree is small, and a cycle cannot be stored).
func subtree(ctx context.Context, db *store.DB, orgID, root int64) ([]int64, error) {
	rows, err := db.Query(ctx, "SELECT id, COALESCE(parent_id, 0) FROM departments WHERE org_id = ?", orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	kids := map[int64][]int64{}
	for rows.Next() {
		var id, parent int64
		if err := rows.Scan(&id, &parent); err != nil {
			return nil, err
		}
		kids[parent] = append(kids[parent], id)
	}
	out := []int64{root}
	seen := map[int64]bool{root: true}
	for i := 0; i < len(out); i++ {
		for _, k := range kids[out[i]] {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out, rows.Err()
}

// Account is what an administrator sets on a user.
type Account struct {
	DeptID           int64
	Name             string
	Email            string
	Phone            string
	Role             string
	StationAuthority string
	JobName          string
}

// UpdateAccount sets a user's account fields.
func UpdateAccount(ctx context.Context, db *store.DB, id int64, a Account) error {
	var dept any
	if a.DeptID != 0 {
		dept = a.DeptID
	}
	_, err := db.Exec(ctx, `UPDATE users SET dept_id = ?, name = ?, email = ?, phone = ?, role = ?,
		station_authority = ?, job_name = ?, updated_at = ? WHERE id = ?`,
		dept, a.Name, a.Email, a.Phone, a.Role, a.StationAuthority, a.JobName, time.Now().UnixMilli(), id)
	if err != nil {
		return fmt.Errorf("org: unable to update user: %w", err)
	}
	return nil
}

// Profile is what users set about themselves.
type Profile struct {
	Name            string
	Email           string
	Country         string
	Area            string
	Address         string
	Introduction    string
	PersonalWebsite string
	Phone           string
}

// UpdateProfile sets a user's own profile.
func UpdateProfile(ctx context.Context, db *store.DB, id int64, p Profile) error {
	_, err := db.Exec(ctx, `UPDATE users SET name = ?, email = ?, country = ?, area = ?, address = ?,
		introduction = ?, personal_website = ?, phone = ?, updated_at = ? WHERE id = ?`,
		p.Name, p.Email, p.Country, p.Area, p.Address, p.Introduction, p.PersonalWebsite, p.Phone,
		time.Now().UnixMilli(), id)
	if err != nil {
		return fmt.Errorf("org: unable to update profile: %w", err)
	}
	return nil
}

// SetAvatar sets the URL of a user's avatar.
func SetAvatar(ctx context.Context, db *store.DB, id int64, url string) error {
	_, err := db.Exec(ctx, "UPDATE users SET avatar = ?, updated_at = ? WHERE id = ?", url, time.Now().UnixMilli(), id)
	return err
}

// SetSecurity sets the security question (with its hashed answer; "" keeps the answer),
// phone and email.
func SetSecurity(ctx context.Context, db *store.DB, id int64, question, answerHash, phone, email string) error {
	_, err := db.Exec(ctx, `UPDATE users SET security_question = ?,
		security_answer_hash = CASE WHEN ? = '' THEN security_answer_hash ELSE ? END,
		phone = ?, email = ?, updated_at = ? WHERE id = ?`,
		question, answerHash, answerHash, phone, email, time.Now().UnixMilli(), id)
	return err
}

// SetSettings stores the console configuration (a JSON object).
func SetSettings(ctx context.Context, db *store.DB, id int64, settings string) error {
	_, err := db.Exec(ctx, "UPDATE users SET settings = ?, updated_at = ? WHERE id = ?", settings, time.Now().UnixMilli(), id)
	return err
}

// DeleteUser removes an account: it can no longer sign in, its name is free again, and
// its row stays (status -1) for the log and what it did. The caller ends its sessions in
// the same transaction.
func DeleteUser(ctx context.Context, x execer, id int64) error {
	now := time.Now().UnixMilli()
	res, err := x.Exec(ctx, `UPDATE users SET status = -1, deleted_at = ?, updated_at = ?,
		username = ? || username WHERE id = ? AND deleted_at IS NULL`,
		now, now, "~deleted-"+strconv.FormatInt(id, 10)+"~", id)
	if err != nil {
		return fmt.Errorf("org: unable to delete user: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// Leftovers counts what stands between an administrator and cancelling the account:
// departments, other members and stations of the organisation.
type Leftovers struct {
	Departments int `json:"departments"`
	Members     int `json:"members"`
	Stations    int `json:"stations"`
}

// Empty reports whether nothing is left.
func (l Leftovers) Empty() bool { return l.Departments == 0 && l.Members == 0 && l.Stations == 0 }

// CountLeftovers counts the organisation's departments, members other than userID and
// stations.
func CountLeftovers(ctx context.Context, db *store.DB, orgID, userID int64) (Leftovers, error) {
	var l Leftovers
	err := db.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM departments WHERE org_id = ?),
		(SELECT COUNT(*) FROM users WHERE org_id = ? AND id <> ? AND deleted_at IS NULL),
		(SELECT COUNT(*) FROM stations WHERE org_id = ?)`, orgID, orgID, userID, orgID).
		Scan(&l.Departments, &l.Members, &l.Stations)
	return l, err
}

// CancelOrg marks the organisation cancelled and deletes its last account.
func CancelOrg(ctx context.Context, tx *store.Tx, orgID, userID int64) error {
	if _, err := tx.Exec(ctx, "UPDATE organizations SET cancelled_at = ? WHERE id = ?", time.Now().UnixMilli(), orgID); err != nil {
		return err
	}
	return DeleteUser(ctx, tx, userID)
}
