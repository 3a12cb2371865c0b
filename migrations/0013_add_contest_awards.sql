-- Issue 39 (awards in the Contest API): how many teams get each medal
-- (ICPC's default: 4 gold, 4 silver, 4 bronze, by rank; ties share the
-- better medal), and what an admin changed of a contest's awards: the
-- citation of a generated award (`team_ids` NULL), or an award the admin
-- added (`team_ids` a JSON array of team ids, as the API writes them).
ALTER TABLE contests ADD COLUMN gold_medals INTEGER NOT NULL DEFAULT 4;
ALTER TABLE contests ADD COLUMN silver_medals INTEGER NOT NULL DEFAULT 4;
ALTER TABLE contests ADD COLUMN bronze_medals INTEGER NOT NULL DEFAULT 4;

CREATE TABLE contest_awards (
    contest_id INTEGER NOT NULL REFERENCES contests (id) ON DELETE CASCADE,
    award_id   TEXT    NOT NULL,
    citation   TEXT    NOT NULL,
    team_ids   TEXT,
    PRIMARY KEY (contest_id, award_id)
);
