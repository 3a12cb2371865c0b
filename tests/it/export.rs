//! `grundy export nim --format kattis`: the package's files are grundy's
//! own, in Kattis's places and in the plan's order, and an occupied target
//! is refused without touching it.

use std::collections::BTreeMap;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::helpers::{repo, Output, Workspace};

fn export(ws: &Workspace, problem: &str, out: &Path) -> Output {
    ws.grundy(&[
        "export",
        problem,
        "--format",
        "kattis",
        "--out",
        out.to_str().unwrap(),
    ])
}

fn sha256(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The file names in a directory, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// One line on stderr, exit 2, nothing on stdout.
fn assert_usage_error(out: &Output, needle: &str) {
    assert_eq!(out.code, 2, "stdout: {} stderr: {}", out.stdout, out.stderr);
    assert_eq!(out.stderr.lines().count(), 1, "one line: {}", out.stderr);
    assert!(out.stderr.starts_with("grundy: "), "{}", out.stderr);
    assert!(out.stderr.contains(needle), "{needle:?} in {}", out.stderr);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
}

#[test]
fn kattis_package_holds_nims_limits_statement_tests_and_submissions() {
    let ws = Workspace::new();
    let pkg = ws.dir.path().join("kattis").join("nim");
    let out = export(&ws, "nim", &pkg);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains(pkg.to_str().unwrap()), "{}", out.stdout);
    assert!(out.stdout.contains("validator.rs"), "{}", out.stdout);
    // Built beside the target and renamed: no scratch directory is left.
    assert_eq!(names(pkg.parent().unwrap()), ["nim"]);

    let yaml = std::fs::read_to_string(pkg.join("problem.yaml")).unwrap();
    assert!(yaml.contains("\nname: \"Nim\"\n"), "{yaml}");
    assert!(
        yaml.contains("\nsource: \"AcWing 891 Nim游戏\"\n"),
        "{yaml}"
    );
    assert!(yaml.contains("\nvalidation: default\n"), "{yaml}");
    assert!(yaml.contains("\nlimits:\n  memory: 256\n"), "{yaml}");
    assert_eq!(
        std::fs::read_to_string(pkg.join(".timelimit")).unwrap(),
        "1\n"
    );
    assert_eq!(
        std::fs::read(pkg.join("problem_statement/problem.en.md")).unwrap(),
        std::fs::read(repo().join("problems/nim/statement.md")).unwrap()
    );
    assert_eq!(
        names(&pkg),
        [
            ".timelimit",
            "data",
            "problem.yaml",
            "problem_statement",
            "submissions"
        ]
    );

    // Every test of the plan, in its group's directory, numbered in plan
    // order, with grundy's input and answer bytes.
    let shown = ws.grundy(&["show", "nim", "--tests", "--json"]);
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    let index = shown.json();
    let tests = index["tests"].as_array().unwrap();
    let mut expected: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (i, t) in tests.iter().enumerate() {
        let group = t["group"].as_str().unwrap();
        let stem = format!("{:03}-{}", i + 1, t["name"].as_str().unwrap());
        let dir = pkg.join("data").join(group);
        assert_eq!(
            sha256(&dir.join(format!("{stem}.in"))),
            t["input_sha256"].as_str().unwrap(),
            "{group}/{stem}.in"
        );
        assert_eq!(
            sha256(&dir.join(format!("{stem}.ans"))),
            t["answer_sha256"].as_str().unwrap(),
            "{group}/{stem}.ans"
        );
        let files = expected.entry(group).or_default();
        files.push(format!("{stem}.ans"));
        files.push(format!("{stem}.in"));
    }
    let count = |group: &str| tests.iter().filter(|t| t["group"] == group).count();
    assert_eq!(count("sample"), 1);
    assert!(count("secret") > 10);
    assert_eq!(names(&pkg.join("data")), ["sample", "secret"]);
    for (group, mut files) in expected {
        files.sort();
        let found = names(&pkg.join("data").join(group));
        assert_eq!(found.len(), 2 * count(group), "{group}");
        assert_eq!(found, files, "{group}");
    }
    assert!(out
        .stdout
        .contains(&format!("1 sample, {} secret", count("secret"))));
    assert_eq!(
        std::fs::read(pkg.join("data/sample/001-sample-1.in")).unwrap(),
        std::fs::read(repo().join("problems/nim/tests/sample-1.in")).unwrap()
    );

    // Submissions keep their names, under Kattis's directory names.
    let subs = pkg.join("submissions");
    assert_eq!(
        names(&subs),
        ["accepted", "time_limit_exceeded", "wrong_answer"]
    );
    assert_eq!(
        names(&subs.join("accepted")),
        ["xor.cpp", "xor.py", "xor.rs"]
    );
    assert_eq!(
        names(&subs.join("wrong_answer")),
        [
            "mirror-pairs-only.py",
            "or-instead-of-xor.cpp",
            "sum-parity.cpp"
        ]
    );
    assert_eq!(
        names(&subs.join("time_limit_exceeded")),
        ["game-search.cpp"]
    );
    let original = repo().join("problems/nim/submissions/accepted");
    assert_eq!(
        std::fs::read(subs.join("accepted/xor.cpp")).unwrap(),
        std::fs::read(original.join("xor.cpp")).unwrap()
    );
    // Python gets a python3 shebang, so Kattis does not take it for Python 2.
    let py = std::fs::read_to_string(subs.join("accepted/xor.py")).unwrap();
    let original_py = std::fs::read_to_string(original.join("xor.py")).unwrap();
    assert_eq!(py, format!("#!/usr/bin/env python3\n{original_py}"));

    // An empty directory is a fine target.
    let empty = ws.dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = export(&ws, "nim", &empty);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(empty.join("problem.yaml").is_file());
}

#[test]
fn occupied_target_or_unknown_problem_exits_2_and_touches_nothing() {
    let ws = Workspace::new();
    let dir = ws.dir.path().join("mine");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "keep me").unwrap();
    let out = export(&ws, "nim", &dir);
    assert_usage_error(&out, "not an empty directory");
    assert!(out.stderr.contains(dir.to_str().unwrap()), "{}", out.stderr);
    assert_eq!(names(&dir), ["notes.txt"]);
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "keep me"
    );

    let file = ws.file("a-file", "keep me too");
    let out = export(&ws, "nim", &file);
    assert_usage_error(&out, "not an empty directory");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me too");

    let target = ws.dir.path().join("out");
    let out = export(&ws, "no-such-problem", &target);
    assert_usage_error(&out, "unknown problem \"no-such-problem\"");
    assert!(!target.exists());
    let leftovers: Vec<String> = names(ws.dir.path())
        .into_iter()
        .filter(|n| n.contains("export"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// The only format is kattis; another is a usage error from clap.
#[test]
fn unknown_format_is_refused() {
    let ws = Workspace::new();
    let out = ws.grundy(&["export", "nim", "--format", "polygon", "--out", "x"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("possible values: kattis"),
        "{}",
        out.stderr
    );
    assert!(!ws.dir.path().join("x").exists());
}
