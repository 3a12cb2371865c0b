-- Issue 15: test groups with points, partial scores and transcripts.

-- A test's share of its group's points (0 to 1), where its checker gave one.
ALTER TABLE test_results ADD COLUMN score REAL;
-- The transcript of an interactive sample, as JSON ({"parts": [...], "truncated": b}).
ALTER TABLE test_results ADD COLUMN transcript TEXT;

-- The per-group results of a problem with [[groups]], in judging order.
CREATE TABLE group_results (
    submission_id INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    position      INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    points        INTEGER NOT NULL,
    score         INTEGER NOT NULL,
    -- NULL when the group was skipped.
    verdict       TEXT    CHECK (verdict IN ('AC','WA','PE','TLE','MLE','OLE','RE','CE','IE')),
    skipped       INTEGER NOT NULL CHECK (skipped IN (0, 1)),
    -- The names of the group's tests in the plan, as a JSON array.
    tests         TEXT    NOT NULL,
    PRIMARY KEY (submission_id, position)
);
