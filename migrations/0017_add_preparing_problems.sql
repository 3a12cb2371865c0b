-- Issue 46 (a first start that answers at once): the problems a server is
-- preparing (building their tests and publishing them) while it already
-- listens. No worker claims a submission of a problem held here; the
-- reason it waits says so. A row holds while its server renews
-- `until_ms`: one left by a server that died lapses by itself. Done (or
-- failed) deletes the row.
CREATE TABLE preparing_problems (
    slug     TEXT PRIMARY KEY,
    server   TEXT NOT NULL,
    until_ms BIGINT NOT NULL
);
