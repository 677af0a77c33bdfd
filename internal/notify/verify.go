package notify

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"html/template"
	"net/http"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
)

// E-mail addresses are proved by a link: a user asks for one (their profile's address), the
// link holds a token kept hashed for a day, and opening it marks the address verified (if
// it is still the profile's). Alarm e-mails go only to a verified address.

// VerifyTTL is how long a link is good.
const VerifyTTL = 24 * time.Hour

// EmailService is the calls of e-mail addresses.
type EmailService struct {
	DB     *store.DB
	Mail   *SMTP
	Public string // the console's address (--public-url); "" takes the request's host
	Now    func() time.Time
}

// EmailState answers what the caller's address stands at.
type EmailState struct {
	Email    string `json:"email" doc:"the profile's address"`
	Verified bool   `json:"verified" doc:"alarm e-mails go to it"`
	Relay    bool   `json:"relay" doc:"the server has an SMTP relay: e-mails can leave it"`
}

// Routes registers the calls.
func (s *EmailService) Routes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/user/email", Tag: "webhook", Summary: "The caller's e-mail address and whether it is verified",
		Access: httpapi.Signed, Resp: EmailState{}, Handle: s.state})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/user/email/verify", Tag: "webhook", Summary: "Send a verification link to the caller's profile address (good for 24 hours)",
		Access: httpapi.Signed, Resp: EmailState{}, Handle: s.verify})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/email/confirm/{token}", Tag: "webhook", Summary: "The link of a verification e-mail: marks the address verified and opens the console's profile",
		Access: httpapi.Public, Raw: s.confirm, RawStatus: http.StatusFound})
}

func (s *EmailService) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

func (s *EmailService) read(ctx context.Context, uid int64) (EmailState, error) {
	var st EmailState
	var verified string
	if err := s.DB.QueryRow(ctx, "SELECT email, email_verified FROM users WHERE id = ?", uid).Scan(&st.Email, &verified); err != nil {
		return st, err
	}
	st.Verified = st.Email != "" && strings.EqualFold(strings.TrimSpace(st.Email), strings.TrimSpace(verified))
	st.Relay = s.Mail.Enabled()
	return st, nil
}

func (s *EmailService) state(r *http.Request) (any, error) {
	st, err := s.read(r.Context(), httpapi.Caller(r).UserID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return st, nil
}

// base is the console's address for links.
func (s *EmailService) base(r *http.Request) string {
	if s.Public != "" {
		return strings.TrimSuffix(s.Public, "/")
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

func hashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

func (s *EmailService) verify(r *http.Request) (any, error) {
	ctx := r.Context()
	p := httpapi.Caller(r)
	st, err := s.read(ctx, p.UserID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	switch {
	case strings.TrimSpace(st.Email) == "":
		return nil, httpapi.InvalidField("email", "mail_no_address")
	case !s.Mail.Enabled():
		return nil, httpapi.Conflict("mail_no_relay")
	}
	token := randomHex(32)
	now := s.now()
	if _, err := s.DB.Exec(ctx, "DELETE FROM email_verifications WHERE user_id = ? OR expires_at < ?", p.UserID, now.UnixMilli()); err != nil {
		return nil, httpapi.Internal(err)
	}
	if _, err := s.DB.Exec(ctx, "INSERT INTO email_verifications (token_hash, user_id, email, expires_at) VALUES (?, ?, ?, ?)",
		hashToken(token), p.UserID, st.Email, now.Add(VerifyTTL).UnixMilli()); err != nil {
		return nil, httpapi.Internal(err)
	}
	lang := httpapi.Locale(r)
	link := s.base(r) + "/v2/email/confirm/" + token
	t := func(key string, args ...any) string { return httpapi.T(lang, key, args...) }
	text := t("mail_verify_body", st.Email) + "\n\n" + link + "\n"
	esc := template.HTMLEscapeString
	html := "<p>" + esc(t("mail_verify_body", st.Email)) + `</p><p><a href="` + esc(link) + `">` + esc(t("mail_verify_link")) + "</a></p>"
	if err := s.Mail.Send(ctx, Mail{To: st.Email, Subject: t("mail_verify_subject"), Text: text, HTML: html, ID: "hv_" + token[:12]}); err != nil {
		return nil, &httpapi.Error{Status: http.StatusBadGateway, Code: http.StatusBadGateway, Key: "mail_relay_refused", Args: []any{err.Error()}}
	}
	return st, nil
}

// confirm marks the address verified and sends the browser to the console's profile,
// saying how it went (email=verified, or email=expired for a link that is unknown, used,
// past its day or for an address the profile no longer has).
func (s *EmailService) confirm(w http.ResponseWriter, r *http.Request) {
	token := r.PathValue("token")
	if _, err := hex.DecodeString(token); err != nil || len(token) != 64 {
		httpapi.Fail(w, r, httpapi.NotFound())
		return
	}
	outcome := "expired"
	err := s.DB.InTx(r.Context(), func(tx *store.Tx) error {
		var uid, expires int64
		var email string
		err := tx.QueryRow(r.Context(), "SELECT user_id, email, expires_at FROM email_verifications WHERE token_hash = ?", hashToken(token)).Scan(&uid, &email, &expires)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(r.Context(), "DELETE FROM email_verifications WHERE token_hash = ?", hashToken(token)); err != nil {
			return err
		}
		if expires < s.now().UnixMilli() {
			return nil
		}
		res, err := tx.Exec(r.Context(), "UPDATE users SET email_verified = email WHERE id = ? AND email = ?", uid, email)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			outcome = "verified"
		}
		return nil
	})
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Location", s.base(r)+"/#/user/settings?email="+outcome)
	w.WriteHeader(http.StatusFound)
}
