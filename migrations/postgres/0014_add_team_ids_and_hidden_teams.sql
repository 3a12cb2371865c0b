-- Issue 43: the same schema as SQLite's 0014; see there for what the
-- columns mean.
ALTER TABLE users ADD COLUMN team_id TEXT;
CREATE UNIQUE INDEX users_team_id ON users (team_id);
ALTER TABLE users ADD COLUMN icpc_id TEXT;
ALTER TABLE users ADD COLUMN hidden BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE organizations ADD COLUMN icpc_id TEXT;
ALTER TABLE team_groups ADD COLUMN icpc_id TEXT;
