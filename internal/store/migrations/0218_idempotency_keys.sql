-- Idempotency keys of writes (docs/workorders.md, "Offline and retries"): a client that may
-- send a write twice (a phone's offline queue) names it with an Idempotency-Key header. The
-- first request claims the key (running); the write marks it applied in its own transaction
-- (with the object it made or changed); the answer is kept (done). A repeated key answers the
-- kept answer, or the object's present state, and changes nothing.
CREATE TABLE idempotency_keys (
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    idem_key TEXT NOT NULL,
    request TEXT NOT NULL,        -- "POST /v2/workorder/transition/12": the key names one request
    state TEXT NOT NULL,          -- running, applied, done
    ref_id BIGINT NOT NULL DEFAULT 0,
    response TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, idem_key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
