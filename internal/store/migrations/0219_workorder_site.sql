-- On site (docs/workorders.md, "On site"): checklist templates of an organisation (items to
-- tick, photos to take, readings with units), an order's checklist (a copy of the template's
-- items when attached, so later template edits do not change it) with its answers, and the
-- crew's check-ins and check-outs with the phone's position when they allowed it.
CREATE TABLE checklist_templates (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    items TEXT NOT NULL, -- JSON [{"key":"a1","label":"…","kind":"check|photo|reading","unit":"V","required":true}]
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (org_id, name)
);

CREATE TABLE work_order_checklists (
    order_id BIGINT PRIMARY KEY REFERENCES work_orders(id) ON DELETE CASCADE,
    template_id BIGINT NOT NULL DEFAULT 0,
    name TEXT NOT NULL,
    items TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE work_order_checklist_answers (
    order_id BIGINT NOT NULL REFERENCES work_orders(id) ON DELETE CASCADE,
    item_key TEXT NOT NULL,
    done INTEGER NOT NULL,
    value DOUBLE PRECISION,
    note TEXT NOT NULL DEFAULT '',
    attachment_id BIGINT NOT NULL DEFAULT 0,
    user_id BIGINT NOT NULL,
    answered_at BIGINT NOT NULL,
    PRIMARY KEY (order_id, item_key)
);

CREATE TABLE work_order_checkins (
    id {{ID}},
    order_id BIGINT NOT NULL REFERENCES work_orders(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL,
    kind TEXT NOT NULL, -- in, out
    at BIGINT NOT NULL,
    lat DOUBLE PRECISION,
    lng DOUBLE PRECISION,
    accuracy_m DOUBLE PRECISION,
    distance_m DOUBLE PRECISION -- from the station, when both positions are known
);
CREATE INDEX work_order_checkins_order ON work_order_checkins(order_id, at);
