package notify

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"
)

// Web Push: a message encrypted for one browser subscription (RFC 8291, aes128gcm) and
// posted to its push service (RFC 8030) with the server's VAPID identity (RFC 8292).

var b64 = base64.RawURLEncoding

// VAPID is the server's application-server key pair.
type VAPID struct {
	Private *ecdsa.PrivateKey
	Public  string // base64url of the uncompressed point: the console's applicationServerKey
	Subject string // a mailto: or https: contact the push services may use

	mu     sync.Mutex
	tokens map[string]token // push service origin → a token still good for an hour or more
}

type token struct {
	header string
	exp    time.Time
}

// NewVAPID makes a key pair.
func NewVAPID() (*VAPID, error) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	return vapidOf(k), nil
}

func vapidOf(k *ecdsa.PrivateKey) *VAPID {
	pub, _ := k.PublicKey.Bytes()
	return &VAPID{Private: k, Public: b64.EncodeToString(pub)}
}

// EncodePrivate is the private key as stored (base64url of the scalar).
func (v *VAPID) EncodePrivate() string {
	d, _ := v.Private.Bytes()
	return b64.EncodeToString(d)
}

// ParseVAPID reads a stored private key.
func ParseVAPID(private string) (*VAPID, error) {
	raw, err := b64.DecodeString(private)
	if err != nil {
		return nil, err
	}
	k, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), raw)
	if err != nil {
		return nil, err
	}
	return vapidOf(k), nil
}

// authorization is the VAPID Authorization header for endpoint at now: a token per push
// service, signed again when less than an hour of its twelve is left (a storm pushes to
// thousands of browsers of the same service).
func (v *VAPID) authorization(endpoint string, now time.Time) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return "", err
	}
	origin := u.Scheme + "://" + u.Host
	v.mu.Lock()
	defer v.mu.Unlock()
	if t, ok := v.tokens[origin]; ok && now.Add(time.Hour).Before(t.exp) {
		return t.header, nil
	}
	h, err := v.sign(origin, now)
	if err != nil {
		return "", err
	}
	if v.tokens == nil {
		v.tokens = map[string]token{}
	}
	v.tokens[origin] = token{h, now.Add(12 * time.Hour)}
	return h, nil
}

func (v *VAPID) sign(origin string, now time.Time) (string, error) {
	sub := v.Subject
	if sub == "" {
		sub = "mailto:helio@localhost"
	}
	head := b64.EncodeToString([]byte(`{"typ":"JWT","alg":"ES256"}`))
	claims, _ := json.Marshal(map[string]any{"aud": origin, "exp": now.Add(12 * time.Hour).Unix(), "sub": sub})
	signing := head + "." + b64.EncodeToString(claims)
	sum := sha256.Sum256([]byte(signing))
	r, s, err := ecdsa.Sign(rand.Reader, v.Private, sum[:])
	if err != nil {
		return "", err
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return "vapid t=" + signing + "." + b64.EncodeToString(sig) + ", k=" + v.Public, nil
}

// Subscription is a browser's push subscription (PushSubscription.toJSON()).
type Subscription struct {
	Endpoint string `json:"endpoint"`
	P256dh   string `json:"p256dh"`
	Auth     string `json:"auth"`
}

func hmacSHA256(key []byte, parts ...[]byte) []byte {
	m := hmac.New(sha256.New, key)
	for _, p := range parts {
		m.Write(p)
	}
	return m.Sum(nil)
}

// webPushKeys derives the content key and nonce of RFC 8291 section 3.4 from the ECDH
// secret, the subscription's auth secret and public key, the sender's public key and the salt.
func webPushKeys(secret, auth, uaPublic, asPublic, salt []byte) (cek, nonce []byte) {
	prkKey := hmacSHA256(auth, secret)
	info := append(append(append([]byte("WebPush: info\x00"), uaPublic...), asPublic...), 1)
	ikm := hmacSHA256(prkKey, info)
	prk := hmacSHA256(salt, ikm)
	cek = hmacSHA256(prk, []byte("Content-Encoding: aes128gcm\x00\x01"))[:16]
	nonce = hmacSHA256(prk, []byte("Content-Encoding: nonce\x00\x01"))[:12]
	return cek, nonce
}

// Encrypt is plaintext as the aes128gcm body for the subscription (one record).
func Encrypt(sub Subscription, plaintext []byte) ([]byte, error) {
	uaPublic, err := b64.DecodeString(sub.P256dh)
	if err != nil {
		return nil, fmt.Errorf("notify: p256dh: %w", err)
	}
	auth, err := b64.DecodeString(sub.Auth)
	if err != nil || len(auth) != 16 {
		return nil, errors.New("notify: auth must be 16 bytes, base64url")
	}
	ua, err := ecdh.P256().NewPublicKey(uaPublic)
	if err != nil {
		return nil, fmt.Errorf("notify: p256dh: %w", err)
	}
	as, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	secret, err := as.ECDH(ua)
	if err != nil {
		return nil, err
	}
	salt := make([]byte, 16)
	if _, err := io.ReadFull(rand.Reader, salt); err != nil {
		return nil, err
	}
	asPublic := as.PublicKey().Bytes()
	cek, nonce := webPushKeys(secret, auth, uaPublic, asPublic, salt)
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	const rs = 4096
	if len(plaintext)+1+16 > rs {
		return nil, errors.New("notify: push message too long")
	}
	var out bytes.Buffer
	out.Write(salt)
	_ = binary.Write(&out, binary.BigEndian, uint32(rs))
	out.WriteByte(byte(len(asPublic)))
	out.Write(asPublic)
	out.Write(gcm.Seal(nil, nonce, append(append([]byte(nil), plaintext...), 2), nil))
	return out.Bytes(), nil
}

// ErrGone: the push service says the subscription no longer exists (404, 410).
var ErrGone = errors.New("notify: the push subscription is gone")

// push posts an encrypted message to the subscription's push service and returns its
// status. A topic ("": none) makes the service replace a message of the same topic it still
// holds for the browser (RFC 8030 section 5.4).
func (w *Worker) push(ctx context.Context, v *VAPID, sub Subscription, payload []byte, urgency, topic string, ttl time.Duration) (int, error) {
	body, err := Encrypt(sub, payload)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, sub.Endpoint, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	auth, err := v.authorization(sub.Endpoint, time.Now()) // the push service checks it against its own clock
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", auth)
	req.Header.Set("Content-Encoding", "aes128gcm")
	req.Header.Set("Content-Type", "application/octet-stream")
	req.Header.Set("TTL", strconv.Itoa(int(ttl.Seconds())))
	req.Header.Set("Urgency", urgency)
	if topic != "" {
		req.Header.Set("Topic", topic)
	}
	client := w.HTTP
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	text, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
	switch {
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		return resp.StatusCode, ErrGone
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return resp.StatusCode, fmt.Errorf("HTTP %d: %s", resp.StatusCode, bytes.TrimSpace(text))
	}
	return resp.StatusCode, nil
}
