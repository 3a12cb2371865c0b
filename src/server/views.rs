//! The API's own shapes for what the judge reports: a field added to the
//! judge's [`GroupReport`] or [`Transcript`] reaches no client until it is
//! added here, and what a caller may see of a group's tests is decided by
//! the same [`policy`] as the tests themselves.

use serde::Serialize;

use crate::judge::transcript::Side;
use crate::judge::{GroupReport, TestReport, Transcript};
use crate::problem::Group;
use crate::site::policy::{self, Role, TestKind};
use crate::verdict::Verdict;

/// A scored group as the caller may see it.
#[derive(Serialize)]
pub(super) struct GroupView<'a> {
    name: &'a Group,
    points: u32,
    score: u32,
    verdict: Option<Verdict>,
    skipped: bool,
    /// Its tests as `tests` names them for this caller: a secret test is
    /// `#N` where the name is held back, and one that did not run (so has
    /// no number) is left out.
    tests: Vec<String>,
}

impl<'a> GroupView<'a> {
    /// Group `g` of a report whose tests (those that ran) are `ran`.
    pub(super) fn new(g: &'a GroupReport, ran: &[TestReport], role: Role) -> GroupView<'a> {
        let kind = if g.name.is_sample() {
            TestKind::Sample
        } else {
            TestKind::Secret
        };
        let tests = g
            .tests
            .iter()
            .filter_map(|name| match ran.iter().position(|t| &t.name == name) {
                Some(i) => Some(policy::test_label(role, kind, name, i + 1)),
                None => policy::shows(role, policy::Part::Test(kind, policy::TestField::Name))
                    .then(|| name.clone()),
            })
            .collect();
        GroupView {
            name: &g.name,
            points: g.points,
            score: g.score,
            verdict: g.verdict,
            skipped: g.skipped,
            tests,
        }
    }
}

/// An interactive sample's transcript.
#[derive(Serialize)]
pub(super) struct TranscriptView<'a> {
    parts: Vec<SaidView<'a>>,
    truncated: bool,
}

/// One side's bytes, in a row.
#[derive(Serialize)]
struct SaidView<'a> {
    from: Side,
    text: &'a str,
}

impl<'a> TranscriptView<'a> {
    pub(super) fn new(t: &'a Transcript) -> TranscriptView<'a> {
        TranscriptView {
            parts: t
                .parts
                .iter()
                .map(|p| SaidView {
                    from: p.from,
                    text: &p.text,
                })
                .collect(),
            truncated: t.truncated,
        }
    }
}
