-- The assistant's document store: uploaded manuals and notes per organisation, their text
-- cut into passages, and each passage's embedding when an embeddings endpoint is configured.
-- The file itself is a blob (kind "document"); the full-text index is rebuilt from the
-- passages whenever a replica finds it missing or behind.
CREATE TABLE documents (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id),
    name VARCHAR(255) NOT NULL,
    content_type VARCHAR(100) NOT NULL,
    size BIGINT NOT NULL,
    sha256 VARCHAR(64) NOT NULL,
    blob_id VARCHAR(32) NOT NULL,
    -- queued, indexing, ready, failed
    status VARCHAR(16) NOT NULL,
    -- 0..1 while indexing
    progress DOUBLE PRECISION NOT NULL DEFAULT 0,
    chunks INTEGER NOT NULL DEFAULT 0,
    chars BIGINT NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT '',
    created_by BIGINT,
    created_at BIGINT NOT NULL,
    indexed_at BIGINT
);
CREATE UNIQUE INDEX documents_org_sha ON documents(org_id, sha256);
CREATE INDEX documents_status ON documents(status);

CREATE TABLE document_chunks (
    doc_id BIGINT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    org_id BIGINT NOT NULL,
    heading TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL,
    -- little-endian float32 vector, empty without an embeddings endpoint
    embedding {{BLOB}},
    PRIMARY KEY (doc_id, seq)
);
CREATE INDEX document_chunks_org ON document_chunks(org_id);
