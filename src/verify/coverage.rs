//! Game coverage in `grundy verify`, a report that never fails: for each
//! group, how many of its positions (answer lines) are wins for the player
//! to move and how many losses, as `verify.toml`'s `[game]` names the two
//! answers; and where it says `grundy = true`, the spread of the
//! Sprague–Grundy values `solution.rs --grundy` prints (one per case).

use std::collections::BTreeMap;

use serde::Serialize;

use super::cross::read;
use super::notes::Notes;
use super::{Check, CheckName, Error};
use crate::data::{TestData, TestSet};
use crate::plural::count;
use crate::problem::{Problem, Role};

/// One group's positions.
#[derive(Debug, Clone, Serialize)]
pub struct GroupCoverage {
    pub group: String,
    pub positions: usize,
    pub winning: usize,
    pub losing: usize,
    /// Sprague–Grundy value (exact below 16, then `16-31`, `32-63`, ...)
    /// -> number of positions; absent where the solution does not print them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grundy: Option<BTreeMap<String, usize>>,
}

pub(super) fn game_coverage(
    data: &TestData,
    problem: &Problem,
    set: &TestSet,
    notes: &Notes,
) -> Result<(Check, Vec<GroupCoverage>), Error> {
    let check = |detail: String| Check {
        name: CheckName::Coverage,
        ok: true,
        detail,
        counterexample: None,
    };
    let Some(game) = &notes.game else {
        return Ok((
            check("no [game] in verify.toml names the winning answer: not reported".into()),
            Vec::new(),
        ));
    };
    let mut groups: Vec<GroupCoverage> = Vec::new();
    for test in &set.index.tests {
        let text = String::from_utf8_lossy(&read(&set.answer(test))?).into_owned();
        let name = test.group.as_str();
        let at = match groups.iter().position(|g| g.group == name) {
            Some(i) => i,
            None => {
                groups.push(GroupCoverage {
                    group: name.to_string(),
                    positions: 0,
                    winning: 0,
                    losing: 0,
                    grundy: None,
                });
                groups.len() - 1
            }
        };
        let g = &mut groups[at];
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            g.positions += 1;
            g.winning += usize::from(line == game.wins);
            g.losing += usize::from(line == game.loses);
        }
    }
    let mut note = String::new();
    if game.grundy && problem.has(Role::Solution) {
        match grundy_values(data, problem, set)? {
            Ok(values) => {
                for (group, v) in values {
                    if let Some(g) = groups.iter_mut().find(|g| g.group == group) {
                        let h = g.grundy.get_or_insert_with(BTreeMap::new);
                        *h.entry(bucket(v)).or_default() += 1;
                    }
                }
            }
            Err(why) => note = format!("; no Sprague–Grundy values: {why}"),
        }
    }
    let lines: Vec<String> = groups
        .iter()
        .map(|g| {
            let share = |n: usize| 100.0 * n as f64 / g.positions.max(1) as f64;
            let mut s = format!(
                "{}: {}, {:.0}% winning, {:.0}% losing",
                g.group,
                count(g.positions, "position", "positions"),
                share(g.winning),
                share(g.losing)
            );
            if let Some(h) = &g.grundy {
                let mut spread: Vec<(u64, String)> = h
                    .iter()
                    .map(|(k, n)| (bucket_start(k), format!("{k}:{n}")))
                    .collect();
                spread.sort();
                let spread: Vec<String> = spread.into_iter().map(|(_, s)| s).collect();
                s.push_str(&format!("; SG values {}", spread.join(" ")));
            }
            s
        })
        .collect();
    Ok((check(format!("{}{note}", lines.join("\n"))), groups))
}

/// Each test's Sprague–Grundy values by group, from `solution.rs --grundy`.
#[allow(clippy::type_complexity)]
fn grundy_values(
    data: &TestData,
    problem: &Problem,
    set: &TestSet,
) -> Result<Result<Vec<(String, u64)>, String>, Error> {
    let programs = match data.programs(problem, &[Role::Solution]) {
        Ok(p) => p,
        Err(e) => return Ok(Err(e.to_string())),
    };
    let scratch = tempfile::tempdir().map_err(|source| Error::Io {
        what: "creating a scratch directory".into(),
        source,
    })?;
    let out = scratch.path().join("grundy.out");
    let mut values = Vec::new();
    for test in &set.index.tests {
        let run = programs.run(
            Role::Solution,
            &["--grundy".into()],
            Some(&set.input(test)),
            &out,
        )?;
        if !run.outcome.success() {
            return Ok(Err(format!(
                "solution.rs --grundy failed on test {}: {}",
                test.name, run.stderr_line
            )));
        }
        for tok in String::from_utf8_lossy(&read(&out)?).split_ascii_whitespace() {
            match tok.parse::<u64>() {
                Ok(v) => values.push((test.group.as_str().to_string(), v)),
                Err(_) => {
                    return Ok(Err(format!(
                        "solution.rs --grundy printed {tok:?} on test {}",
                        test.name
                    )))
                }
            }
        }
    }
    Ok(Ok(values))
}

/// A value's histogram bucket: itself below 16, else its power-of-two range.
fn bucket(v: u64) -> String {
    if v < 16 {
        v.to_string()
    } else {
        let lo = 1u64 << (63 - v.leading_zeros());
        format!("{lo}-{}", lo.saturating_mul(2) - 1)
    }
}

/// The least value of a bucket's name, to list buckets in order.
fn bucket_start(name: &str) -> u64 {
    name.split('-')
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    #[test]
    fn small_values_are_exact_and_large_ones_in_powers_of_two() {
        assert_eq!(super::bucket(0), "0");
        assert_eq!(super::bucket(15), "15");
        assert_eq!(super::bucket(16), "16-31");
        assert_eq!(super::bucket(1000), "512-1023");
    }
}
