-- Issue 25: contests. Times are Unix milliseconds (UTC); lengths are seconds.

CREATE TABLE contests (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    -- The contest's short name: its id in URLs and in the CLICS API.
    slug         TEXT    NOT NULL UNIQUE,
    name         TEXT    NOT NULL,
    start_ms     INTEGER NOT NULL,
    duration_s   INTEGER NOT NULL CHECK (duration_s > 0),
    -- The scoreboard freezes this long before the end (0: no freeze).
    freeze_s     INTEGER NOT NULL DEFAULT 0 CHECK (freeze_s >= 0),
    penalty_min  INTEGER NOT NULL DEFAULT 20 CHECK (penalty_min >= 0),
    scoring      TEXT    NOT NULL CHECK (scoring IN ('icpc', 'ioi')),
    -- 1: every signed-in user takes part; 0: only those in contest_participants.
    open_to_all  INTEGER NOT NULL DEFAULT 0 CHECK (open_to_all IN (0, 1)),
    -- 1: the scoreboard page is shown to anyone, signed in or not.
    board_public INTEGER NOT NULL DEFAULT 1 CHECK (board_public IN (0, 1)),
    -- An admin's freeze ahead of the scheduled one (NULL: none).
    frozen_ms    INTEGER,
    -- When an admin revealed the frozen results (NULL: not yet).
    thawed_ms    INTEGER,
    created_ms   INTEGER NOT NULL
);

-- The problems of a contest by label (A, B, ...), in order.
CREATE TABLE contest_problems (
    contest_id INTEGER NOT NULL REFERENCES contests (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    label      TEXT    NOT NULL,
    problem    TEXT    NOT NULL,
    PRIMARY KEY (contest_id, position),
    UNIQUE (contest_id, label),
    UNIQUE (contest_id, problem)
);

CREATE TABLE contest_participants (
    contest_id INTEGER NOT NULL REFERENCES contests (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (contest_id, user_id)
);

-- The contest a submission was made in (NULL: practice).
ALTER TABLE submissions ADD COLUMN contest_id INTEGER REFERENCES contests (id);
CREATE INDEX submissions_by_contest ON submissions (contest_id, id);

-- Questions to the judges and their answers.
CREATE TABLE clarifications (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    contest_id  INTEGER NOT NULL REFERENCES contests (id) ON DELETE CASCADE,
    -- The asking participant (NULL: an announcement by the judges).
    user_id     INTEGER REFERENCES users (id) ON DELETE CASCADE,
    -- The problem's label, NULL for a general question.
    label       TEXT,
    question    TEXT    NOT NULL,
    asked_ms    INTEGER NOT NULL,
    answer      TEXT,
    -- 1: the answer is shown to every participant; 0: to the asker only.
    to_all      INTEGER NOT NULL DEFAULT 0 CHECK (to_all IN (0, 1)),
    answered_ms INTEGER,
    answered_by INTEGER REFERENCES users (id)
);
CREATE INDEX clarifications_by_contest ON clarifications (contest_id, id);
