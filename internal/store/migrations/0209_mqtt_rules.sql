-- MQTT payload mapping: an organisation's rules that turn its collectors' own topics
-- (OpenDTU, AhoyDTU, Tasmota, Victron Venus OS, …) into samples. topic is an MQTT filter
-- relative to the organisation's root (helio/map/{orgId}/) with named parts ({serial});
-- device is the device serial number, fixed or built from named parts; fields is a JSON
-- list of {"path", "field", "scale"} (docs/ingest-mqtt.md).
CREATE TABLE mqtt_rules (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name TEXT NOT NULL DEFAULT '',
    topic TEXT NOT NULL,
    device TEXT NOT NULL,
    fields TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- one rule per topic filter and organisation: the first rule a topic matches is its rule
CREATE UNIQUE INDEX mqtt_rules_topic ON mqtt_rules (org_id, topic);
