//! The adversaries of `grundy verify`: cheap wrong programs, made from one
//! C source (`adversary.c`) with the package's answers baked in, judged on
//! the package's tests like any submission. A package whose tests accept
//! one (or give it a group's points, other than the samples') fails, unless
//! its `verify.toml` marks that kind as expected to pass, with a reason, or
//! every test has one and the same answer (then a program printing it is a
//! solution, and an adversary that prints it cannot be told apart from one).
//!
//! The kinds: a constant answer for each answer seen in the tests, the first
//! sample's output for every test, the input echoed, random tokens of the
//! answer's shape, and where the answer is one of a few words, heuristics
//! on each case's numbers (the parity of their count, sum and maximum, of
//! the first and the last; all equal), each both ways round.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use super::cross::read;
use super::notes::Notes;

use super::{Check, CheckName, Error};
use crate::data::TestSet;
use crate::judge::{Judge, Plan};
use crate::lang::Languages;
use crate::plural::{count, plural};
use crate::problem::Problem;
use crate::verdict::Verdict;

/// At most this many distinct lines make an answer "a few words".
const FEW_WORDS: usize = 4;
/// At most this many whole answers are tried as constants.
const MAX_CONSTANTS: usize = 6;

const SOURCE: &str = include_str!("adversary.c");

/// One adversary's run.
#[derive(Debug, Clone, Serialize)]
pub struct AdversaryRun {
    /// Its kind, as `verify.toml` names it (`notes::KINDS`).
    pub kind: &'static str,
    /// What exactly it prints.
    pub variant: String,
    pub verdict: Verdict,
    /// Non-sample groups whose points it got.
    pub groups: Vec<String>,
    /// It got through: accepted, or a group's points.
    pub passed: bool,
    /// The reason `verify.toml` gives for expecting this kind to pass.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// It got through a package whose every answer is the same: it cannot
    /// be told apart from a solution, and fails nothing.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub indistinguishable: bool,
    /// The tests that would have caught it, by kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
}

/// One adversary, before it runs.
struct Adversary {
    kind: &'static str,
    variant: String,
    settings: String,
}

/// Runs every adversary on `set`; the check and each run. `sole` is the
/// one answer of a package whose every answer is the same, where nothing
/// shows another exists (`super::sole_answer`).
///
/// # Errors
/// Only the judge's own failures.
pub(super) fn check_adversaries(
    judge: &Judge,
    languages: &Languages,
    source_limit_kib: u64,
    problem: &Problem,
    set: &Arc<TestSet>,
    notes: &Notes,
    sole: Option<&str>,
) -> Result<(Check, Vec<AdversaryRun>), Error> {
    let check = |ok: bool, detail: String| Check {
        name: CheckName::Adversaries,
        ok,
        detail,
        counterexample: None,
    };
    if problem.manifest.interactor.is_some() {
        return Ok((
            check(
                true,
                "interactive: an adversary would have to play, not run".into(),
            ),
            Vec::new(),
        ));
    }
    let language = match languages.get("c") {
        Ok(l) => l.clone(),
        Err(_) => {
            return Ok((
                check(true, "not run: no language `c` is configured".into()),
                Vec::new(),
            ))
        }
    };
    if let Err(missing) = language.version(judge.runner.as_ref()) {
        return Ok((
            check(
                true,
                format!("not run: the C toolchain is missing: {missing}"),
            ),
            Vec::new(),
        ));
    }
    let answers = Answers::read(set)?;
    let problem = Arc::new(problem.clone());
    let judge = Judge {
        run_all: false,
        ..judge.clone()
    };
    let mut runs = Vec::new();
    for adv in answers.adversaries() {
        let source = format!("{}{SOURCE}", adv.settings).into_bytes();
        let plan = Plan::new(
            problem.clone(),
            language.clone(),
            "main.c",
            source,
            set.clone(),
            source_limit_kib,
        )
        .map_err(|e| Error::Io {
            what: format!("planning the adversary {}: {e}", adv.kind),
            source: std::io::Error::other("refused"),
        })?;
        let report = judge.judge(&plan, &mut |_| {})?;
        let groups: Vec<String> = report
            .groups
            .iter()
            .filter(|g| !g.name.is_sample() && g.points > 0 && g.score >= g.points)
            .map(|g| g.name.as_str().to_string())
            .collect();
        let passed = report.verdict == Verdict::AC || !groups.is_empty();
        let expected = notes.adversaries.get(adv.kind).cloned();
        let indistinguishable = passed && expected.is_none() && sole.is_some();
        runs.push(AdversaryRun {
            kind: adv.kind,
            suggestion: (passed && expected.is_none() && !indistinguishable)
                .then(|| suggest(adv.kind, &adv.variant)),
            indistinguishable,
            variant: adv.variant,
            verdict: report.verdict,
            groups,
            passed,
            expected,
        });
    }
    Ok((summarize(&runs, sole), runs))
}

fn summarize(runs: &[AdversaryRun], sole: Option<&str>) -> Check {
    let failing: Vec<String> = runs
        .iter()
        .filter(|r| r.passed && r.expected.is_none() && !r.indistinguishable)
        .map(|r| {
            let how = if r.groups.is_empty() {
                "accepted".to_string()
            } else {
                format!("got the points of group {}", r.groups.join(", "))
            };
            format!(
                "{} ({}) {how}: {}",
                r.kind,
                r.variant,
                r.suggestion.as_deref().unwrap_or("")
            )
        })
        .collect();
    let marked: Vec<String> = runs
        .iter()
        .filter(|r| r.passed && r.expected.is_some())
        .map(|r| format!("{} ({}) passes as expected", r.kind, r.variant))
        .collect();
    let mut alike: Vec<&str> = Vec::new();
    for r in runs.iter().filter(|r| r.indistinguishable) {
        if !alike.contains(&r.kind) {
            alike.push(r.kind);
        }
    }
    let mut detail = if failing.is_empty() {
        let n = runs.iter().filter(|r| !r.passed).count();
        format!(
            "{}, {}",
            count(n, "adversary", "adversaries"),
            plural(n, "refused", "each refused")
        )
    } else {
        failing.join("\n")
    };
    if !marked.is_empty() {
        detail.push_str(&format!("; {}", marked.join("; ")));
    }
    if let (Some(sole), false) = (sole, alike.is_empty()) {
        detail.push_str(&format!(
            "; every answer is the same ({:?}): {} print it, and cannot be told apart from a solution (not a failure)",
            excerpt(sole),
            alike.join(", ")
        ));
    }
    Check {
        name: CheckName::Adversaries,
        ok: failing.is_empty(),
        detail,
        counterexample: None,
    }
}

/// The tests that would have refused an adversary of `kind`.
fn suggest(kind: &str, variant: &str) -> String {
    match kind {
        "constant" => {
            format!("add tests whose answer is not {variant} (every answer should appear)")
        }
        "first-sample" => "add tests whose answer differs from the first sample's".into(),
        "echo" => "add tests whose answer is not the input itself".into(),
        "random-tokens" => {
            "add tests with longer answers, which a guess of their shape cannot match".into()
        }
        "count-parity" => "add cases with the same parity of the count and each answer".into(),
        "sum-parity" => {
            "add cases with an even sum and each answer, and with an odd sum and each answer".into()
        }
        "max-parity" => {
            "add cases whose largest number is even with each answer, and odd with each answer"
                .into()
        }
        "first-parity" => "add cases whose first number has either parity with each answer".into(),
        "last-parity" => "add cases whose last number has either parity with each answer".into(),
        _ => "add cases of equal numbers with each answer, and of unequal numbers with each answer"
            .into(),
    }
}

/// What the package's answers look like.
struct Answers {
    /// Every answer, test by test.
    texts: Vec<String>,
    /// The first sample's answer.
    sample: Option<String>,
    /// Every answer is lines among these few (most frequent first).
    words: Option<Vec<String>>,
    /// The input's first number is the number of answer lines, everywhere.
    multi: bool,
    /// The most common number of answer lines.
    lines: usize,
    /// One answer line's tokens, for random answers of its shape.
    shape: Vec<String>,
}

impl Answers {
    fn read(set: &TestSet) -> Result<Answers, Error> {
        let mut texts = Vec::new();
        let mut sample = None;
        let mut multi = true;
        let mut line_counts: BTreeMap<usize, usize> = BTreeMap::new();
        let mut words: BTreeMap<String, usize> = BTreeMap::new();
        let mut tokens_per_line: BTreeMap<usize, usize> = BTreeMap::new();
        let mut columns: Vec<BTreeMap<String, usize>> = Vec::new();
        for test in &set.index.tests {
            let text = String::from_utf8_lossy(&read(&set.answer(test))?).into_owned();
            let input = String::from_utf8_lossy(&read(&set.input(test))?).into_owned();
            let lines: Vec<&str> = text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            let first = input
                .split_ascii_whitespace()
                .next()
                .and_then(|t| t.parse::<usize>().ok());
            multi &= first == Some(lines.len());
            *line_counts.entry(lines.len()).or_default() += 1;
            for line in &lines {
                *words.entry(line.to_string()).or_default() += 1;
                let toks: Vec<&str> = line.split_ascii_whitespace().collect();
                *tokens_per_line.entry(toks.len()).or_default() += 1;
                if columns.len() < toks.len() {
                    columns.resize(toks.len(), BTreeMap::new());
                }
                for (i, t) in toks.iter().enumerate() {
                    *columns[i].entry(t.to_string()).or_default() += 1;
                }
            }
            if sample.is_none() && test.group.is_sample() {
                sample = Some(text.clone());
            }
            texts.push(text);
        }
        let most = |m: &BTreeMap<usize, usize>| {
            m.iter()
                .max_by_key(|(k, c)| (**c, std::cmp::Reverse(**k)))
                .map_or(1, |(k, _)| *k)
        };
        let per_line = most(&tokens_per_line);
        let words = (words.len() <= FEW_WORDS && !words.is_empty()).then(|| by_frequency(&words));
        // A few words are drawn whole; other answers token by token.
        let shape = match &words {
            Some(w) => vec![w
                .iter()
                .map(|w| w.replace(['|', '\t'], ""))
                .collect::<Vec<_>>()
                .join("|")],
            None => columns.iter().take(per_line).map(shape_of).collect(),
        };
        Ok(Answers {
            texts,
            sample,
            words,
            multi,
            lines: most(&line_counts),
            shape,
        })
    }

    fn adversaries(&self) -> Vec<Adversary> {
        let mut out = Vec::new();
        let base = |mode: u32, heur: u32| -> String {
            format!(
                "#define MODE {mode}\n#define MULTI {}\n#define LINES {}\n#define HEUR {heur}\n",
                u32::from(self.multi),
                self.lines
            )
        };
        let strings = |text: &str, shape: &str, a: &str, b: &str| -> String {
            format!(
                "static const char *TEXT = {};\nstatic const char *SHAPE = {};\nstatic const char *WORD_A = {};\nstatic const char *WORD_B = {};\n",
                c_string(text),
                c_string(shape),
                c_string(a),
                c_string(b)
            )
        };
        let shape = self.shape.join("\t");
        match &self.words {
            Some(words) => {
                for w in words {
                    out.push(Adversary {
                        kind: "constant",
                        variant: format!("{w:?} for every case"),
                        settings: base(2, 0) + &strings(w, &shape, "", ""),
                    });
                }
            }
            None => {
                let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
                for t in &self.texts {
                    *counts.entry(t.as_str()).or_default() += 1;
                }
                let mut texts: Vec<(&str, usize)> = counts.into_iter().collect();
                texts.sort_by_key(|(_, c)| std::cmp::Reverse(*c));
                for (i, (t, _)) in texts.iter().take(MAX_CONSTANTS).enumerate() {
                    out.push(Adversary {
                        kind: "constant",
                        variant: format!("the most common answer no. {}: {:?}", i + 1, excerpt(t)),
                        settings: base(1, 0) + &strings(t, &shape, "", ""),
                    });
                }
            }
        }
        if let Some(sample) = &self.sample {
            out.push(Adversary {
                kind: "first-sample",
                variant: format!("{:?} for every test", excerpt(sample)),
                settings: base(1, 0) + &strings(sample, &shape, "", ""),
            });
        }
        out.push(Adversary {
            kind: "echo",
            variant: "the input as it is".into(),
            settings: base(3, 0) + &strings("", &shape, "", ""),
        });
        out.push(Adversary {
            kind: "random-tokens",
            variant: format!("random lines of {}", shape.replace('\t', " ")),
            settings: base(4, 0) + &strings("", &shape, "", ""),
        });
        if let Some(words) = self.words.as_ref().filter(|w| w.len() >= 2) {
            let (a, b) = (&words[0], &words[1]);
            let what = [
                ("count-parity", "the count is odd"),
                ("sum-parity", "the sum is odd"),
                ("max-parity", "the maximum is odd"),
                ("first-parity", "the first number is odd"),
                ("last-parity", "the last number is odd"),
                ("all-equal", "the numbers are all equal"),
            ];
            for (heur, (kind, when)) in what.iter().enumerate() {
                for (yes, no) in [(a, b), (b, a)] {
                    out.push(Adversary {
                        kind,
                        variant: format!("{yes:?} when {when}, else {no:?}"),
                        settings: base(5, heur as u32) + &strings("", &shape, yes, no),
                    });
                }
            }
        }
        out
    }
}

fn by_frequency(counts: &BTreeMap<String, usize>) -> Vec<String> {
    let mut v: Vec<(&String, &usize)> = counts.iter().collect();
    v.sort_by_key(|(w, c)| (std::cmp::Reverse(**c), w.as_str()));
    v.into_iter().map(|(w, _)| w.clone()).collect()
}

/// One column of answer tokens as `adversary.c` draws it: `#LO,HI` for
/// integers, else the most common words joined by `|`.
fn shape_of(col: &BTreeMap<String, usize>) -> String {
    let ints: Option<Vec<i64>> = col.keys().map(|t| t.parse::<i64>().ok()).collect();
    match ints {
        Some(v) if !v.is_empty() => {
            let (lo, hi) = (v.iter().min().unwrap(), v.iter().max().unwrap());
            format!("#{lo},{hi}")
        }
        _ => by_frequency(col)
            .into_iter()
            .take(16)
            .map(|w| w.replace(['|', '\t'], ""))
            .collect::<Vec<_>>()
            .join("|"),
    }
}

/// A C string literal of `text`: every byte outside printable ASCII, and
/// `"`, `\` and `?` (trigraphs), as an octal escape.
fn c_string(text: &str) -> String {
    let mut out = String::from("\"");
    for b in text.bytes() {
        if (0x20..0x7f).contains(&b) && !matches!(b, b'"' | b'\\' | b'?') {
            out.push(b as char);
        } else {
            out.push_str(&format!("\\{b:03o}"));
        }
    }
    out.push('"');
    out
}

pub(super) fn excerpt(text: &str) -> String {
    let t = text.trim_end();
    if t.chars().count() > 40 {
        format!("{}...", t.chars().take(40).collect::<String>())
    } else {
        t.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_strings_escape_what_c_would_read_otherwise() {
        assert_eq!(c_string("Yes"), "\"Yes\"");
        assert_eq!(c_string("a\"b\\c\n"), "\"a\\042b\\134c\\012\"");
        assert_eq!(c_string("??="), "\"\\077\\077=\"");
    }

    #[test]
    fn a_column_of_integers_is_their_range_and_of_words_the_words() {
        let col: BTreeMap<String, usize> = [("3".to_string(), 1), ("-2".to_string(), 4)]
            .into_iter()
            .collect();
        assert_eq!(shape_of(&col), "#-2,3");
        let col: BTreeMap<String, usize> = [("Yes".to_string(), 1), ("No".to_string(), 4)]
            .into_iter()
            .collect();
        assert_eq!(shape_of(&col), "No|Yes");
    }
}
