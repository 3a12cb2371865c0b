//! Special judges on a copy of the verify fixture package: a checker
//! program in testlib's protocol and an output validator in Kattis's both
//! accept the answer word in any case (which the default token checker
//! does not) and still reject a wrong answer; a checker that crashes is
//! the judge's fault (IE), never the submission's.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::helpers::{copy_dir, repo, require_languages, require_sources, Workspace};

/// The fixture package with `checker` (a file of tests/fixtures/checkers)
/// as its checker in `protocol`, and an accepted submission that prints
/// the answer in lower case.
fn package(ws: &Workspace, checker: &str, protocol: &str) -> PathBuf {
    let dir = ws.dir.path().join("package");
    copy_dir(&repo().join("tests/fixtures/verify/base"), &dir);
    std::fs::copy(
        repo().join("tests/fixtures/checkers").join(checker),
        dir.join(checker),
    )
    .unwrap();
    let toml = std::fs::read_to_string(dir.join("problem.toml")).unwrap();
    let toml = toml.replacen(
        "\n[[tests]]",
        &format!("\n[checker]\nprogram = \"{checker}\"\nprotocol = \"{protocol}\"\n\n[[tests]]"),
        1,
    );
    std::fs::write(dir.join("problem.toml"), toml).unwrap();
    std::fs::write(
        dir.join("submissions/accepted/lower.py"),
        "n = int(input())\nprint('second' if n % 3 == 0 else 'first')\n",
    )
    .unwrap();
    dir
}

fn verify(ws: &Workspace, dir: &Path) -> Value {
    let out = ws.grundy(&["verify", dir.to_str().unwrap(), "--json", "--stress", "5"]);
    assert!(out.code == 0 || out.code == 1, "{}", out.stderr);
    out.json()["problems"][0].clone()
}

fn submission<'a>(report: &'a Value, path: &str) -> &'a Value {
    report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["path"] == path)
        .unwrap_or_else(|| panic!("no {path}: {report:#}"))
}

fn check_ok(report: &Value, name: &str) -> bool {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["name"] == name && c["ok"] == true)
}

#[test]
fn a_testlib_checker_program_judges_the_outputs() {
    if !require_sources(&[&repo().join("tests/fixtures/verify/base")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws, "testlib_case.c", "testlib");
    let report = verify(&ws, &dir);
    assert_eq!(
        submission(&report, "submissions/accepted/lower.py")["verdict"],
        "AC",
        "{report:#}"
    );
    let wrong = submission(&report, "submissions/wrong_answer/parity.py");
    assert_eq!(wrong["verdict"], "WA", "{report:#}");
    assert!(check_ok(&report, "submissions"), "{report:#}");
    assert!(check_ok(&report, "cross-check"), "{report:#}");
}

#[test]
fn a_kattis_output_validator_judges_the_outputs() {
    if !require_sources(&[&repo().join("tests/fixtures/verify/base")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws, "kattis_case.c", "kattis");
    let report = verify(&ws, &dir);
    assert_eq!(
        submission(&report, "submissions/accepted/lower.py")["verdict"],
        "AC",
        "{report:#}"
    );
    assert_eq!(
        submission(&report, "submissions/wrong_answer/parity.py")["verdict"],
        "WA"
    );
    assert!(check_ok(&report, "submissions"), "{report:#}");
}

#[test]
fn a_crashing_checker_is_an_internal_error_never_the_submissions_fault() {
    if !require_sources(&[&repo().join("tests/fixtures/verify/base")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = package(&ws, "crashing.c", "testlib");
    let report = verify(&ws, &dir);
    let accepted = submission(&report, "submissions/accepted/lower.py");
    assert_eq!(accepted["verdict"], "IE", "{report:#}");
    assert!(!check_ok(&report, "submissions"));
    assert!(
        !check_ok(&report, "cross-check"),
        "the cross-check needs the checker too"
    );
    let text = report.to_string();
    assert!(text.contains("the checker did not finish"), "{report:#}");
    assert!(
        !text.contains("\"WA\""),
        "nothing is blamed on a submission: {report:#}"
    );
}

#[test]
fn an_interactive_problem_is_judged_with_its_interactor() {
    if !require_sources(&[&repo().join("tests/fixtures/interactive")]) {
        return;
    }
    // The fixture's interactor (testlib protocol) hides a number; the
    // halving submissions find it, one leaves early, one guesses wrong, one
    // never flushes and both sides wait until its wall clock stops it.
    let ws = Workspace::new();
    let dir = ws.dir.path().join("interactive");
    copy_dir(&repo().join("tests/fixtures/interactive"), &dir);
    let report = verify(&ws, &dir);
    let verdict = |path: &str| submission(&report, path)["verdict"].clone();
    assert_eq!(
        verdict("submissions/accepted/halving.c"),
        "AC",
        "{report:#}"
    );
    assert_eq!(
        verdict("submissions/accepted/halving.py"),
        "AC",
        "{report:#}"
    );
    assert_eq!(
        verdict("submissions/wrong_answer/leaves-early.c"),
        "WA",
        "{report:#}"
    );
    assert_eq!(
        verdict("submissions/wrong_answer/always-one.py"),
        "WA",
        "{report:#}"
    );
    assert_eq!(
        verdict("submissions/time_limit_exceeded/never-flushes.c"),
        "TLE",
        "{report:#}"
    );
    assert!(check_ok(&report, "submissions"), "{report:#}");
}

/// The sample's transcript of a `nim-duel` submission (both directions).
fn transcript_text(test: &Value, from: &str) -> String {
    test["transcript"]["parts"]
        .as_array()
        .unwrap_or_else(|| panic!("no transcript: {test:#}"))
        .iter()
        .filter(|p| p["from"] == from)
        .map(|p| p["text"].as_str().unwrap())
        .collect()
}

#[test]
fn an_interactive_sample_keeps_its_transcript_and_secret_tests_do_not() {
    if !require_languages(&["python"]) {
        return;
    }
    let ws = Workspace::new();
    let source =
        std::fs::read_to_string(repo().join("problems/nim-duel/submissions/accepted/xor.py"))
            .unwrap();
    let out = ws.submit("nim-duel", "xor.py", &source);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let report = out.json();
    let tests = report["tests"].as_array().unwrap();
    let sample = tests.iter().find(|t| t["name"] == "sample-1").unwrap();
    // The interactor sends the games (the sample's input starts "2\n3\n1 2 3"),
    // the program answers who it plays as (1^2^3 = 0: second), then moves.
    let said = transcript_text(sample, "interactor");
    assert!(said.starts_with("2\n3\n1 2 3\n"), "{said:?}");
    let answered = transcript_text(sample, "submission");
    assert!(answered.starts_with("second\n"), "{answered:?}");
    assert_eq!(sample["transcript"]["truncated"], false);
    assert!(
        tests
            .iter()
            .filter(|t| t["group"] != "sample")
            .all(|t| t.get("transcript").is_none()),
        "only samples: {report:#}"
    );

    // Stored, and shown to a human under the sample's row.
    let id = report["id"].to_string();
    let stored = ws.grundy(&["status", &id, "--json"]).json();
    assert_eq!(stored["tests"][0]["transcript"], sample["transcript"]);
    let human = ws.grundy(&["status", &id]);
    assert!(
        human.stdout.contains("transcript of sample-1") && human.stdout.contains("> second"),
        "{}",
        human.stdout
    );
}

#[test]
fn a_transcript_does_not_change_a_failing_verdict() {
    if !require_languages(&["cpp"]) {
        return;
    }
    let ws = Workspace::new();
    let path = "problems/nim-duel/submissions/wrong_answer/stops-after-one-game.cpp";
    let source = std::fs::read_to_string(repo().join(path)).unwrap();
    let out = ws.submit("nim-duel", "stops.cpp", &source);
    assert_eq!(out.code, 1, "{}\n{}", out.stdout, out.stderr);
    let report = out.json();
    assert_eq!(report["verdict"], "WA", "{report:#}");
    let sample = &report["tests"][0];
    assert_eq!(sample["name"], "sample-1");
    assert_eq!(sample["verdict"], "WA", "{report:#}");
    // It played the whole first game, then left: the interactor's second
    // game is in the transcript, and no answer to it.
    assert!(
        transcript_text(sample, "interactor").contains("0 5"),
        "{sample:#}"
    );
}

/// testlib's own standard checkers, unchanged, beside testlib.h: each
/// compiles under the judge's compile limits and tells a right output
/// from a wrong one. grundy ships no testlib files, so this runs only by
/// name, with `GRUNDY_TESTLIB_DIR` naming a checkout of testlib (its
/// `testlib.h` and `checkers/`):
/// `GRUNDY_TESTLIB_DIR=/path/to/testlib cargo test --release --test it
/// checker::testlib_standard -- --ignored`.
#[test]
#[ignore = "needs GRUNDY_TESTLIB_DIR, a checkout of testlib"]
fn testlib_standard_checkers_work_unchanged() {
    if !require_languages(&["cpp", "python"]) {
        return;
    }
    let testlib = PathBuf::from(
        std::env::var_os("GRUNDY_TESTLIB_DIR")
            .expect("GRUNDY_TESTLIB_DIR must name a checkout of testlib"),
    );
    let ws = Workspace::new();
    let problems = ws.dir.path().join("problems");
    // (checker, what the reference prints for pile n, a right and a wrong
    // submission in Python, which also print the verdict they expect)
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "wcmp.cpp",
            r#"println!("{}", if n % 3 == 0 { "Second" } else { "First" });"#,
            r#"print("  Second" if n % 3 == 0 else "First  ")"#,
            r#"print("second" if n % 3 == 0 else "first")"#,
        ),
        (
            "lcmp.cpp",
            r#"println!("{}", if n % 3 == 0 { "Second" } else { "First" });"#,
            r#"print("Second " if n % 3 == 0 else " First")"#,
            r#"print("Second\nFirst")"#,
        ),
        (
            "ncmp.cpp",
            r#"println!("{} {}", n % 3, n);"#,
            "print(n % 3)\nprint(n)",
            "print(n % 3, n + 1)",
        ),
        (
            "hcmp.cpp",
            r#"println!("{}{}", n, "0".repeat(30));"#,
            r#"print(str(n) + "0" * 30)"#,
            r#"print(str(n) + "0" * 29 + "1")"#,
        ),
        (
            "rcmp6.cpp",
            r#"println!("{:.6}", n as f64 / 7.0);"#,
            r#"print("%.9f" % (n / 7 + 4e-7))"#,
            r#"print("%.9f" % (n / 7 + 3e-6))"#,
        ),
        (
            "yesno.cpp",
            r#"println!("{}", if n % 3 == 0 { "NO" } else { "YES" });"#,
            r#"print("no" if n % 3 == 0 else "Yes")"#,
            r#"print("yes")"#,
        ),
    ];
    for (checker, solution, _, _) in cases {
        let dir = problems.join(checker.trim_end_matches(".cpp"));
        copy_dir(&repo().join("tests/fixtures/verify/base"), &dir);
        std::fs::remove_dir_all(dir.join("submissions")).unwrap();
        std::fs::copy(testlib.join("testlib.h"), dir.join("testlib.h")).unwrap();
        std::fs::copy(testlib.join("checkers").join(checker), dir.join(checker)).unwrap();
        let toml = std::fs::read_to_string(dir.join("problem.toml")).unwrap();
        let toml = toml.replacen(
            "\n[[tests]]",
            &format!("\n[checker]\nprogram = \"{checker}\"\nprotocol = \"testlib\"\n\n[[tests]]"),
            1,
        );
        std::fs::write(dir.join("problem.toml"), toml).unwrap();
        std::fs::write(
            dir.join("solution.rs"),
            format!(
                "fn main() {{\n    let mut s = String::new();\n    \
                 std::io::stdin().read_line(&mut s).unwrap();\n    \
                 let n: u64 = s.trim().parse().unwrap();\n    {solution}\n}}\n"
            ),
        )
        .unwrap();
    }
    ws.use_problems(&problems);
    for (checker, _, right, wrong) in cases {
        let slug = checker.trim_end_matches(".cpp");
        for (source, want) in [(right, "AC"), (wrong, "WA")] {
            let out = ws.submit(slug, "sol.py", &format!("n = int(input())\n{source}\n"));
            let report = out.json();
            assert_eq!(report["verdict"], want, "{checker}: {report:#}");
            // The message is testlib's (`ok ...`, `wrong answer ...`), so
            // it was the checker that judged.
            // (the last test run: every test, or the first failure)
            let last = report["tests"].as_array().unwrap().last().unwrap();
            let message = last["message"].as_str().unwrap().to_string();
            let said = if want == "AC" { "ok " } else { "wrong answer" };
            assert!(message.starts_with(said), "{checker}: {report:#}");
        }
    }
}
