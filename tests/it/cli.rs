//! The command line end to end: `submit` in every language with every
//! verdict, the stored rows seen through `status`, and bad input.

use crate::helpers::{language_of, languages_present, require_languages, Workspace};

const C_AC: &str = r#"
#include <stdio.h>
int main(void) {
    int n; long long x = 0, a;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) { scanf("%lld", &a); x ^= a; }
    puts(x ? "Yes" : "No");
    return 0;
}
"#;

const CPP_AC: &str = r#"
#include <bits/stdc++.h>
int main() {
    std::ios::sync_with_stdio(false);
    int n; std::cin >> n;
    long long x = 0;
    for (int i = 0; i < n; i++) { long long a; std::cin >> a; x ^= a; }
    std::cout << (x ? "Yes" : "No") << "\n";
}
"#;

const RUST_AC: &str = r#"
use std::io::Read;
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let x = s.split_whitespace().skip(1).map(|t| t.parse::<u64>().unwrap()).fold(0, |a, b| a ^ b);
    println!("{}", if x != 0 { "Yes" } else { "No" });
}
"#;

const PY_AC: &str = r#"
import sys
data = sys.stdin.buffer.read().split()
x = 0
for t in data[1:]:
    x ^= int(t)
print("Yes" if x else "No")
"#;

const JAVA_AC: &str = r#"
import java.io.*;
import java.util.*;
public class Main {
    public static void main(String[] args) throws IOException {
        StreamTokenizer in = new StreamTokenizer(new BufferedInputStream(System.in));
        in.nextToken();
        int n = (int) in.nval;
        long x = 0;
        for (int i = 0; i < n; i++) { in.nextToken(); x ^= (long) in.nval; }
        System.out.println(x != 0 ? "Yes" : "No");
    }
}
"#;

/// Correct on the sample (`2 3` → Yes), wrong whenever the XOR is zero.
const C_WA: &str = r#"
#include <stdio.h>
int main(void) { puts("Yes"); return 0; }
"#;

const C_CPU_LOOP: &str = r#"
int main(void) { volatile unsigned long x = 0; for (;;) x++; }
"#;

const PY_SLEEP: &str = "import time\ntime.sleep(30)\n";

const CPP_SEGV: &str = r#"
#include <cstdio>
int main() { volatile int *p = nullptr; *p = 1; std::puts("Yes"); }
"#;

const PY_EXIT_3: &str = "import sys\nsys.exit(3)\n";

const RUST_PANIC: &str = "fn main() { let v: Vec<u8> = Vec::new(); println!(\"{}\", v[1]); }\n";

const CPP_CE: &str = "int main() { this is not C++; }\n";

/// Touches 512 MiB under nim's 256 MiB limit.
const CPP_MLE: &str = r#"
#include <cstdio>
#include <cstring>
#include <cstdlib>
int main() {
    size_t n = (size_t)512 << 20;
    volatile char *p = (volatile char *)malloc(n);
    if (!p) return 1;
    for (size_t i = 0; i < n; i += 4096) p[i] = (char)i;
    long sum = 0;
    for (size_t i = 0; i < n; i += 4096) sum += p[i];
    std::printf("%ld\n", sum);
}
"#;

/// Catches the allocation failure itself: still MLE, not RE.
const CPP_MLE_CAUGHT: &str = r#"
#include <cstdio>
#include <vector>
#include <new>
int main() {
    std::vector<std::vector<char>> keep;
    try {
        for (;;) keep.emplace_back(64 << 20, 1);
    } catch (const std::bad_alloc &) {
        std::puts("Yes");
        return 0;
    }
}
"#;

const C_FLOOD: &str = r#"
#include <stdio.h>
int main(void) { for (;;) fputs("Yes Yes Yes Yes Yes Yes Yes Yes\n", stdout); }
"#;

fn assert_verdict(
    ws: &Workspace,
    name: &str,
    source: &str,
    verdict: &str,
    code: i32,
) -> serde_json::Value {
    let out = ws.submit("nim", name, source);
    assert_eq!(out.code, code, "{name}: exit code; stderr: {}", out.stderr);
    let json = out.json();
    assert_eq!(json["verdict"], verdict, "{name}: {json}");
    // The stored row says the same.
    let id = json["id"].as_i64().expect("id");
    let status = ws.grundy(&["status", &id.to_string(), "--json"]);
    assert_eq!(status.code, 0, "{}", status.stderr);
    let stored = status.json();
    assert_eq!(stored["status"], "done");
    for key in [
        "verdict",
        "score",
        "problem",
        "language",
        "tests",
        "compile_output",
    ] {
        assert_eq!(stored[key], json[key], "{name}: stored {key}");
    }
    json
}

#[test]
fn accepted_in_every_language() {
    let ws = Workspace::new();
    let present = languages_present(&["c", "cpp", "rust", "python", "java"]);
    for (name, source) in [
        ("ok.c", C_AC),
        ("ok.cpp", CPP_AC),
        ("ok.rs", RUST_AC),
        ("ok.py", PY_AC),
        ("Main.java", JAVA_AC),
    ] {
        if !present.contains(&language_of(name).unwrap().as_str()) {
            continue;
        }
        let json = assert_verdict(&ws, name, source, "AC", 0);
        assert_eq!(json["score"], 100);
        let tests = json["tests"].as_array().expect("tests");
        assert!(tests.len() > 20, "{name}: every test is reported");
        assert!(tests.iter().all(|t| t["verdict"] == "AC"));
        assert_eq!(tests[0]["group"], "sample");
        assert_eq!(tests[0]["exit_code"], 0);
        assert!(tests[0]["signal"].is_null());
    }
}

#[test]
fn wrong_answer_is_wa_and_stops_at_the_first_failure() {
    let ws = Workspace::new();
    let json = assert_verdict(&ws, "wa.c", C_WA, "WA", 1);
    let tests = json["tests"].as_array().expect("tests");
    let last = tests.last().expect("a failing test");
    assert_eq!(last["verdict"], "WA");
    assert!(
        last["message"]
            .as_str()
            .unwrap()
            .contains("expected \"No\""),
        "{last}"
    );
    assert!(tests[..tests.len() - 1]
        .iter()
        .all(|t| t["verdict"] == "AC"));
    assert!(json["score"].as_u64().unwrap() < 100);
}

#[test]
fn cpu_loop_and_sleep_are_tle() {
    let ws = Workspace::new();
    // On a loaded machine the wall clock may stop the loop first; either way TLE.
    assert_verdict(&ws, "loop.c", C_CPU_LOOP, "TLE", 1);
    if !require_languages(&["python"]) {
        return;
    }
    let json = assert_verdict(&ws, "sleep.py", PY_SLEEP, "TLE", 1);
    let t = &json["tests"][0];
    assert!(
        t["time_ms"].as_u64().unwrap() < 1000,
        "sleeping uses no CPU: {t}"
    );
    assert!(
        t["wall_ms"].as_u64().unwrap() >= 2000,
        "stopped by the wall clock: {t}"
    );
    assert!(t["wall_ms"].as_u64().unwrap() < 20_000, "{t}");
}

#[test]
fn crashes_and_exit_codes_are_re() {
    let ws = Workspace::new();
    let present = languages_present(&["cpp", "python"]);
    if present.contains(&"cpp") {
        let json = assert_verdict(&ws, "segv.cpp", CPP_SEGV, "RE", 1);
        assert_eq!(json["tests"][0]["signal"], 11);
        assert!(json["tests"][0]["exit_code"].is_null());
    }
    if present.contains(&"python") {
        let json = assert_verdict(&ws, "exit3.py", PY_EXIT_3, "RE", 1);
        assert_eq!(json["tests"][0]["exit_code"], 3);
        assert_eq!(json["tests"][0]["message"], "exit code 3");
    }
    assert_verdict(&ws, "panic.rs", RUST_PANIC, "RE", 1);
}

#[test]
fn compile_error_is_ce_with_the_compiler_message() {
    if !require_languages(&["cpp"]) {
        return;
    }
    let ws = Workspace::new();
    let json = assert_verdict(&ws, "bad.cpp", CPP_CE, "CE", 1);
    let message = json["compile_output"].as_str().unwrap();
    assert!(message.contains("error"), "{message}");
    assert!(json["tests"].as_array().unwrap().is_empty());
    // An identical resubmission is served from the cache, with the same message.
    let again = assert_verdict(&ws, "bad2.cpp", CPP_CE, "CE", 1);
    assert_eq!(again["compile_output"], json["compile_output"]);
}

#[test]
fn memory_hog_is_mle_even_when_it_catches_the_failure() {
    if !require_languages(&["cpp"]) {
        return;
    }
    let ws = Workspace::new();
    assert_verdict(&ws, "hog.cpp", CPP_MLE, "MLE", 1);
    assert_verdict(&ws, "caught.cpp", CPP_MLE_CAUGHT, "MLE", 1);
}

#[test]
fn output_flood_is_ole() {
    let ws = Workspace::new();
    assert_verdict(&ws, "flood.c", C_FLOOD, "OLE", 1);
}

#[test]
fn human_output_has_a_row_per_test_and_a_summary() {
    let ws = Workspace::new();
    let path = ws.file("ok.c", C_AC);
    let out = ws.grundy(&["submit", "nim", path.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("sample-1"), "{}", out.stdout);
    let last = out.stdout.lines().last().unwrap();
    assert!(
        last.starts_with("submission 1: AC (accepted), score 100"),
        "{last}"
    );
    let status = ws.grundy(&["status", "1"]);
    assert_eq!(status.code, 0);
    assert!(status.stdout.contains("sample-1"), "{}", status.stdout);
}

#[test]
fn bad_input_exits_2_with_one_line_and_stores_nothing() {
    let ws = Workspace::new();
    let ok = ws.file("ok.c", C_AC);
    let ok = ok.to_str().unwrap();
    let out = ws.grundy(&["submit", "no-such-problem", ok, "--json"]);
    out.assert_usage_error("unknown problem \"no-such-problem\"");
    let out = ws.grundy(&["submit", "../problems", ok]);
    out.assert_usage_error("unknown problem");
    let weird = ws.file("sol.cob", "DISPLAY \"1\".");
    let out = ws.grundy(&["submit", "nim", weird.to_str().unwrap()]);
    out.assert_usage_error("unknown extension");
    let out = ws.grundy(&["submit", "nim", ok, "--lang", "cobol"]);
    out.assert_usage_error("unknown language \"cobol\"");
    let out = ws.grundy(&["submit", "nim", "missing.c"]);
    out.assert_usage_error("missing.c");
    let empty = ws.file("empty.c", "\n  \n");
    let out = ws.grundy(&["submit", "nim", empty.to_str().unwrap()]);
    out.assert_usage_error("source is empty");
    let huge = ws.file(
        "huge.c",
        &format!("{C_AC}\n/*{}*/\n", "x".repeat(300 * 1024)),
    );
    let out = ws.grundy(&["submit", "nim", huge.to_str().unwrap()]);
    out.assert_usage_error("above the limit of 256 KiB");
    let out = ws.grundy(&["status", "1"]);
    out.assert_usage_error("no submission with id 1");
    // The next submission works and is number 1: nothing was half-written.
    let out = ws.grundy(&["submit", "nim", ok, "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.json()["id"], 1);
}

#[test]
fn explicit_lang_overrides_the_extension() {
    if !require_languages(&["python"]) {
        return;
    }
    let ws = Workspace::new();
    let path = ws.file("solution.txt", PY_AC);
    let out = ws.grundy(&[
        "submit",
        "nim",
        path.to_str().unwrap(),
        "--lang",
        "python",
        "--json",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.json()["language"], "python");
}

#[test]
fn corrupted_test_data_is_reported_and_regenerated_by_gen() {
    let ws = Workspace::isolated();
    let gen = ws.grundy(&["gen", "nim"]);
    assert_eq!(gen.code, 0, "{}", gen.stderr);
    let data = ws.dir.path().join("var").join("tests").join("nim");
    let set = std::fs::read_dir(&data)
        .unwrap()
        .flatten()
        .find(|e| e.path().is_dir())
        .unwrap()
        .path();
    std::fs::write(
        set.join("sample-1.ans"),
        "garbage that is longer than the answer",
    )
    .unwrap();
    let ok = ws.file("ok.c", C_AC);
    let out = ws.grundy(&["submit", "nim", ok.to_str().unwrap()]);
    out.assert_usage_error("corrupted");
    // `grundy gen`, as the message says, mends it.
    let gen = ws.grundy(&["gen", "nim"]);
    assert!(gen.stdout.contains("generated"), "{}", gen.stdout);
    let out = ws.grundy(&["submit", "nim", ok.to_str().unwrap(), "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.json()["id"], 1, "the failed attempt stored nothing");
}

#[test]
fn corrupted_database_is_one_line_not_a_panic() {
    let ws = Workspace::new();
    std::fs::write(ws.dir.path().join("grundy.db"), vec![0x42u8; 8192]).unwrap();
    let out = ws.grundy(&["status", "1"]);
    assert_eq!(out.code, 2);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("database"), "{}", out.stderr);
}

/// A new source's compilation starts while the submission is stored; a
/// store that then fails still ends in one line, after the compiler has
/// finished: its program is cached whole, and no workspace of it is left.
#[test]
fn a_store_failing_beside_a_compile_ends_in_one_line_leaving_no_workspace() {
    let ws = Workspace::new();
    // Marks this source's files in the shared cache.
    let marker = format!("/* ahead {:?} */", ws.dir.path());
    let c = ws.file("ahead.c", &format!("{C_AC}{marker}\n"));
    std::fs::write(ws.dir.path().join("grundy.db"), vec![0x42u8; 8192]).unwrap();
    let out = ws.grundy(&["submit", "nim", c.to_str().unwrap()]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("database"), "{}", out.stderr);
    let programs = crate::helpers::shared_data().join("programs");
    let marked = |dir: &std::path::Path| -> Vec<std::path::PathBuf> {
        let mut found = Vec::new();
        let mut pending = vec![dir.to_path_buf()];
        while let Some(at) = pending.pop() {
            for entry in std::fs::read_dir(&at).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    pending.push(path);
                } else if std::fs::read(&path)
                    .is_ok_and(|b| String::from_utf8_lossy(&b).contains(&marker))
                {
                    found.push(path);
                }
            }
        }
        found
    };
    let cached: Vec<_> = marked(&programs)
        .into_iter()
        .filter(|p| !p.starts_with(programs.join("tmp")))
        .collect();
    assert_eq!(cached.len(), 1, "the compiled program, cached: {cached:?}");
    let left = marked(&programs.join("tmp"));
    assert!(left.is_empty(), "workspaces left: {left:?}");
}

#[test]
fn gen_is_cached_until_an_input_changes() {
    let ws = Workspace::new();
    let first = ws.grundy(&["gen", "nim"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let second = ws.grundy(&["gen", "nim"]);
    assert!(second.stdout.contains("up to date"), "{}", second.stdout);
}

#[test]
fn gen_check_proves_regeneration_and_finds_altered_data() {
    let ws = Workspace::isolated();
    let gen = ws.grundy(&["gen", "nim"]);
    assert_eq!(gen.code, 0, "{}", gen.stderr);
    let check = ws.grundy(&["gen", "nim", "--check"]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    assert!(check.stdout.contains("byte-identical"), "{}", check.stdout);

    // Alter one answer on disk without changing its size: the cheap size
    // check of `submit` cannot see it, `gen --check` must.
    let data = ws.dir.path().join("var").join("tests").join("nim");
    let set = std::fs::read_dir(&data)
        .unwrap()
        .flatten()
        .find(|e| e.path().is_dir() && !e.file_name().to_string_lossy().starts_with('.'))
        .unwrap()
        .path();
    let ans = set.join("trap-equal-pair.ans");
    let text = std::fs::read_to_string(&ans).unwrap();
    std::fs::write(&ans, text.to_uppercase()).unwrap();
    let check = ws.grundy(&["gen", "nim", "--check"]);
    assert_eq!(check.code, 1, "{}{}", check.stdout, check.stderr);
    assert!(
        check.stdout.contains("trap-equal-pair: answer on disk"),
        "{}",
        check.stdout
    );
    assert_eq!(
        check.stdout.matches("  ").count(),
        1,
        "exactly one difference: {}",
        check.stdout
    );
    // The scratch regeneration is gone.
    let leftovers: Vec<_> = std::fs::read_dir(ws.dir.path().join("var").join("tests"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".check-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn gen_check_without_recorded_data_says_so() {
    let ws = Workspace::isolated();
    let check = ws.grundy(&["gen", "nim", "--check"]);
    assert_eq!(check.code, 2);
    assert!(check.stderr.contains("grundy gen nim"), "{}", check.stderr);
}

#[test]
fn show_tests_gives_every_test_its_provenance() {
    let ws = Workspace::new();
    let out = ws.grundy(&["show", "nim", "--tests", "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let index = out.json();
    let listed = ws.grundy(&["problems", "--json"]).json();
    let nim = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["slug"] == "nim")
        .unwrap()
        .clone();
    let tests = index["tests"].as_array().unwrap();
    assert_eq!(tests.len() as u64, nim["tests"].as_u64().unwrap());
    for key in ["generator_sha256", "validator_sha256", "solution_sha256"] {
        assert_eq!(index[key].as_str().unwrap().len(), 64, "{key}");
    }
    let sample = &tests[0];
    assert_eq!(sample["name"], "sample-1");
    assert_eq!(sample["origin"], "tests/sample-1.in");
    let input =
        std::fs::read(crate::helpers::repo().join("problems/nim/tests/sample-1.in")).unwrap();
    assert_eq!(sample["input_bytes"], input.len());
    let generated = tests
        .iter()
        .find(|t| t["origin"].as_str().unwrap().starts_with("gen "))
        .expect("a generated test");
    assert_eq!(generated["input_sha256"].as_str().unwrap().len(), 64);
    let seeded = tests
        .iter()
        .find(|t| t["origin"].as_str().unwrap().contains("seed="))
        .expect("a seeded test");
    assert!(
        seeded["origin"]
            .as_str()
            .unwrap()
            .ends_with(&format!("seed={}", seeded["seed"].as_str().unwrap())),
        "{seeded}"
    );
    let human = ws.grundy(&["show", "nim", "--tests"]);
    assert_eq!(human.code, 0);
    for t in tests {
        let name = t["name"].as_str().unwrap();
        assert!(
            human.stdout.lines().any(|l| l.starts_with(name)),
            "{name} in {}",
            human.stdout
        );
    }
}

#[test]
fn languages_lists_every_toolchain() {
    let ws = Workspace::new();
    let out = ws.grundy(&["languages"]);
    // gcc and rustc are always there; the others are what the machine has,
    // and a missing one is listed, not a failure (issue 47).
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    for id in ["c", "cpp", "rust", "python", "java"] {
        assert!(
            out.stdout.lines().any(|l| l.starts_with(id)),
            "{id} in {}",
            out.stdout
        );
    }
}

#[test]
fn problems_lists_nim_with_its_limits() {
    let ws = Workspace::new();
    let out = ws.grundy(&["problems", "--json"]);
    let list = out.json();
    let nim = list
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["slug"] == "nim")
        .expect("nim");
    assert_eq!(nim["time_limit"], 1.0);
    assert_eq!(nim["memory_limit"], 256);
}

#[test]
fn commands_that_run_nothing_start_no_sandbox() {
    let ws = Workspace::new();
    let debug = [("GRUNDY_LOG", "grundy=debug")];
    for args in [&["problems"][..], &["show", "nim"], &["status", "1"]] {
        let out = ws.grundy_env(&debug, args);
        assert!(
            !out.stderr.contains("sandbox selected"),
            "{args:?} started a sandbox: {}",
            out.stderr
        );
    }
    // The log line is there when a command does run something (`doctor`
    // runs the sandbox's probe; `languages` runs nothing where every
    // toolchain's version is remembered).
    let out = ws.grundy_env(&debug, &["doctor"]);
    assert!(out.stderr.contains("sandbox selected"), "{}", out.stderr);
    // Issue 47: a log that goes to a file or a pipe carries no colour codes.
    assert!(!out.stderr.contains('\u{1b}'), "{:?}", out.stderr);
}

/// A language whose toolchain command fails as rustup's proxy does with no
/// default toolchain: what it says on stderr, and how it exits.
fn add_broken_language(ws: &Workspace, required: bool) {
    use std::os::unix::fs::PermissionsExt as _;
    let script = ws.dir.path().join("fake-rustc");
    std::fs::write(
        &script,
        "#!/bin/sh\n\
         echo 'error: rustup could not choose a version of rustc to run, because one was not specified explicitly, and no default is configured.' >&2\n\
         echo \"help: run 'rustup default stable' to download the latest stable release of Rust\" >&2\n\
         exit 1\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut config = std::fs::read_to_string(ws.config()).unwrap();
    config.push_str(&format!(
        "\n[languages.fakers]\nname = \"Fake Rust\"\nextensions = [\"fakers\"]\n\
         source = \"main.rs\"\ntoolchain = [{:?}, \"--print\", \"sysroot\"]\n\
         compile = [\"{{toolchain}}/bin/rustc\", \"main.rs\"]\nrun = [\"{{dir}}/main\"]\n\
         required = {required}\n",
        script.display().to_string()
    ));
    std::fs::write(ws.config(), config).unwrap();
}

/// Issue 47: `languages` exits 0 when the languages kept work, and a
/// missing one is named with the tool's own reason; a language marked
/// `required` that does not work makes it exit 1, saying which.
#[test]
fn a_missing_optional_language_is_named_with_its_reason_and_no_failure() {
    let ws = Workspace::new();
    add_broken_language(&ws, false);
    let out = ws.grundy(&["languages"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let line = out
        .stdout
        .lines()
        .find(|l| l.starts_with("fakers "))
        .unwrap_or_else(|| panic!("no fakers line in {}", out.stdout));
    assert!(line.contains("missing: "), "{line}");
    assert!(line.contains("--print sysroot failed"), "{line}");
    assert!(line.contains("no default is configured"), "{line}");
    assert!(line.contains("help: run 'rustup default stable'"), "{line}");
    assert!(out.stdout.contains("optional here"), "{}", out.stdout);

    let ws = Workspace::new();
    add_broken_language(&ws, true);
    let out = ws.grundy(&["languages"]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains("MISSING (required): "),
        "{}",
        out.stdout
    );
    assert!(
        out.stderr
            .contains("grundy: required language fakers does not work"),
        "{}",
        out.stderr
    );
}

/// Issue 44: a database password is never printed, wherever the URL holds
/// it: `db copy --to`, `$GRUNDY_DATABASE_URL` read by another command, a
/// password in the user information (an unencoded `@` in it included) or
/// in the query (`password`, `sslpassword`, in any case), and `--help`.
/// Each URL names a Unix socket that is not there, so the connection
/// fails at once and the command says why.
#[test]
fn database_passwords_are_never_printed() {
    let ws = Workspace::new();
    let socket = "host=/nonexistent-grundy-socket";
    let urls = [
        format!("postgres://judge:Sekr1t@localhost/grundy?{socket}"),
        format!("postgres://judge:Sek@r1t@localhost/grundy?{socket}"),
        format!("postgres://judge@localhost/grundy?{socket}&password=Sekr1t"),
        format!("postgres://judge@localhost/grundy?{socket}&PassWord=Sekr1t"),
        format!("postgres://judge:pw@localhost/grundy?{socket}&sslpassword=Sekr1t"),
        format!("postgresql://judge@localhost/grundy?SSLPASSWORD=Sekr1t&{socket}"),
        // Not PostgreSQL: refused by name, still masked.
        "mysql://judge:Sekr1t@localhost/grundy".to_string(),
    ];
    let shows_secret = |text: &str| text.contains("Sekr1t") || text.contains("r1t");
    for url in &urls {
        let copy = ws.grundy(&["db", "copy", "--to", url]);
        assert_eq!(copy.code, 2, "{url}: {}{}", copy.stdout, copy.stderr);
        // A warning may come first (a parameter not used): the error is
        // the last line, one line.
        let last = copy.stderr.trim_end().lines().last().unwrap_or_default();
        assert!(last.starts_with("grundy: "), "{}", copy.stderr);
        assert!(copy.stderr.contains("***"), "{}", copy.stderr);
        assert!(
            !shows_secret(&copy.stdout) && !shows_secret(&copy.stderr),
            "{url}: {}{}",
            copy.stdout,
            copy.stderr
        );
        if !url.starts_with("postgres") {
            continue;
        }
        let env = [("GRUNDY_DATABASE_URL", url.as_str())];
        for args in [&["contest", "list"][..], &["user", "list"][..]] {
            let out = ws.grundy_env(&env, args);
            assert_ne!(out.code, 0, "{url} {args:?}");
            assert!(out.stderr.contains("database postgres"), "{}", out.stderr);
            assert!(
                !shows_secret(&out.stdout) && !shows_secret(&out.stderr),
                "{url} {args:?}: {}{}",
                out.stdout,
                out.stderr
            );
        }
        for args in [&["--help"][..], &["db", "copy", "--help"][..]] {
            let help = ws.grundy_env(&env, args);
            assert_eq!(help.code, 0, "{}", help.stderr);
            assert!(!shows_secret(&help.stdout), "{}", help.stdout);
        }
    }
}

/// A log whose reader has gone (`grundy submit … 2>&1 | head`, a
/// journal that stopped) loses its lines; the judging goes on to its
/// verdict. Before, the first line logged after it went panicked the
/// thread that logged it (a database connection's, often), and the
/// command hung or died.
#[test]
fn a_closed_log_neither_stops_nor_hangs_the_judge() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let ws = Workspace::new();
    let source = ws.file("xor.c", C_AC);
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .env("GRUNDY_LOG", "debug")
        .arg("--config")
        .arg(ws.config())
        .args(["submit", "nim", source.to_str().unwrap(), "--json"])
        .current_dir(source.parent().unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run grundy");
    // The log's reader goes before anything is logged.
    drop(child.stderr.take());
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).ok();
        text
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("grundy submit still running after 120 s with its log closed");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let text = reader.join().unwrap();
    assert_eq!(status.code(), Some(0), "{status:?}: {text}");
    assert!(text.contains("\"AC\""), "{text}");
}

/// Bad input with stderr closed still exits 2 (its one line is lost),
/// not with a panic's status.
#[test]
fn bad_input_with_stderr_closed_still_exits_2() {
    use std::process::{Command, Stdio};
    let ws = Workspace::new();
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("--config")
        .arg(ws.config())
        .args(["submit", "no-such-problem", "missing.c"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run grundy");
    drop(child.stderr.take());
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(2), "{status:?}");
}
