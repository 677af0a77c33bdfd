-- Plan proposals: a station's yearly plan as drafted, submitted to an approver, and approved
-- (its months then become the station's plan in `plans`, which the monitor reads) or refused
-- with a reason. One proposal per station and year.
CREATE TABLE plan_proposals (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id),
    station_id BIGINT NOT NULL REFERENCES stations(id) ON DELETE CASCADE,
    year INTEGER NOT NULL,
    -- the twelve months' planned kWh as a JSON array
    months TEXT NOT NULL,
    -- 1 commit (draft), 2 in approval, 3 finished (approved), 4 refused
    status SMALLINT NOT NULL DEFAULT 1,
    submitter_id BIGINT REFERENCES users(id) ON DELETE SET NULL,
    approver_id BIGINT REFERENCES users(id) ON DELETE SET NULL,
    refusal_reason TEXT NOT NULL DEFAULT '',
    submitted_at BIGINT,
    decided_at BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX plan_proposals_station_year ON plan_proposals (station_id, year);
CREATE INDEX plan_proposals_org_year ON plan_proposals (org_id, year);
