-- How far a device's samples are in its roll-ups, when not all of them are: a streaming
-- write (MQTT, HTTP) commits the samples at once and their roll-up changes a moment later,
-- merged with the writes around it (internal/telemetry/deferred.go). NULL: every stored
-- sample of the device is in the roll-ups; else the samples up to and including the one at
-- rolled_ts are, and those after it are not yet (a start after a crash adds them).
ALTER TABLE telemetry_latest ADD COLUMN rolled_ts BIGINT;
