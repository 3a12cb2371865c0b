-- Issue 46: the same schema as SQLite's 0020; see there for what the index,
-- the table and its triggers are for. One trigger function does what
-- SQLite's four triggers do; a change that moves no count (a try claimed,
-- its lease renewed) writes no row, so judges claiming a contest's tries
-- at once do not wait on its tally.
CREATE INDEX submissions_solves ON submissions (contest_id, problem, submitted_at, user_id)
    WHERE verdict = 'AC';

CREATE TABLE contest_tallies (
    contest_id     BIGINT PRIMARY KEY REFERENCES contests (id) ON DELETE CASCADE,
    tries          BIGINT NOT NULL,
    judged         BIGINT NOT NULL,
    accepted       BIGINT NOT NULL,
    compile_errors BIGINT NOT NULL,
    score          BIGINT NOT NULL
);

INSERT INTO contest_tallies (contest_id, tries, judged, accepted, compile_errors, score)
SELECT contest_id, COUNT(*),
       SUM(CASE WHEN status = 'done' AND verdict IS NOT NULL THEN 1 ELSE 0 END),
       SUM(CASE WHEN status = 'done' AND verdict = 'AC' THEN 1 ELSE 0 END),
       SUM(CASE WHEN status = 'done' AND verdict = 'CE' THEN 1 ELSE 0 END),
       SUM(CASE WHEN status = 'done' AND verdict IS NOT NULL THEN COALESCE(score, 0) ELSE 0 END)
FROM submissions
WHERE contest_id IS NOT NULL AND user_id IS NOT NULL AND withdrawn_reason IS NULL
GROUP BY contest_id;

-- What try `s` counts: a try, judged, accepted, a compile error, its
-- score; all zero where it counts for no contest.
CREATE FUNCTION contest_tally_of(s submissions) RETURNS BIGINT[] LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN s.contest_id IS NULL OR s.user_id IS NULL OR s.withdrawn_reason IS NOT NULL
                THEN ARRAY[0, 0, 0, 0, 0]::BIGINT[]
                ELSE ARRAY[1,
                    CASE WHEN s.status = 'done' AND s.verdict IS NOT NULL THEN 1 ELSE 0 END,
                    CASE WHEN s.status = 'done' AND s.verdict = 'AC' THEN 1 ELSE 0 END,
                    CASE WHEN s.status = 'done' AND s.verdict = 'CE' THEN 1 ELSE 0 END,
                    CASE WHEN s.status = 'done' AND s.verdict IS NOT NULL
                         THEN COALESCE(s.score, 0) ELSE 0 END]::BIGINT[]
           END
$$;

CREATE FUNCTION contest_tally() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    old_counts BIGINT[] := ARRAY[0, 0, 0, 0, 0];
    new_counts BIGINT[] := ARRAY[0, 0, 0, 0, 0];
BEGIN
    IF TG_OP <> 'INSERT' THEN
        old_counts := contest_tally_of(OLD);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        new_counts := contest_tally_of(NEW);
    END IF;
    IF TG_OP = 'UPDATE' AND OLD.contest_id IS NOT DISTINCT FROM NEW.contest_id
       AND old_counts = new_counts THEN
        RETURN NULL;
    END IF;
    IF old_counts[1] = 1 THEN
        UPDATE contest_tallies SET tries = tries - old_counts[1],
            judged = judged - old_counts[2], accepted = accepted - old_counts[3],
            compile_errors = compile_errors - old_counts[4], score = score - old_counts[5]
        WHERE contest_id = OLD.contest_id;
    END IF;
    IF new_counts[1] = 1 THEN
        INSERT INTO contest_tallies (contest_id, tries, judged, accepted, compile_errors, score)
        VALUES (NEW.contest_id, new_counts[1], new_counts[2], new_counts[3], new_counts[4],
                new_counts[5])
        ON CONFLICT (contest_id) DO UPDATE SET
            tries = contest_tallies.tries + EXCLUDED.tries,
            judged = contest_tallies.judged + EXCLUDED.judged,
            accepted = contest_tallies.accepted + EXCLUDED.accepted,
            compile_errors = contest_tallies.compile_errors + EXCLUDED.compile_errors,
            score = contest_tallies.score + EXCLUDED.score;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER contest_tally AFTER INSERT OR DELETE
    OR UPDATE OF contest_id, user_id, status, verdict, score, withdrawn_reason ON submissions
    FOR EACH ROW EXECUTE FUNCTION contest_tally();
