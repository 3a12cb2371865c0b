-- Issue 47 (problems through the site): catalog problems an admin hid.
-- A hidden problem is listed and shown to admins only and takes no
-- practice submission; a contest that holds it still offers it to its
-- participants.
-- Unhiding deletes the row.
CREATE TABLE hidden_problems (
    slug      TEXT PRIMARY KEY,
    hidden_at TEXT NOT NULL
);
