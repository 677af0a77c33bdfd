// Package org holds organisations, departments and users: the accounts behind sessions
// and the unit that station authority is judged against.
package org

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
)

// Station authority values (DESIGN.md section 5).
const (
	AuthorityAll        = "all"        // every station of the organisation
	AuthorityOwn        = "own"        // stations created by the user's department
	AuthorityAuthorized = "authorized" // stations authorised to (or created by) the department
)

// User is an account. PasswordHash never leaves the server.
type User struct {
	ID               int64
	OrgID            int64
	DeptID           int64
	Username         string
	PasswordHash     string
	Role             string
	StationAuthority string
	Status           int // 1 active, 0 disabled
	Name             string
	Email            string
	Phone            string
	Avatar           string
	Job              string
	JobName          string
	Location         string
	LocationName     string
	Introduction     string
	PersonalWebsite  string
	Certification    int
	Country          string
	Area             string
	Address          string
	SecurityQuestion string
	// SecurityAnswerHash is the argon2id hash of the security answer ("" when unset).
	SecurityAnswerHash string
	// Settings is the console configuration, a JSON object.
	Settings  string
	CreatedAt time.Time
	UpdatedAt time.Time
	OrgName   string
	// OrgTimezone is the organisation's IANA time zone ("" when not set).
	OrgTimezone string
	DeptName    string
}

const userColumns = `u.id, u.org_id, COALESCE(u.dept_id, 0), u.username, u.password_hash, u.role,
	u.station_authority, u.status, u.name, u.email, u.phone, u.avatar, u.job, u.job_name,
	u.location, u.location_name, u.introduction, u.personal_website, u.certification,
	u.country, u.area, u.address, u.security_question, u.security_answer_hash, u.settings,
	u.created_at, u.updated_at, o.name, o.timezone, COALESCE(d.name, '')`

const userFrom = ` FROM users u JOIN organizations o ON o.id = u.org_id LEFT JOIN departments d ON d.id = u.dept_id `

func scanUser(row interface{ Scan(...any) error }) (*User, error) {
	var u User
	var created, updated int64
	err := row.Scan(&u.ID, &u.OrgID, &u.DeptID, &u.Username, &u.PasswordHash, &u.Role,
		&u.StationAuthority, &u.Status, &u.Name, &u.Email, &u.Phone, &u.Avatar, &u.Job, &u.JobName,
		&u.Location, &u.LocationName, &u.Introduction, &u.PersonalWebsite, &u.Certification,
		&u.Country, &u.Area, &u.Address, &u.SecurityQuestion, &u.SecurityAnswerHash, &u.Settings,
		&created, &updated, &u.OrgName, &u.OrgTimezone, &u.DeptName)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("org: unable to read user: %w", err)
	}
	u.CreatedAt = time.UnixMilli(created).UTC()
	u.UpdatedAt = time.UnixMilli(updated).UTC()
	return &u, nil
}

// UserByID loads a user with its organisation and department names.
func UserByID(ctx context.Context, db *store.DB, id int64) (*User, error) {
	return scanUser(db.QueryRow(ctx, "SELECT "+userColumns+userFrom+"WHERE u.id = ?", id))
}

// UserByUsername loads a user by sign-in name.
func UserByUsername(ctx context.Context, db *store.DB, username string) (*User, error) {
	return scanUser(db.QueryRow(ctx, "SELECT "+userColumns+userFrom+"WHERE u.username = ?", username))
}

// CreateOrg adds an organisation.
func CreateOrg(ctx context.Context, db *store.DB, name string) (int64, error) {
	id, err := db.Insert(ctx, "INSERT INTO organizations (name, created_at) VALUES (?, ?)", name, time.Now().UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("org: unable to create organisation: %w", err)
	}
	return id, nil
}

// CreateDept adds a department (parentID 0 for a top-level one).
func CreateDept(ctx context.Context, db *store.DB, orgID, parentID int64, name string) (int64, error) {
	var parent any
	if parentID != 0 {
		parent = parentID
	}
	id, err := db.Insert(ctx, "INSERT INTO departments (org_id, parent_id, name, created_at) VALUES (?, ?, ?, ?)",
		orgID, parent, name, time.Now().UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("org: unable to create department: %w", err)
	}
	return id, nil
}

// CreateUser adds a user whose password is already hashed.
func CreateUser(ctx context.Context, db *store.DB, u *User) (int64, error) {
	now := time.Now().UnixMilli()
	var dept any
	if u.DeptID != 0 {
		dept = u.DeptID
	}
	if u.StationAuthority == "" {
		u.StationAuthority = AuthorityAuthorized
	}
	if u.Status == 0 {
		u.Status = 1
	}
	id, err := db.Insert(ctx, `INSERT INTO users (org_id, dept_id, username, password_hash, role,
		station_authority, status, name, email, phone, job, job_name, location, location_name,
		introduction, personal_website, country, area, address, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		u.OrgID, dept, u.Username, u.PasswordHash, u.Role, u.StationAuthority, u.Status, u.Name,
		u.Email, u.Phone, u.Job, u.JobName, u.Location, u.LocationName, u.Introduction,
		u.PersonalWebsite, u.Country, u.Area, u.Address, now, now)
	if err != nil {
		if store.IsUniqueViolation(err) {
			return 0, fmt.Errorf("org: username %q is taken: %w", u.Username, ErrDuplicate)
		}
		return 0, fmt.Errorf("org: unable to create user: %w", err)
	}
	u.ID = id
	return id, nil
}

// ErrDuplicate is returned when a unique name is already taken.
var ErrDuplicate = errors.New("org: duplicate")

// SetPasswordHash replaces a user's password hash.
func SetPasswordHash(ctx context.Context, x interface {
	Exec(context.Context, string, ...any) (sql.Result, error)
}, userID int64, hash string) error {
	res, err := x.Exec(ctx, "UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?", hash, time.Now().UnixMilli(), userID)
	if err != nil {
		return fmt.Errorf("org: unable to set password: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// SetStatus enables (1) or disables (0) a user.
func SetStatus(ctx context.Context, x interface {
	Exec(context.Context, string, ...any) (sql.Result, error)
}, userID int64, status int) error {
	res, err := x.Exec(ctx, "UPDATE users SET status = ?, updated_at = ? WHERE id = ?", status, time.Now().UnixMilli(), userID)
	if err != nil {
		return fmt.Errorf("org: unable to set status: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// CountUsers returns the number of accounts (0 on a fresh database).
func CountUsers(ctx context.Context, db *store.DB) (int, error) {
	var n int
	err := db.QueryRow(ctx, "SELECT COUNT(*) FROM users").Scan(&n)
	return n, err
}

// Audit records who did what. Inside an API write it names the write's entry in the
// system log (which the router records once answered); elsewhere it adds a row itself.
func Audit(ctx context.Context, db *store.DB, orgID, userID int64, action, target, detail, client string) {
	if e := httpapi.CurrentWrite(ctx); e != nil {
		e.Action, e.Target, e.Detail = action, target, detail
		if e.UserID == 0 {
			e.OrgID, e.UserID, e.Username = orgID, userID, target
		}
		return
	}
	_, _ = db.Exec(ctx, `INSERT INTO audit_log (org_id, user_id, action, target, detail, client_addr, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, nullID(orgID), nullID(userID), action, target, detail, client, time.Now().UnixMilli())
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}
