package org

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Certification record statuses.
const (
	CertAuditing  = "auditing"
	CertPassed    = "passed"
	CertRefused   = "refused"
	CertWithdrawn = "withdrawn"
)

// Certification actions.
const (
	CertWithdraw = "withdraw" // by the user who submitted it
	CertPass     = "pass"     // by an administrator of the organisation
	CertRefuse   = "refuse"   // by an administrator of the organisation
)

// ErrTransition is returned for an action the record's status does not allow.
var ErrTransition = errors.New("org: not allowed in this status")

// certTransitions is every allowed move: only an auditing record changes, once.
var certTransitions = map[string]map[string]string{
	CertAuditing: {CertWithdraw: CertWithdrawn, CertPass: CertPassed, CertRefuse: CertRefused},
}

// NextCertStatus returns the status an action leads to from status, or ErrTransition.
func NextCertStatus(status, action string) (string, error) {
	if next, ok := certTransitions[status][action]; ok {
		return next, nil
	}
	return "", fmt.Errorf("%w: %s from %s", ErrTransition, action, status)
}

// Certification is one enterprise certification record.
type Certification struct {
	ID                 int64      `json:"id"`
	UserID             int64      `json:"userId"`
	Username           string     `json:"username"`
	AccountType        string     `json:"accountType" doc:"enterprise or individual"`
	LegalPerson        string     `json:"legalPerson"`
	LegalCertType      string     `json:"legalCertType"`
	LegalCertNumber    string     `json:"legalCertNumber"`
	EnterpriseName     string     `json:"enterpriseName"`
	EnterpriseCertType string     `json:"enterpriseCertType"`
	OrganizationCode   string     `json:"organizationCode"`
	Status             string     `json:"status" doc:"auditing, passed, refused or withdrawn"`
	Reason             string     `json:"reason"`
	CreatedAt          time.Time  `json:"createdAt"`
	DecidedAt          *time.Time `json:"decidedAt"`
}

const certColumns = `c.id, c.user_id, u.username, c.account_type, c.legal_person, c.legal_cert_type,
	c.legal_cert_number, c.enterprise_name, c.enterprise_cert_type, c.organization_code, c.status,
	c.reason, c.created_at, c.decided_at FROM certifications c JOIN users u ON u.id = c.user_id`

func scanCert(row interface{ Scan(...any) error }) (*Certification, error) {
	var c Certification
	var created int64
	var decided sql.NullInt64
	err := row.Scan(&c.ID, &c.UserID, &c.Username, &c.AccountType, &c.LegalPerson, &c.LegalCertType,
		&c.LegalCertNumber, &c.EnterpriseName, &c.EnterpriseCertType, &c.OrganizationCode, &c.Status,
		&c.Reason, &created, &decided)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	c.CreatedAt = time.UnixMilli(created).UTC()
	if decided.Valid {
		t := time.UnixMilli(decided.Int64).UTC()
		c.DecidedAt = &t
	}
	return &c, nil
}

// SubmitCert adds an auditing record for a user; one auditing record at a time.
func SubmitCert(ctx context.Context, db *store.DB, orgID, userID int64, c *Certification) error {
	return db.InTx(ctx, func(tx *store.Tx) error {
		var open int
		if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM certifications WHERE user_id = ? AND status = ?", userID, CertAuditing).Scan(&open); err != nil {
			return err
		}
		if open > 0 {
			return ErrTransition
		}
		id, err := tx.Insert(ctx, `INSERT INTO certifications (org_id, user_id, account_type, legal_person,
			legal_cert_type, legal_cert_number, enterprise_name, enterprise_cert_type, organization_code,
			status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			orgID, userID, c.AccountType, c.LegalPerson, c.LegalCertType, c.LegalCertNumber, c.EnterpriseName,
			c.EnterpriseCertType, c.OrganizationCode, CertAuditing, time.Now().UnixMilli())
		c.ID = id
		return err
	})
}

// CertsOf lists the records of one user (userID != 0) or of the organisation, newest first.
func CertsOf(ctx context.Context, db *store.DB, orgID, userID int64, status string) ([]*Certification, error) {
	q := "SELECT " + certColumns + " WHERE c.org_id = ?"
	args := []any{orgID}
	if userID != 0 {
		q += " AND c.user_id = ?"
		args = append(args, userID)
	}
	if status != "" {
		q += " AND c.status = ?"
		args = append(args, status)
	}
	rows, err := db.Query(ctx, q+" ORDER BY c.created_at DESC, c.id DESC LIMIT 500", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []*Certification{}
	for rows.Next() {
		c, err := scanCert(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// CertByID loads a record of the organisation.
func CertByID(ctx context.Context, db *store.DB, orgID, id int64) (*Certification, error) {
	return scanCert(db.QueryRow(ctx, "SELECT "+certColumns+" WHERE c.id = ? AND c.org_id = ?", id, orgID))
}

// DecideCert applies an action to a record if its status allows it (checked again in the
// update, so two deciders cannot both win). A passed record certifies its user.
func DecideCert(ctx context.Context, db *store.DB, c *Certification, action string, by int64, reason string) error {
	next, err := NextCertStatus(c.Status, action)
	if err != nil {
		return err
	}
	return db.InTx(ctx, func(tx *store.Tx) error {
		now := time.Now().UnixMilli()
		res, err := tx.Exec(ctx, `UPDATE certifications SET status = ?, reason = ?, decided_by = ?, decided_at = ?
			WHERE id = ? AND status = ?`, next, reason, by, now, c.ID, c.Status)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrTransition
		}
		if next == CertPassed {
			_, err = tx.Exec(ctx, "UPDATE users SET certification = 1, updated_at = ? WHERE id = ?", now, c.UserID)
		}
		return err
	})
}
