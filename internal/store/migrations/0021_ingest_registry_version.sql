-- The write path keeps the devices and stations it needs in memory. Any change that
-- matters to it (a device added, moved, re-parented, its serial number, collector, type
-- or rating changed, or deleted; a station re-parented or its timezone or capacity
-- changed) moves this counter on, so that every replica reloads before its next batch.
CREATE TABLE ingest_registry_version (
    id INTEGER PRIMARY KEY,
    version BIGINT NOT NULL
);
INSERT INTO ingest_registry_version (id, version) VALUES (1, 0);
-- sqlite:begin
CREATE TRIGGER devices_registry_ins AFTER INSERT ON devices BEGIN
    UPDATE ingest_registry_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER devices_registry_del AFTER DELETE ON devices BEGIN
    UPDATE ingest_registry_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER devices_registry_upd AFTER UPDATE OF org_id, station_id, parent_id, sn, collector_sn, type,
    meter_position, rated_power_kw, component_capacity_kwp ON devices BEGIN
    UPDATE ingest_registry_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER stations_registry_ins AFTER INSERT ON stations BEGIN
    UPDATE ingest_registry_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER stations_registry_del AFTER DELETE ON stations BEGIN
    UPDATE ingest_registry_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER stations_registry_upd AFTER UPDATE OF parent_id, timezone, capacity_kwp ON stations BEGIN
    UPDATE ingest_registry_version SET version = version + 1 WHERE id = 1;
END;
-- sqlite:end
-- postgres:begin
CREATE FUNCTION ingest_registry_bump() RETURNS trigger AS $$
BEGIN
    UPDATE ingest_registry_version SET version = version + 1 WHERE id = 1;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER devices_registry_ins_del AFTER INSERT OR DELETE ON devices
    FOR EACH STATEMENT EXECUTE FUNCTION ingest_registry_bump();
CREATE TRIGGER devices_registry_upd AFTER UPDATE OF org_id, station_id, parent_id, sn, collector_sn, type,
    meter_position, rated_power_kw, component_capacity_kwp ON devices
    FOR EACH STATEMENT EXECUTE FUNCTION ingest_registry_bump();
CREATE TRIGGER stations_registry_ins_del AFTER INSERT OR DELETE ON stations
    FOR EACH STATEMENT EXECUTE FUNCTION ingest_registry_bump();
CREATE TRIGGER stations_registry_upd AFTER UPDATE OF parent_id, timezone, capacity_kwp ON stations
    FOR EACH STATEMENT EXECUTE FUNCTION ingest_registry_bump();
-- postgres:end
