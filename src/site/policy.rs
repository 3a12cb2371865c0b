//! Who sees what of a submission: one decision, used by the API and the
//! pages alike. A contestant sees every verdict; of a secret test only its
//! number, verdict and score. Its name, checker message, exit code and
//! signal can carry the expected answer, and its time and memory, to the
//! millisecond and the KiB, carry bits of its hidden input (a program
//! that allocates `input % 16` KiB more reads them back from the report),
//! so those are for samples and admins: of the secret tests a contestant
//! sees only the submission's maxima. A source and its compiler output
//! only when it is theirs.
//!
//! The freeze seals a contest submission's result as a whole ([`sealed`]):
//! made at or after the freeze by someone else, it shows to participants
//! and the public as [`FROZEN`], with no verdict, score, figures or tests,
//! until an admin reveals the results. Every edge asks [`sealed`] (through
//! `site::contests`), the scoreboard and the Contest API included.

use crate::contest::{Contest, Viewer};

/// The status a sealed submission shows instead of its own.
pub const FROZEN: &str = "frozen";

/// Whether the result of a submission by `author`, made at `at_ms` in
/// `contest` (`None`: practice, never sealed), is hidden from `viewer` now
/// ([`Contest::hides`]: a team sees its own, admins everything).
pub fn sealed(
    viewer: Viewer,
    author: Option<i64>,
    contest: Option<&Contest>,
    at_ms: i64,
    now_ms: i64,
) -> bool {
    contest.is_some_and(|c| c.hides(viewer, author, at_ms, now_ms))
}

/// The viewer, as far as one submission is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Admin,
    /// The submission's own author.
    Owner,
    /// Any other signed-in account.
    Contestant,
}

impl Role {
    /// The role of account `viewer` (admin or not) before a submission by
    /// `author` (`None`: made at the keyboard).
    pub fn of(viewer: i64, is_admin: bool, author: Option<i64>) -> Role {
        if is_admin {
            Role::Admin
        } else if author == Some(viewer) {
            Role::Owner
        } else {
            Role::Contestant
        }
    }
}

/// A sample (its data is in the statement) or a secret test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestKind {
    Sample,
    Secret,
}

/// What can be shown of a submission.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Source,
    CompileOutput,
    /// Why the judge itself failed.
    JudgeError,
    /// The judge's workers as they concern it: which one judged it or
    /// refused its package (host, process id) and why; a refusal can name
    /// a secret test and the hash of its answer.
    Workers,
    /// Why the jury withdrew it from its contest.
    Withdrawal,
    Test(TestKind, TestField),
}

/// What can be shown of one test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestField {
    /// Its position in the plan, from 1.
    Number,
    Name,
    Verdict,
    Score,
    Time,
    Memory,
    Message,
    ExitCode,
    Signal,
    Transcript,
}

/// Whether `role` may see `part`.
pub fn shows(role: Role, part: Part) -> bool {
    use TestField::*;
    match (role, part) {
        (Role::Admin, _) => true,
        (_, Part::JudgeError | Part::Workers) => false,
        (Role::Owner, Part::Source | Part::CompileOutput | Part::Withdrawal) => true,
        (Role::Contestant, Part::Source | Part::CompileOutput | Part::Withdrawal) => false,
        (_, Part::Test(TestKind::Sample, _)) => true,
        (_, Part::Test(TestKind::Secret, field)) => {
            matches!(field, Number | Verdict | Score)
        }
    }
}

/// A test's label for `role`: its name where the name may be shown, else
/// `#` and its number (from 1).
pub fn test_label(role: Role, kind: TestKind, name: &str, number: usize) -> String {
    if shows(role, Part::Test(kind, TestField::Name)) {
        name.to_string()
    } else {
        format!("#{number}")
    }
}

/// Who someone is to one contest, for [`may`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    Admin,
    /// An account that takes part in the contest.
    Participant(i64),
    /// A signed-in account that does not take part, or no account.
    Other,
}

/// What of a contest [`may`] is asked about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Object {
    /// Which catalog problems it holds: their slugs and names (the
    /// Contest API's problems, the scoreboard's columns).
    ProblemNames,
    /// Its problems' statements and limits, and practice submissions to
    /// them ([`practice_open`]).
    Statements,
    /// The standings and what they are made of: the scoreboard, the
    /// teams, the submissions, judgements and runs, the event feed, the
    /// pages' live updates.
    Board,
    /// A secret test's figures (time, memory, name, message) in a run.
    SecretFigures,
}

/// The one access rule of a contest's objects, per role, at `now`: every
/// edge (`/api/v1`, the pages and their live updates, the Contest API
/// and its feed, `/recent`, the contest package) asks it.
///
/// - Admins reach everything.
/// - Before the start no one else learns which problems a contest holds.
/// - While it runs, frozen or not, its statements are its participants'
///   only, read through the contest; practice opens after the end (what
///   DOMjudge and Codeforces do).
/// - The board is public unless an admin closed it; then it is the
///   participants'.
/// - A secret test's figures are the admins' only ([`shows`]).
pub fn may(c: &Contest, who: Who, what: Object, now: i64) -> bool {
    use crate::contest::Phase;
    let participant = matches!(who, Who::Participant(_));
    match (who, what) {
        (Who::Admin, _) => true,
        (_, Object::SecretFigures) => false,
        (_, Object::ProblemNames) => c.phase(now) != Phase::Before,
        (_, Object::Statements) => match c.phase(now) {
            Phase::Before => false,
            Phase::Running => participant,
            Phase::Ended => true,
        },
        (_, Object::Board) => participant || c.board_public,
    }
}

/// Whether a catalog problem is open to practice by a non-admin at `now`,
/// given the contests that hold it: only when none of them is yet to end
/// (before the end a contest's problems are reached through it).
pub fn practice_open<'c>(holders: impl IntoIterator<Item = &'c Contest>, now: i64) -> bool {
    holders
        .into_iter()
        .all(|c| may(c, Who::Other, Object::Statements, now))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_of_contest_objects_by_role_and_phase() {
        use crate::contest::Contest;
        let mut c = Contest {
            id: 1,
            slug: "c".into(),
            name: "C".into(),
            start_ms: 1000,
            duration_s: 10,
            freeze_s: 5,
            penalty_min: 20,
            scoring: crate::contest::Scoring::Icpc,
            open_to_all: false,
            board_public: true,
            frozen_ms: None,
            thawed_ms: None,
            finalized_ms: None,
            medals: crate::contest::Medals::default(),
            problems: vec![],
        };
        let (before, running, ended) = (0, 5000, 20_000);
        let team = Who::Participant(3);
        for now in [before, running, ended] {
            for what in [
                Object::ProblemNames,
                Object::Statements,
                Object::Board,
                Object::SecretFigures,
            ] {
                assert!(may(&c, Who::Admin, what, now), "{what:?} {now}");
            }
            assert!(!may(&c, team, Object::SecretFigures, now));
            assert!(!may(&c, Who::Other, Object::SecretFigures, now));
        }
        assert!(!may(&c, team, Object::ProblemNames, before));
        assert!(!may(&c, team, Object::Statements, before));
        assert!(may(&c, team, Object::Statements, running));
        assert!(!may(&c, Who::Other, Object::Statements, running));
        assert!(may(&c, Who::Other, Object::Statements, ended));
        assert!(may(&c, Who::Other, Object::ProblemNames, running));
        assert!(!practice_open([&c], before));
        assert!(!practice_open([&c], running));
        assert!(practice_open([&c], ended));
        c.board_public = false;
        assert!(may(&c, team, Object::Board, running));
        assert!(!may(&c, Who::Other, Object::Board, running));
        c.board_public = true;
        assert!(may(&c, Who::Other, Object::Board, running));
    }

    #[test]
    fn the_table_of_role_test_kind_and_field() {
        use TestField::*;
        let fields = [
            Number, Name, Verdict, Score, Time, Memory, Message, ExitCode, Signal, Transcript,
        ];
        // (role, kind, fields shown); every other field is hidden.
        let table: &[(Role, TestKind, &[TestField])] = &[
            (Role::Admin, TestKind::Sample, &fields),
            (Role::Admin, TestKind::Secret, &fields),
            (Role::Owner, TestKind::Sample, &fields),
            (Role::Contestant, TestKind::Sample, &fields),
            (Role::Owner, TestKind::Secret, &[Number, Verdict, Score]),
            (
                Role::Contestant,
                TestKind::Secret,
                &[Number, Verdict, Score],
            ),
        ];
        for (role, kind, shown) in table {
            for field in fields {
                assert_eq!(
                    shows(*role, Part::Test(*kind, field)),
                    shown.contains(&field),
                    "{role:?} {kind:?} {field:?}"
                );
            }
        }
    }

    #[test]
    fn the_table_of_role_and_submission_part() {
        let table: &[(Role, Part, bool)] = &[
            (Role::Admin, Part::Source, true),
            (Role::Admin, Part::CompileOutput, true),
            (Role::Admin, Part::JudgeError, true),
            (Role::Admin, Part::Workers, true),
            (Role::Owner, Part::Source, true),
            (Role::Owner, Part::CompileOutput, true),
            (Role::Owner, Part::JudgeError, false),
            (Role::Owner, Part::Workers, false),
            (Role::Contestant, Part::Source, false),
            (Role::Contestant, Part::CompileOutput, false),
            (Role::Contestant, Part::JudgeError, false),
            (Role::Contestant, Part::Workers, false),
        ];
        for (role, part, shown) in table {
            assert_eq!(shows(*role, *part), *shown, "{role:?} {part:?}");
        }
    }

    #[test]
    fn a_secret_test_is_a_number_to_contestants_and_a_name_to_admins() {
        let label = |role| test_label(role, TestKind::Secret, "max-n-win", 7);
        assert_eq!(label(Role::Contestant), "#7");
        assert_eq!(label(Role::Owner), "#7");
        assert_eq!(label(Role::Admin), "max-n-win");
        assert_eq!(test_label(Role::Owner, TestKind::Sample, "01", 1), "01");
        assert_eq!(Role::of(3, false, Some(3)), Role::Owner);
        assert_eq!(Role::of(3, false, Some(4)), Role::Contestant);
        assert_eq!(Role::of(3, true, Some(4)), Role::Admin);
        assert_eq!(Role::of(3, false, None), Role::Contestant);
    }
}
