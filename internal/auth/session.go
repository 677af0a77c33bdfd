package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
)

// Sessions issues and checks opaque bearer tokens. Only a token's SHA-256 is stored.
type Sessions struct {
	DB  *store.DB
	TTL time.Duration
	Now func() time.Time
}

func (s *Sessions) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// HashToken is the stored form of a token.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// Create starts a session for a user and returns its token and expiry.
func (s *Sessions) Create(ctx context.Context, userID int64, client string) (string, time.Time, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", time.Time{}, err
	}
	token := base64.RawURLEncoding.EncodeToString(b)
	now := s.now()
	exp := now.Add(s.TTL)
	_, err := s.DB.Exec(ctx, `INSERT INTO sessions (token_hash, user_id, created_at, expires_at, client_addr)
		VALUES (?, ?, ?, ?, ?)`, HashToken(token), userID, now.UnixMilli(), exp.UnixMilli(), client)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("auth: unable to create session: %w", err)
	}
	return token, exp.UTC(), nil
}

// BearerToken extracts the token from the Authorization header ("Bearer <token>", the
// scheme's name in any case and any run of blanks after it, as RFC 7235 reads it).
func BearerToken(r *http.Request) string {
	scheme, token, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// Resolve checks a token: unknown, expired or signed-out tokens are a 401; a session
// ended elsewhere (password reset, account disabled) is a 401 with code 50012.
func (s *Sessions) Resolve(ctx context.Context, token string) (*httpapi.Principal, error) {
	if token == "" {
		return nil, httpapi.Unauthorized()
	}
	hash := HashToken(token)
	var (
		p       httpapi.Principal
		expires int64
		endedAt sql.NullInt64
		reason  sql.NullString
		status  int
		deptID  sql.NullInt64
	)
	err := s.DB.QueryRow(ctx, `SELECT s.expires_at, s.ended_at, s.ended_reason, u.id, u.org_id, u.dept_id,
		u.username, u.role, u.station_authority, u.status
		FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?`, hash).
		Scan(&expires, &endedAt, &reason, &p.UserID, &p.OrgID, &deptID, &p.Username, &p.Role, &p.StationAuthority, &status)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, httpapi.Unauthorized()
	}
	if err != nil {
		return nil, httpapi.Internal(fmt.Errorf("auth: unable to read session: %w", err))
	}
	switch {
	case endedAt.Valid && reason.String == "revoked":
		return nil, httpapi.SessionEnded()
	case endedAt.Valid:
		return nil, httpapi.Unauthorized()
	case status != 1:
		return nil, httpapi.SessionEnded()
	case s.now().UnixMilli() >= expires:
		return nil, httpapi.Unauthorized()
	}
	p.DeptID = deptID.Int64
	p.TokenHash = hash
	return &p, nil
}

// Authenticate is the httpapi.Authenticator for bearer tokens.
func (s *Sessions) Authenticate(r *http.Request) (*httpapi.Principal, error) {
	return s.Resolve(r.Context(), BearerToken(r))
}

// End signs one session out.
func (s *Sessions) End(ctx context.Context, tokenHash string) error {
	_, err := s.DB.Exec(ctx, "UPDATE sessions SET ended_at = ?, ended_reason = 'logout' WHERE token_hash = ? AND ended_at IS NULL",
		s.now().UnixMilli(), tokenHash)
	return err
}

// RevokeUser ends every open session of a user at once; their next call gets 50012.
func (s *Sessions) RevokeUser(ctx context.Context, userID int64) error {
	return revokeSessions(ctx, s.DB, userID, s.now())
}

// RevokeIn ends every open session of a user inside the caller's transaction.
func (s *Sessions) RevokeIn(ctx context.Context, x interface {
	Exec(context.Context, string, ...any) (sql.Result, error)
}, userID int64) error {
	return revokeSessions(ctx, x, userID, s.now())
}

// RevokeOthers ends a user's open sessions except the one with keepHash (a password
// changed by its owner keeps the session it was changed from).
func (s *Sessions) RevokeOthers(ctx context.Context, userID int64, keepHash string) error {
	_, err := s.DB.Exec(ctx, "UPDATE sessions SET ended_at = ?, ended_reason = 'revoked' WHERE user_id = ? AND ended_at IS NULL AND token_hash <> ?",
		s.now().UnixMilli(), userID, keepHash)
	return err
}

func revokeSessions(ctx context.Context, x interface {
	Exec(context.Context, string, ...any) (sql.Result, error)
}, userID int64, at time.Time) error {
	_, err := x.Exec(ctx, "UPDATE sessions SET ended_at = ?, ended_reason = 'revoked' WHERE user_id = ? AND ended_at IS NULL",
		at.UnixMilli(), userID)
	if err != nil {
		return fmt.Errorf("auth: unable to revoke sessions: %w", err)
	}
	return nil
}

// Prune deletes sessions that expired or ended more than a week ago.
func (s *Sessions) Prune(ctx context.Context) (int64, error) {
	cut := s.now().Add(-7 * 24 * time.Hour).UnixMilli()
	res, err := s.DB.Exec(ctx, "DELETE FROM sessions WHERE expires_at < ? OR ended_at < ?", cut, cut)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
