-- The hosted judge (issue 13): accounts and API tokens, a lease and an
-- attempt number on every claim, and the history of rejudged results.

CREATE TABLE users (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT    NOT NULL UNIQUE,
    -- argon2 PHC string; the password itself is never stored.
    password_hash TEXT    NOT NULL,
    is_admin      INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
    disabled      INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- API tokens, stored only as SHA-256 hashes; `prefix` (the token's first
-- characters, too short to use) lets an admin name one to revoke.
CREATE TABLE tokens (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    hash       BLOB    NOT NULL UNIQUE,
    prefix     TEXT    NOT NULL,
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    revoked_at TEXT
);

-- NULL for submissions made at the keyboard (`grundy submit` without --server).
ALTER TABLE submissions ADD COLUMN user_id INTEGER REFERENCES users (id);
-- Bumped by every claim, never reset: a result is accepted only from the
-- holder of the current attempt.
ALTER TABLE submissions ADD COLUMN attempt INTEGER NOT NULL DEFAULT 0;
-- Claims in the current round of judging (reset by a rejudge); the third
-- failed one ends the submission IE.
ALTER TABLE submissions ADD COLUMN tries INTEGER NOT NULL DEFAULT 0;
-- Unix milliseconds (the database's clock) after which the claim is void.
ALTER TABLE submissions ADD COLUMN lease_until INTEGER;
-- 0 live submissions, 1 rejudges: live ones are judged first.
ALTER TABLE submissions ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;
-- Why the last attempt failed (for admins; never shown to contestants).
ALTER TABLE submissions ADD COLUMN error TEXT;

DROP INDEX submissions_queue;
CREATE INDEX submissions_claim ON submissions (status, priority, id);
CREATE INDEX submissions_by_user ON submissions (user_id, submitted_at);
CREATE INDEX submissions_by_problem ON submissions (problem, id);

-- A result replaced by a rejudge, with its tests as a JSON array.
CREATE TABLE submission_history (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    submission_id  INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    verdict        TEXT    NOT NULL,
    score          INTEGER,
    time_ms        INTEGER,
    memory_kib     INTEGER,
    compile_output TEXT    NOT NULL,
    finished_at    TEXT,
    tests          TEXT    NOT NULL,
    replaced_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX submission_history_by_submission ON submission_history (submission_id, id);
