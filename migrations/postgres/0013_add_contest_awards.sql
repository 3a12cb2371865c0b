-- Issue 39: the same schema as SQLite's 0013; see there for what the
-- columns mean.
ALTER TABLE contests ADD COLUMN gold_medals BIGINT NOT NULL DEFAULT 4;
ALTER TABLE contests ADD COLUMN silver_medals BIGINT NOT NULL DEFAULT 4;
ALTER TABLE contests ADD COLUMN bronze_medals BIGINT NOT NULL DEFAULT 4;

CREATE TABLE contest_awards (
    contest_id BIGINT NOT NULL REFERENCES contests (id) ON DELETE CASCADE,
    award_id   TEXT   NOT NULL,
    citation   TEXT   NOT NULL,
    team_ids   TEXT,
    PRIMARY KEY (contest_id, award_id)
);
