//! `grundy export nim --format kattis`: the package's files are grundy's
//! own, in Kattis's places and in the plan's order, the input validator is
//! one file that builds and speaks Kattis's exit statuses, and an occupied
//! target is refused without touching it.

use std::collections::BTreeMap;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::helpers::{repo, require_languages, Output, Workspace};

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

#[test]
fn kattis_package_holds_nims_limits_statement_tests_and_submissions() {
    let ws = Workspace::new();
    let pkg = ws.dir.path().join("kattis").join("nim");
    let out = export(&ws, "nim", &pkg);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains(pkg.to_str().unwrap()), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("input validator: input_validators/validator.rs"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("short name"), "{}", out.stdout);
    // Built beside the target and renamed: no scratch directory is left.
    assert_eq!(names(pkg.parent().unwrap()), ["nim"]);

    let yaml = std::fs::read_to_string(pkg.join("problem.yaml")).unwrap();
    let parsed = parse_yaml(&yaml);
    assert_eq!(parsed["problem_format_version"], "2023-07-draft", "{yaml}");
    assert_eq!(parsed["name"]["en"], "Nim", "{yaml}");
    assert_eq!(parsed["source"], "AcWing 891 Nim游戏", "{yaml}");
    assert_eq!(parsed["license"], "unknown", "{yaml}");
    assert_eq!(parsed["limits"]["time_limit"].as_f64(), Some(1.0), "{yaml}");
    assert_eq!(parsed["limits"]["memory"].as_u64(), Some(256), "{yaml}");
    assert!(parsed.get("type").is_none(), "pass-fail: {yaml}");
    // The tokens checker is Kattis's default output validator: no key (the
    // legacy `validation` is not a 2023-07 key).
    assert!(!yaml.contains("validation"), "{yaml}");
    // The same uuid on every export of the problem, in 8-4-4-4-12 form.
    let uuid = yaml
        .lines()
        .find_map(|l| l.strip_prefix("uuid: "))
        .unwrap_or_else(|| panic!("no uuid in {yaml}"));
    let groups: Vec<usize> = uuid.split('-').map(str::len).collect();
    assert_eq!(groups, [8, 4, 4, 4, 12], "{uuid}");
    assert_eq!(
        std::fs::read_to_string(pkg.join(".timelimit")).unwrap(),
        "1\n"
    );
    assert_eq!(
        std::fs::read(pkg.join("statement/problem.en.md")).unwrap(),
        std::fs::read(repo().join("problems/nim/statement.md")).unwrap()
    );
    assert_eq!(
        names(&pkg),
        [
            ".timelimit",
            "data",
            "input_validators",
            "problem.yaml",
            "statement",
            "submissions"
        ]
    );
    assert_eq!(names(&pkg.join("input_validators")), ["validator.rs"]);
    let validator = std::fs::read_to_string(pkg.join("input_validators/validator.rs")).unwrap();
    assert_eq!(validator.matches("fn main()").count(), 1, "{validator}");
    assert!(validator.contains("std::process::exit(42)"), "{validator}");
    assert!(validator.contains("\nmod validate {\n"), "{validator}");

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
    // Kattis's default validation ignores case unless told otherwise;
    // grundy's `tokens` does not.
    assert_eq!(
        names(&pkg.join("data")),
        ["sample", "secret", "testdata.yaml"]
    );
    let testdata = std::fs::read_to_string(pkg.join("data/testdata.yaml")).unwrap();
    let testdata = parse_yaml(&testdata);
    assert_eq!(testdata["output_validator_flags"], "case_sensitive");
    assert_eq!(
        testdata.as_mapping().map(|m| m.len()),
        Some(1),
        "{testdata:?}"
    );
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
    // Every language under Kattis's extension for it: a C++ standard as
    // C++, PyPy as Python 3.
    assert_eq!(
        names(&subs.join("accepted")),
        [
            "xor-cpp17.cpp",
            "xor-cpp20.cpp",
            "xor-cpp23.cpp",
            "xor-pypy.py",
            "xor.cpp",
            "xor.cs",
            "xor.go",
            "xor.hs",
            "xor.js",
            "xor.kt",
            "xor.ml",
            "xor.pas",
            "xor.php",
            "xor.py",
            "xor.rb",
            "xor.rs"
        ]
    );
    // The format has no place for a submission that does not compile:
    // left out, and said so.
    assert!(
        out.stdout
            .contains("left out, the format having no directory for a submission that does not compile: compile_error/ "),
        "{}",
        out.stdout
    );
    let shipped = crate::helpers::repo().join("problems/nim/submissions/wrong_answer");
    assert_eq!(names(&subs.join("wrong_answer")), names(&shipped));
    assert!(names(&shipped).len() >= 2);
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
    assert_eq!(
        std::fs::read_to_string(empty.join("problem.yaml")).unwrap(),
        yaml,
        "a second export writes the same problem.yaml, uuid included"
    );
}

/// The exported validator is one file that rustc builds as Kattis does, and
/// it exits 42 on nim's sample and 43 on garbage (grundy's exit 0 and 1).
#[test]
fn kattis_input_validator_builds_alone_and_exits_42_or_43() {
    let ws = Workspace::new();
    let pkg = ws.dir.path().join("nimkattis");
    let out = export(&ws, "nim", &pkg);
    assert_eq!(out.code, 0, "{}", out.stderr);

    // Copied alone into a directory with nothing beside it: no `_common`.
    let build = tempfile::tempdir().unwrap();
    let source = build.path().join("validator.rs");
    std::fs::copy(pkg.join("input_validators/validator.rs"), &source).unwrap();
    let binary = build.path().join("validator");
    let compiled = std::process::Command::new("rustc")
        .args(["--edition", "2021", "-O", "-o"])
        .arg(&binary)
        .arg(&source)
        .output()
        .expect("running rustc");
    assert!(
        compiled.status.success(),
        "rustc: {}",
        String::from_utf8_lossy(&compiled.stderr)
    );

    let run = |input: &[u8]| {
        use std::io::Write;
        let mut child = std::process::Command::new(&binary)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input).unwrap();
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let sample = std::fs::read(repo().join("problems/nim/tests/sample-1.in")).unwrap();
    assert_eq!(run(&sample), (Some(42), String::new()));
    let (code, stderr) = run(b"garbage\n");
    assert_eq!(code, Some(43), "{stderr}");
    assert!(stderr.contains("expected an integer"), "{stderr}");
}

#[test]
fn occupied_target_or_unknown_problem_exits_2_and_touches_nothing() {
    let ws = Workspace::new();
    let dir = ws.dir.path().join("mine");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "keep me").unwrap();
    let out = export(&ws, "nim", &dir);
    out.assert_usage_error("not an empty directory");
    assert!(out.stderr.contains(dir.to_str().unwrap()), "{}", out.stderr);
    assert_eq!(names(&dir), ["notes.txt"]);
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "keep me"
    );

    let file = ws.file("a-file", "keep me too");
    let out = export(&ws, "nim", &file);
    out.assert_usage_error("not an empty directory");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me too");

    let target = ws.dir.path().join("out");
    let out = export(&ws, "no-such-problem", &target);
    out.assert_usage_error("unknown problem \"no-such-problem\"");
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

/// A validator the rewrite does not understand fails the export before any
/// data is built, in one line naming the file, and leaves no package.
#[test]
fn validator_of_unknown_shape_is_refused_naming_the_file() {
    let ws = Workspace::isolated();
    let problems = ws.dir.path().join("problems");
    let nim = problems.join("nim");
    std::fs::create_dir_all(nim.join("tests")).unwrap();
    std::fs::create_dir_all(problems.join("_common")).unwrap();
    let original = repo().join("problems");
    for file in ["problem.toml", "statement.md", "solution.rs", "gen.rs"] {
        std::fs::copy(original.join("nim").join(file), nim.join(file)).unwrap();
    }
    for entry in std::fs::read_dir(original.join("nim/tests")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), nim.join("tests").join(entry.file_name())).unwrap();
    }
    std::fs::copy(
        original.join("_common/validate.rs"),
        problems.join("_common/validate.rs"),
    )
    .unwrap();
    let validator = std::fs::read_to_string(original.join("nim/validator.rs")).unwrap();
    std::fs::write(
        nim.join("validator.rs"),
        format!("{validator}\nmod other {{\n    pub fn main() {{}}\n}}\n"),
    )
    .unwrap();
    ws.use_problems(&problems);

    let target = ws.dir.path().join("out");
    let out = export(&ws, "nim", &target);
    out.assert_usage_error("cannot make a Kattis input validator: 2 `fn main` found");
    assert!(
        out.stderr
            .contains(nim.join("validator.rs").to_str().unwrap()),
        "{}",
        out.stderr
    );
    assert!(!target.exists());
    assert!(!ws.dir.path().join("var").exists(), "no data was built");
}

/// Kattis takes the package directory's name as the problem's short name,
/// `[a-z0-9]+`: a target named `set-nim` is refused with a valid name to
/// use, and nothing is written.
#[test]
fn a_target_kattis_would_reject_for_its_name_is_refused() {
    let ws = Workspace::new();
    let target = ws.dir.path().join("set-nim");
    let out = export(&ws, "set-nim", &target);
    out.assert_usage_error("[a-z0-9]+ (e.g. setnim)");
    assert!(!target.exists());
}

/// The `[[groups]]` of a manifest, as (name, points, depends), sorted.
fn groups_of(manifest: &str) -> Vec<(String, u64, String)> {
    let mut out = Vec::new();
    for table in manifest.split("[[groups]]").skip(1) {
        let table = table.split("\n[").next().unwrap();
        let value = |key: &str| {
            table
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{key} = ")))
                .map(|v| v.trim().to_string())
                .unwrap_or_default()
        };
        out.push((
            value("name").trim_matches('"').to_string(),
            value("points").parse().unwrap(),
            value("depends"),
        ));
    }
    out.sort();
    out
}

#[test]
fn a_scored_problem_exports_its_groups_and_imports_back_with_the_same_points() {
    if !require_languages(&["python"]) {
        return;
    }
    let ws = Workspace::new();
    let dir = crate::scores::package(&ws);
    // Its partial-score checker speaks testlib's protocol, which Kattis
    // lacks: judged here by exact tokens instead (Kattis's case_sensitive).
    let manifest_path = dir.join("problem.toml");
    let manifest = std::fs::read_to_string(&manifest_path).unwrap();
    let manifest = manifest.replace(
        "[checker]\nprogram = \"checker.c\"\nprotocol = \"testlib\"\n",
        "",
    );
    assert!(!manifest.contains("[checker]"), "{manifest}");
    std::fs::write(&manifest_path, &manifest).unwrap();

    let pkg = ws.dir.path().join("kattis").join("scores");
    let out = export(&ws, "scores", &pkg);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("groups: small 30, medium 30, large 40"),
        "{}",
        out.stdout
    );
    // The dependency cannot be kept: said on the output and in the package.
    assert!(
        out.stdout
            .contains("note: group large depends on small in grundy"),
        "{}",
        out.stdout
    );
    let yaml = std::fs::read_to_string(pkg.join("problem.yaml")).unwrap();
    assert_eq!(parse_yaml(&yaml)["type"], "scoring", "{yaml}");
    assert!(
        yaml.contains("# Note: group large depends on small in grundy"),
        "{yaml}"
    );
    assert_eq!(
        names(&pkg.join("data/secret")),
        ["large", "medium", "small", "testdata.yaml"]
    );
    let read = |rel: &str| parse_yaml(&std::fs::read_to_string(pkg.join(rel)).unwrap());
    let small = read("data/secret/small/testdata.yaml");
    assert_eq!(
        small["output_validator_flags"], "case_sensitive",
        "{small:?}"
    );
    assert_eq!(small["accept_score"], 30, "{small:?}");
    assert_eq!(small["grader_flags"], "min", "{small:?}");
    assert_eq!(small.as_mapping().map(|m| m.len()), Some(3), "{small:?}");
    assert_eq!(read("data/secret/testdata.yaml")["on_reject"], "continue");
    assert_eq!(read("data/sample/testdata.yaml")["accept_score"], 0);
    // medium's two tests, each an .in and an .ans, and its settings.
    assert_eq!(names(&pkg.join("data/secret/medium")).len(), 5);

    // Imported back: the same groups and points (the dependency gone, as
    // the note said), and an accepted submission still scores 100.
    let out = ws.grundy(&["import", pkg.to_str().unwrap(), "--as", "scores-back"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let back =
        std::fs::read_to_string(dir.with_file_name("scores-back").join("problem.toml")).unwrap();
    let without_depends = |groups: Vec<(String, u64, String)>| -> Vec<(String, u64)> {
        groups.into_iter().map(|(n, p, _)| (n, p)).collect()
    };
    assert_eq!(
        without_depends(groups_of(&back)),
        without_depends(groups_of(&manifest)),
        "{back}"
    );
    assert!(groups_of(&back).iter().all(|g| g.2.is_empty()), "{back}");
    let source = std::fs::read_to_string(dir.join("submissions/accepted/mod3.py")).unwrap();
    let out = ws.submit("scores-back", "mod3.py", &source);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let report = out.json();
    assert_eq!(report["score"], 100, "{report:#}");
    // And again: export then import keeps them.
    let pkg2 = ws.dir.path().join("kattis").join("scoresback");
    let out = export(&ws, "scores-back", &pkg2);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stdout.contains("note:"), "{}", out.stdout);
    let out = ws.grundy(&["import", pkg2.to_str().unwrap(), "--as", "scores-again"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let again =
        std::fs::read_to_string(dir.with_file_name("scores-again").join("problem.toml")).unwrap();
    assert_eq!(groups_of(&again), groups_of(&back), "{again}");
}

/// A YAML file the export wrote, parsed.
fn parse_yaml(text: &str) -> serde_yaml_ng::Value {
    serde_yaml_ng::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}
