// Package pushtest is a Web Push service of our own on 127.0.0.1 for tests: it makes browser
// subscriptions (a P-256 key pair and an auth secret each, as a browser does), takes
// messages as RFC 8030 says (POST to the subscription's endpoint, TTL and Urgency headers,
// 201 Created), checks the sender's VAPID token (RFC 8292: ES256 over the endpoint's origin,
// not expired, signed by the key in k) and decrypts each body (RFC 8291, aes128gcm) with the
// subscription's private key, so a test sees exactly what the browser would read.
package pushtest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

var b64 = base64.RawURLEncoding

// Message is one push as the browser reads it.
type Message struct {
	Subscription        string // the subscription's id
	TTL, Urgency, Topic string
	Payload             []byte
}

// Service is the stand-in.
type Service struct {
	srv  *httptest.Server
	mu   sync.Mutex
	subs map[string]*sub
	got  []Message
	bad  []string
}

type sub struct {
	key  *ecdh.PrivateKey
	auth []byte
	gone bool
	down int // a status the service answers instead (0: it takes messages)
}

// Start runs a stand-in until the test ends.
func Start(t testing.TB) *Service {
	s := &Service{subs: map[string]*sub{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.handle))
	t.Cleanup(s.srv.Close)
	return s
}

// Subscription is what a browser's PushSubscription gives the server.
type Subscription struct {
	Endpoint, P256dh, Auth string
}

// Subscribe makes a browser subscription, as PushManager.subscribe would.
func (s *Service) Subscribe(t testing.TB) Subscription {
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	s.mu.Lock()
	id := fmt.Sprintf("sub%d", len(s.subs)+1)
	s.subs[id] = &sub{key: key, auth: auth}
	s.mu.Unlock()
	return Subscription{Endpoint: s.srv.URL + "/push/" + id, P256dh: b64.EncodeToString(key.PublicKey().Bytes()), Auth: b64.EncodeToString(auth)}
}

// Expire makes the subscription of endpoint gone (the browser unsubscribed): 410 from now on.
func (s *Service) Expire(endpoint string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sb := s.subs[endpoint[strings.LastIndex(endpoint, "/")+1:]]; sb != nil {
		sb.gone = true
	}
}

// Down makes the service answer status (a 5xx: it is in trouble) to the subscription's
// messages from now on, taking none; 0 makes it take them again.
func (s *Service) Down(endpoint string, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sb := s.subs[endpoint[strings.LastIndex(endpoint, "/")+1:]]; sb != nil {
		sb.down = status
	}
}

// Messages are the pushes taken so far.
func (s *Service) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.got...)
}

// Refused lists why requests were refused (a bad token, a body that does not decrypt).
func (s *Service) Refused() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bad...)
}

func (s *Service) refuse(w http.ResponseWriter, status int, why string) {
	s.bad = append(s.bad, why)
	http.Error(w, why, status)
}

func (s *Service) handle(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := strings.TrimPrefix(r.URL.Path, "/push/")
	sb := s.subs[id]
	if r.Method != http.MethodPost || sb == nil {
		http.NotFound(w, r)
		return
	}
	if sb.gone {
		w.WriteHeader(http.StatusGone)
		return
	}
	if sb.down != 0 {
		w.WriteHeader(sb.down)
		return
	}
	if err := s.checkVAPID(r.Header.Get("Authorization")); err != nil {
		s.refuse(w, http.StatusUnauthorized, err.Error())
		return
	}
	if r.Header.Get("Content-Encoding") != "aes128gcm" || r.Header.Get("TTL") == "" {
		s.refuse(w, http.StatusBadRequest, "Content-Encoding aes128gcm and TTL are required")
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 4096+100))
	plain, err := decrypt(sb.key, sb.auth, body)
	if err != nil {
		s.refuse(w, http.StatusBadRequest, "does not decrypt: "+err.Error())
		return
	}
	s.got = append(s.got, Message{Subscription: id, TTL: r.Header.Get("TTL"), Urgency: r.Header.Get("Urgency"),
		Topic: r.Header.Get("Topic"), Payload: plain})
	w.Header().Set("Location", s.srv.URL+"/message/"+fmt.Sprint(len(s.got)))
	w.WriteHeader(http.StatusCreated)
}

// checkVAPID verifies "vapid t=<jwt>, k=<public key>": ES256, audience this origin, not expired.
func (s *Service) checkVAPID(header string) error {
	var token, key string
	for _, part := range strings.Split(strings.TrimPrefix(header, "vapid "), ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			token = v
		case "k":
			key = v
		}
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 || key == "" {
		return fmt.Errorf("no VAPID token")
	}
	raw, err := b64.DecodeString(key)
	if err != nil || len(raw) != 65 {
		return fmt.Errorf("bad VAPID key")
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
	if err != nil {
		return fmt.Errorf("bad VAPID key: %w", err)
	}
	sig, err := b64.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return fmt.Errorf("bad VAPID signature")
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pub, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return fmt.Errorf("VAPID signature does not verify")
	}
	var claims struct {
		Aud string `json:"aud"`
		Exp int64  `json:"exp"`
		Sub string `json:"sub"`
	}
	payload, _ := b64.DecodeString(parts[1])
	if err := json.Unmarshal(payload, &claims); err != nil {
		return err
	}
	if claims.Aud != s.srv.URL || claims.Exp < time.Now().Unix() || claims.Exp > time.Now().Add(24*time.Hour).Unix() || claims.Sub == "" {
		return fmt.Errorf("VAPID claims %+v", claims)
	}
	return nil
}

func hmacSHA256(key []byte, parts ...[]byte) []byte {
	m := hmac.New(sha256.New, key)
	for _, p := range parts {
		m.Write(p)
	}
	return m.Sum(nil)
}

// decrypt reads an aes128gcm body (RFC 8188 header: salt, record size, key id = the sender's
// public key) with the subscription's private key and auth secret, as RFC 8291 section 3.4
// derives the key and nonce; one record, ended by the 0x02 delimiter.
func decrypt(private *ecdh.PrivateKey, auth, body []byte) ([]byte, error) {
	if len(body) < 21 || len(body) < 21+int(body[20]) {
		return nil, fmt.Errorf("body too short")
	}
	salt, asPublic := body[:16], body[21:21+int(body[20])]
	as, err := ecdh.P256().NewPublicKey(asPublic)
	if err != nil {
		return nil, err
	}
	secret, err := private.ECDH(as)
	if err != nil {
		return nil, err
	}
	uaPublic := private.PublicKey().Bytes()
	prkKey := hmacSHA256(auth, secret)
	ikm := hmacSHA256(prkKey, []byte("WebPush: info\x00"), uaPublic, asPublic, []byte{1})
	prk := hmacSHA256(salt, ikm)
	cek := hmacSHA256(prk, []byte("Content-Encoding: aes128gcm\x00"), []byte{1})[:16]
	nonce := hmacSHA256(prk, []byte("Content-Encoding: nonce\x00"), []byte{1})[:12]
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, body[21+len(asPublic):], nil)
	if err != nil {
		return nil, err
	}
	i := bytes.LastIndexByte(plain, 2)
	if i < 0 {
		return nil, fmt.Errorf("no padding delimiter")
	}
	return plain[:i], nil
}
