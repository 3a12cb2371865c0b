-- Issue 48: a contest set up from another contest system (its Contest API
-- or a contest package) and shadowed: grundy follows that system's event
-- feed, judges every submission again and keeps the other verdict beside
-- its own.
--
-- Where the contest came from, how its ids map to grundy's, and how far
-- its feed was read. `source`: the URL or path it was imported from;
-- `problems`, `languages`: JSON objects from the other system's id to a
-- problem label of the contest, to a grundy language (or "" for none:
-- such submissions are listed, not judged); `types`: the other system's
-- judgement types seen, JSON {id: {"name", "solved", "penalty"}};
-- `token`: the last event applied; `ended_ms`: when the feed said
-- end_of_updates.
CREATE TABLE shadows (
    contest_id INTEGER PRIMARY KEY REFERENCES contests (id) ON DELETE CASCADE,
    source     TEXT    NOT NULL,
    problems   TEXT    NOT NULL,
    languages  TEXT    NOT NULL,
    types      TEXT    NOT NULL DEFAULT '{}',
    token      TEXT,
    ended_ms   INTEGER
);

-- Each submission of the other system: its own ids and time, grundy's
-- submission judging it (NULL where grundy does not judge it, with the
-- reason), deleted by the other system, and a jury's mark that a
-- difference was checked.
CREATE TABLE shadow_submissions (
    contest_id      INTEGER NOT NULL REFERENCES contests (id) ON DELETE CASCADE,
    external_id     TEXT    NOT NULL,
    team            TEXT    NOT NULL,
    problem         TEXT    NOT NULL,
    language        TEXT    NOT NULL,
    contest_time_ms INTEGER NOT NULL,
    submission_id   INTEGER REFERENCES submissions (id),
    unjudged_reason TEXT,
    deleted         BOOLEAN NOT NULL DEFAULT FALSE,
    checked_note    TEXT,
    checked_ms      INTEGER,
    PRIMARY KEY (contest_id, external_id),
    CHECK ((submission_id IS NULL) = (unjudged_reason IS NOT NULL))
);

-- The other system's judgements (`arrival` orders them as the feed did:
-- the latest current one is the submission's), and their runs.
CREATE TABLE shadow_judgements (
    contest_id    INTEGER NOT NULL REFERENCES contests (id) ON DELETE CASCADE,
    external_id   TEXT    NOT NULL,
    submission    TEXT    NOT NULL,
    verdict       TEXT,
    is_current    BOOLEAN NOT NULL DEFAULT TRUE,
    max_run_ms    INTEGER,
    deleted       BOOLEAN NOT NULL DEFAULT FALSE,
    arrival       INTEGER NOT NULL,
    PRIMARY KEY (contest_id, external_id)
);

CREATE TABLE shadow_runs (
    contest_id  INTEGER NOT NULL REFERENCES contests (id) ON DELETE CASCADE,
    external_id TEXT    NOT NULL,
    judgement   TEXT    NOT NULL,
    ordinal     INTEGER NOT NULL,
    verdict     TEXT    NOT NULL,
    time_ms     INTEGER,
    deleted     BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (contest_id, external_id)
);
