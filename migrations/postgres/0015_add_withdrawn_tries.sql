-- Issue 47: a contest try an admin withdrew (one no worker can judge, or
-- one that ended in a judging error) counts for nobody; the reason is shown
-- to its team and the admins. NULL: not withdrawn.
ALTER TABLE submissions ADD COLUMN withdrawn_reason TEXT;
ALTER TABLE submissions ADD COLUMN withdrawn_at TEXT;
