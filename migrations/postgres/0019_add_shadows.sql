-- Issue 48: the same schema as SQLite's 0019; see there for what the
-- columns mean.
CREATE TABLE shadows (
    contest_id BIGINT PRIMARY KEY REFERENCES contests (id) ON DELETE CASCADE,
    source     TEXT    NOT NULL,
    problems   TEXT    NOT NULL,
    languages  TEXT    NOT NULL,
    types      TEXT    NOT NULL DEFAULT '{}',
    token      TEXT,
    ended_ms   BIGINT
);

-- Each submission of the other system: its own ids and time, grundy's
-- submission judging it (NULL where grundy does not judge it, with the
-- reason), deleted by the other system, and a jury's mark that a
-- difference was checked.
CREATE TABLE shadow_submissions (
    contest_id      BIGINT  NOT NULL REFERENCES contests (id) ON DELETE CASCADE,
    external_id     TEXT    NOT NULL,
    team            TEXT    NOT NULL,
    problem         TEXT    NOT NULL,
    language        TEXT    NOT NULL,
    contest_time_ms BIGINT  NOT NULL,
    submission_id   BIGINT  REFERENCES submissions (id),
    unjudged_reason TEXT,
    deleted         BOOLEAN NOT NULL DEFAULT FALSE,
    checked_note    TEXT,
    checked_ms      BIGINT,
    PRIMARY KEY (contest_id, external_id),
    CHECK ((submission_id IS NULL) = (unjudged_reason IS NOT NULL))
);

-- The other system's judgements (`arrival` orders them as the feed did:
-- the latest current one is the submission's), and their runs.
CREATE TABLE shadow_judgements (
    contest_id    BIGINT  NOT NULL REFERENCES contests (id) ON DELETE CASCADE,
    external_id   TEXT    NOT NULL,
    submission    TEXT    NOT NULL,
    verdict       TEXT,
    is_current    BOOLEAN NOT NULL DEFAULT TRUE,
    max_run_ms    BIGINT,
    deleted       BOOLEAN NOT NULL DEFAULT FALSE,
    arrival       BIGINT  NOT NULL,
    PRIMARY KEY (contest_id, external_id)
);

CREATE TABLE shadow_runs (
    contest_id  BIGINT  NOT NULL REFERENCES contests (id) ON DELETE CASCADE,
    external_id TEXT    NOT NULL,
    judgement   TEXT    NOT NULL,
    ordinal     BIGINT  NOT NULL,
    verdict     TEXT    NOT NULL,
    time_ms     BIGINT,
    deleted     BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (contest_id, external_id)
);
