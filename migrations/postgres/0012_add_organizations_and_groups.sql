-- Issue 39: the same schema as SQLite's 0012; see there for what the
-- tables and columns mean.
CREATE TABLE organizations (
    id          TEXT NOT NULL PRIMARY KEY,
    name        TEXT NOT NULL,
    formal_name TEXT NOT NULL,
    country     TEXT
);

CREATE TABLE team_groups (
    id   TEXT NOT NULL PRIMARY KEY,
    name TEXT NOT NULL
);

CREATE TABLE group_members (
    group_id TEXT   NOT NULL REFERENCES team_groups (id) ON DELETE CASCADE,
    user_id  BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (group_id, user_id)
);

ALTER TABLE users ADD COLUMN organization_id TEXT REFERENCES organizations (id);

ALTER TABLE contest_problems ADD COLUMN rgb TEXT;
