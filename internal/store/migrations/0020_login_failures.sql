-- Failed sign-ins, kept in the database so that the sign-in limits hold across replicas.
-- subject is "pair:" + SHA-256 of the lower-case user name and client address (one account
-- from one address) or "addr:" + SHA-256 of the address (any account from one address:
-- password spraying).
CREATE TABLE login_failures (
    id {{ID}},
    subject VARCHAR(80) NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX login_failures_key_at ON login_failures (subject, at);
CREATE INDEX login_failures_at ON login_failures (at);
