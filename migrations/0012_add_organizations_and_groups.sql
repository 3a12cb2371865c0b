-- Issue 39 (the Contest API as the ICPC tools read it): where teams come
-- from and how they are grouped, and the colours of problems' balloons.
-- Organizations and groups belong to the site, as accounts do; a contest
-- shows those of its teams. Ids are the CLICS ids an import gave.
CREATE TABLE organizations (
    id          TEXT NOT NULL PRIMARY KEY,
    name        TEXT NOT NULL,
    formal_name TEXT NOT NULL,
    -- ISO 3166-1 alpha-3, or NULL.
    country     TEXT
);

CREATE TABLE team_groups (
    id   TEXT NOT NULL PRIMARY KEY,
    name TEXT NOT NULL
);

CREATE TABLE group_members (
    group_id TEXT    NOT NULL REFERENCES team_groups (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (group_id, user_id)
);

ALTER TABLE users ADD COLUMN organization_id TEXT REFERENCES organizations (id);

-- The balloon colour set for this contest (`#rrggbb`); NULL: the one the
-- problem's problem.toml gives, if any.
ALTER TABLE contest_problems ADD COLUMN rgb TEXT;
