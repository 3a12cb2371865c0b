-- Issue 32 (one claim): a close call waits for its re-run only so long.

-- The whole first judging of a submission waiting for its re-run, as JSON
-- (the report: verdict, score, tests, groups): what stands if the re-run
-- does not happen. NULL on every other row.
ALTER TABLE submissions ADD COLUMN first_report TEXT;
-- Until when (Unix milliseconds, the database's clock) a close call waits
-- for a worker that may re-run it; past it, the first judging stands.
ALTER TABLE submissions ADD COLUMN rerun_until INTEGER;
-- Why the first judging stands instead of a re-run's (no worker that could
-- re-run it took it in time, or the re-run failed on every try); NULL
-- when the stored result is not a first judging that stood.
ALTER TABLE submissions ADD COLUMN first_stands TEXT;
