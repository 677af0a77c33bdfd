-- E-mail notifications (docs/notifications.md): the address a user proved by the link sent to
-- it (email_verified: e-mails go only there, and only while it is still the profile's
-- address), the links on their way, and the digest period of a user's alarm e-mails.
ALTER TABLE users ADD COLUMN email_verified TEXT NOT NULL DEFAULT '';
ALTER TABLE alarm_notify_settings ADD COLUMN digest_minutes INTEGER NOT NULL DEFAULT 0;

CREATE TABLE email_verifications (
    token_hash TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
