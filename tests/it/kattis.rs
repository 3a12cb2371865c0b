//! Kattis problem packages judged and verified as they are (issue 16):
//! the fixtures under `tests/fixtures/kattis/` — default validation with a
//! float tolerance and a derived time limit (`floaty`, legacy), a C++
//! output validator directory with group flags (`divisor`, legacy), an
//! interactive problem (`guess`, 2023-07), a scoring problem with groups
//! (`triangle`, legacy, with an input validator of two C sources) — each verified end to end, every example
//! submission getting the verdict of its folder; and bad packages refused
//! with one line naming what and where.
// See: issue 16.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::helpers::{copy_dir, languages_present, repo, require_sources, Workspace};

pub(crate) fn fixture(name: &str) -> PathBuf {
    repo().join("tests/fixtures/kattis").join(name)
}

/// A copy of a fixture, to change.
pub(crate) fn copy(ws: &Workspace, name: &str) -> PathBuf {
    let to = ws.dir.path().join(name);
    copy_dir(&fixture(name), &to);
    to
}

pub(crate) fn verify(ws: &Workspace, dir: &Path) -> (i32, Value) {
    let out = ws.grundy(&["verify", dir.to_str().unwrap(), "--json"]);
    assert!(
        out.code == 0 || out.code == 1,
        "exit {}: {}",
        out.code,
        out.stderr
    );
    (out.code, out.json()["problems"][0].clone())
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

/// Every example submission got the verdict of its folder; returns
/// (path, verdict) of each.
fn verified_with_every_submission(ws: &Workspace, name: &str) -> (Value, Vec<(String, String)>) {
    let (code, report) = verify(ws, &fixture(name));
    assert_eq!(code, 0, "{report:#}");
    let subs: Vec<(String, String)> = report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            assert_eq!(s["ok"], true, "{s}");
            (
                s["path"].as_str().unwrap().to_string(),
                s["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (report, subs)
}

pub(crate) fn submit(ws: &Workspace, dir: &Path, file: &Path) -> crate::helpers::Output {
    ws.grundy(&[
        "submit",
        dir.to_str().unwrap(),
        file.to_str().unwrap(),
        "--json",
    ])
}

#[test]
fn default_validation_with_a_float_tolerance_verifies_and_derives_the_time_limit() {
    if !require_sources(&[&fixture("floaty")]) {
        return;
    }
    let ws = Workspace::new();
    let (report, subs) = verified_with_every_submission(&ws, "floaty");
    let verdicts: Vec<&str> = subs.iter().map(|(_, v)| v.as_str()).collect();
    assert_eq!(verdicts, ["AC", "AC", "WA", "TLE", "RE"], "{subs:?}");
    // The accepted runs take far below 0.2 s on any machine: 5 x that
    // rounds up to problemtools' minimum of one second.
    let limit = detail(&report, "time limit");
    assert!(limit.starts_with("derived:"), "{limit}");
    assert!(limit.contains("x 5 rounded up to 1 s = 1 s"), "{limit}");
    assert!(limit.contains("judged at 2 s"), "{limit}");
}

#[test]
fn a_java_submission_runs_the_class_named_after_its_file() {
    if !require_sources(&[&fixture("floaty")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = fixture("floaty");
    let out = submit(&ws, &dir, &dir.join("submissions/accepted/Root.java"));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json = out.json();
    assert_eq!(json["verdict"], "AC", "{json}");
    assert_eq!(json["problem"], "floaty");
}

#[test]
fn a_python_2_submission_is_refused_with_its_first_line() {
    if !require_sources(&[&fixture("floaty")]) {
        return;
    }
    let ws = Workspace::new();
    let file = ws.file(
        "old.py",
        "#!/usr/bin/env python2\nprint int(raw_input()) ** 0.5\n",
    );
    let out = submit(&ws, &fixture("floaty"), &file);
    out.assert_usage_error("asks for Python 2");
}

#[test]
fn a_cpp_output_validator_directory_gets_its_group_flags() {
    if !require_sources(&[&fixture("divisor")]) {
        return;
    }
    let ws = Workspace::new();
    let (_, subs) = verified_with_every_submission(&ws, "divisor");
    // `itself.py` prints n: a divisor, so accepted on the sample, but not
    // a proper one, which data/secret/testdata.yaml's flag demands.
    let itself = subs.iter().find(|(p, _)| p.ends_with("itself.py")).unwrap();
    assert_eq!(itself.1, "WA");
    // A directory submission is one program (main.py imports helper.py).
    let largest = subs.iter().find(|(p, _)| p.ends_with("largest")).unwrap();
    assert_eq!(largest.1, "AC");
}

#[test]
fn a_broken_output_validator_is_an_internal_error_not_the_submissions() {
    if !require_sources(&[&fixture("divisor")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = copy(&ws, "divisor");
    let v = dir.join("output_validators/divisor/validate.cpp");
    let text = std::fs::read_to_string(&v).unwrap();
    std::fs::write(&v, text.replace("if (argc < 4) return 2;", "return 7;")).unwrap();
    let out = submit(&ws, &dir, &dir.join("submissions/accepted/smallest.cpp"));
    let json = out.json();
    assert_eq!(json["verdict"], "IE", "{json}");
    let message = json["tests"][0]["message"].as_str().unwrap();
    assert!(message.contains("exited with 7"), "{message}");
}

#[test]
fn an_interactive_package_verifies() {
    if !require_sources(&[&fixture("guess")]) {
        return;
    }
    let ws = Workspace::new();
    let (report, subs) = verified_with_every_submission(&ws, "guess");
    let verdicts: Vec<&str> = subs.iter().map(|(_, v)| v.as_str()).collect();
    assert_eq!(verdicts, ["AC", "WA"], "{subs:?}");
    assert_eq!(detail(&report, "time limit"), "fixed at 1 s by the package");
}

#[test]
fn a_scoring_package_maps_its_test_directories_onto_groups() {
    if !require_sources(&[&fixture("triangle")]) {
        return;
    }
    let ws = Workspace::new();
    let (_, subs) = verified_with_every_submission(&ws, "triangle");
    assert_eq!(subs.len(), 3, "{subs:?}");
    let dir = fixture("triangle");
    let out = submit(
        &ws,
        &dir,
        &dir.join("submissions/partially_accepted/doubles.c"),
    );
    let json = out.json();
    assert_eq!(json["score"], 30, "{json}");
    let groups: Vec<(String, u64, u64)> = json["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["name"].as_str().unwrap().to_string(),
                g["points"].as_u64().unwrap(),
                g["score"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        groups,
        [
            ("sample".to_string(), 0, 0),
            ("group1".to_string(), 30, 30),
            ("group2".to_string(), 70, 0)
        ]
    );
}

#[test]
fn an_input_rejected_by_a_validator_with_its_group_flags_is_named() {
    if !require_sources(&[&fixture("triangle")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = copy(&ws, "triangle");
    // Group 1 allows n <= 1000 (input_validator_flags: max 1000).
    std::fs::write(dir.join("data/secret/group1/2.in"), "1001\n").unwrap();
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 1);
    let tests = detail(&report, "tests");
    assert!(tests.contains("secret-group1-2"), "{tests}");
    assert!(tests.contains("validate.py rejects it"), "{tests}");
}

#[test]
fn a_validator_directory_of_two_c_sources_and_a_header_is_one_program() {
    if !require_sources(&[&fixture("triangle")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = copy(&ws, "triangle");
    // input_validators/positive: main.c calls number.c's functions through
    // number.h; it accepts every input of the package.
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 0, "{report:#}");
    // number.c is compiled too: changing it changes what the validator says.
    let number = dir.join("input_validators/positive/number.c");
    let text = std::fs::read_to_string(&number).unwrap();
    std::fs::write(
        &number,
        text.replace("return getchar() == EOF;", "return 0;"),
    )
    .unwrap();
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 1, "{report:#}");
    let tests = detail(&report, "tests");
    assert!(tests.contains("input_validators/positive"), "{tests}");
    // C and C++ in one directory are refused, naming it.
    std::fs::write(
        dir.join("input_validators/positive/extra.cpp"),
        "int f() { return 0; }\n",
    )
    .unwrap();
    let out = ws.grundy(&["verify", dir.to_str().unwrap()]);
    out.assert_usage_error("positive: C and C++ sources mixed (extra.cpp, main.c, number.c)");
}

#[test]
fn a_validator_directory_with_build_and_run_scripts_is_built_then_run() {
    if !require_sources(&[&fixture("divisor")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = copy(&ws, "divisor");
    // input_validators/size: `build` compiles size.c, `run` executes it.
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 0, "{report:#}");
    // What `build` made is what runs: a stricter size.c rejects an input.
    let source = dir.join("input_validators/size/size.c");
    let text = std::fs::read_to_string(&source).unwrap();
    std::fs::write(&source, text.replace("digits <= 19", "digits <= 6")).unwrap();
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 1, "{report:#}");
    let tests = detail(&report, "tests");
    assert!(
        tests.contains("input_validators/size/run rejects it"),
        "{tests}"
    );
    // A failing build is the package's error, with the build's output.
    std::fs::write(
        dir.join("input_validators/size/build"),
        "echo no compiler today >&2\nexit 1\n",
    )
    .unwrap();
    let out = ws.grundy(&["verify", dir.to_str().unwrap()]);
    assert_ne!(out.code, 0);
    let all = format!("{}{}", out.stdout, out.stderr);
    assert!(all.contains("input_validators/size/run"), "{all}");
    assert!(all.contains("no compiler today"), "{all}");
    // Kattis needs both scripts: one alone is refused, naming the directory.
    std::fs::remove_file(dir.join("input_validators/size/build")).unwrap();
    let out = ws.grundy(&["verify", dir.to_str().unwrap()]);
    out.assert_usage_error("size: a run script without a build script (Kattis needs both)");
}

#[test]
fn an_output_validator_with_build_and_run_scripts_judges() {
    if !require_sources(&[&fixture("divisor")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = copy(&ws, "divisor");
    let v = dir.join("output_validators/divisor");
    std::fs::write(v.join("build"), "g++ -O2 -o validator validate.cpp\n").unwrap();
    std::fs::write(
        v.join("run"),
        "exec \"$(dirname \"$0\")/validator\" \"$@\"\n",
    )
    .unwrap();
    let out = submit(&ws, &dir, &dir.join("submissions/accepted/smallest.cpp"));
    assert_eq!(out.json()["verdict"], "AC", "{}", out.stderr);
    // The flag of data/secret/testdata.yaml still reaches it.
    let out = submit(&ws, &dir, &dir.join("submissions/wrong_answer/itself.py"));
    assert_eq!(out.json()["verdict"], "WA", "{}", out.stderr);
}

#[test]
fn a_checktestdata_validator_is_skipped_not_failed() {
    if !require_sources(&[&fixture("floaty")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = copy(&ws, "floaty");
    std::fs::write(
        dir.join("input_validators/format.ctd"),
        "INT(0,1000000000000) NEWLINE\n",
    )
    .unwrap();
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 0, "{report:#}");
    let tests = detail(&report, "tests");
    assert!(
        tests.contains("skipped: input validator input_validators/format.ctd"),
        "{tests}"
    );
}

/// A way to break a copy of a package.
type Damage<'a> = &'a dyn Fn(&Path);

#[test]
fn bad_packages_are_refused_with_one_line_naming_what_and_where() {
    let ws = Workspace::new();
    let cases: &[(&str, Damage, &str)] = &[
        (
            "yaml",
            &|d| std::fs::write(d.join("problem.yaml"), "name: [\n").unwrap(),
            "problem.yaml",
        ),
        (
            "data",
            &|d| std::fs::remove_dir_all(d.join("data")).unwrap(),
            "data: missing",
        ),
        (
            "answer",
            &|d| std::fs::remove_file(d.join("data/secret/02-big.ans")).unwrap(),
            "02-big.ans: missing",
        ),
        (
            "language",
            &|d| std::fs::write(d.join("input_validators/check.kt"), "fun main() {}\n").unwrap(),
            "check.kt: a program in a language grundy does not know (.kt)",
        ),
        (
            "validation",
            &|d| {
                let p = d.join("problem.yaml");
                let text = std::fs::read_to_string(&p).unwrap();
                std::fs::write(p, text.replace("validation: default", "validation: custom"))
                    .unwrap()
            },
            "custom validation needs an output validator in output_validators/",
        ),
    ];
    for (name, damage, needle) in cases {
        let dir = ws.dir.path().join(name);
        copy_dir(&fixture("floaty"), &dir);
        damage(&dir);
        let out = ws.grundy(&["verify", dir.to_str().unwrap()]);
        out.assert_usage_error(needle);
    }
}

/// A workspace whose problems directory is its own (import writes there).
pub(crate) fn with_own_problems() -> Workspace {
    let ws = Workspace::new();
    let problems = ws.dir.path().join("problems");
    ws.use_problems(&problems);
    ws
}

#[test]
fn an_imported_package_verifies_as_a_native_problem() {
    if !require_sources(&[&fixture("divisor"), &fixture("triangle")]) {
        return;
    }
    let ws = with_own_problems();
    for (name, slug) in [("divisor", "any-divisor"), ("triangle", "triangle")] {
        let dir = fixture(name);
        let out = ws.grundy(&["import", dir.to_str().unwrap(), "--as", slug]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert!(out.stdout.contains("time limit derived"), "{}", out.stdout);
        let manifest = std::fs::read_to_string(
            ws.dir
                .path()
                .join("problems")
                .join(slug)
                .join("problem.toml"),
        )
        .unwrap();
        assert!(manifest.contains("answer = \"tests/"), "{manifest}");
        let out = ws.grundy(&["verify", slug, "--json"]);
        let json = out.json();
        assert_eq!(out.code, 0, "{json:#}");
        let subs = json["problems"][0]["submissions"].as_array().unwrap();
        assert_eq!(subs.len(), 3, "{json}");
        assert!(subs.iter().all(|s| s["ok"] == true), "{json}");
    }
    // The groups came along.
    let manifest =
        std::fs::read_to_string(ws.dir.path().join("problems/triangle/problem.toml")).unwrap();
    assert!(
        manifest.contains("name = \"group2\"\npoints = 70"),
        "{manifest}"
    );
}

#[test]
fn import_never_overwrites_a_problem() {
    if !require_sources(&[&fixture("guess")]) {
        return;
    }
    let ws = with_own_problems();
    let taken = ws.dir.path().join("problems/guess");
    std::fs::create_dir_all(&taken).unwrap();
    let out = ws.grundy(&["import", fixture("guess").to_str().unwrap()]);
    out.assert_usage_error("exists");
    assert_eq!(std::fs::read_dir(&taken).unwrap().count(), 0);
}

#[test]
fn a_submission_in_a_language_grundy_lacks_is_skipped_not_failed() {
    if !require_sources(&[&fixture("guess")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = copy(&ws, "guess");
    std::fs::write(
        dir.join("submissions/accepted/guess.scala"),
        "object Main extends App { println(1) }\n",
    )
    .unwrap();
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 0, "{report:#}");
    let scala = report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["path"] == "submissions/accepted/guess.scala")
        .unwrap();
    assert_eq!(scala["skipped"], true, "{scala}");
    let subs = detail(&report, "submissions");
    assert!(
        subs.contains(
            "skipped (a language grundy or this machine lacks): submissions/accepted/guess.scala"
        ),
        "{subs}"
    );
}

#[test]
fn a_directory_is_submitted_as_one_program() {
    if !require_sources(&[&fixture("divisor")]) {
        return;
    }
    let ws = Workspace::new();
    let dir = fixture("divisor");
    // main.py imports helper.py beside it.
    let out = submit(&ws, &dir, &dir.join("submissions/accepted/largest"));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.json()["verdict"], "AC");
    // Two C++ sources are one program, compiled together (it prints
    // nothing: WA, not refused).
    let two = ws.dir.path().join("two");
    std::fs::create_dir(&two).unwrap();
    std::fs::write(two.join("a.cpp"), "int main() {}\n").unwrap();
    std::fs::write(two.join("b.cpp"), "int f() { return 1; }\n").unwrap();
    let out = submit(&ws, &dir, &two);
    assert_eq!(out.json()["verdict"], "WA", "{}", out.stderr);
    // Sources of two languages are not one program.
    std::fs::write(two.join("c.py"), "print(1)\n").unwrap();
    let out = submit(&ws, &dir, &two);
    out.assert_usage_error("sources in several languages (cpp, py)");
}

#[test]
fn import_then_export_gives_a_package_with_the_same_verdicts() {
    if !require_sources(&[&fixture("divisor"), &fixture("guess"), &fixture("triangle")]) {
        return;
    }
    let ws = with_own_problems();
    for name in ["divisor", "guess", "triangle"] {
        let original = fixture(name);
        let out = ws.grundy(&["import", original.to_str().unwrap()]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let exported = ws.dir.path().join("out").join(name);
        let out = ws.grundy(&[
            "export",
            name,
            "--format",
            "kattis",
            "--out",
            exported.to_str().unwrap(),
        ]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let verdicts = |dir: &Path| -> Vec<(String, String)> {
            let (code, report) = verify(&ws, dir);
            assert_eq!(code, 0, "{report:#}");
            let mut v: Vec<(String, String)> = report["submissions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    let path = s["path"].as_str().unwrap();
                    let file = path.rsplit('/').next().unwrap().to_string();
                    (file, s["verdict"].as_str().unwrap().to_string())
                })
                .collect();
            v.sort();
            v
        };
        assert_eq!(verdicts(&original), verdicts(&exported), "{name}");
    }
}

/// The example submissions of a verified package, by path under the
/// package.
pub(crate) fn by_path<'a>(report: &'a Value, path: &str) -> &'a Value {
    report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["path"] == path)
        .unwrap_or_else(|| panic!("no submission {path}: {report:#}"))
}

#[test]
fn what_problemtools_passes_verifies_with_a_warning_and_skips() {
    let ws = Workspace::new();
    // lenient: no input validators; an accepted Python 2 file and an
    // accepted directory of notes grundy cannot run.
    let (code, report) = verify(&ws, &fixture("lenient"));
    assert_eq!(code, 0, "{report:#}");
    let tests = detail(&report, "tests");
    assert!(tests.contains("warning: no input validators"), "{tests}");
    for (path, why) in [
        ("submissions/accepted/legacy.py", "Python 2"),
        (
            "submissions/accepted/notes",
            "no source in a language grundy builds",
        ),
    ] {
        let sub = by_path(&report, path);
        assert_eq!(
            (&sub["skipped"], &sub["ok"]),
            (&Value::Bool(true), &Value::Bool(true)),
            "{sub}"
        );
        assert!(sub["detail"].as_str().unwrap().contains(why), "{sub}");
    }
    assert_eq!(
        by_path(&report, "submissions/accepted/double.py")["verdict"],
        "AC"
    );
    assert_eq!(
        by_path(&report, "submissions/wrong_answer/triple.py")["verdict"],
        "WA"
    );
    let subs = detail(&report, "submissions");
    assert!(
        subs.contains("legacy.py (") && subs.contains("Python 2"),
        "{subs}"
    );
}

#[test]
fn a_run_over_the_memory_limit_is_a_run_time_error_in_a_kattis_package() {
    let ws = Workspace::new();
    // hungry: run_time_error/hog.c takes 512 MiB under a 64 MiB limit.
    let dir = fixture("hungry");
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 0, "{report:#}");
    let hog = by_path(&report, "submissions/run_time_error/hog.c");
    assert_eq!(
        (&hog["verdict"], &hog["ok"]),
        (&Value::from("RE"), &Value::Bool(true)),
        "{hog}"
    );
    // What `submit` shows for the package agrees.
    let out = submit(&ws, &dir, &dir.join("submissions/run_time_error/hog.c"));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let json = out.json();
    assert_eq!(json["verdict"], "RE", "{json}");
    let message = json["tests"][0]["message"].as_str().unwrap();
    assert!(message.contains("memory limit exceeded"), "{message}");
}

#[test]
fn interactive_verdicts_follow_problemtools_order() {
    let ws = Workspace::new();
    // talk: stubborn.c answers wrong then spins (the validator rejected
    // first: WA, not TLE); quits.c leaves before answering (it ended
    // first: RE, though the validator then rejects the silence).
    let (code, report) = verify(&ws, &fixture("talk"));
    assert_eq!(code, 0, "{report:#}");
    for (path, verdict) in [
        ("submissions/accepted/double.py", "AC"),
        ("submissions/wrong_answer/stubborn.c", "WA"),
        ("submissions/run_time_error/quits.c", "RE"),
    ] {
        let sub = by_path(&report, path);
        assert_eq!(sub["verdict"], verdict, "{sub}");
        assert_eq!(sub["test_verdicts"], serde_json::json!([verdict]), "{sub}");
    }
    // A validator that fails (exit 7) is the judge's error, whoever ended first.
    let dir = copy(&ws, "talk");
    let v = dir.join("output_validator/interactor.py");
    let text = std::fs::read_to_string(&v).unwrap();
    std::fs::write(&v, text.replace("sys.exit(42)", "sys.exit(7)")).unwrap();
    let out = submit(&ws, &dir, &dir.join("submissions/accepted/double.py"));
    assert_eq!(out.json()["verdict"], "IE", "{}", out.stderr);
}

#[test]
fn kattis_default_limits_hold_where_problem_yaml_gives_none() {
    let ws = Workspace::new();
    // roomy: no limits.output, so 8 MiB; the right answer then 10 MiB of
    // blanks is over it.
    let dir = copy(&ws, "roomy");
    let flood = ws.file(
        "flood.c",
        "#include <stdio.h>\nint main(void) { long long n; if (scanf(\"%lld\", &n) != 1) return 1;\n  printf(\"%lld\\n\", 2 * n);\n  for (long i = 0; i < (10L << 20); i++) putchar(' ');\n  return 0; }\n",
    );
    let out = submit(&ws, &dir, &flood);
    assert_eq!(out.json()["verdict"], "OLE", "{}", out.stderr);
    // No limits.code: 128 KiB of source at most.
    let big = ws.file(
        "big.py",
        &format!("print(2 * int(input()))\n# {}\n", "x".repeat(130 << 10)),
    );
    let out = submit(&ws, &dir, &big);
    out.assert_usage_error("above the limit of 128 KiB");
    // The package's own limits replace the defaults.
    let yaml = dir.join("problem.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(
        &yaml,
        text.replace(
            "  time_limit: 2\n",
            "  time_limit: 2\n  output: 16\n  code: 256\n",
        ),
    )
    .unwrap();
    let out = submit(&ws, &dir, &flood);
    assert_eq!(out.json()["verdict"], "AC", "{}", out.stderr);
    let out = submit(&ws, &dir, &big);
    assert_eq!(out.json()["verdict"], "AC", "{}", out.stderr);
}

#[test]
fn kattis_extensions_name_their_languages() {
    let ws = Workspace::new();
    // tongues: the same C++ as .c++, .cxx and .C, and Python as .py3.
    let (code, report) = verify(&ws, &fixture("tongues"));
    assert_eq!(code, 0, "{report:#}");
    for name in ["double.c++", "double.cxx", "double.C", "double.py3"] {
        let sub = by_path(&report, &format!("submissions/accepted/{name}"));
        assert_eq!(
            (&sub["verdict"], &sub["skipped"]),
            (&Value::from("AC"), &Value::Bool(false)),
            "{sub}"
        );
    }
    assert_eq!(
        by_path(&report, "submissions/wrong_answer/half.cc")["verdict"],
        "WA"
    );
}

#[test]
fn a_directory_of_several_sources_is_one_program() {
    let ws = Workspace::new();
    // pieces: C++ main.cc + message.cc + message.h, C++ sources none
    // named main, Java classes with and without a package, Python modules.
    let (code, report) = verify(&ws, &fixture("pieces"));
    assert_eq!(code, 0, "{report:#}");
    for name in ["cpp", "cpp-unnamed", "java", "java-package", "python"] {
        let sub = by_path(&report, &format!("submissions/accepted/{name}"));
        assert_eq!(
            (&sub["verdict"], &sub["ok"]),
            (&Value::from("AC"), &Value::Bool(true)),
            "{sub}"
        );
    }
    // Java classes without a main method: a compile error, as on Kattis.
    let dir = fixture("pieces");
    let none = ws.dir.path().join("no-main");
    std::fs::create_dir(&none).unwrap();
    std::fs::write(
        none.join("Twice.java"),
        "public class Twice { static long of(long n) { return 2 * n; } }\n",
    )
    .unwrap();
    let out = submit(&ws, &dir, &none);
    assert_eq!(out.json()["verdict"], "CE", "{}", out.stderr);
}

#[test]
fn a_derived_time_limit_is_kept_and_a_timelimit_file_fixes_one() {
    let ws = with_own_problems();
    // tongues fixes no time limit: the first submission derives it from
    // the accepted ones, the next finds it kept. A line naming this copy
    // makes it a package version of its own.
    let dir = copy(&ws, "tongues");
    let yaml = dir.join("problem.yaml");
    let mut text = std::fs::read_to_string(&yaml).unwrap();
    text.push_str(&format!("# copy at {}\n", dir.display()));
    std::fs::write(&yaml, text).unwrap();
    let file = dir.join("submissions/accepted/double.py3");
    let args = ["submit", dir.to_str().unwrap(), file.to_str().unwrap()];
    let first = ws.grundy(&args);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(
        first.stderr.contains("time limit derived"),
        "{}",
        first.stderr
    );
    assert!(!first.stderr.contains("kept"), "{}", first.stderr);
    let second = ws.grundy(&args);
    assert_eq!(second.code, 0, "{}", second.stderr);
    assert!(
        second.stderr.contains("kept: derived once"),
        "{}",
        second.stderr
    );
    // DOMjudge's .timelimit fixes it, for verify and import alike.
    std::fs::write(dir.join(".timelimit"), "3\n").unwrap();
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(detail(&report, "time limit"), "fixed at 3 s by the package");
    let out = ws.grundy(&["import", dir.to_str().unwrap(), "--as", "tongues-copy"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let manifest =
        std::fs::read_to_string(ws.dir.path().join("problems/tongues-copy/problem.toml")).unwrap();
    assert!(manifest.contains("time_limit = 3.0"), "{manifest}");
}

/// Writes `files` (path under `dir`, text) as one submission directory.
fn submission_dir(dir: &Path, files: &[(&str, &str)]) -> PathBuf {
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir.to_path_buf()
}

const JAVA_UTIL_HELPER: &str =
    "package util;\n\npublic class Helper {\n    public static long twice(long n) { return n + n; }\n}\n";
const JAVA_MAIN_DEFAULT: &str = "import java.util.Scanner;\nimport util.Helper;\n\npublic class Main {\n    public static void main(String[] args) {\n        System.out.println(Helper.twice(new Scanner(System.in).nextLong()));\n    }\n}\n";
/// A main class in package `app`, using `util.Helper` and a class of the
/// same simple name in its own package.
const JAVA_MAIN_IN_APP: &str = "package app;\n\nimport java.util.Scanner;\n\npublic class Main {\n    public static void main(String[] args) {\n        long n = new Scanner(System.in).nextLong();\n        System.out.println(util.Helper.twice(n) + Helper.zero());\n    }\n}\n";
const JAVA_APP_HELPER: &str =
    "package app;\n\nclass Helper {\n    static long zero() { return 0; }\n}\n";

// Issue 47: a Java submission over packages in several files, placed in
// their packages' folders or side by side, with the main class in the
// default package or in one of its own, is one program.
#[test]
fn r47_java_across_packages_is_one_program_wherever_its_files_lie() {
    if !require_sources(&[&fixture("pieces")]) || languages_present(&["java"]).is_empty() {
        return;
    }
    let ws = Workspace::new();
    let problem = fixture("pieces");
    let cases: [(&str, &[(&str, &str)]); 4] = [
        (
            "default-main-in-folders",
            &[
                ("Main.java", JAVA_MAIN_DEFAULT),
                ("util/Helper.java", JAVA_UTIL_HELPER),
            ],
        ),
        (
            "default-main-flat",
            &[
                ("Main.java", JAVA_MAIN_DEFAULT),
                ("Helper.java", JAVA_UTIL_HELPER),
            ],
        ),
        (
            "packaged-main-in-folders",
            &[
                ("app/Main.java", JAVA_MAIN_IN_APP),
                ("app/Helper.java", JAVA_APP_HELPER),
                ("util/Helper.java", JAVA_UTIL_HELPER),
            ],
        ),
        (
            "packaged-main-flat",
            &[
                ("Main.java", JAVA_MAIN_IN_APP),
                ("AppHelper.java", JAVA_APP_HELPER),
                ("Helper.java", JAVA_UTIL_HELPER),
            ],
        ),
    ];
    for (name, files) in cases {
        let dir = submission_dir(&ws.dir.path().join(name), files);
        let out = submit(&ws, &problem, &dir);
        assert_eq!(
            (out.code, out.json()["verdict"].clone()),
            (0, Value::from("AC")),
            "{name}: {}",
            out.stdout
        );
    }
    // Two sources of one class in one package: refused, naming both.
    let dir = submission_dir(
        &ws.dir.path().join("twice"),
        &[
            ("Main.java", JAVA_MAIN_DEFAULT),
            ("Helper.java", JAVA_UTIL_HELPER),
            ("util/Helper.java", JAVA_UTIL_HELPER),
        ],
    );
    submit(&ws, &problem, &dir)
        .assert_usage_error("Helper.java and util/Helper.java are both util/Helper.java");
}

// Issue 47: DOMjudge's multi-file JavaScript, an entry `.mjs` importing
// modules beside it and below it, is one program; a lone `.mjs` is
// JavaScript too.
#[test]
fn r47_javascript_modules_are_one_program() {
    if !require_sources(&[&fixture("pieces")]) || languages_present(&["javascript"]).is_empty() {
        return;
    }
    let ws = Workspace::new();
    let problem = fixture("pieces");
    let read = "import { readFileSync } from 'node:fs';\n";
    let entry = format!(
        "{read}import {{ twice }} from './twice.mjs';\nimport {{ plus }} from './lib/plus.mjs';\nconsole.log(plus(twice(BigInt(readFileSync(0, 'utf8').trim())), 0n).toString());\n"
    );
    // The entry is not named main: it is the one no other file imports.
    let dir = submission_dir(
        &ws.dir.path().join("modules"),
        &[
            ("solve.mjs", &entry),
            ("twice.mjs", "export function twice(n) { return 2n * n; }\n"),
            ("lib/plus.mjs", "export const plus = (a, b) => a + b;\n"),
        ],
    );
    let out = submit(&ws, &problem, &dir);
    assert_eq!(out.json()["verdict"], "AC", "{}{}", out.stdout, out.stderr);
    let lone = ws.dir.path().join("lone.mjs");
    std::fs::write(
        &lone,
        format!("{read}console.log((2n * BigInt(readFileSync(0, 'utf8').trim())).toString());\n"),
    )
    .unwrap();
    let out = submit(&ws, &problem, &lone);
    assert_eq!(out.json()["verdict"], "AC", "{}{}", out.stdout, out.stderr);
}
