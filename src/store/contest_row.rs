//! A contest's row as it is read: by the contests' own queries, and by the
//! record when it locks a contest to append to it ([`super::record`]). Both
//! read the same columns into the same [`Contest`].

use super::Error;
use crate::contest::{Contest, ContestProblem, Medals};

/// A contest's row, with its problems as the JSON text that
/// `{contest_problems}` makes of them.
#[derive(sqlx::FromRow)]
pub(super) struct ContestRow {
    pub(super) id: i64,
    slug: String,
    name: String,
    start_ms: i64,
    duration_s: i64,
    freeze_s: i64,
    penalty_min: i64,
    scoring: String,
    open_to_all: bool,
    board_public: bool,
    frozen_ms: Option<i64>,
    thawed_ms: Option<i64>,
    finalized_ms: Option<i64>,
    gold_medals: i64,
    silver_medals: i64,
    bronze_medals: i64,
    /// `[position, label, problem, colour]` each, in no order; none where
    /// PostgreSQL aggregates no row.
    problems: Option<String>,
}

impl ContestRow {
    /// The contest, with its problems in order.
    pub(super) fn into_contest(self) -> Result<Contest, Error> {
        let mut problems: Vec<(i64, String, String, Option<String>)> = match &self.problems {
            None => Vec::new(),
            Some(text) => serde_json::from_str(text)
                .map_err(|_| Error::BadContest(self.slug.clone(), "its problems".into()))?,
        };
        problems.sort_unstable_by_key(|p| p.0);
        Ok(Contest {
            id: self.id,
            scoring: self
                .scoring
                .parse()
                .map_err(|_| Error::BadContest(self.slug.clone(), self.scoring.clone()))?,
            slug: self.slug,
            name: self.name,
            start_ms: self.start_ms,
            duration_s: self.duration_s,
            freeze_s: self.freeze_s,
            penalty_min: self.penalty_min,
            open_to_all: self.open_to_all,
            board_public: self.board_public,
            frozen_ms: self.frozen_ms,
            thawed_ms: self.thawed_ms,
            finalized_ms: self.finalized_ms,
            medals: Medals {
                gold: count(self.gold_medals),
                silver: count(self.silver_medals),
                bronze: count(self.bronze_medals),
            },
            problems: problems
                .into_iter()
                .map(|(_, label, slug, rgb)| ContestProblem { label, slug, rgb })
                .collect(),
        })
    }
}

/// A stored medal count (the settings keep it to 0 to 1000).
fn count(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

/// The select list of a [`ContestRow`], its problems with it (a macro, so
/// that it joins statements at compile time and they stay `&'static
/// str`); the table is `contests`, unnamed.
macro_rules! contest_columns {
    () => {
        "SELECT id, slug, name, start_ms, duration_s, freeze_s, penalty_min, \
         scoring, open_to_all, board_public, frozen_ms, thawed_ms, finalized_ms, \
         gold_medals, silver_medals, bronze_medals, {contest_problems} AS problems"
    };
}
pub(super) use contest_columns;

/// One contest's row by id.
pub(super) const CONTEST_ROW: &str = concat!(contest_columns!(), " FROM contests WHERE id = ?");
