-- Issue 39 (the Contest API as the ICPC tools read it): when an admin
-- finalized a contest's results (Unix milliseconds, the database's clock);
-- NULL until then. The state's `finalized`, and with the thaw (or no
-- freeze) its `end_of_updates`.
ALTER TABLE contests ADD COLUMN finalized_ms INTEGER;
