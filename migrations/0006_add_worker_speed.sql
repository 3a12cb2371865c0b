-- Issue 24: fair timing across workers of different speeds.

-- Each process running judge workers times a fixed calibration program in
-- its own box at start (the median of several runs); one row per process,
-- named as in `workers`.
CREATE TABLE worker_speeds (
    worker      TEXT    PRIMARY KEY,
    -- CPU milliseconds of the median run (lower is faster)
    median_ms   INTEGER NOT NULL CHECK (median_ms > 0),
    -- every run's CPU milliseconds, as a JSON array
    runs_ms     TEXT    NOT NULL,
    -- the language that compiled the program (c or cpp)
    language    TEXT    NOT NULL,
    measured_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- The worker whose result is stored, its speed factor and the scaled CPU
-- limit its tests ran under (the problem's limit times the language's and
-- the worker's factors), in milliseconds.
ALTER TABLE submissions ADD COLUMN judged_by TEXT;
ALTER TABLE submissions ADD COLUMN speed_factor REAL;
ALTER TABLE submissions ADD COLUMN time_limit_ms INTEGER;
-- Set while a verdict decided within the margin of its limit waits for its
-- re-run, and during it: the worker that judged it first, which re-runs it
-- only when no other worker is alive. NULL on every other row.
ALTER TABLE submissions ADD COLUMN rerun_exclude TEXT;
-- The first judging of a submission that was re-run (NULL otherwise): its
-- verdict and time, its worker, factor and limit. The re-run's verdict is
-- the submission's.
ALTER TABLE submissions ADD COLUMN first_verdict TEXT
    CHECK (first_verdict IN ('AC','WA','PE','TLE','MLE','OLE','RE','CE','IE'));
ALTER TABLE submissions ADD COLUMN first_time_ms INTEGER;
ALTER TABLE submissions ADD COLUMN first_judged_by TEXT;
ALTER TABLE submissions ADD COLUMN first_speed_factor REAL;
ALTER TABLE submissions ADD COLUMN first_time_limit_ms INTEGER;

CREATE INDEX submissions_reruns ON submissions (rerun_exclude) WHERE rerun_exclude IS NOT NULL;
