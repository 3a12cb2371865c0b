-- Submissions double as the judging queue: a row is 'queued' when stored,
-- 'judging' while a judge holds it, and 'done' once its verdict is recorded.
CREATE TABLE submissions (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    problem        TEXT    NOT NULL,
    language       TEXT    NOT NULL,
    source         BLOB    NOT NULL,
    submitted_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    status         TEXT    NOT NULL DEFAULT 'queued'
                           CHECK (status IN ('queued', 'judging', 'done')),
    claimed_at     TEXT,
    finished_at    TEXT,
    verdict        TEXT    CHECK (verdict IN ('AC','WA','PE','TLE','MLE','OLE','RE','CE','IE')),
    score          INTEGER,
    time_ms        INTEGER,
    memory_kib     INTEGER,
    compile_output TEXT    NOT NULL DEFAULT '',
    CHECK ((status = 'done') = (verdict IS NOT NULL))
);

CREATE INDEX submissions_queue ON submissions (status, id);

CREATE TABLE test_results (
    submission_id INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    position      INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    test_group    TEXT    NOT NULL,
    verdict       TEXT    NOT NULL
                          CHECK (verdict IN ('AC','WA','PE','TLE','MLE','OLE','RE','CE','IE')),
    time_ms       INTEGER NOT NULL,
    wall_ms       INTEGER NOT NULL,
    memory_kib    INTEGER NOT NULL,
    exit_code     INTEGER,
    signal        INTEGER,
    message       TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (submission_id, position)
);
