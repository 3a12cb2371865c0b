-- PostgreSQL's spelling of ../0007_add_worker_languages_and_packages.sql.
ALTER TABLE workers ADD COLUMN cores BIGINT NOT NULL DEFAULT 0;
ALTER TABLE workers ADD COLUMN languages TEXT NOT NULL DEFAULT '';

CREATE TABLE packages (
    hash       TEXT    PRIMARY KEY,
    slug       TEXT    NOT NULL,
    blob       BYTEA   NOT NULL,
    created_at TEXT    NOT NULL DEFAULT
        to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
);

CREATE TABLE published_problems (
    slug         TEXT    PRIMARY KEY,
    hash         TEXT    NOT NULL REFERENCES packages (hash),
    tests        TEXT    NOT NULL,
    published_at TEXT    NOT NULL DEFAULT
        to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
);

CREATE TABLE worker_refusals (
    worker  TEXT    NOT NULL,
    problem TEXT    NOT NULL,
    hash    TEXT    NOT NULL,
    reason  TEXT    NOT NULL,
    at      TEXT    NOT NULL DEFAULT
        to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    PRIMARY KEY (worker, problem, hash)
);

CREATE TABLE claims (
    submission_id BIGINT  NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    attempt       BIGINT  NOT NULL,
    worker        TEXT    NOT NULL,
    claimed_at    TEXT    NOT NULL DEFAULT
        to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    PRIMARY KEY (submission_id, attempt)
);
