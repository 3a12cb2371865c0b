-- Issue 24 (workers on many machines): what each process's workers can
-- judge, announced at start.
ALTER TABLE workers ADD COLUMN cores INTEGER NOT NULL DEFAULT 0;
-- The languages it has toolchains for, `id version` a line.
ALTER TABLE workers ADD COLUMN languages TEXT NOT NULL DEFAULT '';

-- Problem packages published for workers on other machines (`grundy
-- publish`, or the server at start on PostgreSQL): each version once, named
-- by the SHA-256 of its blob (see src/problem/archive.rs).
CREATE TABLE packages (
    hash       TEXT    PRIMARY KEY,
    slug       TEXT    NOT NULL,
    blob       BLOB    NOT NULL,
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- The version of each problem that workers judge, with its tests as the
-- publisher built them: a JSON array of {"name", "input_sha256",
-- "answer_sha256"} that every worker's own build must match.
CREATE TABLE published_problems (
    slug         TEXT    PRIMARY KEY,
    hash         TEXT    NOT NULL REFERENCES packages (hash),
    tests        TEXT    NOT NULL,
    published_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- A worker whose build of a published package did not match: it judges
-- none of that problem (shown to admins).
CREATE TABLE worker_refusals (
    worker  TEXT    NOT NULL,
    problem TEXT    NOT NULL,
    hash    TEXT    NOT NULL,
    reason  TEXT    NOT NULL,
    at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (worker, problem, hash)
);

-- Every claim of a submission: which worker process took which attempt
-- (a second attempt follows only a lease that expired).
CREATE TABLE claims (
    submission_id INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    attempt       INTEGER NOT NULL,
    worker        TEXT    NOT NULL,
    claimed_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (submission_id, attempt)
);
