//! Shadowing another contest system (issue 48), as a second system beside
//! the primary one at a contest: the contest set up from the other
//! system's Contest API or contest package (`import`), its event feed
//! followed and every submission judged again here (`follow`, reading
//! through `source` and `feed`), and the verdicts compared where a jury
//! looks for differences (`compare`). Judging itself is the workers' own:
//! a shadowed submission is a try of the imported contest, queued like
//! any other, and what the other system said is kept beside it by the
//! store (`store::shadows`).

pub mod compare;
pub mod feed;
pub mod follow;
pub mod import;
pub mod source;

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::store::{self, Store};
use compare::{Compared, Filter, Summary};

/// A shadowed contest's differences as every edge shows them (the command
/// line, the API, the admin's page).
#[derive(Debug, Clone)]
pub struct Differences {
    /// Where it is followed from, credentials masked.
    pub source: String,
    /// The last event applied.
    pub token: Option<String>,
    /// When the source said its updates ended.
    pub ended_ms: Option<i64>,
    /// Every shadowed submission, in order of time.
    pub all: Vec<Compared>,
    pub summary: Summary,
    /// (their judgement type, grundy's verdict) → submissions.
    pub matrix: BTreeMap<(String, String), usize>,
}

impl Differences {
    /// The submissions `filter` keeps.
    pub fn shown<'a>(&'a self, filter: &'a Filter) -> impl Iterator<Item = &'a Compared> + 'a {
        self.all.iter().filter(move |c| filter.keeps(c))
    }

    /// The report as JSON (`grundy shadow diff --json` and the API):
    /// `summary`, `line`, `matrix` and the `submissions` `filter` keeps.
    pub fn json(&self, slug: &str, filter: &Filter) -> Value {
        json!({
            "contest": slug,
            "source": self.source,
            "token": self.token,
            "ended": self.ended_ms.map(crate::contest::time::format_time),
            "summary": self.summary,
            "line": self.summary.line(),
            "matrix": self.matrix.iter().map(|((theirs, ours), n)| json!({"theirs": theirs, "ours": ours, "count": n})).collect::<Vec<_>>(),
            "submissions": self.shown(filter).collect::<Vec<_>>(),
        })
    }
}

/// The differences of contest `contest_id`; `None` for a contest that was
/// not imported from another system.
///
/// # Errors
/// Database failures.
pub async fn differences(
    store: &Store,
    contest_id: i64,
) -> Result<Option<Differences>, store::Error> {
    let Some(shadow) = store.shadow(contest_id).await? else {
        return Ok(None);
    };
    let rows = store.shadow_rows(contest_id).await?;
    let all = compare::compare(&rows, &follow::read_types(&shadow.types));
    Ok(Some(Differences {
        source: store::masked_url(&shadow.source),
        token: shadow.token,
        ended_ms: shadow.ended_ms,
        summary: Summary::of(&all),
        matrix: compare::matrix(&all),
        all,
    }))
}
