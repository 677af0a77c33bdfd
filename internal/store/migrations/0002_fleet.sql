-- Stations (with sub-stations), station tags and grants, devices.

CREATE TABLE stations (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id),
    parent_id BIGINT REFERENCES stations(id),
    -- the department that created the station ("stations created by own unit")
    created_by_dept BIGINT REFERENCES departments(id),
    name TEXT NOT NULL,
    cover_image TEXT NOT NULL DEFAULT '',
    location TEXT NOT NULL DEFAULT '',
    country TEXT NOT NULL DEFAULT '',
    region TEXT NOT NULL DEFAULT '',
    address TEXT NOT NULL DEFAULT '',
    lat DOUBLE PRECISION NOT NULL DEFAULT 0,
    lng DOUBLE PRECISION NOT NULL DEFAULT 0,
    timezone TEXT NOT NULL DEFAULT 'UTC',
    station_type TEXT NOT NULL DEFAULT '',
    system_type TEXT NOT NULL DEFAULT '',
    capacity_kwp DOUBLE PRECISION NOT NULL DEFAULT 0,
    azimuth DOUBLE PRECISION NOT NULL DEFAULT 180,
    inclination DOUBLE PRECISION NOT NULL DEFAULT 25,
    line TEXT NOT NULL DEFAULT '',
    build_date TEXT NOT NULL DEFAULT '',
    combine_status INTEGER NOT NULL DEFAULT 0,
    combine_date TEXT NOT NULL DEFAULT '',
    grid_status INTEGER NOT NULL DEFAULT 0,
    grid_date TEXT NOT NULL DEFAULT '',
    currency TEXT NOT NULL DEFAULT 'CNY',
    price_per_kwh DOUBLE PRECISION NOT NULL DEFAULT 0,
    subsidy_per_kwh DOUBLE PRECISION NOT NULL DEFAULT 0,
    total_cost DOUBLE PRECISION NOT NULL DEFAULT 0,
    daily_repayment DOUBLE PRECISION NOT NULL DEFAULT 0,
    owner_name TEXT NOT NULL DEFAULT '',
    owner_phone TEXT NOT NULL DEFAULT '',
    owner_company TEXT NOT NULL DEFAULT '',
    manager_name TEXT NOT NULL DEFAULT '',
    manager_phone TEXT NOT NULL DEFAULT '',
    -- the simulator's key for demo stations, '' otherwise
    sim_key TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX stations_org ON stations(org_id);
CREATE INDEX stations_parent ON stations(parent_id);

-- "stations authorised to own unit"
CREATE TABLE station_grants (
    station_id BIGINT NOT NULL REFERENCES stations(id) ON DELETE CASCADE,
    dept_id BIGINT NOT NULL REFERENCES departments(id) ON DELETE CASCADE,
    PRIMARY KEY (station_id, dept_id)
);
CREATE INDEX station_grants_dept ON station_grants(dept_id);

CREATE TABLE station_tags (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id),
    name TEXT NOT NULL,
    color TEXT NOT NULL DEFAULT 'arcoblue',
    created_at BIGINT NOT NULL,
    UNIQUE (org_id, name)
);

CREATE TABLE station_tag_links (
    station_id BIGINT NOT NULL REFERENCES stations(id) ON DELETE CASCADE,
    tag_id BIGINT NOT NULL REFERENCES station_tags(id) ON DELETE CASCADE,
    PRIMARY KEY (station_id, tag_id)
);
CREATE INDEX station_tag_links_tag ON station_tag_links(tag_id);

CREATE TABLE devices (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id),
    station_id BIGINT NOT NULL REFERENCES stations(id),
    parent_id BIGINT REFERENCES devices(id),
    name TEXT NOT NULL,
    sn TEXT NOT NULL,
    -- inverter, battery, storage (all-in-one home storage) or meter
    type TEXT NOT NULL CHECK (type IN ('inverter', 'battery', 'storage', 'meter')),
    custom_type TEXT NOT NULL DEFAULT '',
    model TEXT NOT NULL DEFAULT '',
    rated_power_kw DOUBLE PRECISION NOT NULL DEFAULT 0,
    capacity_kwh DOUBLE PRECISION NOT NULL DEFAULT 0,
    component_capacity_kwp DOUBLE PRECISION NOT NULL DEFAULT 0,
    component_rated_power_w DOUBLE PRECISION NOT NULL DEFAULT 0,
    component_count INTEGER NOT NULL DEFAULT 0,
    strings_total INTEGER NOT NULL DEFAULT 0,
    strings_enabled INTEGER NOT NULL DEFAULT 0,
    meter_position TEXT NOT NULL DEFAULT '',
    collector_sn TEXT NOT NULL DEFAULT '',
    -- SHA-256 of the device's HTTP ingest key ('' when it has none)
    ingest_key_hash TEXT NOT NULL DEFAULT '',
    sim_key TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (org_id, sn)
);
CREATE INDEX devices_station ON devices(station_id);
CREATE INDEX devices_collector ON devices(org_id, collector_sn);

-- Collector (data logger) ingest keys: one key for every device behind a collector.
CREATE TABLE collectors (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id),
    sn TEXT NOT NULL,
    ingest_key_hash TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (org_id, sn)
);
