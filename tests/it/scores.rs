//! Issue 15, scores: test groups with points, a dependency, partial scores
//! from a testlib checker, on the fixture `tests/fixtures/scores` (laid
//! over a copy of `tests/fixtures/verify/base`). The groups: the sample
//! (0 points), small (30), medium (30, two hand-made piles, 100 and 101)
//! and large (40, depends on small).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::helpers::{copy_dir, repo, require_languages, require_sources, Workspace};

/// The scored package as problem `scores` of the workspace's own problem
/// directory.
pub(crate) fn package(ws: &Workspace) -> PathBuf {
    let problems = ws.dir.path().join("problems");
    let dir = problems.join("scores");
    copy_dir(&repo().join("tests/fixtures/verify/base"), &dir);
    copy_dir(&repo().join("tests/fixtures/scores"), &dir);
    ws.use_problems(&problems);
    dir
}

fn submission_source(dir: &Path, path: &str) -> String {
    std::fs::read_to_string(dir.join("submissions").join(path)).unwrap()
}

/// Submits a file of the package's submissions; the `--json` object.
fn submit(ws: &Workspace, dir: &Path, path: &str) -> Value {
    let name = Path::new(path).file_name().unwrap().to_str().unwrap();
    let out = ws.submit("scores", name, &submission_source(dir, path));
    assert!(out.code == 0 || out.code == 1, "{}", out.stderr);
    out.json()
}

fn group<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["groups"]
        .as_array()
        .unwrap_or_else(|| panic!("no groups: {report:#}"))
        .iter()
        .find(|g| g["name"] == name)
        .unwrap_or_else(|| panic!("no group {name}: {report:#}"))
}

fn test<'a>(report: &'a Value, name: &str) -> Option<&'a Value> {
    report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
}

/// (score, verdict, skipped) of a group.
fn result(report: &Value, name: &str) -> (u64, Value, bool) {
    let g = group(report, name);
    (
        g["score"].as_u64().unwrap(),
        g["verdict"].clone(),
        g["skipped"].as_bool().unwrap(),
    )
}

#[test]
fn all_groups_passed_give_every_point_and_the_json_lists_each_group() {
    if !require_languages(&["python"]) {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws);
    let report = submit(&ws, &dir, "accepted/mod3.py");
    assert_eq!(report["verdict"], "AC", "{report:#}");
    assert_eq!(report["score"], 100, "{report:#}");
    let names: Vec<&str> = report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["sample", "small", "medium", "large"]);
    let sample = group(&report, "sample");
    assert_eq!(
        *sample,
        serde_json::json!({"name": "sample", "points": 0, "score": 0, "verdict": "AC",
                           "skipped": false, "tests": ["sample-1"]})
    );
    assert_eq!(
        group(&report, "large")["tests"].as_array().unwrap().len(),
        3
    );
    assert_eq!(result(&report, "large"), (40, "AC".into(), false));
    assert_eq!(report["tests"].as_array().unwrap().len(), 1 + 4 + 2 + 3);
}

#[test]
fn a_failing_group_loses_only_its_own_points() {
    let ws = Workspace::new();
    let dir = package(&ws);
    let report = submit(&ws, &dir, "time_limit_exceeded/walk.c");
    assert_eq!(report["verdict"], "TLE", "{report:#}");
    assert_eq!(report["score"], 60, "{report:#}");
    assert_eq!(result(&report, "small"), (30, "AC".into(), false));
    assert_eq!(result(&report, "medium"), (30, "AC".into(), false));
    assert_eq!(result(&report, "large"), (0, "TLE".into(), false));
    // A group stops at its first test that scores nothing.
    assert!(test(&report, "large-02").is_none(), "{report:#}");
}

#[test]
fn a_group_that_depends_on_a_failed_one_is_skipped_not_failed() {
    if !require_languages(&["python"]) {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws);
    let report = submit(&ws, &dir, "wrong_answer/small-wrong.py");
    assert_eq!(report["verdict"], "WA", "{report:#}");
    assert_eq!(report["score"], 30, "{report:#}");
    assert_eq!(result(&report, "small"), (0, "WA".into(), false));
    assert_eq!(result(&report, "medium"), (30, "AC".into(), false));
    assert_eq!(result(&report, "large"), (0, Value::Null, true));
    for name in ["large-1", "large-02", "large-3"] {
        assert!(test(&report, name).is_none(), "{name} ran: {report:#}");
    }

    // Stored: `status` shows the same groups, and says "skipped" to a human.
    let id = report["id"].to_string();
    let stored = ws.grundy(&["status", &id, "--json"]).json();
    assert_eq!(stored["groups"], report["groups"]);
    let human = ws.grundy(&["status", &id]);
    assert_eq!(human.code, 0, "{}", human.stderr);
    let line = human
        .stdout
        .lines()
        .find(|l| l.starts_with("large "))
        .unwrap_or_else(|| panic!("no group line: {}", human.stdout));
    assert!(line.contains("skipped"), "{line}");
    assert!(line.contains("large-01, large-02, large-03"), "{line}");
}

#[test]
fn partial_scores_give_a_group_its_least_share() {
    if !require_languages(&["python"]) {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws);
    let report = submit(&ws, &dir, "wrong_answer/cases.py");
    let medium_1 = test(&report, "medium-1").unwrap();
    let medium_2 = test(&report, "medium-2").unwrap();
    assert_eq!(medium_1["score"], 0.5, "{report:#}");
    assert_eq!(medium_2["score"], 0.25, "{report:#}");
    assert_eq!(medium_1["verdict"], "WA", "{report:#}");
    // 30 points times a quarter, rounded down; the other groups are whole.
    assert_eq!(result(&report, "medium"), (7, "WA".into(), false));
    assert_eq!(report["score"], 30 + 7 + 40, "{report:#}");
    assert_eq!(report["verdict"], "WA");
    assert!(test(&report, "small-01").unwrap().get("score").is_none());
}

#[test]
fn verify_proves_the_scored_package_and_wants_every_point_of_an_accepted_one() {
    if !require_sources(&[
        &repo().join("tests/fixtures/verify/base"),
        &repo().join("tests/fixtures/scores"),
    ]) {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws);
    let out = ws.grundy(&["verify", dir.to_str().unwrap(), "--json", "--stress", "5"]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);

    // The partially scored submission, declared accepted, fails verify.
    std::fs::copy(
        dir.join("submissions/wrong_answer/cases.py"),
        dir.join("submissions/accepted/cases.py"),
    )
    .unwrap();
    let out = ws.grundy(&["verify", dir.to_str().unwrap(), "--json", "--stress", "5"]);
    assert_eq!(out.code, 1, "{}\n{}", out.stdout, out.stderr);
    let report = out.json()["problems"][0].clone();
    let cases = report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["path"] == "submissions/accepted/cases.py")
        .unwrap_or_else(|| panic!("{report:#}"))
        .to_string();
    assert!(cases.contains("expected AC, got WA"), "{cases}");
}

#[test]
fn a_kattis_validator_scores_by_score_txt_and_score_multiplier_txt() {
    if !require_languages(&["python"]) {
        return;
    }
    // The same package with a Kattis validator: lower case earns score.txt
    // 15 of medium's 30 points, upper case score_multiplier.txt 0.25; both
    // stay accepted, so the verdict is AC with a score below 100.
    let ws = Workspace::new();
    let dir = package(&ws);
    std::fs::copy(
        repo().join("tests/fixtures/checkers/kattis_scores.c"),
        dir.join("kattis_scores.c"),
    )
    .unwrap();
    let toml = std::fs::read_to_string(dir.join("problem.toml")).unwrap();
    let toml = toml
        .replace("program = \"checker.c\"", "program = \"kattis_scores.c\"")
        .replace("protocol = \"testlib\"", "protocol = \"kattis\"");
    std::fs::write(dir.join("problem.toml"), toml).unwrap();
    let report = submit(&ws, &dir, "wrong_answer/cases.py");
    assert_eq!(
        test(&report, "medium-1").unwrap()["score"],
        0.5,
        "{report:#}"
    );
    assert_eq!(
        test(&report, "medium-2").unwrap()["score"],
        0.25,
        "{report:#}"
    );
    assert_eq!(result(&report, "medium"), (7, "AC".into(), false));
    assert_eq!(report["verdict"], "AC", "{report:#}");
    assert_eq!(report["score"], 77, "{report:#}");
}
