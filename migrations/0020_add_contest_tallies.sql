-- Issue 46 (boards that cost O(change)).
--
-- A contest's solves of a problem, in the order they were made: whether a
-- judged try may move the awards asks whether a solve counts it (the same
-- team's) or waits for it (anyone's made at or after it), a probe of this
-- index, not a scan of the contest's tries.
CREATE INDEX submissions_solves ON submissions (contest_id, problem, submitted_at, user_id)
    WHERE verdict = 'AC';

-- What a contest's tries count, kept by the triggers below as each try is
-- written, so that reading it costs one row, not a scan of the tries: the
-- tries by an account (none withdrawn), those judged, accepted, ended in a
-- compile error, and the scores of those judged summed. A standing kept
-- between judgements that counts otherwise missed a change the record does
-- not tell (a jury's own try), and is read whole again. Nothing but these
-- triggers writes it; a contest with no try has no row.
CREATE TABLE contest_tallies (
    contest_id     INTEGER PRIMARY KEY REFERENCES contests (id) ON DELETE CASCADE,
    tries          INTEGER NOT NULL,
    judged         INTEGER NOT NULL,
    accepted       INTEGER NOT NULL,
    compile_errors INTEGER NOT NULL,
    score          INTEGER NOT NULL
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

-- A try counts where it is in a contest, by an account, and not withdrawn.
CREATE TRIGGER contest_tally_made AFTER INSERT ON submissions
WHEN NEW.contest_id IS NOT NULL AND NEW.user_id IS NOT NULL AND NEW.withdrawn_reason IS NULL
BEGIN
    INSERT INTO contest_tallies (contest_id, tries, judged, accepted, compile_errors, score)
    VALUES (NEW.contest_id, 1,
            CASE WHEN NEW.status = 'done' AND NEW.verdict IS NOT NULL THEN 1 ELSE 0 END,
            CASE WHEN NEW.status = 'done' AND NEW.verdict = 'AC' THEN 1 ELSE 0 END,
            CASE WHEN NEW.status = 'done' AND NEW.verdict = 'CE' THEN 1 ELSE 0 END,
            CASE WHEN NEW.status = 'done' AND NEW.verdict IS NOT NULL
                 THEN COALESCE(NEW.score, 0) ELSE 0 END)
    ON CONFLICT (contest_id) DO UPDATE SET
        tries = tries + excluded.tries, judged = judged + excluded.judged,
        accepted = accepted + excluded.accepted,
        compile_errors = compile_errors + excluded.compile_errors,
        score = score + excluded.score;
END;

CREATE TRIGGER contest_tally_gone AFTER DELETE ON submissions
WHEN OLD.contest_id IS NOT NULL AND OLD.user_id IS NOT NULL AND OLD.withdrawn_reason IS NULL
BEGIN
    UPDATE contest_tallies SET
        tries = tries - 1,
        judged = judged - CASE WHEN OLD.status = 'done' AND OLD.verdict IS NOT NULL THEN 1 ELSE 0 END,
        accepted = accepted - CASE WHEN OLD.status = 'done' AND OLD.verdict = 'AC' THEN 1 ELSE 0 END,
        compile_errors = compile_errors
            - CASE WHEN OLD.status = 'done' AND OLD.verdict = 'CE' THEN 1 ELSE 0 END,
        score = score - CASE WHEN OLD.status = 'done' AND OLD.verdict IS NOT NULL
                             THEN COALESCE(OLD.score, 0) ELSE 0 END
    WHERE contest_id = OLD.contest_id;
END;

-- A try changed: what it counted taken away, what it counts now added.
CREATE TRIGGER contest_tally_was AFTER UPDATE OF contest_id, user_id, status, verdict, score,
    withdrawn_reason ON submissions
WHEN OLD.contest_id IS NOT NULL AND OLD.user_id IS NOT NULL AND OLD.withdrawn_reason IS NULL
BEGIN
    UPDATE contest_tallies SET
        tries = tries - 1,
        judged = judged - CASE WHEN OLD.status = 'done' AND OLD.verdict IS NOT NULL THEN 1 ELSE 0 END,
        accepted = accepted - CASE WHEN OLD.status = 'done' AND OLD.verdict = 'AC' THEN 1 ELSE 0 END,
        compile_errors = compile_errors
            - CASE WHEN OLD.status = 'done' AND OLD.verdict = 'CE' THEN 1 ELSE 0 END,
        score = score - CASE WHEN OLD.status = 'done' AND OLD.verdict IS NOT NULL
                             THEN COALESCE(OLD.score, 0) ELSE 0 END
    WHERE contest_id = OLD.contest_id;
END;

CREATE TRIGGER contest_tally_is AFTER UPDATE OF contest_id, user_id, status, verdict, score,
    withdrawn_reason ON submissions
WHEN NEW.contest_id IS NOT NULL AND NEW.user_id IS NOT NULL AND NEW.withdrawn_reason IS NULL
BEGIN
    INSERT INTO contest_tallies (contest_id, tries, judged, accepted, compile_errors, score)
    VALUES (NEW.contest_id, 1,
            CASE WHEN NEW.status = 'done' AND NEW.verdict IS NOT NULL THEN 1 ELSE 0 END,
            CASE WHEN NEW.status = 'done' AND NEW.verdict = 'AC' THEN 1 ELSE 0 END,
            CASE WHEN NEW.status = 'done' AND NEW.verdict = 'CE' THEN 1 ELSE 0 END,
            CASE WHEN NEW.status = 'done' AND NEW.verdict IS NOT NULL
                 THEN COALESCE(NEW.score, 0) ELSE 0 END)
    ON CONFLICT (contest_id) DO UPDATE SET
        tries = tries + excluded.tries, judged = judged + excluded.judged,
        accepted = accepted + excluded.accepted,
        compile_errors = compile_errors + excluded.compile_errors,
        score = score + excluded.score;
END;
