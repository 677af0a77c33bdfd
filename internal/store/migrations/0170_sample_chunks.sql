-- Raw samples written as chunks: a run of one device's samples within one UTC day, appended
-- after its latest sample in one write, stored as one value in the sealed blocks' columnar
-- form without the deflate (internal/telemetry/chunk.go). An instant of a device is in
-- telemetry_samples, in a chunk or in a sealed block, never in two: a write that reaches
-- back into a chunk turns it into rows first, and the sealer folds a day's rows and chunks
-- into its block. end_ts is the chunk's last instant + 1; chunks of a device never
-- overlap. A rowid table, as the blocks are.
CREATE TABLE telemetry_sample_chunks (
    device_id BIGINT NOT NULL,
    start_ts BIGINT NOT NULL,
    end_ts BIGINT NOT NULL,
    n INTEGER NOT NULL,
    data {{BLOB}} NOT NULL,
    PRIMARY KEY (device_id, start_ts)
);
