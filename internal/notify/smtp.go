package notify

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/smtp"
	"net/textproto"
	"strings"
	"time"
)

// SMTP is the server's mail relay (--smtp-*). Addr empty: no e-mail leaves the server.
type SMTP struct {
	Addr     string // host:port
	Username string // empty: no authentication
	Password string
	From     string // the sender's address
	// Security is "starttls" (the default: refused when the relay does not offer it),
	// "tls" (TLS from the first byte, port 465) or "none" (a relay on the same host or
	// network only).
	Security string
	Timeout  time.Duration // default 30 s
}

// Enabled reports whether a relay is configured.
func (s *SMTP) Enabled() bool { return s != nil && s.Addr != "" }

// Mail is one e-mail.
type Mail struct {
	To, Subject, Text, HTML string
	// ID is the delivery's idempotency key, carried as Message-ID and X-Helio-Delivery.
	ID string
}

// ErrNoRelay: no SMTP relay is configured.
var ErrNoRelay = errors.New("notify: no SMTP server is configured")

// Status is the SMTP reply code of err, 0 when the relay gave none.
func Status(err error) int {
	var te *textproto.Error
	if errors.As(err, &te) {
		return te.Code
	}
	return 0
}

// Send delivers m through the relay.
func (s *SMTP) Send(ctx context.Context, m Mail) error {
	if !s.Enabled() {
		return ErrNoRelay
	}
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	host, _, err := net.SplitHostPort(s.Addr)
	if err != nil {
		return fmt.Errorf("notify: smtp address %q: %w", s.Addr, err)
	}
	d := &net.Dialer{Timeout: timeout}
	var conn net.Conn
	if s.Security == "tls" {
		conn, err = tls.DialWithDialer(d, "tcp", s.Addr, &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12})
	} else {
		conn, err = d.DialContext(ctx, "tcp", s.Addr)
	}
	if err != nil {
		return err
	}
	_ = conn.SetDeadline(time.Now().Add(timeout))
	c, err := smtp.NewClient(conn, host)
	if err != nil {
		conn.Close()
		return err
	}
	defer c.Close()
	if s.Security == "" || s.Security == "starttls" {
		if ok, _ := c.Extension("STARTTLS"); !ok {
			return fmt.Errorf("notify: %s offers no STARTTLS (set --smtp-security none for a relay on this host)", s.Addr)
		}
		if err := c.StartTLS(&tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}); err != nil {
			return err
		}
	}
	if s.Username != "" {
		if err := c.Auth(smtp.PlainAuth("", s.Username, s.Password, host)); err != nil {
			return err
		}
	}
	if err := c.Mail(s.From); err != nil {
		return err
	}
	if err := c.Rcpt(m.To); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(s.message(m)); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

// message is m as MIME: a text and an HTML part, UTF-8, quoted-printable.
func (s *SMTP) message(m Mail) []byte {
	var b bytes.Buffer
	boundary := randomHex(12)
	domain := "helio.local"
	if _, d, ok := strings.Cut(s.From, "@"); ok {
		domain = strings.Trim(d, "> ")
	}
	h := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	h("From", s.From)
	h("To", m.To)
	h("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	h("Date", time.Now().UTC().Format(time.RFC1123Z))
	if m.ID != "" {
		h("Message-ID", "<"+m.ID+"@"+domain+">")
		h(HeaderDelivery, m.ID)
	}
	h("MIME-Version", "1.0")
	h("Content-Type", `multipart/alternative; boundary="`+boundary+`"`)
	b.WriteString("\r\n")
	for _, part := range []struct{ ctype, body string }{{"text/plain", m.Text}, {"text/html", m.HTML}} {
		fmt.Fprintf(&b, "--%s\r\nContent-Type: %s; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n", boundary, part.ctype)
		qp := quotedprintable.NewWriter(&b)
		_, _ = qp.Write([]byte(strings.ReplaceAll(part.body, "\n", "\r\n")))
		_ = qp.Close()
		b.WriteString("\r\n")
	}
	fmt.Fprintf(&b, "--%s--\r\n", boundary)
	return b.Bytes()
}

func randomHex(n int) string {
	buf := make([]byte, n)
	_, _ = rand.Read(buf)
	return hex.EncodeToString(buf)
}
