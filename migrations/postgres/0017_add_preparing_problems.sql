-- Issue 46: the same schema as SQLite's 0017; see there for what it means.
CREATE TABLE preparing_problems (
    slug     TEXT PRIMARY KEY,
    server   TEXT NOT NULL,
    until_ms BIGINT NOT NULL
);
