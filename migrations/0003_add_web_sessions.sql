-- Web pages (issue 14): a signed-in browser's session. The cookie holds a
-- random secret; only its SHA-256 hash is stored, with the CSRF token every
-- form of that session must carry.
CREATE TABLE web_sessions (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    hash       BLOB    NOT NULL UNIQUE,
    csrf       TEXT    NOT NULL,
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    -- Unix milliseconds (the database's clock) after which the session is void.
    expires_ms INTEGER NOT NULL
);
CREATE INDEX web_sessions_by_user ON web_sessions (user_id);

-- Each process that runs judge workers (`grundy serve`, `grundy worker`)
-- reports here: how many workers, the sandbox tiers in force (what
-- `grundy doctor` prints), the submissions in hand, and a heartbeat.
CREATE TABLE workers (
    name       TEXT    PRIMARY KEY,
    workers    INTEGER NOT NULL,
    tiers      TEXT    NOT NULL,
    -- ids of the submissions being judged, comma-separated
    current    TEXT    NOT NULL DEFAULT '',
    started_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    -- Unix milliseconds (the database's clock) of the last heartbeat
    seen_ms    INTEGER NOT NULL
);
