-- Each sender's pass reads only its own channel's due deliveries (docs/notifications.md): a
-- storm's e-mail rows waiting for their digest no longer lie in the push and webhook passes'
-- scans.
CREATE INDEX notify_outbox_channel_due ON notify_outbox(channel, state, next_at);
