//! Whether an example submission got what it should: its folder's
//! expected verdict ([`judge_expectation`]), or, in a Kattis package with
//! `submissions/submissions.yaml`, every requirement that file and the
//! folder's defaults set ([`claims_hold`]).

use crate::judge::Report;
use crate::plural::count;
use crate::problem::kattis::{matches_path, Claimed, Rule, Word};
use crate::problem::{Expected, Problem, TestInput};
use crate::verdict::Verdict;

/// Whether a report matches the expectation of its directory:
/// `accepted` is AC on every test; the others need their verdict on at
/// least one test and no failure of another kind worse than allowed.
pub fn judge_expectation(expected: Expected, report: &Report) -> (bool, String) {
    let verdicts: Vec<Verdict> = report.tests.iter().map(|t| t.verdict).collect();
    let has = |v: Verdict| verdicts.contains(&v);
    let first_other = |allowed: &[Verdict]| {
        report
            .tests
            .iter()
            .find(|t| !allowed.contains(&t.verdict))
            .map(|t| format!("{} on test {}", t.verdict, t.name))
    };
    if expected == Expected::CompileError {
        return compile_error(report);
    }
    if let Some(why) = not_compiled(report) {
        return (false, why);
    }
    let (target, allowed): (Verdict, &[Verdict]) = match expected {
        Expected::PartiallyAccepted => {
            let ok = report.score > 0 && report.score < 100 && report.verdict != Verdict::IE;
            return if ok {
                (true, String::new())
            } else {
                let points = count(report.score, "point", "points");
                let got = format!("{} with {points}", report.verdict);
                (
                    false,
                    format!("expected some points but not all, got {got}"),
                )
            };
        }
        Expected::Rejected => return rejected(report),
        Expected::BruteForce => return brute_force(report),
        Expected::CompileError => return compile_error(report),
        Expected::Accepted => (Verdict::AC, &[Verdict::AC]),
        Expected::WrongAnswer => (Verdict::WA, &[Verdict::AC, Verdict::WA, Verdict::PE]),
        Expected::TimeLimitExceeded => (Verdict::TLE, &[Verdict::AC, Verdict::TLE]),
        Expected::MemoryLimitExceeded => (Verdict::MLE, &[Verdict::AC, Verdict::MLE, Verdict::TLE]),
        Expected::RuntimeError => (Verdict::RE, &[Verdict::AC, Verdict::RE]),
    };
    if let Some(other) = first_other(allowed) {
        return (false, format!("expected {target}, got {other}"));
    }
    if !has(target) {
        return (
            false,
            format!("expected {target} on some test, but every test was accepted"),
        );
    }
    // With groups, an accepted submission must also get every point (a
    // checker's partial score can leave a group short while accepting).
    if expected == Expected::Accepted && report.score < 100 {
        let short: Vec<String> = report
            .groups
            .iter()
            .filter(|g| g.score < g.points)
            .map(|g| format!("{} {}/{}", g.name, g.score, g.points))
            .collect();
        return (
            false,
            format!(
                "accepted with {}, not 100 ({})",
                count(report.score, "point", "points"),
                short.join(", ")
            ),
        );
    }
    (true, String::new())
}

/// `rejected/`: some test is not accepted, whatever its failure (the
/// format's `required: [RTE, TLE, WA]`, which every failure of a run is in
/// Kattis's words). A judge error proves nothing about the submission.
fn rejected(report: &Report) -> (bool, String) {
    if let Some(t) = report.tests.iter().find(|t| t.verdict == Verdict::IE) {
        return (false, format!("IE on test {}: {}", t.name, t.message));
    }
    if report.tests.iter().any(|t| t.verdict != Verdict::AC) {
        (true, String::new())
    } else {
        (
            false,
            "expected to be rejected, but every test was accepted".into(),
        )
    }
}

/// `brute_force/`: never a wrong answer, and some test over a limit or
/// crashed (the format's `permitted: [AC, RTE, TLE]`, `required: [RTE,
/// TLE]`; MLE and OLE are run-time errors in Kattis's words).
fn brute_force(report: &Report) -> (bool, String) {
    let failed = |v: Verdict| matches!(v, Verdict::RE | Verdict::TLE | Verdict::MLE | Verdict::OLE);
    if let Some(t) = report
        .tests
        .iter()
        .find(|t| t.verdict != Verdict::AC && !failed(t.verdict))
    {
        return (
            false,
            format!(
                "a brute force must never answer wrong, got {} on test {}",
                t.verdict, t.name
            ),
        );
    }
    if report.tests.iter().any(|t| failed(t.verdict)) {
        (true, String::new())
    } else {
        (
            false,
            "expected TLE or a run-time error on some test, but every test was accepted".into(),
        )
    }
}

/// `compile_error/`: `CE`, and the compiler said why (a message the
/// contestant sees; an empty one would leave them guessing).
fn compile_error(report: &Report) -> (bool, String) {
    if report.verdict != Verdict::CE {
        return (false, format!("expected CE, got {}", report.verdict));
    }
    if report.compile_output.trim().is_empty() {
        return (false, "CE without the compiler's message".into());
    }
    (true, String::new())
}

/// Why a submission that did not compile fails whatever it should get.
fn not_compiled(report: &Report) -> Option<String> {
    (report.verdict == Verdict::CE).then(|| {
        format!(
            "does not compile: {}",
            report.compile_output.lines().next().unwrap_or("")
        )
    })
}

/// Whether a report meets every requirement of `claimed` (each on the
/// tests it names), and the first one it misses.
pub fn claims_hold(claimed: &Claimed, report: &Report, problem: &Problem) -> (bool, String) {
    if let Some(why) = not_compiled(report) {
        return (false, why);
    }
    if let Some(t) = report.tests.iter().find(|t| t.verdict == Verdict::IE) {
        return (false, format!("IE on test {}: {}", t.name, t.message));
    }
    let tests: Vec<(String, Word, &str, &str)> = report
        .tests
        .iter()
        .map(|t| {
            (
                data_path(problem, &t.name),
                word(t.verdict),
                t.name.as_str(),
                t.message.as_str(),
            )
        })
        .collect();
    for rule in &claimed.rules {
        if let Err(why) = holds(rule, &tests) {
            return (false, format!("{}: {why}", rule.from));
        }
    }
    (true, String::new())
}

fn holds(rule: &Rule, tests: &[(String, Word, &str, &str)]) -> Result<(), String> {
    let scope: Vec<&(String, Word, &str, &str)> = tests
        .iter()
        .filter(|(path, ..)| rule.tests.as_deref().is_none_or(|g| matches_path(g, path)))
        .collect();
    if scope.is_empty() {
        return Err(match &rule.tests {
            Some(g) => format!("{g} names no test that ran"),
            None => "no test ran".into(),
        });
    }
    let names = |words: &[Word]| {
        words
            .iter()
            .map(|w| w.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some(permitted) = &rule.permitted {
        if let Some((_, w, name, _)) = scope.iter().find(|(_, w, ..)| !permitted.contains(w)) {
            return Err(format!(
                "{} on test {name}, which is not one of the permitted [{}]",
                w.as_str(),
                names(permitted)
            ));
        }
    }
    if let Some(required) = &rule.required {
        if !scope.iter().any(|(_, w, ..)| required.contains(w)) {
            return Err(format!(
                "no test got one of the required [{}]",
                names(required)
            ));
        }
    }
    if let Some(message) = &rule.message {
        if !scope.iter().any(|(.., m)| m.contains(message.as_str())) {
            return Err(format!("no test's judge message contains {message:?}"));
        }
    }
    Ok(())
}

/// A grundy verdict in the words of `submissions.yaml` (Kattis has no
/// presentation error, and a run over its memory or output limit is a
/// run-time error there).
fn word(verdict: Verdict) -> Word {
    match verdict {
        Verdict::AC => Word::Ac,
        Verdict::WA | Verdict::PE => Word::Wa,
        Verdict::TLE => Word::Tle,
        _ => Word::Rte,
    }
}

/// A test's path under `data/` without `.in` (`secret/group1/01`), the
/// way `submissions.yaml` names tests; its name where it has no file.
fn data_path(problem: &Problem, name: &str) -> String {
    problem
        .manifest
        .tests
        .iter()
        .find(|t| t.name == name)
        .and_then(|t| match &t.input {
            TestInput::File(rel) => {
                let rel = rel.strip_prefix("data").unwrap_or(rel).with_extension("");
                Some(rel.to_string_lossy().replace('\\', "/"))
            }
            _ => None,
        })
        .unwrap_or_else(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::TestReport;

    fn report(verdicts: &[Verdict]) -> Report {
        let tests: Vec<TestReport> = verdicts
            .iter()
            .enumerate()
            .map(|(i, &verdict)| TestReport {
                name: format!("t{i}"),
                group: crate::problem::Group::secret(),
                verdict,
                time_ms: 0,
                wall_ms: 0,
                memory_kib: 0,
                exit_code: Some(0),
                signal: None,
                message: String::new(),
                score: None,
                transcript: None,
            })
            .collect();
        let (verdict, score) = crate::judge::aggregate(verdicts, verdicts.len());
        Report {
            verdict,
            score,
            time_ms: 0,
            memory_kib: 0,
            compile_output: String::new(),
            tests,
            groups: Vec::new(),
        }
    }

    #[test]
    fn expectations_table() {
        use Expected::*;
        use Verdict::*;
        let cases: &[(Expected, &[Verdict], bool)] = &[
            (Accepted, &[AC, AC], true),
            (Accepted, &[AC, WA], false),
            (WrongAnswer, &[AC, WA, WA], true),
            (WrongAnswer, &[AC, AC], false),
            (WrongAnswer, &[WA, TLE], false),
            (TimeLimitExceeded, &[AC, TLE, TLE], true),
            (TimeLimitExceeded, &[AC, TLE, WA], false),
            (TimeLimitExceeded, &[WA], false),
            (MemoryLimitExceeded, &[MLE, TLE], true),
            (RuntimeError, &[AC, RE], true),
            (RuntimeError, &[RE, WA], false),
            (Rejected, &[AC, WA], true),
            (Rejected, &[AC, TLE, RE], true),
            (Rejected, &[MLE], true),
            (Rejected, &[AC, AC], false),
            (Rejected, &[WA, IE], false),
            (BruteForce, &[AC, TLE], true),
            (BruteForce, &[AC, RE, MLE], true),
            (BruteForce, &[OLE], true),
            (BruteForce, &[AC, TLE, WA], false),
            (BruteForce, &[PE, TLE], false),
            (BruteForce, &[AC, AC], false),
            (BruteForce, &[TLE, IE], false),
        ];
        for (expected, verdicts, ok) in cases {
            let (got, why) = judge_expectation(*expected, &report(verdicts));
            assert_eq!(got, *ok, "{expected:?} {verdicts:?}: {why}");
        }
    }

    #[test]
    fn compile_error_is_ce_with_the_compilers_message() {
        let said = Report::failed(
            Verdict::CE,
            "main.go:5:2: \"os\" imported and not used".into(),
        );
        assert_eq!(
            judge_expectation(Expected::CompileError, &said),
            (true, String::new())
        );
        let silent = Report::failed(Verdict::CE, " \n".into());
        assert!(!judge_expectation(Expected::CompileError, &silent).0);
        let ran = report(&[Verdict::AC]);
        let (ok, why) = judge_expectation(Expected::CompileError, &ran);
        assert!(!ok && why.contains("expected CE"), "{why}");
        // Elsewhere a CE still fails whatever was expected.
        assert!(!judge_expectation(Expected::Rejected, &said).0);
    }
}
