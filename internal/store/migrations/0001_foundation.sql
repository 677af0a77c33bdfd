-- Organisations, departments, users, sessions and the audit log.
-- Instants are BIGINT unix milliseconds (UTC); flags are INTEGER 0/1.

CREATE TABLE organizations (
    id {{ID}},
    name TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE departments (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id),
    parent_id BIGINT REFERENCES departments(id),
    name TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX departments_org ON departments(org_id);

CREATE TABLE users (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id),
    dept_id BIGINT REFERENCES departments(id),
    username TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('admin', 'user')),
    station_authority TEXT NOT NULL DEFAULT 'authorized' CHECK (station_authority IN ('all', 'own', 'authorized')),
    status INTEGER NOT NULL DEFAULT 1,
    name TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    phone TEXT NOT NULL DEFAULT '',
    avatar TEXT NOT NULL DEFAULT '',
    job TEXT NOT NULL DEFAULT '',
    job_name TEXT NOT NULL DEFAULT '',
    location TEXT NOT NULL DEFAULT '',
    location_name TEXT NOT NULL DEFAULT '',
    introduction TEXT NOT NULL DEFAULT '',
    personal_website TEXT NOT NULL DEFAULT '',
    certification INTEGER NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX users_org ON users(org_id);

-- Only the SHA-256 of a session token is kept. ended_reason says why a session ended:
-- 'logout' (the holder signed out) or 'revoked' (ended elsewhere: password reset,
-- account disabled), which the API reports as 50012.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    ended_at BIGINT,
    ended_reason TEXT,
    client_addr TEXT NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE audit_log (
    id {{ID}},
    org_id BIGINT,
    user_id BIGINT,
    action TEXT NOT NULL,
    target TEXT NOT NULL DEFAULT '',
    detail TEXT NOT NULL DEFAULT '',
    client_addr TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL
);
CREATE INDEX audit_log_org_time ON audit_log(org_id, created_at);
