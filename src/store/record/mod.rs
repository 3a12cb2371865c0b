//! Each contest's record: the ordered list of every change a client of the
//! Contest API can see (the contest and its state, problems, teams,
//! submissions, judgements, runs, clarifications), appended in the very
//! transaction that makes the change. Feeds and the contest package read
//! it; nothing derives a contest's history again.
//!
//! **Order.** An event's number is `contests.event_seq` bumped by one. The
//! bump is the writer's first statement about the contest, so it holds the
//! contest's row (PostgreSQL: a row lock until commit) or the database
//! (SQLite: one writer at a time) until it commits. A later writer waits
//! for it, and takes the next number only after the earlier one is
//! committed: numbers commit in their order, and a reader that read up to
//! number N and resumes after it cannot miss an event that commits later
//! with a smaller number, since there is none. The bumped number is also
//! the contest's version, which the boards are cached on.
//!
//! **Who reads what.** Each event has an audience: everyone; admins only
//! (a contest's problems before it starts); one team and the admins (a
//! team's question, a result the freeze seals); or everyone but the admins
//! and that team, who read it earlier (a sealed result revealed at the
//! unfreeze, a question once answered to all, the problems at the start).
//! The unfreeze appends the revealed results as new events: nothing is
//! rewritten in the past.
//!
//! **Who appends what.** Every write that changes what a client sees calls
//! this room within its own transaction, after [`locked_contest`] took
//! the contest's record; [`append`] is the one statement that writes
//! events (nothing else inserts into `contest_events`). Audiences as
//! above: *all*, *admin*, *team* (admins and that team), *others*.
//!
//! | change (the store's call) | events | audience |
//! |---|---|---|
//! | a try made (`insert_submission…`, [`record_try`] `Made`) | `submissions`; its first `judgements`, begun | all; the result's (below). A hidden team's: admin |
//! | a try judged (a worker's result, [`record_try`] `Judged`) | its `judgements`, ended, and its `runs` | all, or *team* while the freeze hides it ([`tries::result_audience`]); a hidden team's: admin |
//! | a try sent back (a rejudge, [`record_try`] `Reset`) | a new `judgements` beside the last | as a result |
//! | a try withdrawn (`withdraw_try`) | a delete of each of its objects | each audience that held it |
//! | a question asked, answered (`ask`, `answer`) | `clarifications` | *team*; the answer *team* or all, the question then *others* without who asked |
//! | a contest made or edited (`create_contest`, `update_contest`) | `contest`, `problems`, the `teams`, `organizations` and `groups` that changed (deletes for those gone; a team gone takes its tries' objects, [`tries_gone`], and a new one brings its tries as they stand, [`record_try`]), `state`; when the start moved, every try's and question's latest events again with their contest times counted anew ([`retimed_events`]) | all; problems admin before the start |
//! | the clock (`catch_up_contest`): start, freeze, end | `problems` at the start, `state` | *others* (the admins had them), all |
//! | the freeze moved, the thaw (`set_contest_frozen`, `set_contest_thawed`) | the sealed results revealed ([`revealed_results`]), `contest`, `state` | *others* (the team had them), all |
//! | the finalize (`finalize_contest`) | `state` | all |
//! | an account added or changed (`add_user`, `set_disabled`, `set_admin`, …: [`record_account`]) | in each contest not final that is open to all, lists it or holds its tries: its `teams` (or a delete), and the organizations and groups that changed; a team gone takes its tries' objects, one that comes brings its tries | all; the tries as above |
//! | an import, a team hidden or shown (`import_affiliations`, `set_hidden`: [`record_teams`]) | in each contest not final, the `teams`, `organizations`, `groups` that changed; a hidden team's tries deleted, or told again when shown ([`teams::retell_tries`]) | all; the tries *others* |
//! | any change above that may move the awards, the medals, an admin's award (`set_contest_medals`, `change_contest_award`) | each award that moved ([`record_awards`], [`award_events_now`]) | all, or admin and *others* apart where the freeze makes them differ |
//!
//! The room: [`tries`] (a try's events), [`contest`] (the settings,
//! problems, state and clarifications), [`teams`] (teams and their
//! affiliations, the CLICS ids a record keeps), [`awards`] (the awards
//! that follow the standings) and [`reading`] (versions, objects and
//! events as a reader holds them). Its functions take the caller's
//! transaction as a [`Tx`] (`tx.as_tx()`), whichever database it is on.

use serde_json::Value;

use super::contest_row;
use super::db::{on_tx, sql, Dialect, Tx};
use super::Error;
use crate::contest::Contest;

mod awards;
mod contest;
mod reading;
mod teams;
mod tries;

pub(crate) use awards::Standings;
pub(in crate::store) use awards::{award_events_now, edit_of, generated_in, record_awards};
pub(in crate::store) use contest::{clarification_events, problem_events, settings_events};
pub(in crate::store) use teams::{
    all_affiliations, drop_stale, keep_team_id, own_team_id, record_account, record_teams,
    roster_events, team_gone, team_id_of, teams_in,
};
pub use tries::TryChange;
pub(in crate::store) use tries::{
    record_try, retimed, retimed_events, revealed_results, tell_tries, tries_gone, tries_of,
};

/// Who reads an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    All,
    Admin,
    /// Admins and one team.
    Team(i64),
    /// Everyone but admins and, where named, one team.
    Others(Option<i64>),
}

impl Audience {
    fn as_str(self) -> &'static str {
        match self {
            Audience::All => "all",
            Audience::Admin => "admin",
            Audience::Team(_) => "team",
            Audience::Others(_) => "others",
        }
    }

    fn team(self) -> Option<i64> {
        match self {
            Audience::Team(t) => Some(t),
            Audience::Others(t) => t,
            _ => None,
        }
    }
}

/// An event to append.
#[derive(Debug, Clone)]
pub struct NewEvent {
    pub kind: &'static str,
    pub id: Option<String>,
    /// `None`: the object was deleted.
    pub data: Option<Value>,
    pub audience: Audience,
}

impl NewEvent {
    pub(super) fn of(kind: &'static str, data: Value, audience: Audience) -> NewEvent {
        let id = match kind {
            "contest" | "state" => None,
            _ => data["id"].as_str().map(String::from),
        };
        NewEvent {
            kind,
            id,
            data: Some(data),
            audience,
        }
    }
}

/// An event as read back.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Its number in the contest's record: the feed's token.
    pub seq: i64,
    pub kind: String,
    pub id: Option<String>,
    pub data: Option<Value>,
    /// The database's clock when it was written.
    pub at_ms: i64,
}

/// Who reads a contest's record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reader {
    Admin,
    Team(i64),
    Public,
}

/// A contest's version: the number of its last event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ContestVersion(pub i64);

/// Locks contest `cid`'s record within `tx` (the first statement about
/// it in the transaction) and reads the contest as it is there: `None`
/// when there is none.
pub(in crate::store) async fn locked_contest(
    tx: Tx<'_>,
    cid: i64,
) -> Result<Option<Contest>, Error> {
    Ok(on_tx!(tx, conn, d => {
        sqlx::query(&sql(
            d,
            "UPDATE contests SET event_seq = event_seq WHERE id = ?",
        ))
        .bind(cid)
        .execute(&mut *conn)
        .await?;
        let row = sqlx::query_as::<_, contest_row::ContestRow>(
            &sql(d, contest_row::CONTEST_ROW),
        )
        .bind(cid)
        .fetch_optional(&mut *conn)
        .await?;
        row.map(contest_row::ContestRow::into_contest).transpose()?
    }))
}

/// The most events one statement appends: eight values each, well within
/// what either database binds in one statement.
pub(super) const EVENTS_PER_STATEMENT: usize = 500;

/// The statement that appends `rows` events (each: contest, number,
/// kind, object, data, audience, team), stamped with the database's clock.
pub(super) fn insert_events(d: Dialect, rows: usize) -> std::borrow::Cow<'static, str> {
    let row = "(?, ?, ?, ?, ?, ?, ?, {now_ms})";
    let mut text = String::from(
        "INSERT INTO contest_events (contest_id, seq, kind, object_id, data, audience, team_id,
                                     at_ms) VALUES ",
    );
    for k in 0..rows {
        if k > 0 {
            text.push_str(", ");
        }
        text.push_str(row);
    }
    sql(d, text)
}

/// Appends `events` (a slice of [`NewEvent`]) to contest `cid`'s record
/// within `tx`, which must hold it ([`locked_contest`]): their numbers
/// taken in one statement, the events written in one more (per
/// [`EVENTS_PER_STATEMENT`]), however many there are. Returns the last
/// one's number, the record's version after them (`None`: no events).
pub(in crate::store) async fn append(
    tx: Tx<'_>,
    cid: i64,
    events: &[NewEvent],
) -> Result<Option<i64>, Error> {
    let mut version = None;
    on_tx!(tx, conn, d => {
        for chunk in events.chunks(EVENTS_PER_STATEMENT) {
            let n = chunk.len() as i64;
            let last = sqlx::query_scalar::<_, i64>(&sql(
                d,
                "UPDATE contests SET event_seq = event_seq + ? WHERE id = ? RETURNING event_seq",
            ))
            .bind(n)
            .bind(cid)
            .fetch_one(&mut *conn)
            .await?;
            let text = insert_events(d, chunk.len());
            let mut insert = sqlx::query(&text);
            for (k, e) in chunk.iter().enumerate() {
                insert = insert
                    .bind(cid)
                    .bind(last - n + 1 + k as i64)
                    .bind(e.kind)
                    .bind(e.id.clone())
                    .bind(e.data.as_ref().map(|v| v.to_string()))
                    .bind(audience_text(e.audience))
                    .bind(audience_team(e.audience));
            }
            insert.execute(&mut *conn).await?;
            version = Some(last);
        }
    });
    Ok(version)
}

/// Unix milliseconds `ms` as the `*_at` columns hold a time:
/// `2026-01-02T03:04:05.678Z` (sortable text, UTC), as `{now_text}` writes
/// it.
pub(crate) fn stamp_of(ms: i64) -> String {
    format!("{}Z", &crate::contest::time::format_time(ms)[..23])
}

/// The database's clock within `tx`, Unix milliseconds.
pub(in crate::store) async fn db_now(tx: Tx<'_>) -> Result<i64, Error> {
    Ok(
        on_tx!(tx, conn, d => {sqlx::query_scalar::<_, i64>(&sql(d, "SELECT {now_ms}"))
            .fetch_one(&mut *conn)
            .await?}),
    )
}

pub(super) fn audience_text(a: Audience) -> &'static str {
    a.as_str()
}

pub(super) fn audience_team(a: Audience) -> Option<i64> {
    a.team()
}
