-- Issue 39: the same schema as SQLite's 0010; see there for what the
-- column means.

ALTER TABLE contests ADD COLUMN finalized_ms BIGINT;
