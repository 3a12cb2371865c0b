//! `grundy verify` on a correct fixture package and on copies broken one
//! way each: every failure is reported as exactly that failure.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::helpers::{
    copy_dir, language_of, languages_of_sources, languages_present, repo, require_sources,
    Workspace,
};

/// A copy of the fixture package, to break.
fn package(ws: &Workspace, name: &str) -> PathBuf {
    let from = repo().join("tests/fixtures/verify/base");
    let to = ws.dir.path().join(name);
    copy_dir(&from, &to);
    to
}

fn verify(ws: &Workspace, dir: &Path) -> (i32, Value) {
    let out = ws.grundy(&["verify", dir.to_str().unwrap(), "--json", "--stress", "20"]);
    assert!(
        out.code == 0 || out.code == 1,
        "exit {}: {}",
        out.code,
        out.stderr
    );
    let json = out.json();
    assert_eq!(
        json["verified"],
        out.code == 0,
        "exit status matches: {json}"
    );
    (out.code, json["problems"][0].clone())
}

/// The names of the failed checks.
fn failed(report: &Value) -> Vec<String> {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["ok"] == false)
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect()
}

fn detail<'a>(report: &'a Value, check: &str) -> &'a str {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == check)
        .and_then(|c| c["detail"].as_str())
        .unwrap_or_else(|| panic!("no check {check}: {report}"))
}

#[test]
fn correct_package_verifies() {
    if !require_sources(&[&repo().join("tests/fixtures/verify/base")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws, "good");
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 0, "{report:#}");
    assert!(failed(&report).is_empty());
    assert!(
        detail(&report, "cross-check").contains("20 stress runs"),
        "{report}"
    );
    assert!(
        detail(&report, "answer balance").contains("\"First\""),
        "{report}"
    );
}

#[test]
fn validator_rejecting_a_generated_input_is_reported_with_the_test() {
    if !require_sources(&[&repo().join("tests/fixtures/verify/base")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws, "strict-validator");
    let v = std::fs::read_to_string(dir.join("validator.rs")).unwrap();
    std::fs::write(
        dir.join("validator.rs"),
        v.replace("1_000_000_000", "1_000"),
    )
    .unwrap();
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 1);
    assert_eq!(failed(&report), ["tests"]);
    let d = detail(&report, "tests");
    assert!(d.contains("test large-"), "names the test: {d}");
    assert!(
        d.contains("invalid input: expected one integer in [1, 10^9]"),
        "gives the reason: {d}"
    );
}

#[test]
fn solver_disagreeing_with_the_brute_force_shows_the_smallest_input() {
    if !require_sources(&[&repo().join("tests/fixtures/verify/base")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws, "wrong-solver");
    // Wrong on exactly one small case: n = 7.
    let s = std::fs::read_to_string(dir.join("solution.rs")).unwrap();
    std::fs::write(
        dir.join("solution.rs"),
        s.replace("if n % 3 == 0", "if n % 3 == 0 || n == 7"),
    )
    .unwrap();
    // Make sure n = 7 is met: a stress plan of exactly that.
    let toml = std::fs::read_to_string(dir.join("problem.toml")).unwrap();
    std::fs::write(
        dir.join("problem.toml"),
        toml + "\n[[stress]]\ngen = \"min=7 max=7\"\ncount = 1\n",
    )
    .unwrap();
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 1);
    assert!(
        failed(&report).contains(&"cross-check".to_string()),
        "{report:#}"
    );
    let d = detail(&report, "cross-check");
    assert!(d.contains("disagree"), "{d}");
    assert!(d.contains("\n7\n"), "shows the input 7: {d}");
    assert!(d.contains("solution.rs says:\nSecond"), "{d}");
    assert!(d.contains("brute.rs says:\nFirst"), "{d}");
}

#[test]
fn wrong_answer_submission_that_is_accepted_is_reported() {
    if !require_sources(&[&repo().join("tests/fixtures/verify/base")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws, "lucky-wa");
    std::fs::copy(
        dir.join("submissions/accepted/mod3.py"),
        dir.join("submissions/wrong_answer/actually-right.py"),
    )
    .unwrap();
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 1);
    assert_eq!(failed(&report), ["submissions"]);
    let sub = report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["path"] == "submissions/wrong_answer/actually-right.py")
        .unwrap();
    assert_eq!(sub["ok"], false);
    assert_eq!(sub["verdict"], "AC");
    assert!(
        sub["detail"]
            .as_str()
            .unwrap()
            .contains("every test was accepted"),
        "{sub}"
    );
}

#[test]
fn tle_submission_that_answers_wrong_is_reported() {
    if !require_sources(&[&repo().join("tests/fixtures/verify/base")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws, "tle-gives-wa");
    let src = std::fs::read_to_string(dir.join("submissions/time_limit_exceeded/walk.c")).unwrap();
    // Wrong on small piles of 5, slow on the large ones.
    let broken = src.replace("puts(win ?", "puts(n == 5 ? \"Second\" : win ?");
    std::fs::write(dir.join("submissions/time_limit_exceeded/walk.c"), broken).unwrap();
    std::fs::write(dir.join("tests/five.in"), "5\n").unwrap();
    let toml = std::fs::read_to_string(dir.join("problem.toml")).unwrap();
    let toml = toml.replacen(
        "[[tests]]\nname = \"small\"",
        "[[tests]]\nname = \"five\"\nfile = \"tests/five.in\"\n\n[[tests]]\nname = \"small\"",
        1,
    );
    std::fs::write(dir.join("problem.toml"), toml).unwrap();
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 1);
    assert_eq!(failed(&report), ["submissions"]);
    let sub = report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["expected"] == "time_limit_exceeded")
        .unwrap();
    assert_eq!(sub["ok"], false);
    assert!(
        sub["detail"]
            .as_str()
            .unwrap()
            .contains("expected TLE, got WA on test five"),
        "{sub}"
    );
}

#[test]
fn missing_brute_force_fails_the_cross_check() {
    if !require_sources(&[&repo().join("tests/fixtures/verify/base")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws, "no-brute");
    std::fs::remove_file(dir.join("brute.rs")).unwrap();
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 1);
    assert_eq!(failed(&report), ["cross-check"]);
    assert_eq!(detail(&report, "cross-check"), "brute.rs is missing");
}

#[test]
fn one_dominant_answer_fails_the_balance() {
    if !require_sources(&[&repo().join("tests/fixtures/verify/base")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws, "unbalanced");
    // Every generated pile is 1 mod 3: "First" everywhere but the sample.
    let g = std::fs::read_to_string(dir.join("gen.rs")).unwrap();
    std::fs::write(
        dir.join("gen.rs"),
        g.replace(
            "println!(\"{}\", lo + h % (hi - lo + 1));",
            "let n = lo + h % (hi - lo + 1);\n    println!(\"{}\", n - n % 3 + 1);",
        ),
    )
    .unwrap();
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 1, "{report:#}");
    // The sample (4) answers "First" too, and so does every stress input:
    // the constant adversary gets through, but with one answer everywhere
    // it cannot be told apart from a solution (issue 47); the balance is
    // what fails.
    assert_eq!(failed(&report), ["answer balance"], "{report:#}");
    assert!(detail(&report, "answer balance").contains("one answer dominates"));
    assert!(
        detail(&report, "adversaries").contains("every answer is the same (\"First\")"),
        "{report:#}"
    );
}

#[test]
fn every_shipped_problem_verifies() {
    // The golden test of the problem set: every package's example
    // submissions get their declared verdicts, the brute force agrees, the
    // answers are balanced. A reduced stress count keeps CI fast; the full
    // count runs with `grundy verify --all`.
    //
    // The time margin (the slowest accepted run's share of its limit) is a
    // figure of the machine it runs on: it is reported, and the setter keeps
    // it near a third here, but it does not fail this test. What does not
    // depend on the machine still does: an accepted submission that is not
    // AC (limits with no room fail here, on a machine twice as slow), a TLE
    // example that passes, a wrong answer accepted.
    //
    // `verify` stops (exit 2) on a submission whose toolchain is missing:
    // on a machine without one, the problems are verified from a copy
    // without those submissions, and one line says what was left out.
    let ws = Workspace::new();
    let absent = absent_submission_languages();
    if !absent.is_empty() {
        let problems = ws.dir.path().join("problems");
        copy_dir(&repo().join("problems"), &problems);
        for slug in shipped_problems() {
            remove_sources_in(&problems.join(slug).join("submissions"), &absent);
        }
        ws.use_problems(&problems);
    }
    let out = ws.grundy(&["verify", "--all", "--json", "--stress", "30"]);
    assert!(out.code == 0 || out.code == 1, "{}", out.stderr);
    let json = out.json();
    let problems = json["problems"].as_array().unwrap();
    assert_eq!(problems.len(), shipped_problems().len());
    let mut failed = Vec::new();
    for p in problems {
        let checks = p["checks"].as_array().unwrap();
        let margin = checks.iter().find(|c| c["name"] == "time margin");
        assert!(margin.is_some(), "no time margin reported: {p:#}");
        if checks
            .iter()
            .any(|c| c["ok"] == false && c["name"] != "time margin")
        {
            failed.push(format!("{p:#}"));
        }
    }
    assert!(failed.is_empty(), "not verified:\n{}", failed.join("\n"));
}

/// The languages of the shipped example submissions whose toolchains this
/// machine lacks (named on stderr, or a failure under `GRUNDY_REQUIRE_ALL=1`).
fn absent_submission_languages() -> Vec<String> {
    let dirs: Vec<PathBuf> = shipped_problems()
        .iter()
        .map(|slug| repo().join("problems").join(slug).join("submissions"))
        .collect();
    let used = languages_of_sources(&dirs.iter().map(PathBuf::as_path).collect::<Vec<_>>());
    let used: Vec<&str> = used.iter().map(String::as_str).collect();
    let present = languages_present(&used);
    used.iter()
        .filter(|l| !present.contains(l))
        .map(|l| l.to_string())
        .collect()
}

/// Removes the sources in `languages` under `dir`.
fn remove_sources_in(dir: &Path, languages: &[String]) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            remove_sources_in(&path, languages);
        } else if path
            .to_str()
            .and_then(language_of)
            .is_some_and(|l| languages.contains(&l))
        {
            std::fs::remove_file(&path).unwrap();
        }
    }
}

/// The problem directories shipped under `problems/`.
fn shipped_problems() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    std::fs::read_dir(root)
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("problem.toml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn a_submission_whose_toolchain_is_missing_is_skipped_with_one_line_not_a_failure() {
    if !require_sources(&[&repo().join("tests/fixtures/verify/base")]) {
        return;
    }
    let ws = Workspace::new();
    // This machine's C compiler, as the configuration names it, is gone.
    let config = std::fs::read_to_string(ws.config()).unwrap();
    assert!(config.contains("\"/usr/bin/gcc\""));
    std::fs::write(
        ws.config(),
        config.replace("\"/usr/bin/gcc\"", "\"/usr/bin/gcc-not-installed\""),
    )
    .unwrap();
    let dir = package(&ws, "no-c");
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 0, "{report:#}");
    let walk = report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["path"] == "submissions/time_limit_exceeded/walk.c")
        .unwrap_or_else(|| panic!("{report:#}"));
    assert_eq!(walk["skipped"], true, "{walk}");
    assert_eq!(
        walk["detail"],
        "skipped: language c: toolchain missing: /usr/bin/gcc-not-installed not found",
        "{walk}"
    );
    assert!(
        detail(&report, "submissions").contains("walk.c (language c: toolchain missing"),
        "{report}"
    );
}

/// The fixture's manifest with only these hand-made tests (the sample
/// first), as files `tests/<name>.in` holding `n`; `extra` is appended.
fn only_tests(dir: &Path, tests: &[(&str, &str, u64)], extra: &str) {
    let mut toml = String::from(
        "name = \"Take One or Two\"\nsource = \"grundy test fixture\"\ntime_limit = 0.25\nmemory_limit = 64\n",
    );
    toml.push_str(extra);
    for (name, group, n) in tests {
        std::fs::write(dir.join(format!("tests/{name}.in")), format!("{n}\n")).unwrap();
        toml.push_str(&format!(
            "\n[[tests]]\nname = \"{name}\"\ngroup = \"{group}\"\nfile = \"tests/{name}.in\"\n"
        ));
    }
    toml.push_str("\n[[stress]]\ngen = \"max=15\"\ncount = 20\n");
    std::fs::write(dir.join("problem.toml"), toml).unwrap();
}

/// The adversaries that got through, as (kind, variant).
fn passed_adversaries(report: &Value) -> Vec<(String, String)> {
    report["adversaries"]
        .as_array()
        .unwrap_or_else(|| panic!("no adversaries: {report}"))
        .iter()
        .filter(|a| a["passed"] == true)
        .map(|a| {
            (
                a["kind"].as_str().unwrap().to_string(),
                a["variant"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

// Every answer here is the parity of n: odd n win (1, 5, 7), even n lose
// (6, 12). The tests never separate the answer from the parity.
const PARITY_TESTS: &[(&str, &str, u64)] = &[
    ("sample-1", "sample", 1),
    ("a", "secret", 5),
    ("b", "secret", 6),
    ("c", "secret", 7),
    ("d", "secret", 12),
];

#[test]
fn tests_that_never_separate_the_answer_from_a_parity_fail_naming_the_adversary() {
    if !require_sources(&[&repo().join("tests/fixtures/verify/base")])
        || languages_present(&["c"]).is_empty()
    {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws, "parity-only");
    only_tests(&dir, PARITY_TESTS, "");
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 1);
    assert!(
        failed(&report).contains(&"adversaries".to_string()),
        "{report:#}"
    );
    let passed = passed_adversaries(&report);
    let kinds: Vec<&str> = passed.iter().map(|(k, _)| k.as_str()).collect();
    // One number per input: the parity of the sum, maximum, first and last
    // are all its parity.
    for kind in ["sum-parity", "max-parity", "first-parity", "last-parity"] {
        assert!(kinds.contains(&kind), "{kind} gets through: {passed:?}");
    }
    assert!(
        passed.iter().all(|(k, _)| k.ends_with("parity")),
        "only the parity heuristics get through: {passed:?}"
    );
    assert!(
        passed
            .iter()
            .any(|(_, v)| v == "\"First\" when the sum is odd, else \"Second\""),
        "{passed:?}"
    );
    let d = detail(&report, "adversaries");
    assert!(d.contains("sum-parity"), "names the adversary: {d}");
    assert!(
        d.contains("add cases with an even sum and each answer"),
        "suggests tests: {d}"
    );
    // The package's own wrong submission (parity.py) is the same program:
    // it is accepted too, which the submissions check reports separately.
    let adv = report["adversaries"].as_array().unwrap();
    assert!(adv
        .iter()
        .any(|a| a["kind"] == "echo" && a["passed"] == false && a["verdict"] == "WA"));
}

#[test]
fn an_adversary_marked_as_expected_to_pass_with_a_reason_does_not_fail_the_package() {
    if !require_sources(&[&repo().join("tests/fixtures/verify/base")])
        || languages_present(&["c"]).is_empty()
    {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws, "parity-marked");
    only_tests(&dir, PARITY_TESTS, "");
    let reason = "a fixture whose answers are parities";
    let mut notes = String::from("[adversaries]\n");
    for kind in ["sum-parity", "max-parity", "first-parity", "last-parity"] {
        notes.push_str(&format!("\"{kind}\" = \"{reason}\"\n"));
    }
    std::fs::write(dir.join("verify.toml"), &notes).unwrap();
    let (_, report) = verify(&ws, &dir);
    assert!(
        !failed(&report).contains(&"adversaries".to_string()),
        "{report:#}"
    );
    let d = detail(&report, "adversaries");
    assert!(
        d.contains(
            "sum-parity (\"First\" when the sum is odd, else \"Second\") passes as expected"
        ),
        "{d}"
    );
    let marked = report["adversaries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "sum-parity" && a["passed"] == true)
        .unwrap()
        .clone();
    assert_eq!(marked["expected"], reason);

    // A mark needs a reason, and names a kind that exists.
    std::fs::write(
        dir.join("verify.toml"),
        "[adversaries]\n\"sum-parity\" = \" \"\n",
    )
    .unwrap();
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 1);
    assert_eq!(
        detail(&report, "tests"),
        "verify.toml: [adversaries] \"sum-parity\" needs a reason"
    );
    std::fs::write(dir.join("verify.toml"), "[adversaries]\nparity = \"why\"\n").unwrap();
    let (_, report) = verify(&ws, &dir);
    assert!(
        detail(&report, "tests").starts_with("verify.toml: [adversaries] has no kind \"parity\""),
        "{report:#}"
    );
}

#[test]
fn tests_with_one_answer_let_the_constant_through() {
    if !require_sources(&[&repo().join("tests/fixtures/verify/base")])
        || languages_present(&["c"]).is_empty()
    {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws, "all-first");
    only_tests(
        &dir,
        &[
            ("sample-1", "sample", 1),
            ("a", "secret", 2),
            ("b", "secret", 4),
        ],
        "",
    );
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 1);
    let passed = passed_adversaries(&report);
    assert!(
        passed.contains(&(
            "constant".to_string(),
            "\"First\" for every case".to_string()
        )),
        "{passed:?}"
    );
    assert!(
        passed.iter().any(|(k, _)| k == "first-sample"),
        "the first sample's output is every answer: {passed:?}"
    );
    assert!(detail(&report, "adversaries")
        .contains("add tests whose answer is not \"First\" for every case"));
    // The solution answers "Second" on the stress plan's inputs: the tests
    // miss an answer, which one answer everywhere does not excuse.
    assert!(
        !detail(&report, "adversaries").contains("every answer is the same"),
        "{report:#}"
    );
    assert!(failed(&report).contains(&"adversaries".to_string()));
}

#[test]
fn an_adversary_that_gets_a_groups_points_fails_the_package() {
    if !require_sources(&[&repo().join("tests/fixtures/verify/base")])
        || languages_present(&["c"]).is_empty()
    {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws, "groups");
    // Group "weak" only has answers that are the parity of n; "strong"
    // separates them (3 is odd and loses, 4 is even and wins).
    only_tests(
        &dir,
        &[
            ("sample-1", "sample", 1),
            ("a", "weak", 5),
            ("b", "weak", 6),
            ("c", "strong", 3),
            ("d", "strong", 4),
        ],
        "\n[[groups]]\nname = \"weak\"\npoints = 40\n\n[[groups]]\nname = \"strong\"\npoints = 60\n",
    );
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 1);
    let adv = report["adversaries"].as_array().unwrap();
    let sum = adv
        .iter()
        .find(|a| a["variant"] == "\"First\" when the sum is odd, else \"Second\"")
        .unwrap_or_else(|| panic!("{report:#}"));
    assert_ne!(sum["verdict"], "AC", "not accepted: {sum}");
    assert_eq!(sum["groups"], serde_json::json!(["weak"]), "{sum}");
    assert_eq!(sum["passed"], true);
    assert!(
        detail(&report, "adversaries").contains("got the points of group weak"),
        "{report:#}"
    );
}

/// The fixture's validator replaced by one that declares `n` through the
/// shared helpers (`problems/_common` copied beside the package).
fn declaring_validator(ws: &Workspace, dir: &Path) {
    copy_dir(
        &repo().join("problems/_common"),
        &ws.dir.path().join("_common"),
    );
    std::fs::write(
        dir.join("validator.rs"),
        "#[path = \"../_common/validate.rs\"]\nmod validate;\n\nfn main() {\n    let mut inp = validate::Input::from_stdin();\n    inp.int_as(\"n\", 1, 1_000_000_000);\n    inp.newline();\n    inp.eof();\n}\n",
    )
    .unwrap();
}

#[test]
fn a_declared_maximum_no_test_reaches_fails_unless_marked_with_a_reason() {
    if !require_sources(&[&repo().join("tests/fixtures/verify/base")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws, "bounds");
    declaring_validator(&ws, &dir);
    // The fixture's tests reach n = 1 (the sample) but never 10^9.
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 1);
    assert!(
        failed(&report).contains(&"bounds".to_string()),
        "{report:#}"
    );
    let d = detail(&report, "bounds");
    assert!(d.contains("no test reaches n = 1000000000"), "{d}");
    let b = &report["bounds"][0];
    assert_eq!(b["name"], "n");
    assert_eq!(
        (b["min"].as_i64(), b["max"].as_i64()),
        (Some(1), Some(1_000_000_000))
    );
    assert_eq!(b["max_reached_by"], Value::Null, "{b}");

    // A reason in verify.toml: reported, not failed.
    std::fs::write(dir.join("verify.toml"), "[bounds]\nn = \"a fixture\"\n").unwrap();
    let (_, report) = verify(&ws, &dir);
    assert!(
        !failed(&report).contains(&"bounds".to_string()),
        "{report:#}"
    );
    assert_eq!(report["bounds"][0]["no_test_needed"], "a fixture");

    // A bound the validator does not declare cannot be marked.
    std::fs::write(dir.join("verify.toml"), "[bounds]\nm = \"no such bound\"\n").unwrap();
    let (_, report) = verify(&ws, &dir);
    assert!(
        detail(&report, "bounds")
            .contains("verify.toml [bounds] names \"m\", which validator.rs does not declare"),
        "{report:#}"
    );

    // A test at the maximum: the bound is reached.
    std::fs::remove_file(dir.join("verify.toml")).unwrap();
    std::fs::write(dir.join("tests/top.in"), "1000000000\n").unwrap();
    let toml = std::fs::read_to_string(dir.join("problem.toml")).unwrap();
    std::fs::write(
        dir.join("problem.toml"),
        toml + "\n[[tests]]\nname = \"top\"\nfile = \"tests/top.in\"\n",
    )
    .unwrap();
    let (_, report) = verify(&ws, &dir);
    assert!(
        !failed(&report).contains(&"bounds".to_string()),
        "{report:#}"
    );
    assert_eq!(report["bounds"][0]["max_reached_by"], "top");
}

#[test]
fn a_stress_disagreement_is_shrunk_to_the_smallest_input_the_validator_accepts() {
    if !require_sources(&[&repo().join("tests/fixtures/verify/base")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws, "shrink");
    // Wrong from n = 50 on; the stress plan draws n in 200..=999.
    let s = std::fs::read_to_string(dir.join("solution.rs")).unwrap();
    std::fs::write(
        dir.join("solution.rs"),
        s.replace("if n % 3 == 0", "if (n % 3 == 0) != (n >= 50)"),
    )
    .unwrap();
    let toml = std::fs::read_to_string(dir.join("problem.toml")).unwrap();
    std::fs::write(
        dir.join("problem.toml"),
        toml.replace("gen = \"max=15\"", "gen = \"min=200 max=999\"")
            .replace("gen = \"max=12\"", "gen = \"max=40\""),
    )
    .unwrap();
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 1);
    let check = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "cross-check")
        .unwrap()
        .clone();
    assert_eq!(check["ok"], false);
    let cx = &check["counterexample"];
    assert_eq!(cx["input"], "50\n", "{check:#}");
    assert_eq!(cx["solution"], "Second\n", "{check:#}");
    assert_eq!(cx["brute"], "First\n", "{check:#}");
    let d = check["detail"].as_str().unwrap();
    assert!(d.contains("shrunk from 4 bytes"), "{d}");
    assert!(d.contains(":\n50\n"), "{d}");
}

#[test]
fn game_coverage_gives_each_groups_winning_and_losing_share() {
    if !require_sources(&[&repo().join("tests/fixtures/verify/base")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws, "coverage");
    only_tests(
        &dir,
        &[
            ("sample-1", "sample", 1),
            ("a", "secret", 3),
            ("b", "secret", 4),
            ("c", "secret", 6),
            ("d", "secret", 8),
        ],
        "",
    );
    std::fs::write(
        dir.join("verify.toml"),
        "[game]\nwins = \"First\"\nloses = \"Second\"\n",
    )
    .unwrap();
    let (_, report) = verify(&ws, &dir);
    let cov = &report["coverage"];
    assert_eq!(cov[0]["group"], "sample");
    assert_eq!(
        (cov[0]["winning"].as_u64(), cov[0]["losing"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(cov[1]["group"], "secret");
    assert_eq!(cov[1]["positions"], 4);
    assert_eq!(
        (cov[1]["winning"].as_u64(), cov[1]["losing"].as_u64()),
        (Some(2), Some(2))
    );
    let d = detail(&report, "game coverage");
    assert!(
        d.contains("secret: 4 positions, 50% winning, 50% losing"),
        "{d}"
    );
}

// Issue 47: a package whose every answer is the same (as Kattis's own
// "hello" is) has a program printing that answer for its solution: the
// adversaries that print it cannot be told apart from one, and the report
// says so instead of failing the package.
#[test]
fn r47_a_package_whose_every_answer_is_the_same_verifies_saying_why() {
    if languages_present(&["c"]).is_empty() {
        return;
    }
    let ws = Workspace::new();
    let dir = ws.dir.path().join("greeting");
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "name: Greeting\nsource: grundy test fixture\nvalidation: default\n",
        ),
        ("data/sample/1.in", ""),
        ("data/sample/1.ans", "Good day!\n"),
        ("data/secret/1.in", ""),
        ("data/secret/1.ans", "Good day!\n"),
        ("data/secret/2.in", "\n"),
        ("data/secret/2.ans", "Good day!\n"),
        (
            "submissions/accepted/greet.c",
            "#include <stdio.h>\nint main(void) { puts(\"Good day!\"); return 0; }\n",
        ),
        (
            "submissions/wrong_answer/shout.c",
            "#include <stdio.h>\nint main(void) { puts(\"Good night!\"); return 0; }\n",
        ),
    ];
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 0, "{report:#}");
    assert!(failed(&report).is_empty(), "{report:#}");
    let d = detail(&report, "adversaries");
    assert!(
        d.contains("every answer is the same (\"Good day!\")")
            && d.contains("cannot be told apart from a solution"),
        "{d}"
    );
    let passed = passed_adversaries(&report);
    assert!(
        passed.iter().any(|(k, _)| k == "constant"),
        "the constant prints the one answer: {passed:?}"
    );
    for a in report["adversaries"].as_array().unwrap() {
        assert_eq!(a["indistinguishable"] == true, a["passed"] == true, "{a}");
        assert!(a.get("suggestion").is_none(), "{a}");
    }
    // Where the answers differ, nothing is excused, and each constant is
    // refused.
    std::fs::write(dir.join("data/secret/2.ans"), "Good night!\n").unwrap();
    std::fs::write(
        dir.join("submissions/accepted/greet.c"),
        "#include <stdio.h>\n#include <string.h>\nint main(void) { char b[8] = \"\"; fgets(b, sizeof b, stdin); puts(b[0] == '\\n' ? \"Good night!\" : \"Good day!\"); return 0; }\n",
    )
    .unwrap();
    let (_, report) = verify(&ws, &dir);
    assert!(
        !detail(&report, "adversaries").contains("every answer is the same"),
        "{report:#}"
    );
    let constants: Vec<&Value> = report["adversaries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["kind"] == "constant")
        .collect();
    assert_eq!(constants.len(), 2, "{report:#}");
    assert!(constants.iter().all(|a| a["passed"] == false), "{report:#}");
}
