-- Packed station months: a station's day roll-ups of a month (every kind) copied into one
-- row once the month can no longer change through ingest (internal/telemetry/packed.go), so
-- that a past month of a fleet reads one row per station instead of one per station, kind
-- and day. A write that reaches an old day deletes its month's row; the packer packs it
-- again. The day rows stay the record.
CREATE TABLE telemetry_station_month_days (
    station_id BIGINT NOT NULL,
    bucket BIGINT NOT NULL,
    bucket_end BIGINT NOT NULL,
    days {{BLOB}} NOT NULL,
    PRIMARY KEY (station_id, bucket)
);
