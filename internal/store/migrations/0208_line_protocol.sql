-- InfluxDB line protocol ingest: an organisation's rules from measurement and field to a
-- device (by a tag holding its serial number) and a sample field, and the series that
-- arrived without a rule (counted and listed for the administrator to map, never dropped
-- unseen). docs/ingest.md, "Line protocol".
CREATE TABLE line_rules (
    org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    measurement TEXT NOT NULL,
    device_tag TEXT NOT NULL,
    field TEXT NOT NULL,
    target TEXT NOT NULL,
    scale DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (org_id, position)
);

CREATE TABLE line_unknown (
    org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    measurement TEXT NOT NULL,
    field TEXT NOT NULL,
    reason TEXT NOT NULL,
    tags TEXT NOT NULL,
    sample TEXT NOT NULL,
    points BIGINT NOT NULL,
    first_at BIGINT NOT NULL,
    last_at BIGINT NOT NULL,
    PRIMARY KEY (org_id, measurement, field, reason)
);
