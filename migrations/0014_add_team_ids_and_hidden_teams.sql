-- Issue 43 (ids kept): a team keeps the CLICS id its registration gave it,
-- and teams, organizations and groups their ICPC ids; a team can be hidden
-- from the board.
-- The team's CLICS id; NULL: its account number as text, as before.
ALTER TABLE users ADD COLUMN team_id TEXT;
-- SQLite adds no UNIQUE column: an index says it (NULLs are distinct).
CREATE UNIQUE INDEX users_team_id ON users (team_id);
ALTER TABLE users ADD COLUMN icpc_id TEXT;
-- Off the board, the awards and the public's view of the contest.
ALTER TABLE users ADD COLUMN hidden BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE organizations ADD COLUMN icpc_id TEXT;
ALTER TABLE team_groups ADD COLUMN icpc_id TEXT;
