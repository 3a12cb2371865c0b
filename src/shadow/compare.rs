//! Where the two systems' verdicts differ: each shadowed submission with
//! the other system's current judgement beside grundy's result, the first
//! test whose verdicts differ where the other system published runs, a
//! summary, and the matrix of their verdicts against grundy's. Pure: made
//! of what the store kept ([`ShadowRows`]).

use std::collections::BTreeMap;

use serde::Serialize;

use super::feed::{verdict_of, JudgementType};
use crate::contest::clics::judgement_type;
use crate::store::shadows::ShadowRows;
use crate::verdict::Verdict;

/// How the two judgements of one submission stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Agreement {
    /// Both judged, differently.
    Differ,
    /// One side (or both) not judged yet.
    Pending,
    /// grundy does not judge it (the reason is given).
    NotJudged,
    /// The other system deleted it.
    Deleted,
    /// Both judged, the same.
    Agree,
}

impl Agreement {
    pub fn as_str(self) -> &'static str {
        match self {
            Agreement::Differ => "differ",
            Agreement::Pending => "pending",
            Agreement::NotJudged => "not_judged",
            Agreement::Deleted => "deleted",
            Agreement::Agree => "agree",
        }
    }
}

/// One submission compared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Compared {
    /// The other system's id of the submission.
    pub id: String,
    pub team: String,
    pub problem: String,
    pub language: String,
    /// Its time in the contest, milliseconds.
    pub contest_time_ms: i64,
    pub agreement: Agreement,
    /// grundy's submission, where it judges it.
    pub submission: Option<i64>,
    /// grundy's verdict, once judged.
    pub ours: Option<Verdict>,
    /// grundy's largest CPU time of a test.
    pub our_time_ms: Option<i64>,
    /// The other system's current judgement: its id and judgement type.
    pub judgement: Option<String>,
    pub theirs: Option<String>,
    /// Their judgement type as grundy's verdict, where grundy has a word.
    pub their_verdict: Option<Verdict>,
    pub their_time_ms: Option<i64>,
    /// The first test (1-based, the runs' ordinal) whose verdicts differ,
    /// where the other system published runs.
    pub first_difference: Option<i64>,
    /// The first test's verdict on each side there.
    pub first_difference_verdicts: Option<(String, String)>,
    /// Why grundy does not judge it.
    pub reason: Option<String>,
    /// A jury's note once the difference was checked.
    pub checked: Option<String>,
}

/// The comparison of every shadowed submission, in order of their time.
pub fn compare(rows: &ShadowRows, types: &[JudgementType]) -> Vec<Compared> {
    // Each submission's current judgement: the latest to arrive that is
    // neither deleted nor replaced.
    let mut current: BTreeMap<&str, &crate::store::shadows::JudgementRow> = BTreeMap::new();
    for j in rows
        .judgements
        .iter()
        .filter(|j| !j.deleted && j.is_current)
    {
        let slot = current.entry(j.submission.as_str()).or_insert(j);
        if j.arrival > slot.arrival {
            *slot = j;
        }
    }
    let mut runs: BTreeMap<&str, Vec<(i64, &str)>> = BTreeMap::new();
    for r in &rows.runs {
        runs.entry(r.judgement.as_str())
            .or_default()
            .push((r.ordinal, r.verdict.as_str()));
    }
    let mut tests: BTreeMap<i64, BTreeMap<i64, &str>> = BTreeMap::new();
    for (s, position, v) in &rows.tests {
        tests
            .entry(*s)
            .or_default()
            .insert(position + 1, v.as_str());
    }
    rows.submissions
        .iter()
        .map(|s| {
            let ours = match s.status.as_deref() {
                Some("done") => s.verdict.as_deref().and_then(|v| v.parse::<Verdict>().ok()),
                _ => None,
            };
            let j = current.get(s.external_id.as_str()).copied();
            let theirs = j.and_then(|j| j.verdict.clone());
            let their_verdict = theirs.as_deref().and_then(|t| verdict_of(t, types));
            let agreement = if s.deleted {
                Agreement::Deleted
            } else if s.submission_id.is_none() {
                Agreement::NotJudged
            } else {
                match (ours, theirs.as_deref()) {
                    (Some(o), Some(t)) if agrees(o, t, types) => Agreement::Agree,
                    (Some(_), Some(_)) => Agreement::Differ,
                    _ => Agreement::Pending,
                }
            };
            // The first run whose verdict is not grundy's test's.
            let first = match (agreement, j, s.submission_id) {
                (Agreement::Differ | Agreement::Agree, Some(j), Some(id)) => {
                    let ours = tests.get(&id);
                    runs.get(j.external_id.as_str()).and_then(|their_runs| {
                        their_runs.iter().find_map(|(ordinal, theirs)| {
                            let our = ours.and_then(|t| t.get(ordinal)).copied();
                            let agree = our
                                .and_then(|o| o.parse::<Verdict>().ok())
                                .is_some_and(|o| agrees(o, theirs, types));
                            (!agree).then(|| {
                                (
                                    *ordinal,
                                    (theirs.to_string(), our.unwrap_or("-").to_string()),
                                )
                            })
                        })
                    })
                }
                _ => None,
            };
            Compared {
                id: s.external_id.clone(),
                team: s.team.clone(),
                problem: s.problem.clone(),
                language: s.language.clone(),
                contest_time_ms: s.contest_time_ms,
                agreement,
                submission: s.submission_id,
                ours,
                our_time_ms: s.time_ms,
                judgement: j.map(|j| j.external_id.clone()),
                theirs,
                their_verdict,
                their_time_ms: j.and_then(|j| j.max_run_ms),
                first_difference: first.as_ref().map(|f| f.0),
                first_difference_verdicts: first.map(|f| f.1),
                reason: s.unjudged_reason.clone(),
                checked: s.checked_note.clone(),
            }
        })
        .collect()
}

/// Whether grundy's verdict `ours` is the other system's judgement type
/// `theirs`: the same verdict in grundy's words, or the same type id.
fn agrees(ours: Verdict, theirs: &str, types: &[JudgementType]) -> bool {
    verdict_of(theirs, types) == Some(ours) || judgement_type(ours) == theirs
}

/// The counts of a comparison.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub submissions: usize,
    pub agree: usize,
    pub differ: usize,
    /// Differences not yet marked as checked.
    pub unchecked: usize,
    pub pending: usize,
    pub not_judged: usize,
    pub deleted: usize,
}

impl Summary {
    pub fn of(all: &[Compared]) -> Summary {
        let mut s = Summary {
            submissions: all.len(),
            ..Summary::default()
        };
        for c in all {
            match c.agreement {
                Agreement::Agree => s.agree += 1,
                Agreement::Differ => {
                    s.differ += 1;
                    s.unchecked += usize::from(c.checked.is_none());
                }
                Agreement::Pending => s.pending += 1,
                Agreement::NotJudged => s.not_judged += 1,
                Agreement::Deleted => s.deleted += 1,
            }
        }
        s
    }

    /// One line for people: `12 submissions: 9 agree, 1 differs (1 not
    /// checked), 1 pending, 1 not judged here`.
    pub fn line(&self) -> String {
        use crate::plural::count;
        let mut line = format!(
            "{}: {} agree, {} {} ({} not checked), {} pending, {} not judged here",
            count(self.submissions, "submission", "submissions"),
            self.agree,
            self.differ,
            if self.differ == 1 {
                "differs"
            } else {
                "differ"
            },
            self.unchecked,
            self.pending,
            self.not_judged
        );
        if self.deleted > 0 {
            line.push_str(&format!(", {} deleted by the other system", self.deleted));
        }
        line
    }
}

/// The matrix of verdicts: (their judgement type, grundy's verdict) →
/// how many submissions, over those both judged.
pub fn matrix(all: &[Compared]) -> BTreeMap<(String, String), usize> {
    let mut m = BTreeMap::new();
    for c in all {
        if let (Some(theirs), Some(ours)) = (&c.theirs, c.ours) {
            if matches!(c.agreement, Agreement::Agree | Agreement::Differ) {
                *m.entry((theirs.clone(), ours.as_str().to_string()))
                    .or_default() += 1;
            }
        }
    }
    m
}

/// Which compared submissions a reader asks for.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Every submission, not only those that differ.
    pub all: bool,
    pub problem: Option<String>,
    pub team: Option<String>,
    /// A verdict of either side (grundy's word or their judgement type).
    pub verdict: Option<String>,
}

impl Filter {
    pub fn keeps(&self, c: &Compared) -> bool {
        (self.all || c.agreement == Agreement::Differ)
            && self.problem.as_ref().is_none_or(|p| *p == c.problem)
            && self.team.as_ref().is_none_or(|t| *t == c.team)
            && self.verdict.as_ref().is_none_or(|v| {
                c.ours.is_some_and(|o| o.as_str().eq_ignore_ascii_case(v))
                    || c.theirs.as_ref().is_some_and(|t| t.eq_ignore_ascii_case(v))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::shadows::{JudgementRow, RunRow, ShadowedRow};

    fn sub(id: &str, ours: Option<&str>, ext: &str) -> ShadowedRow {
        ShadowedRow {
            external_id: ext.into(),
            team: "t1".into(),
            problem: "nim".into(),
            language: "cpp".into(),
            contest_time_ms: 1000,
            submission_id: id.parse().ok(),
            unjudged_reason: id.parse::<i64>().is_err().then(|| "no files".into()),
            deleted: false,
            checked_note: None,
            checked_ms: None,
            status: ours.map(|_| "done".into()),
            verdict: ours.map(String::from),
            time_ms: Some(5),
        }
    }

    fn judgement(id: &str, sub: &str, verdict: &str, arrival: i64) -> JudgementRow {
        JudgementRow {
            external_id: id.into(),
            submission: sub.into(),
            verdict: Some(verdict.into()),
            is_current: true,
            max_run_ms: Some(7),
            deleted: false,
            arrival,
        }
    }

    #[test]
    fn the_latest_current_judgement_is_compared_and_the_first_differing_run_found() {
        let mut replaced = judgement("j1", "s1", "WA", 1);
        replaced.deleted = true;
        let rows = ShadowRows {
            submissions: vec![
                sub("1", Some("RE"), "s1"),
                sub("2", Some("WA"), "s2"),
                sub("x", None, "s3"),
                sub("4", None, "s4"),
            ],
            judgements: vec![
                replaced,
                judgement("j2", "s1", "RTE", 2),
                judgement("j3", "s2", "AC", 3),
            ],
            runs: vec![
                RunRow {
                    judgement: "j3".into(),
                    ordinal: 1,
                    verdict: "AC".into(),
                    time_ms: None,
                },
                RunRow {
                    judgement: "j3".into(),
                    ordinal: 2,
                    verdict: "AC".into(),
                    time_ms: None,
                },
            ],
            tests: vec![(2, 0, "AC".into()), (2, 1, "WA".into())],
        };
        let all = compare(&rows, &[]);
        let states: Vec<Agreement> = all.iter().map(|c| c.agreement).collect();
        assert_eq!(
            states,
            [
                Agreement::Agree,
                Agreement::Differ,
                Agreement::NotJudged,
                Agreement::Pending
            ]
        );
        assert_eq!(all[1].first_difference, Some(2));
        assert_eq!(
            all[1].first_difference_verdicts,
            Some(("AC".to_string(), "WA".to_string()))
        );
        let summary = Summary::of(&all);
        assert_eq!(
            (summary.agree, summary.differ, summary.unchecked),
            (1, 1, 1)
        );
        let m = matrix(&all);
        assert_eq!(m.get(&("AC".to_string(), "WA".to_string())), Some(&1));
        assert_eq!(m.get(&("RTE".to_string(), "RE".to_string())), Some(&1));
    }
}
