//! Tries a contest cannot wait for (issue 47): those without a result that
//! counts (which block the finalize and the package), and an admin's
//! withdrawal of one, with the reason. A withdrawn try counts for nobody:
//! the boards, the awards, the finalize and the contest package leave it
//! out, and its contest's record deletes its submission, its judgements and
//! their runs for every reader that held them, in the withdrawal's
//! transaction. The team and the admins see the reason beside the
//! submission. It stays in the queue: a worker that has its language may
//! still judge it, for the team to see; the contest ignores that result
//! too. Why a try waits is the workers' business (`site::waiting`).

use super::db::{on_db, sql, AsTx};
use super::record;
use super::{Error, Store};

/// A contest try without a result that counts.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Unsettled {
    pub id: i64,
    pub problem: String,
    pub language: String,
    pub status: String,
    pub verdict: Option<String>,
    /// A worker holds it now.
    pub held: bool,
}

impl Unsettled {
    /// Where it stands, in words.
    pub fn state(&self) -> &'static str {
        match (self.status.as_str(), self.held) {
            ("done", _) => "ended in a judging error",
            (_, true) => "being judged",
            _ => "not judged yet",
        }
    }
}

/// A try withdrawn from its contest.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Withdrawn {
    pub id: i64,
    pub user_id: Option<i64>,
    pub problem: String,
    pub language: String,
    pub reason: String,
    pub withdrawn_at: String,
}

/// A contest's tries without a result that counts (bind the contest's
/// id), oldest first.
pub(super) const UNSETTLED: &str = "SELECT id, problem, language, status, verdict,
            status = 'judging' AND COALESCE(lease_until, 0) > {now_ms} AS held
     FROM submissions
     WHERE contest_id = ? AND withdrawn_reason IS NULL
       AND (status <> 'done' OR verdict = 'IE')
     ORDER BY id";

/// Why contest `slug` cannot be finalized while `tries` have no result,
/// and what the admin can do.
pub(super) fn unsettled_message(slug: &str, tries: &[Unsettled]) -> String {
    const SHOWN: usize = 5;
    let mut named: Vec<String> = tries
        .iter()
        .take(SHOWN)
        .map(|t| format!("{} ({}, {}: {})", t.id, t.problem, t.language, t.state()))
        .collect();
    if tries.len() > SHOWN {
        named.push(format!("and {} more", tries.len() - SHOWN));
    }
    format!(
        "cannot finalize: {} without a result: {}; have each judged (a worker with its \
         language takes it; rejudge one that ended in a judging error) or withdraw it \
         (`grundy contest withdraw {slug} ID --reason TEXT`, or Withdraw on the contest's admin page)",
        crate::plural::count(tries.len(), "submission", "submissions"),
        named.join(", ")
    )
}

impl Store {
    /// The tries of contest `contest` without a result that counts (not
    /// judged yet, or ended in a judging error), oldest first; withdrawn
    /// ones left out.
    ///
    /// # Errors
    /// Database failures.
    pub async fn unsettled_tries(&self, contest: i64) -> Result<Vec<Unsettled>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_as::<_, Unsettled>(&sql(d, UNSETTLED))
                .bind(contest)
                .fetch_all(pool)
                .await?
        }))
    }

    /// The tries withdrawn from contest `contest`, oldest first.
    ///
    /// # Errors
    /// Database failures.
    pub async fn withdrawn_tries(&self, contest: i64) -> Result<Vec<Withdrawn>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_as::<_, Withdrawn>(&sql(
                d,
                "SELECT id, user_id, problem, language, withdrawn_reason AS reason, withdrawn_at
                 FROM submissions
                 WHERE contest_id = ? AND withdrawn_reason IS NOT NULL ORDER BY id",
            ))
            .bind(contest)
            .fetch_all(pool)
            .await?
        }))
    }

    /// Why submission `id` was withdrawn from its contest, if it was.
    ///
    /// # Errors
    /// Database failures.
    pub async fn withdrawal_of(&self, id: i64) -> Result<Option<String>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_scalar::<_, Option<String>>(&sql(
                d,
                "SELECT withdrawn_reason FROM submissions WHERE id = ?",
            ))
            .bind(id)
            .fetch_optional(pool)
            .await?
        })
        .flatten())
    }

    /// Withdraws try `submission` from contest `contest`, for `reason`
    /// (shown to its team and the admins): it then counts for nobody, and
    /// the contest's record deletes its submission, judgements and runs
    /// for each reader that held them, in this transaction. Only a try
    /// without a result that counts (not judged yet and in no worker's
    /// hands, or ended in a judging error), before the finalize.
    ///
    /// # Errors
    /// [`Error::Refused`] naming why (not a try of this contest, withdrawn
    /// already, judged or being judged, the results final, no reason);
    /// database failures.
    pub async fn withdraw_try(
        &self,
        contest: i64,
        submission: i64,
        reason: &str,
    ) -> Result<(), Error> {
        let reason = reason.trim();
        on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let Some(c) = record::locked_contest(tx.as_tx(), contest).await? else {
                return Err(Error::BadContest(contest.to_string(), "no such contest".into()));
            };
            let refuse = |why: String| Error::Refused(c.slug.clone(), why);
            if reason.is_empty() {
                return Err(refuse(
                    "a withdrawal needs a reason, which its team is shown".into(),
                ));
            }
            crate::bounds::Field::WithdrawalReason.check(reason)?;
            if c.finalized_ms.is_some() {
                return Err(refuse(format!(
                    "its results are final: submission {submission} stays as it is"
                )));
            }
            let row = sqlx::query_as::<_, (Option<i64>, String, Option<String>, bool, Option<String>)>(
                &sql(
                    d,
                    "SELECT contest_id, status, verdict,
                            status = 'judging' AND COALESCE(lease_until, 0) > {now_ms},
                            withdrawn_reason
                     FROM submissions WHERE id = ?",
                ),
            )
            .bind(submission)
            .fetch_optional(&mut *tx)
            .await?;
            let Some((in_contest, status, verdict, held, withdrawn)) = row else {
                return Err(refuse(format!("there is no submission {submission}")));
            };
            if in_contest != Some(contest) {
                return Err(refuse(format!(
                    "submission {submission} is not a try of this contest"
                )));
            }
            if withdrawn.is_some() {
                return Err(refuse(format!("submission {submission} is withdrawn already")));
            }
            if held {
                return Err(refuse(format!(
                    "submission {submission} is being judged: withdraw it if its judging fails"
                )));
            }
            if status == "done" && verdict.as_deref() != Some("IE") {
                return Err(refuse(format!(
                    "submission {submission} has its result ({}): only a try without one can be withdrawn",
                    verdict.unwrap_or_default()
                )));
            }
            sqlx::query(&sql(
                d,
                "UPDATE submissions SET withdrawn_reason = ?, withdrawn_at = {now_text}
                 WHERE id = ?",
            ))
            .bind(reason)
            .bind(submission)
            .execute(&mut *tx)
            .await?;
            // Every object of the try each reader holds, deleted for that
            // reader: its runs, then its judgements, then itself.
            let events =
                record::tries_gone(tx.as_tx(), contest, &[submission].into_iter().collect()).await?;
            record::append(tx.as_tx(), contest, &events).await?;
            record::record_awards(tx.as_tx(), contest, None).await?;
            tx.commit().await?;
        });
        Ok(())
    }
}
