-- When a device's ingest key was issued or last rotated (unix ms; 0: no key or unknown).
ALTER TABLE devices ADD COLUMN ingest_key_at BIGINT NOT NULL DEFAULT 0;
