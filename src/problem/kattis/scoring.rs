//! Scoring packages: the test groups `testdata.yaml` describes, and how
//! they become grundy's groups and points.

use std::collections::BTreeMap;

use super::super::{Group, GroupSpec};

/// The test groups of a scoring package, as `testdata.yaml` describes them
/// (an intermediate reading, for mapping onto grundy's own groups).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scoring {
    pub groups: Vec<ScoreGroup>,
}

/// One group of a scoring package: its path under `data/`, its tests (by
/// grundy name, in order) and its grading settings.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreGroup {
    pub path: String,
    /// The grundy group its tests are in.
    pub name: Group,
    /// Its own tests (not its subgroups'), by grundy name.
    pub tests: Vec<String>,
    /// The score of the group when every test passes (`accept_score`, or a
    /// 2023-07 `score`), if given.
    pub score: Option<f64>,
    /// Every grading key of its `testdata.yaml` (inherited ones included):
    /// `grading`, `grader_flags`, `on_reject`, `accept_score`,
    /// `reject_score`, `range`, `score_aggregation`, ...
    pub settings: BTreeMap<String, String>,
}

impl Scoring {
    /// grundy's groups for these: the samples a 0-point group, every
    /// other directory of tests a group with no dependency, its points
    /// its maximum score (`accept_score` or `score` per test, summed
    /// unless its aggregation is `min`; 1 per test by default), scaled to
    /// grundy's 100 when they do not sum to it (largest remainders). The
    /// note says what does not carry over.
    pub fn group_specs(&self) -> (Vec<GroupSpec>, Option<String>) {
        let scored: Vec<&ScoreGroup> = self.groups.iter().filter(|g| !g.name.is_sample()).collect();
        let maxima: Vec<f64> = scored.iter().map(|g| g.max_score()).collect();
        let points = to_hundred(&maxima);
        let mut specs = Vec::new();
        if self.groups.iter().any(|g| g.name.is_sample()) {
            specs.push(GroupSpec {
                name: Group::sample(),
                points: 0,
                depends: Vec::new(),
            });
        }
        for (g, p) in scored.iter().zip(&points) {
            specs.push(GroupSpec {
                name: g.name.clone(),
                points: *p,
                depends: Vec::new(),
            });
        }
        let total: f64 = maxima.iter().sum();
        let mut notes = Vec::new();
        if (total - 100.0).abs() > 1e-9 {
            notes.push(format!(
                "group scores summing to {total} are scaled to 100 points"
            ));
        }
        let summed: Vec<&str> = scored
            .iter()
            .filter(|g| g.tests.len() > 1 && !g.is_min())
            .map(|g| g.path.as_str())
            .collect();
        if !summed.is_empty() {
            notes.push(format!(
                "groups {} sum their tests' scores, which grundy scores all or nothing",
                summed.join(", ")
            ));
        }
        let note = (!notes.is_empty()).then(|| format!("scoring: {}", notes.join("; ")));
        (specs, note)
    }
}

impl ScoreGroup {
    fn is_min(&self) -> bool {
        ["grader_flags", "scoring.aggregation", "score_aggregation"]
            .iter()
            .any(|k| {
                self.settings
                    .get(*k)
                    .is_some_and(|v| v.split_whitespace().any(|w| w == "min"))
            })
    }

    /// The most this group can score in Kattis.
    pub fn max_score(&self) -> f64 {
        let per_test = self
            .settings
            .get("accept_score")
            .and_then(|s| s.parse::<f64>().ok());
        match (
            self.settings
                .get("scoring.score")
                .and_then(|s| s.parse::<f64>().ok()),
            per_test,
        ) {
            (Some(score), _) => score,
            (None, Some(s)) if self.is_min() => s,
            (None, Some(s)) => s * self.tests.len() as f64,
            (None, None) if self.is_min() => 1.0,
            (None, None) => self.tests.len() as f64,
        }
    }
}

/// Whole points summing to 100 in proportion to `maxima` (the largest
/// remainders get the rounding), equal shares when every maximum is 0.
pub fn to_hundred(maxima: &[f64]) -> Vec<u32> {
    if maxima.is_empty() {
        return Vec::new();
    }
    let total: f64 = maxima.iter().sum();
    let exact: Vec<f64> = if total > 0.0 {
        maxima.iter().map(|m| m / total * 100.0).collect()
    } else {
        vec![100.0 / maxima.len() as f64; maxima.len()]
    };
    let mut points: Vec<u32> = exact.iter().map(|x| x.floor() as u32).collect();
    let mut left = 100 - points.iter().sum::<u32>().min(100);
    let mut order: Vec<usize> = (0..exact.len()).collect();
    order.sort_by(|&a, &b| (exact[b] - exact[b].floor()).total_cmp(&(exact[a] - exact[a].floor())));
    for i in order.into_iter().cycle() {
        if left == 0 {
            break;
        }
        points[i] += 1;
        left -= 1;
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_maxima_become_a_hundred_points() {
        let table: &[(&[f64], &[u32])] = &[
            (&[20.0, 30.0, 50.0], &[20, 30, 50]),
            (&[1.0, 1.0, 1.0], &[34, 33, 33]),
            (&[10.0, 30.0], &[25, 75]),
            (&[0.0, 0.0], &[50, 50]),
            (&[], &[]),
        ];
        for (maxima, want) in table {
            let got = to_hundred(maxima);
            assert_eq!(got, *want, "{maxima:?}");
            if !maxima.is_empty() {
                assert_eq!(got.iter().sum::<u32>(), 100);
            }
        }
    }
}
