-- PostgreSQL's spelling of ../0004_add_group_results_and_transcripts.sql.
ALTER TABLE test_results ADD COLUMN score DOUBLE PRECISION;
ALTER TABLE test_results ADD COLUMN transcript TEXT;

CREATE TABLE group_results (
    submission_id BIGINT  NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    position      BIGINT  NOT NULL,
    name          TEXT    NOT NULL,
    points        BIGINT  NOT NULL,
    score         BIGINT  NOT NULL,
    verdict       TEXT    CHECK (verdict IN ('AC','WA','PE','TLE','MLE','OLE','RE','CE','IE')),
    skipped       BOOLEAN NOT NULL,
    tests         TEXT    NOT NULL,
    PRIMARY KEY (submission_id, position)
);
