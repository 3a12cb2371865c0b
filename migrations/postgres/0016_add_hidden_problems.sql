-- Issue 47: the same schema as SQLite's 0016; see there for what it means.
CREATE TABLE hidden_problems (
    slug      TEXT PRIMARY KEY,
    hidden_at TEXT NOT NULL
);
