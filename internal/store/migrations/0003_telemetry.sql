-- Telemetry: raw samples (kept for the raw retention window), the latest sample per
-- device, and roll-ups per device and per station kind (kept for ever). docs/telemetry.md
-- describes the write path and every column. Instants are unix milliseconds (UTC); a
-- roll-up bucket starts and ends at the station-local calendar's boundaries.

-- One row per device and instant. cstate holds the counter logic's state after this
-- sample when it is more than "this reading was trusted" (JSON), else NULL.
CREATE TABLE telemetry_samples (
    device_id BIGINT NOT NULL,
    ts BIGINT NOT NULL,
    power_kw DOUBLE PRECISION NOT NULL,
    energy_kwh DOUBLE PRECISION NOT NULL,
    energy2_kwh DOUBLE PRECISION NOT NULL,
    dc_voltage_v DOUBLE PRECISION NOT NULL,
    dc_current_a DOUBLE PRECISION NOT NULL,
    ac_voltage_v DOUBLE PRECISION NOT NULL,
    frequency_hz DOUBLE PRECISION NOT NULL,
    temp_c DOUBLE PRECISION NOT NULL,
    soc DOUBLE PRECISION NOT NULL,
    irradiance_wm2 DOUBLE PRECISION NOT NULL,
    status INTEGER NOT NULL,
    strings_active INTEGER NOT NULL,
    cstate TEXT,
    PRIMARY KEY (device_id, ts)
) {{WITHOUT_ROWID}};

-- The last sample of each device (a copy of its newest raw row) for real-time views.
CREATE TABLE telemetry_latest (
    device_id BIGINT PRIMARY KEY,
    ts BIGINT NOT NULL,
    power_kw DOUBLE PRECISION NOT NULL,
    energy_kwh DOUBLE PRECISION NOT NULL,
    energy2_kwh DOUBLE PRECISION NOT NULL,
    dc_voltage_v DOUBLE PRECISION NOT NULL,
    dc_current_a DOUBLE PRECISION NOT NULL,
    ac_voltage_v DOUBLE PRECISION NOT NULL,
    frequency_hz DOUBLE PRECISION NOT NULL,
    temp_c DOUBLE PRECISION NOT NULL,
    soc DOUBLE PRECISION NOT NULL,
    irradiance_wm2 DOUBLE PRECISION NOT NULL,
    status INTEGER NOT NULL,
    strings_active INTEGER NOT NULL,
    cstate TEXT,
    received_at BIGINT NOT NULL
);

-- Device roll-ups. res: 2 day, 3 month, 4 year. Day rows also carry their hours, packed
-- (hours), so a year of hourly roll-ups is 365 rows per device rather than 8760.
CREATE TABLE telemetry_device_rollups (
    device_id BIGINT NOT NULL,
    res SMALLINT NOT NULL,
    bucket BIGINT NOT NULL,
    bucket_end BIGINT NOT NULL,
    energy_kwh DOUBLE PRECISION NOT NULL,
    energy2_kwh DOUBLE PRECISION NOT NULL,
    power_kwh DOUBLE PRECISION NOT NULL,
    max_power_kw DOUBLE PRECISION,
    min_power_kw DOUBLE PRECISION,
    samples BIGINT NOT NULL,
    irradiance_sum DOUBLE PRECISION NOT NULL,
    irradiation_kwh_m2 DOUBLE PRECISION NOT NULL,
    ref_energy_kwh DOUBLE PRECISION NOT NULL,
    fault_min DOUBLE PRECISION NOT NULL,
    online_min DOUBLE PRECISION NOT NULL,
    dc_voltage_sum DOUBLE PRECISION NOT NULL,
    dc_current_sum DOUBLE PRECISION NOT NULL,
    ac_voltage_sum DOUBLE PRECISION NOT NULL,
    frequency_sum DOUBLE PRECISION NOT NULL,
    temp_sum DOUBLE PRECISION NOT NULL,
    soc_sum DOUBLE PRECISION NOT NULL,
    hours {{BLOB}},
    PRIMARY KEY (device_id, res, bucket)
) {{WITHOUT_ROWID}};

-- Station roll-ups per device kind (inverter, battery, storage, meter:grid, …), summing the
-- station's devices and those of its sub-stations (irradiation_kwh_m2 is the sum over the
-- devices). Day rows carry their hours and their 5-minute power slots (slots), packed.
CREATE TABLE telemetry_station_rollups (
    station_id BIGINT NOT NULL,
    kind TEXT NOT NULL,
    res SMALLINT NOT NULL,
    bucket BIGINT NOT NULL,
    bucket_end BIGINT NOT NULL,
    energy_kwh DOUBLE PRECISION NOT NULL,
    energy2_kwh DOUBLE PRECISION NOT NULL,
    power_kwh DOUBLE PRECISION NOT NULL,
    max_power_kw DOUBLE PRECISION,
    min_power_kw DOUBLE PRECISION,
    samples BIGINT NOT NULL,
    irradiance_sum DOUBLE PRECISION NOT NULL,
    irradiation_kwh_m2 DOUBLE PRECISION NOT NULL,
    ref_energy_kwh DOUBLE PRECISION NOT NULL,
    fault_min DOUBLE PRECISION NOT NULL,
    online_min DOUBLE PRECISION NOT NULL,
    dc_voltage_sum DOUBLE PRECISION NOT NULL,
    dc_current_sum DOUBLE PRECISION NOT NULL,
    ac_voltage_sum DOUBLE PRECISION NOT NULL,
    frequency_sum DOUBLE PRECISION NOT NULL,
    temp_sum DOUBLE PRECISION NOT NULL,
    soc_sum DOUBLE PRECISION NOT NULL,
    hours {{BLOB}},
    slots {{BLOB}},
    PRIMARY KEY (station_id, kind, res, bucket)
) {{WITHOUT_ROWID}};

-- HTTP ingest keys are looked up by their hash.
CREATE INDEX devices_ingest_key ON devices(ingest_key_hash);
CREATE INDEX collectors_ingest_key ON collectors(ingest_key_hash);
