-- Money in one currency: an organisation's base currency (ISO 4217) and the rates it sets
-- for the other currencies its stations earn in. A rate is dated by the month it takes
-- effect from: it holds until the same currency's next rate, so a past month keeps the rate
-- it had. rate is how many units of the base currency one unit of the currency is worth.
ALTER TABLE organizations ADD COLUMN base_currency TEXT NOT NULL DEFAULT 'CNY';

CREATE TABLE currency_rates (
    org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    currency TEXT NOT NULL,
    month TEXT NOT NULL,
    rate DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (org_id, currency, month)
);
