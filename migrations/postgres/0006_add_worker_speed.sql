-- Issue 24: fair timing across workers of different speeds (the same
-- schema as SQLite's 0006; see there for what each column means).

CREATE TABLE worker_speeds (
    worker      TEXT   PRIMARY KEY,
    median_ms   BIGINT NOT NULL CHECK (median_ms > 0),
    runs_ms     TEXT   NOT NULL,
    language    TEXT   NOT NULL,
    measured_at TEXT   NOT NULL
        DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
);

ALTER TABLE submissions ADD COLUMN judged_by TEXT;
ALTER TABLE submissions ADD COLUMN speed_factor DOUBLE PRECISION;
ALTER TABLE submissions ADD COLUMN time_limit_ms BIGINT;
ALTER TABLE submissions ADD COLUMN rerun_exclude TEXT;
ALTER TABLE submissions ADD COLUMN first_verdict TEXT
    CHECK (first_verdict IN ('AC','WA','PE','TLE','MLE','OLE','RE','CE','IE'));
ALTER TABLE submissions ADD COLUMN first_time_ms BIGINT;
ALTER TABLE submissions ADD COLUMN first_judged_by TEXT;
ALTER TABLE submissions ADD COLUMN first_speed_factor DOUBLE PRECISION;
ALTER TABLE submissions ADD COLUMN first_time_limit_ms BIGINT;

CREATE INDEX submissions_reruns ON submissions (rerun_exclude) WHERE rerun_exclude IS NOT NULL;
