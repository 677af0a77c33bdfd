package notify

import (
	"context"
	"crypto/ecdh"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
)

// PushKeys is the server's VAPID key pair, made at the first start and kept in the database
// so every replica signs with the same (the browsers' subscriptions name its public key).
type PushKeys struct {
	DB      *store.DB
	Subject string
	mu      sync.Mutex
	v       *VAPID
}

// Get loads the key pair, making it when there is none (two replicas racing keep the first).
func (k *PushKeys) Get(ctx context.Context) (*VAPID, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.v != nil {
		return k.v, nil
	}
	fresh, err := NewVAPID()
	if err != nil {
		return nil, err
	}
	if _, err := k.DB.Exec(ctx, `INSERT INTO webpush_keys (id, private_key, public_key, created_at) VALUES (1, ?, ?, ?)
		ON CONFLICT (id) DO NOTHING`, fresh.EncodePrivate(), fresh.Public, time.Now().UnixMilli()); err != nil {
		return nil, err
	}
	var private string
	if err := k.DB.QueryRow(ctx, "SELECT private_key FROM webpush_keys WHERE id = 1").Scan(&private); err != nil {
		return nil, err
	}
	v, err := ParseVAPID(private)
	if err != nil {
		return nil, err
	}
	v.Subject = k.Subject
	k.v = v
	return v, nil
}

// MaxSubscriptions bounds a user's subscribed browsers (the oldest go).
const MaxSubscriptions = 20

// PushService is the calls of a user's browser subscriptions.
type PushService struct {
	DB   *store.DB
	Keys *PushKeys
}

// PushState answers what the console needs to subscribe.
type PushState struct {
	PublicKey     string `json:"publicKey" doc:"the server's VAPID key: PushManager.subscribe's applicationServerKey"`
	Subscriptions int    `json:"subscriptions" doc:"the caller's subscribed browsers"`
}

// SubscriptionInput is a browser's PushSubscription: its endpoint and keys.
type SubscriptionInput struct {
	Endpoint string `json:"endpoint" validate:"required"`
	Keys     struct {
		P256dh string `json:"p256dh" validate:"required"`
		Auth   string `json:"auth" validate:"required"`
	} `json:"keys" validate:"required"`
}

// EndpointInput names a subscription.
type EndpointInput struct {
	Endpoint string `json:"endpoint" validate:"required"`
}

// Routes registers the calls (any signed-in user, their own subscriptions only).
func (s *PushService) Routes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/push/state", Tag: "webhook", Summary: "The server's VAPID public key and how many browsers of the caller are subscribed",
		Access: httpapi.Signed, Resp: PushState{}, Handle: s.state})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/push/subscribe", Tag: "webhook", Summary: "Subscribe this browser to the caller's app push notifications (method 2)",
		Access: httpapi.Signed, Body: SubscriptionInput{}, Resp: PushState{}, Handle: s.subscribe})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/push/unsubscribe", Tag: "webhook", Summary: "Stop app push notifications to one of the caller's browsers",
		Access: httpapi.Signed, Body: EndpointInput{}, Resp: PushState{}, Handle: s.unsubscribe})
}

func (s *PushService) current(r *http.Request) (any, error) {
	v, err := s.Keys.Get(r.Context())
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	var n int
	if err := s.DB.QueryRow(r.Context(), "SELECT COUNT(*) FROM webpush_subscriptions WHERE user_id = ?", httpapi.Caller(r).UserID).Scan(&n); err != nil {
		return nil, httpapi.Internal(err)
	}
	return PushState{PublicKey: v.Public, Subscriptions: n}, nil
}

func (s *PushService) state(r *http.Request) (any, error) { return s.current(r) }

// checkEndpoint: a push service's https address (http only on this host, for tests).
func checkEndpoint(v *httpapi.Validator, endpoint string) {
	if !v.Required("endpoint", endpoint) {
		return
	}
	v.MaxLen("endpoint", endpoint, 2000)
	u, err := url.Parse(endpoint)
	loopback := false
	if err == nil {
		if ip := net.ParseIP(u.Hostname()); ip != nil && ip.IsLoopback() || u.Hostname() == "localhost" {
			loopback = true
		}
	}
	if err != nil || u.Host == "" || u.User != nil || !(u.Scheme == "https" || u.Scheme == "http" && loopback) {
		v.Add("endpoint", "push_endpoint_invalid")
	}
}

func (s *PushService) subscribe(r *http.Request) (any, error) {
	var in SubscriptionInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	var v httpapi.Validator
	in.Endpoint = strings.TrimSpace(in.Endpoint)
	checkEndpoint(&v, in.Endpoint)
	if raw, err := b64.DecodeString(strings.TrimRight(in.Keys.P256dh, "=")); err != nil {
		v.Add("keys.p256dh", "invalid_format")
	} else if _, err := ecdh.P256().NewPublicKey(raw); err != nil {
		v.Add("keys.p256dh", "invalid_format")
	}
	if raw, err := b64.DecodeString(strings.TrimRight(in.Keys.Auth, "=")); err != nil || len(raw) != 16 {
		v.Add("keys.auth", "invalid_format")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	uid := httpapi.Caller(r).UserID
	// an endpoint is one browser: subscribing it again (or as another user) moves it
	if _, err := s.DB.Exec(r.Context(), `INSERT INTO webpush_subscriptions (user_id, endpoint, p256dh, auth, created_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth, created_at = excluded.created_at`,
		uid, in.Endpoint, strings.TrimRight(in.Keys.P256dh, "="), strings.TrimRight(in.Keys.Auth, "="), time.Now().UnixMilli()); err != nil {
		return nil, httpapi.Internal(err)
	}
	// a user keeps their newest MaxSubscriptions browsers: a client subscribing in a loop
	// cannot make every alarm a thousand pushes
	if _, err := s.DB.Exec(r.Context(), `DELETE FROM webpush_subscriptions WHERE user_id = ? AND id NOT IN
		(SELECT id FROM webpush_subscriptions WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?)`, uid, uid, MaxSubscriptions); err != nil {
		return nil, httpapi.Internal(err)
	}
	return s.current(r)
}

func (s *PushService) unsubscribe(r *http.Request) (any, error) {
	var in EndpointInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	var v httpapi.Validator
	if v.Required("endpoint", in.Endpoint) {
		v.MaxLen("endpoint", in.Endpoint, 2000)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if _, err := s.DB.Exec(r.Context(), "DELETE FROM webpush_subscriptions WHERE endpoint = ? AND user_id = ?", strings.TrimSpace(in.Endpoint), httpapi.Caller(r).UserID); err != nil {
		return nil, httpapi.Internal(err)
	}
	return s.current(r)
}
