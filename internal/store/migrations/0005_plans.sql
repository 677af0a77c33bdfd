-- Generation plans: planned energy per station and month.
CREATE TABLE plans (
    station_id BIGINT NOT NULL REFERENCES stations(id) ON DELETE CASCADE,
    year INTEGER NOT NULL,
    month INTEGER NOT NULL CHECK (month BETWEEN 1 AND 12),
    plan_kwh DOUBLE PRECISION NOT NULL CHECK (plan_kwh >= 0),
    updated_by BIGINT,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (station_id, year, month)
);
