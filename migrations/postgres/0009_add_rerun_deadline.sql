-- Issue 32 (one claim): the same schema as SQLite's 0009; see there for
-- what each column means.

ALTER TABLE submissions ADD COLUMN first_report TEXT;
ALTER TABLE submissions ADD COLUMN rerun_until BIGINT;
ALTER TABLE submissions ADD COLUMN first_stands TEXT;
