-- Web Push (RFC 8030, 8291, 8292; docs/notifications.md): the server's VAPID key pair, made at
-- the first start and shared by every replica, and each user's browser subscriptions.
CREATE TABLE webpush_keys (
    id INTEGER PRIMARY KEY,
    private_key TEXT NOT NULL, -- base64url of the P-256 scalar
    public_key TEXT NOT NULL,  -- base64url of the uncompressed point
    created_at BIGINT NOT NULL
);

CREATE TABLE webpush_subscriptions (
    id {{ID}},
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    endpoint TEXT NOT NULL UNIQUE,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX webpush_subscriptions_user ON webpush_subscriptions(user_id);
