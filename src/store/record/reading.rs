//! Reading a contest's record: its version, its objects as a reader holds
//! them, its events after a token.

use super::{ContestVersion, Event, Reader};
use crate::contest::Contest;
use crate::store::db::{on_db, on_reader, sql};
use crate::store::{Error, Store};

impl Store {
    /// The version of `contest`'s record now: the number of its last event.
    ///
    /// # Errors
    /// Database failures.
    pub async fn contest_version(&self, contest: &Contest) -> Result<ContestVersion, Error> {
        Ok(ContestVersion(on_reader!(self, db, d => {
            sqlx::query_scalar::<_, i64>(&sql(d, "SELECT event_seq FROM contests WHERE id = ?"))
                .bind(contest.id)
                .fetch_optional(db)
                .await?
                .unwrap_or(0)
        })))
    }

    /// The objects of endpoint `kind` of contest `contest` as `reader`
    /// reads them: the record replayed, each object's latest event that
    /// reader may read, deleted ones left out, in the order the objects
    /// first appeared. What a feed reader holds after reading the whole
    /// feed, so REST and the feed cannot disagree.
    ///
    /// # Errors
    /// As [`Store::contest_events`].
    pub async fn contest_objects(
        &self,
        contest: i64,
        reader: Reader,
        kind: &str,
    ) -> Result<Vec<Event>, Error> {
        self.recorded_objects(contest, reader, (kind, None)).await
    }

    /// Object `object` of endpoint `kind` of contest `contest` as `reader`
    /// holds it ([`Store::contest_objects`]), read alone: `None` when there
    /// is none, or it was deleted.
    ///
    /// # Errors
    /// As [`Store::contest_events`].
    pub async fn contest_object(
        &self,
        contest: i64,
        reader: Reader,
        (kind, object): (&str, &str),
    ) -> Result<Option<Event>, Error> {
        let mut found = self
            .recorded_objects(contest, reader, (kind, Some(object)))
            .await?;
        Ok(found.pop())
    }

    /// [`Store::contest_objects`], of one object only where given. Only
    /// the events returned are read out of the database: each object's
    /// latest the reader may read, found by the index on kind and object
    /// (a collection of awards does not parse every award event ever
    /// written).
    async fn recorded_objects(
        &self,
        contest: i64,
        reader: Reader,
        of: (&str, Option<&str>),
    ) -> Result<Vec<Event>, Error> {
        let mut events = self
            .read_events(contest, 0, reader, Selection::Latest(of), i64::MAX)
            .await?;
        events.retain(|e| e.data.is_some());
        Ok(events)
    }

    /// Up to `limit` events of contest `contest` after number `after` that
    /// `reader` may read, in order.
    ///
    /// # Errors
    /// Database failures, or an event whose data is not JSON.
    pub async fn contest_events(
        &self,
        contest: i64,
        after: i64,
        reader: Reader,
        limit: i64,
    ) -> Result<Vec<Event>, Error> {
        self.read_events(contest, after, reader, Selection::All, limit)
            .await
    }

    /// [`Store::contest_events`], of one kind (and of one object of it)
    /// only where selected, those alone read by the index on kind and
    /// object (migration 0018); of those, with [`Selection::Latest`], each
    /// object's latest only, in the order the objects first appeared.
    async fn read_events(
        &self,
        contest: i64,
        after: i64,
        reader: Reader,
        selection: Selection<'_>,
        limit: i64,
    ) -> Result<Vec<Event>, Error> {
        let (kind, object) = match selection {
            Selection::All => (None, None),
            Selection::Latest((kind, object)) => (Some(kind), object),
        };
        let readable = "contest_id = ?1 AND seq > ?2
               AND CASE WHEN ?3 THEN audience <> 'others'
                   ELSE audience = 'all' OR (audience = 'team' AND team_id = ?4)
                        OR (audience = 'others' AND (team_id IS NULL OR team_id <> ?4))
                   END";
        let of = format!(
            "{}{}",
            if kind.is_some() { " AND kind = ?6" } else { "" },
            if object.is_some() {
                " AND object_id = ?7"
            } else {
                ""
            },
        );
        let text = match selection {
            Selection::All => format!(
                "SELECT seq, kind, object_id, data, at_ms FROM contest_events
                 WHERE {readable}{of} ORDER BY seq LIMIT ?5"
            ),
            Selection::Latest(_) => format!(
                "SELECT e.seq, e.kind, e.object_id, e.data, e.at_ms
                 FROM (SELECT MIN(seq) AS first, MAX(seq) AS last FROM contest_events
                       WHERE {readable}{of} GROUP BY object_id) o
                 JOIN contest_events e ON e.contest_id = ?1 AND e.seq = o.last
                 ORDER BY o.first LIMIT ?5"
            ),
        };
        let (admin, team) = match reader {
            Reader::Admin => (true, -1),
            Reader::Team(t) => (false, t),
            Reader::Public => (false, -1),
        };
        let rows = on_db!(&self.db, pool, d => {
            let text = sql(d, text.clone());
            let mut query =
                sqlx::query_as::<_, (i64, String, Option<String>, Option<String>, i64)>(&text)
                    .bind(contest)
                    .bind(after)
                    .bind(admin)
                    .bind(team)
                    .bind(limit);
            if let Some(kind) = kind {
                query = query.bind(kind);
            }
            if let Some(object) = object {
                query = query.bind(object);
            }
            query.fetch_all(pool).await?
        });
        rows.into_iter()
            .map(|(seq, kind, id, data, at_ms)| {
                let data = match data {
                    Some(text) => Some(
                        serde_json::from_str(&text)
                            .map_err(|_| Error::BadContest(format!("event {seq}"), text))?,
                    ),
                    None => None,
                };
                Ok(Event {
                    seq,
                    kind,
                    id,
                    data,
                    at_ms,
                })
            })
            .collect()
    }
}

/// Which events [`Store::read_events`] reads.
#[derive(Clone, Copy)]
enum Selection<'a> {
    /// Every event.
    All,
    /// Each object's latest event of a kind (and of one object of it).
    Latest((&'a str, Option<&'a str>)),
}
