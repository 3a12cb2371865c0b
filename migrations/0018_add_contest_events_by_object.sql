-- Issue 46 (REST collections read only what they return): a contest's
-- events of one kind, and of one object, found without reading the rest of
-- its record (a record holds every run of every try: most of it is runs).
CREATE INDEX contest_events_by_object ON contest_events (contest_id, kind, object_id, seq);
