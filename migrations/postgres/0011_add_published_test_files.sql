-- PostgreSQL's spelling of ../0012_add_published_test_files.sql.
CREATE TABLE test_files (
    sha256 TEXT  PRIMARY KEY,
    bytes  BYTEA NOT NULL
);
