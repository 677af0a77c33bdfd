-- Register maps for field devices that do not speak SunSpec. The current version's body
-- is kept on the map; every version (the current one included) in register_map_versions.
CREATE TABLE register_maps (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id),
    name TEXT NOT NULL,
    model TEXT NOT NULL DEFAULT '',
    version INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (org_id, name)
);

CREATE TABLE register_map_versions (
    map_id BIGINT NOT NULL REFERENCES register_maps(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    body TEXT NOT NULL,
    user_id BIGINT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (map_id, version)
);

-- A device's Modbus TCP connection: address, unit id, poll interval and timeout, and its
-- register map (NULL: SunSpec discovery).
CREATE TABLE field_links (
    device_id BIGINT PRIMARY KEY REFERENCES devices(id) ON DELETE CASCADE,
    org_id BIGINT NOT NULL REFERENCES organizations(id),
    host TEXT NOT NULL,
    port INTEGER NOT NULL,
    unit_id INTEGER NOT NULL,
    interval_ms BIGINT NOT NULL,
    timeout_ms BIGINT NOT NULL,
    map_id BIGINT REFERENCES register_maps(id),
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX field_links_org ON field_links(org_id);
CREATE INDEX field_links_map ON field_links(map_id);
