//! Which integer-width classes each problem's test data covers (issue 17).
//!
//! A family of wrong solutions keeps its values in too few bits: a XOR or bit
//! count cut to a fixed width, a mex table of 64 entries, a 16- or 32-bit type
//! where the bounds need more. Where a problem's bounds make such a class
//! possible, its package must carry a `submissions/wrong_answer/` program of
//! that class, named with the class as the prefix of its file name; `grundy
//! verify` (the golden test `every_shipped_problem_verifies`) proves each one
//! is rejected. Classes:
//!
//! * `highbit-`: the deciding value (a XOR of SG values, gaps or bit counts)
//!   reaches bit 10 or higher. Besides the submission, the test plan must hold,
//!   for every bit b from 10 to the top bit of the range, a test whose deciding
//!   value is decided by bit b alone: generator tests with `bits=LO-HI` (see the
//!   package's gen.rs; with a plan `count`, test i is about bit LO + i - 1;
//!   without, case i of a multi-case file is about bit LO + i mod (HI-LO+1)).
//! * `mex-`: SG values computed by a mex reach 64 or more, so a mex kept in a
//!   64-bit mask (or a 64-entry table) must fail.
//! * `narrow-`: some value the answer depends on does not fit an integer type a
//!   contestant might pick (16 bits, or a signed 32-bit int).
//!
//! The test prints one table row per problem and class and fails when an
//! applicable class is not covered, or when a submission carries the prefix of
//! a class that does not apply (the prefix would then claim nothing). A problem directory missing from `RULES`
//! fails too: a new problem must be classified.

use std::collections::BTreeSet;
use std::path::Path;

use crate::helpers::repo;

/// A class that applies to a problem, and why its bounds make it apply.
struct Applies {
    class: &'static str,
    /// For `highbit`: the top bit the deciding value can reach.
    top_bit: Option<u32>,
    why: &'static str,
}

const fn highbit(top: u32, why: &'static str) -> Applies {
    Applies {
        class: "highbit",
        top_bit: Some(top),
        why,
    }
}

const fn mex(why: &'static str) -> Applies {
    Applies {
        class: "mex",
        top_bit: None,
        why,
    }
}

const fn narrow(why: &'static str) -> Applies {
    Applies {
        class: "narrow",
        top_bit: None,
        why,
    }
}

/// Every problem, with the classes its bounds (shared/problems.md) make apply;
/// an empty list says why none does.
const RULES: &[(&str, &[Applies], &str)] = &[
    (
        "nim",
        &[
            highbit(29, "piles up to 10^9 < 2^30: the XOR reaches bit 29"),
            narrow("the XOR needs 30 bits: a 16-bit variable loses bits 16..29"),
        ],
        "",
    ),
    (
        "staircase-nim",
        &[
            highbit(29, "a_i up to 10^9 < 2^30: the odd-step XOR reaches bit 29"),
            narrow("the XOR needs 30 bits: a 16-bit variable loses bits 16..29"),
        ],
        "",
    ),
    (
        "set-nim",
        &[mex(
            "k <= 100 moves: SG values reach 100, above a 64-bit mask",
        )],
        "",
    ),
    (
        "split-nim",
        &[mex("SG values reach 199 for piles <= 100")],
        "",
    ),
    (
        "anti-nim",
        &[highbit(
            12,
            "piles up to 4747 < 2^13: the XOR reaches bit 12",
        )],
        "",
    ),
    (
        "lasker-nim",
        &[
            highbit(31, "SG(2^31 - 1) = 2^31: the XOR reaches bit 31"),
            narrow("SG(2^31 - 1) = 2^31 does not fit a signed 32-bit int"),
        ],
        "",
    ),
    (
        "moore-nim-k",
        &[
            highbit(
                29,
                "piles up to 10^9 < 2^30: bit counts up to bit 29 matter",
            ),
            narrow("piles need 30 bits: 16-bit storage loses bits 16..29"),
        ],
        "",
    ),
    (
        "georgia-bob",
        &[highbit(13, "cells up to 10^4: a gap reaches 9998 < 2^14")],
        "",
    ),
    (
        "climbing-hill",
        &[
            highbit(16, "distances below 10^5: a gap reaches 99998 < 2^17"),
            narrow("a gap can exceed 65535: a 16-bit variable loses bit 16"),
        ],
        "",
    ),
    (
        "jump-chess",
        &[],
        "a row's value is at most 20: the XOR stays below 32",
    ),
    (
        "kam-pebbles",
        &[highbit(
            13,
            "sizes up to 10^4: a difference reaches 10^4 < 2^14",
        )],
        "",
    ),
    (
        "black-white-chess",
        &[narrow(
            "products of two residues mod 10^9+7 overflow 32 bits",
        )],
        "",
    ),
    (
        "dag-game",
        &[mex(
            "M <= 6000 edges allow a complete DAG on 110 nodes: SG reaches 109",
        )],
        "",
    ),
    (
        "merge-stones",
        &[],
        "b <= 50049 fits any 32-bit int; no XOR, no mex",
    ),
    (
        "left-right-stones",
        &[],
        "values <= 10^9 and the DP's x + 1 fit a 32-bit int",
    ),
    (
        "euclid-game",
        &[narrow(
            "numbers below 2^31: 2 * b overflows a signed 32-bit int",
        )],
        "",
    ),
    ("ring-game", &[], "edge values <= 30, N <= 20: nothing wide"),
    (
        "madmax",
        &[],
        "a win/lose table over at most 100 x 100 x 26 states",
    ),
    (
        "roy-october",
        &[],
        "n <= 5 * 10^7 fits a 32-bit int; the answer is n mod 6",
    ),
    (
        "roy-october-ii",
        &[],
        "n <= 5 * 10^7 fits a 32-bit int; the answer is n mod 4",
    ),
    (
        "cutting-game",
        &[],
        "the largest SG value up to 200 x 200 is 9: no mex reaches 64",
    ),
    (
        "magic-beads",
        &[],
        "the largest SG value up to 1000 beads is 4",
    ),
    ("plate-game", &[], "a, b, r <= 100: one comparison"),
    (
        "three-kingdoms",
        &[],
        "values <= 10^9 fit a 32-bit int and are only compared",
    ),
    (
        "nim-winning-move",
        &[
            highbit(29, "piles up to 10^9 < 2^30: the XOR reaches bit 29"),
            narrow("the XOR needs 30 bits: a 16-bit variable loses bits 16..29"),
        ],
        "",
    ),
    ("nim-duel", &[], "piles <= 100: the XOR stays below 128"),
    (
        "dag-duel",
        &[mex("dag-game's graph bounds: SG reaches 109")],
        "",
    ),
];

const CLASSES: [&str; 3] = ["highbit", "mex", "narrow"];

/// The lowest bit that must be covered bit by bit.
const FIRST_HIGH_BIT: u32 = 10;

/// The wrong-answer submissions of a package whose name starts with `class-`.
fn class_submissions(dir: &Path, class: &str) -> Vec<String> {
    let wa = dir.join("submissions/wrong_answer");
    let mut names: Vec<String> = std::fs::read_dir(&wa)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(&format!("{class}-")))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// The bits covered one by one by the plan's `bits=LO-HI` generator tests.
fn bits_in_plan(dir: &Path) -> BTreeSet<u32> {
    let text = std::fs::read_to_string(dir.join("problem.toml")).expect("problem.toml");
    let manifest: toml::Value = toml::from_str(&text).expect("problem.toml parses");
    let mut bits = BTreeSet::new();
    let tests = manifest.get("tests").and_then(|t| t.as_array());
    for test in tests.into_iter().flatten() {
        let Some(gen) = test.get("gen").and_then(|g| g.as_str()) else {
            continue;
        };
        let arg = |key: &str| {
            gen.split_whitespace()
                .find_map(|w| w.strip_prefix(&format!("{key}=")))
                .map(str::to_string)
        };
        let Some((lo, hi)) = arg("bits").and_then(|r| {
            let (lo, hi) = r.split_once('-')?;
            Some((lo.parse::<u32>().ok()?, hi.parse::<u32>().ok()?))
        }) else {
            continue;
        };
        // One test per bit (a plan count), or one case per bit in a file of
        // T / u / cases test cases.
        let many = test
            .get("count")
            .and_then(|c| c.as_integer())
            .map(|c| c as u32)
            .or_else(|| {
                ["T", "u", "cases"]
                    .iter()
                    .find_map(|k| arg(k).and_then(|v| v.parse().ok()))
            })
            .unwrap_or(1);
        bits.extend((lo..=hi).take(many as usize));
    }
    bits
}

fn ranges(bits: &BTreeSet<u32>) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut it = bits.iter().copied().peekable();
    while let Some(start) = it.next() {
        let mut end = start;
        while it.peek() == Some(&(end + 1)) {
            end = it.next().unwrap();
        }
        out.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
    }
    if out.is_empty() {
        "none".into()
    } else {
        out.join(",")
    }
}

#[test]
fn every_problem_covers_its_integer_width_classes() {
    let problems = repo().join("problems");
    let mut shipped: Vec<String> = std::fs::read_dir(&problems)
        .expect("problems/")
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('_'))
        .collect();
    shipped.sort();

    let mut failures: Vec<String> = Vec::new();
    for slug in &shipped {
        if !RULES.iter().any(|(s, _, _)| s == slug) {
            failures.push(format!(
                "{slug}: not in coverage.rs RULES; say which classes its bounds make apply"
            ));
        }
    }

    let mut table = format!(
        "{:<20} {:<8} {:<8} {}\n",
        "problem", "class", "status", "covered by / why"
    );
    for (slug, applies, why_none) in RULES {
        let dir = problems.join(slug);
        if !dir.is_dir() {
            table.push_str(&format!(
                "{slug:<20} {:<8} {:<8} package not shipped yet\n",
                "-", "-"
            ));
            continue;
        }
        for class in CLASSES {
            let subs = class_submissions(&dir, class);
            let rule = applies.iter().find(|a| a.class == class);
            let Some(rule) = rule else {
                let status = if subs.is_empty() { "n/a" } else { "MISLABEL" };
                if !subs.is_empty() {
                    failures.push(format!(
                        "{slug} [{class}]: {} carry the prefix of a class that RULES says does not apply",
                        subs.join(" ")
                    ));
                }
                let why = if applies.is_empty() { *why_none } else { "" };
                table.push_str(&format!(
                    "{slug:<20} {class:<8} {status:<8} {}{why}\n",
                    if subs.is_empty() {
                        String::new()
                    } else {
                        format!("{} ", subs.join(" "))
                    },
                ));
                continue;
            };
            let mut problems_found: Vec<String> = Vec::new();
            if subs.is_empty() {
                problems_found.push(format!(
                    "no submissions/wrong_answer/{class}-* program ({})",
                    rule.why
                ));
            }
            let mut detail = subs.join(" ");
            if let Some(top) = rule.top_bit {
                let covered = bits_in_plan(&dir);
                let missing: BTreeSet<u32> = (FIRST_HIGH_BIT..=top)
                    .filter(|b| !covered.contains(b))
                    .collect();
                detail.push_str(&format!("; bits alone: {}", ranges(&covered)));
                if !missing.is_empty() {
                    problems_found.push(format!(
                        "no `bits=` test decided by bit(s) {} alone ({})",
                        ranges(&missing),
                        rule.why
                    ));
                }
            }
            let status = if problems_found.is_empty() {
                "covered"
            } else {
                "MISSING"
            };
            table.push_str(&format!("{slug:<20} {class:<8} {status:<8} {detail}\n"));
            for p in problems_found {
                failures.push(format!("{slug} [{class}]: {p}"));
            }
        }
    }
    println!("{table}");
    assert!(
        failures.is_empty(),
        "integer-width coverage incomplete:\n{}\n\n{table}",
        failures.join("\n")
    );
}
