//! Kattis packages of the 2023-07 format's later parts (issue 23):
//! multi-pass validation (`recall`), `submissions/submissions.yaml` and the
//! format's `brute_force/` and `rejected/` folders (`exhaust`).
// See: issue 23.

use crate::helpers::{require_sources, Workspace};
use crate::kattis::{by_path, copy, fixture, submit, verify};

#[test]
fn a_multi_pass_package_runs_each_submission_again_on_the_validators_next_input() {
    if !require_sources(&[&fixture("recall")]) {
        return;
    }
    let ws = Workspace::new();
    let (code, report) = verify(&ws, &fixture("recall"));
    assert_eq!(code, 0, "{report:#}");
    // letters.c can only be right if its second run got the word its
    // first run wrote; forgets.c and drops.c fail on that second run.
    for (path, verdict) in [
        ("submissions/accepted/letters.c", "AC"),
        ("submissions/wrong_answer/forgets.c", "WA"),
        ("submissions/run_time_error/drops.c", "RE"),
    ] {
        let sub = by_path(&report, path);
        assert_eq!(sub["verdict"], verdict, "{sub}");
        assert_eq!(sub["ok"], true, "{sub}");
    }
    let dir = fixture("recall");
    let out = submit(&ws, &dir, &dir.join("submissions/wrong_answer/forgets.c"));
    let json = out.json();
    assert_eq!(json["verdict"], "WA", "{json}");
    let message = json["tests"][0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("pass 2: wanted 0 back, got 7"),
        "{message}"
    );
    let out = submit(&ws, &dir, &dir.join("submissions/run_time_error/drops.c"));
    let json = out.json();
    assert_eq!(json["verdict"], "RE", "{json}");
    let message = json["tests"][0]["message"].as_str().unwrap();
    assert_eq!(message, "pass 2: exit code 3", "{json}");
}

#[test]
fn a_multi_pass_validator_that_never_ends_or_asks_and_rejects_is_the_packages_fault() {
    if !require_sources(&[&fixture("recall")]) {
        return;
    }
    let ws = Workspace::new();
    let edit = |name: &str, from: &str, to: &str| {
        let dir = copy(&ws, "recall");
        std::fs::rename(&dir, ws.dir.path().join(name)).unwrap();
        let dir = ws.dir.path().join(name);
        let v = dir.join("output_validator/validate.py");
        let text = std::fs::read_to_string(&v).unwrap();
        assert!(text.contains(from));
        std::fs::write(&v, text.replace(from, to)).unwrap();
        dir
    };
    // Every pass asks for another: more than validation_passes (2).
    let endless = edit(
        "endless",
        "wanted = open(sys.argv[2])",
        "open(feedback + \"/nextpass.in\", \"w\").write(\"decode a\\n\")\nsys.exit(42)\nwanted = open(sys.argv[2])",
    );
    let out = submit(
        &ws,
        &endless,
        &endless.join("submissions/accepted/letters.c"),
    );
    let json = out.json();
    assert_eq!(json["verdict"], "IE", "{json}");
    let message = json["tests"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("beyond limits.validation_passes (2)"),
        "{message}"
    );
    // A third pass allowed, the same validator still never ends.
    let yaml = endless.join("problem.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(
        &yaml,
        text.replace("validation_passes: 2", "validation_passes: 3"),
    )
    .unwrap();
    let json = submit(
        &ws,
        &endless,
        &endless.join("submissions/accepted/letters.c"),
    )
    .json();
    let message = json["tests"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("pass 4 of a test, beyond limits.validation_passes (3)"),
        "{message}"
    );
    // nextpass.in written, and the pass rejected.
    let rejects = edit(
        "rejects",
        "    sys.exit(42)\nwanted",
        "    sys.exit(43)\nwanted",
    );
    let json = submit(
        &ws,
        &rejects,
        &rejects.join("submissions/accepted/letters.c"),
    )
    .json();
    assert_eq!(json["verdict"], "IE", "{json}");
    let message = json["tests"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("wrote nextpass.in but did not accept"),
        "{message}"
    );
}

#[test]
fn a_multi_pass_package_is_refused_by_import_before_any_work() {
    let ws = crate::kattis::with_own_problems();
    let out = ws.grundy(&["import", fixture("recall").to_str().unwrap()]);
    out.assert_usage_error("multi-pass");
    assert!(!ws.dir.path().join("problems/recall").exists());
}

#[test]
fn submissions_yaml_names_entry_points_languages_and_what_each_group_must_get() {
    if !require_sources(&[&fixture("named")]) {
        return;
    }
    let ws = Workspace::new();
    let (code, report) = verify(&ws, &fixture("named"));
    assert_eq!(code, 0, "{report:#}");
    // modules/ runs run.py (other.py alone would answer 0); twice has no
    // extension and runs as Python 3; small_only.py is AC where it must
    // be and WA in the hard group.
    for (path, verdict) in [
        ("submissions/accepted/modules", "AC"),
        ("submissions/accepted/twice", "AC"),
        ("submissions/wrong_answer/small_only.py", "WA"),
    ] {
        let sub = by_path(&report, path);
        assert_eq!(sub["verdict"], verdict, "{sub}");
        assert_eq!(sub["ok"], true, "{sub}");
    }

    // A group requirement the submission misses fails it, naming the key.
    let dir = copy(&ws, "named");
    let yaml = dir.join("submissions/submissions.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(
        &yaml,
        text.replace(
            "  secret/hard:\n    required: [WA]",
            "  secret/hard:\n    permitted: [AC]",
        ),
    )
    .unwrap();
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 1, "{report:#}");
    let sub = by_path(&report, "submissions/wrong_answer/small_only.py");
    assert_eq!(sub["ok"], false, "{sub}");
    let detail = sub["detail"].as_str().unwrap();
    assert!(
        detail
            .starts_with("wrong_answer/small_only.py.secret/hard in submissions.yaml: WA on test"),
        "{detail}"
    );

    // An entry point that names no source is the package's failure.
    std::fs::write(
        &yaml,
        text.replace("entrypoint: run.py", "entrypoint: start.py"),
    )
    .unwrap();
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 1, "{report:#}");
    let sub = by_path(&report, "submissions/accepted/modules");
    let detail = sub["detail"].as_str().unwrap();
    assert!(detail.contains("the entry point start.py"), "{detail}");

    // Without the file, the directory has no entry point grundy can tell.
    std::fs::remove_file(&yaml).unwrap();
    let (_, report) = verify(&ws, &dir);
    let sub = by_path(&report, "submissions/accepted/modules");
    assert_eq!(sub["ok"], false, "{sub}");

    // A malformed file is refused at load, with one line naming it.
    std::fs::write(&yaml, "accepted:\n  permitted: [OK]\n").unwrap();
    let out = submit(&ws, &dir, &dir.join("submissions/accepted/twice"));
    out.assert_usage_error(
        "submissions.yaml: accepted: permitted: \"OK\" is not one of AC, WA, TLE, RTE",
    );
}

#[test]
fn an_interactive_multi_pass_package_interacts_once_per_pass() {
    if !require_sources(&[&fixture("talk")]) {
        return;
    }
    let ws = Workspace::new();
    // talk, made multi-pass: after a right answer to n > 0 the validator
    // asks for a second pass on -n.
    let dir = copy(&ws, "talk");
    let yaml = dir.join("problem.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(
        &yaml,
        text.replace("type: interactive", "type: [interactive, multi-pass]"),
    )
    .unwrap();
    let v = dir.join("output_validator/interactor.py");
    let text = std::fs::read_to_string(&v).unwrap();
    assert!(text.ends_with("sys.exit(42)\n"));
    let next = "if n > 0:\n    open(sys.argv[3] + \"/nextpass.in\", \"w\").write(\"%d\\n\" % -n)\nsys.exit(42)\n";
    std::fs::write(&v, text.replace("sys.exit(42)\n", next)).unwrap();
    let out = submit(&ws, &dir, &dir.join("submissions/accepted/double.py"));
    assert_eq!(out.json()["verdict"], "AC", "{}", out.stderr);
    // Right on every first pass, wrong on every second.
    let positive = ws.file(
        "positive.py",
        "n = int(input())\nprint(2 * n if n > 0 else 0, flush=True)\n",
    );
    let json = submit(&ws, &dir, &positive).json();
    assert_eq!(json["verdict"], "WA", "{json}");
    let message = json["tests"][0]["message"].as_str().unwrap();
    assert_eq!(message, "pass 2: wanted -6, got 0", "{json}");
}

#[test]
fn brute_force_and_rejected_submissions_are_judged_as_the_format_says() {
    if !require_sources(&[&fixture("exhaust")]) {
        return;
    }
    let ws = Workspace::new();
    let (code, report) = verify(&ws, &fixture("exhaust"));
    assert_eq!(code, 0, "{report:#}");
    // brute_force/: right where it finishes, too slow or crashing on the
    // largest test; rejected/: a wrong answer somewhere.
    for (path, expected, verdict) in [
        ("submissions/brute_force/loop.py", "brute_force", "TLE"),
        ("submissions/brute_force/recurse.py", "brute_force", "RE"),
        ("submissions/rejected/no_modulo.py", "rejected", "WA"),
        ("submissions/rejected/loop_then_guess.py", "rejected", "WA"),
    ] {
        let sub = by_path(&report, path);
        assert_eq!(sub["expected"], expected, "{sub}");
        assert_eq!(sub["verdict"], verdict, "{sub}");
        assert_eq!(sub["ok"], true, "{sub}");
    }
    let submissions = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "submissions")
        .unwrap();
    assert!(
        !submissions["detail"]
            .as_str()
            .unwrap()
            .contains("not judged"),
        "{submissions}"
    );

    // A brute force that answers wrong, and a rejected submission that is
    // accepted, fail the package, each named with why.
    let dir = copy(&ws, "exhaust");
    let subs = dir.join("submissions");
    std::fs::rename(
        subs.join("rejected/loop_then_guess.py"),
        subs.join("brute_force/guess.py"),
    )
    .unwrap();
    std::fs::copy(
        subs.join("accepted/doubling.py"),
        subs.join("rejected/doubling.py"),
    )
    .unwrap();
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 1, "{report:#}");
    let guess = by_path(&report, "submissions/brute_force/guess.py");
    assert_eq!(guess["ok"], false, "{guess}");
    let why = guess["detail"].as_str().unwrap();
    assert!(why.contains("never answer wrong, got WA on test"), "{why}");
    let doubling = by_path(&report, "submissions/rejected/doubling.py");
    assert_eq!(doubling["ok"], false, "{doubling}");
    assert_eq!(
        doubling["detail"],
        "expected to be rejected, but every test was accepted"
    );
    for path in [
        "submissions/brute_force/loop.py",
        "submissions/rejected/no_modulo.py",
    ] {
        assert_eq!(by_path(&report, path)["ok"], true, "{path}");
    }

    // submissions.yaml replaces what it names of a folder's defaults and
    // keeps the rest: brute_force may no longer crash (RTE) but must still
    // fail somewhere; rejected/ submissions must time out.
    std::fs::remove_file(subs.join("brute_force/guess.py")).unwrap();
    std::fs::remove_file(subs.join("rejected/doubling.py")).unwrap();
    std::fs::write(
        subs.join("submissions.yaml"),
        "brute_force:\n  permitted: [AC, TLE]\nrejected:\n  required: [TLE]\n",
    )
    .unwrap();
    let (code, report) = verify(&ws, &dir);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(
        by_path(&report, "submissions/brute_force/loop.py")["ok"],
        true
    );
    let recurse = by_path(&report, "submissions/brute_force/recurse.py");
    assert_eq!(recurse["ok"], false, "{recurse}");
    let why = recurse["detail"].as_str().unwrap();
    assert!(
        why.starts_with("brute_force in submissions.yaml: RTE on test")
            && why.ends_with("which is not one of the permitted [AC, TLE]"),
        "{why}"
    );
    let guess = by_path(&report, "submissions/rejected/no_modulo.py");
    assert_eq!(
        guess["detail"],
        "rejected in submissions.yaml: no test got one of the required [TLE]"
    );
}
