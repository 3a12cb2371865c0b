-- Issue 32: each contest's record, the ordered list of every change a
-- client of the Contest API can see, appended in the transaction that makes
-- the change. `event_seq` is the number of the contest's last event: a
-- writer bumps it first, which takes the contest's row (PostgreSQL) or the
-- database (SQLite) until it commits, so events commit in the order of
-- their numbers and a reader that resumes after one never misses a later
-- one. It is also the version the boards are cached on.
ALTER TABLE contests ADD COLUMN event_seq INTEGER NOT NULL DEFAULT 0;

CREATE TABLE contest_events (
    contest_id INTEGER NOT NULL REFERENCES contests (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    -- The endpoint: contest, state, problems, teams, submissions, ...
    kind       TEXT    NOT NULL,
    object_id  TEXT,
    -- The object as JSON; NULL when it was deleted.
    data       TEXT,
    -- Who reads it: all; admin (admins only); team (admins and team_id);
    -- others (everyone but admins and team_id, who read it earlier: a
    -- result revealed at the unfreeze, a question answered to all).
    audience   TEXT    NOT NULL CHECK (audience IN ('all', 'admin', 'team', 'others')),
    team_id    INTEGER,
    -- The database's clock when it was written, Unix milliseconds.
    at_ms      INTEGER NOT NULL,
    PRIMARY KEY (contest_id, seq)
);
