-- Organisation and account: profile fields, security question, configuration kept on the
-- server, enterprise certification records, the system log's before/after, and account
-- cancellation.

ALTER TABLE users ADD COLUMN country TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN area TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN address TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN security_question TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN security_answer_hash TEXT NOT NULL DEFAULT '';
-- the console's configuration (locale, location, theme, page settings) as a JSON object
ALTER TABLE users ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
-- a deleted account keeps its row (for the log and for what it did) with status -1 and a
-- freed sign-in name
ALTER TABLE users ADD COLUMN deleted_at BIGINT;

ALTER TABLE organizations ADD COLUMN cancelled_at BIGINT;

-- Enterprise certification: a user submits a record; while it is auditing the user may
-- withdraw it, an administrator of the organisation passes or refuses it.
CREATE TABLE certifications (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    account_type TEXT NOT NULL,
    legal_person TEXT NOT NULL,
    legal_cert_type TEXT NOT NULL,
    legal_cert_number TEXT NOT NULL,
    enterprise_name TEXT NOT NULL,
    enterprise_cert_type TEXT NOT NULL,
    organization_code TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('auditing', 'passed', 'refused', 'withdrawn')),
    reason TEXT NOT NULL DEFAULT '',
    decided_by BIGINT,
    decided_at BIGINT,
    created_at BIGINT NOT NULL
);
CREATE INDEX certifications_org ON certifications(org_id, status);
CREATE INDEX certifications_user ON certifications(user_id);

-- The system log: every API write, with the route, the answer and, for edits, the object
-- before and after.
ALTER TABLE audit_log ADD COLUMN username TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN method TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN route TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN status INTEGER NOT NULL DEFAULT 200;
ALTER TABLE audit_log ADD COLUMN before_json TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN after_json TEXT NOT NULL DEFAULT '';
CREATE INDEX audit_log_time ON audit_log(created_at);
