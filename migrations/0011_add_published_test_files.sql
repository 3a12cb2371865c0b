-- Issue 38 (workers that need only the database): the inputs and answers
-- of published test sets, each once, named by the SHA-256 of its bytes.
-- A worker takes a problem's tests from here (the index is in
-- published_problems.tests) instead of building them, and checks each
-- against its name.
CREATE TABLE test_files (
    sha256 TEXT PRIMARY KEY,
    bytes  BLOB NOT NULL
);
