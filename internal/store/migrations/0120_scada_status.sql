-- The field poller's status of each device it reads (docs/field.md): written by the replica
-- that polls (at most every couple of seconds per device, at once on a change of state), read
-- by the others, so every replica answers /v1/scada and the stations' communication state
-- alike. body is the status as JSON (counters, last errors, identity, SunSpec layout); state
-- is kept beside it for the communication summaries, which read nothing else.
CREATE TABLE scada_status (
    device_id BIGINT PRIMARY KEY REFERENCES devices(id) ON DELETE CASCADE,
    state TEXT NOT NULL,
    body TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
-- postgres:begin
-- rows are rewritten in place every few seconds: leave room for heap-only updates
ALTER TABLE scada_status SET (fillfactor = 70);
-- postgres:end
