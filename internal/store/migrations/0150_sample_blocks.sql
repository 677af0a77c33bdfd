-- Sealed raw samples: the rows of telemetry_samples of one device and one UTC day,
-- compressed into one value (internal/telemetry/block.go) once the day is older than the
-- seal age (internal/telemetry/seal.go). A (device, day) has rows or a block, never both
-- at one instant: a late sample for a sealed day turns its block back into rows in the
-- write's transaction, and the sealer seals the day again later. n is the number of
-- samples; end_ts is the day's end (exclusive). A rowid table, not WITHOUT ROWID: blocks
-- of several kilobytes append to full leaf pages there (SQLite splits the pages of a
-- WITHOUT ROWID table in halves, which took a quarter more pages for the same blocks).
CREATE TABLE telemetry_sample_blocks (
    device_id BIGINT NOT NULL,
    start_ts BIGINT NOT NULL,
    end_ts BIGINT NOT NULL,
    n INTEGER NOT NULL,
    data {{BLOB}} NOT NULL,
    PRIMARY KEY (device_id, start_ts)
);
