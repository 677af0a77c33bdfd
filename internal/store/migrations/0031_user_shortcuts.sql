-- The workplace's "my menu": the console areas a user keeps at hand, in the user's order.
CREATE TABLE user_shortcuts (
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    target TEXT NOT NULL,
    PRIMARY KEY (user_id, position)
);
