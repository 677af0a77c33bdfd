-- The power column of sealed days apart from their blocks: one row per block (device, UTC
-- day start), the day's instants and power in a form read without inflating
-- (internal/telemetry/powerrow.go), so that a chart of power over sealed days reads a small
-- row a day instead of a block of several kilobytes on overflow pages. A block sealed
-- since holds every column but power, and is written and deleted with its power row in one
-- transaction (internal/telemetry/seal.go). A rowid table, as the blocks are: a row of about
-- a kilobyte fits in its leaf page (a WITHOUT ROWID row over a quarter of a page would spill).
CREATE TABLE telemetry_sample_power (
    device_id BIGINT NOT NULL,
    start_ts BIGINT NOT NULL,
    data {{BLOB}} NOT NULL,
    PRIMARY KEY (device_id, start_ts)
);

-- The devices with blocks sealed before this migration: those blocks hold their power and
-- have no power row. The sealer writes their power rows a few devices at a time and takes
-- each device off the list (internal/telemetry/sealpass.go); readers of power read the
-- blocks of a listed device that have no power row.
CREATE TABLE telemetry_sample_power_todo (
    device_id BIGINT NOT NULL PRIMARY KEY
) {{WITHOUT_ROWID}};
INSERT INTO telemetry_sample_power_todo (device_id) SELECT DISTINCT device_id FROM telemetry_sample_blocks;
