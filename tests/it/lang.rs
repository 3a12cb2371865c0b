//! Languages in the box: every configured toolchain compiles and runs
//! there, and a language's own way of failing (a JVM catching its
//! `OutOfMemoryError`) still gets the verdict the limit says. The attacks
//! on the box are in `sandbox.rs`; these tests need the toolchains of the
//! shipped `config.toml`.

use std::path::Path;
use std::time::{Duration, Instant};

use grundy::config::{CompileLimits, Config};
use grundy::lang::{Compiled, Languages, ProgramCache, Source};
use grundy::sandbox::{Limits, Outcome, RunSpec, Runner, Stdio, Termination};
use grundy::verdict::Verdict;

use super::helpers::{languages_present, require_languages};
use super::sandbox::{boxed, limits};

/// [`limits`] with room for a toolchain's start-up: 5 s of CPU, 10 s of
/// wall clock.
fn slow_limits() -> Limits {
    let ordinary = limits();
    Limits::new(Duration::from_secs(5), ordinary.memory)
        .wall(Duration::from_secs(10))
        .processes(ordinary.processes)
}

pub(super) fn shipped_config(data: &Path) -> Config {
    let text = include_str!("../../config.toml");
    let mut config = Config::parse(text, Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
    config.data_dir = data.to_path_buf();
    config
}

pub(super) fn compile_limits() -> CompileLimits {
    CompileLimits {
        memory_limit: 1024,
        ..CompileLimits::default()
    }
}

/// A hello world in every shipped language (each C++ standard with what
/// only it has, so a wrong `-std` fails), printing `hello`.
pub(super) const HELLO: [(&str, &str); 18] = [
    ("c", "#include <stdio.h>\nint main(void){puts(\"hello\");return 0;}"),
    ("cpp", "#include <bits/stdc++.h>\nint main(){std::cout<<\"hello\\n\";}"),
    ("cpp17", "#include <bits/stdc++.h>\nint main(){auto [a, b] = std::pair<const char*, int>{\"hello\", 0}; std::cout<<a<<'\\n';}"),
    ("cpp20", "#include <bits/stdc++.h>\nint main(){std::vector<std::string> w{\"hello\"}; std::ranges::for_each(w, [](auto &s){std::cout<<s<<'\\n';});}"),
    ("cpp23", "#include <bits/stdc++.h>\nint main(){std::string s = \"hello\"; if (s.contains(\"ell\")) std::cout<<s<<'\\n';}"),
    ("rust", "fn main(){println!(\"hello\");}"),
    ("python", "print('hello')"),
    ("pypy3", "import platform\nassert platform.python_implementation() == 'PyPy'\nprint('hello')"),
    ("java", "public class Main{public static void main(String[] a){System.out.println(\"hello\");}}"),
    ("go", "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n"),
    ("javascript", "console.log('hello');"),
    ("kotlin", "fun main() { println(\"hello\") }"),
    ("csharp", "public static class P { public static void Main() { System.Console.WriteLine(\"hello\"); } }"),
    ("haskell", "main :: IO ()\nmain = putStrLn \"hello\""),
    ("ocaml", "let () = print_endline \"hello\""),
    ("pascal", "program Hello;\nbegin\n  writeln('hello');\nend."),
    ("ruby", "puts 'hello'"),
    ("php", "<?php\necho \"hello\\n\";"),
];

#[test]
fn every_language_compiles_and_runs_in_the_box() {
    let Some(sb) = boxed() else { return };
    let data = tempfile::tempdir().unwrap();
    let config = shipped_config(data.path());
    assert_eq!(
        config.languages.len(),
        HELLO.len(),
        "a hello world for every shipped language"
    );
    let languages = Languages::new(&config.languages);
    let cache = ProgramCache::new(data.path().join("programs"));
    let present = languages_present(&HELLO.map(|(id, _)| id));
    for (id, text) in HELLO {
        if !present.contains(&id) {
            continue;
        }
        let lang = languages.get(id).unwrap();
        let compiled = lang
            .compile(
                sb.as_ref(),
                &cache,
                &Source::new(text.as_bytes().to_vec()),
                &compile_limits(),
            )
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        let program = match compiled {
            Compiled::Ok(p) => p,
            Compiled::Failed(m) => panic!("{id} does not compile in the box: {m}"),
        };
        // A tight limit on resident memory: a runtime that reserves far
        // more address space than it touches (Go, the JVM, Node.js, Mono)
        // still runs, with the threads it starts.
        let (prog, args) = program.command(TIGHT_MIB);
        let limits = Limits::new(Duration::from_secs(5), TIGHT_MIB << 20)
            .wall(Duration::from_secs(10))
            .processes(program.processes);
        let cwd = tempfile::tempdir().unwrap();
        let out = cwd.path().join("out");
        let err = cwd.path().join("err");
        let spec = RunSpec::new(prog, cwd.path().join("box"), limits)
            .args(args)
            .envs(grundy::lang::base_env())
            .stdout(Stdio::file(&out))
            .stderr(Stdio::file(&err))
            .binds(program.binds());
        std::fs::create_dir(&spec.cwd).unwrap();
        let outcome = sb.run(&spec).unwrap();
        assert_eq!(
            outcome.termination,
            Termination::Exited(0),
            "{id}: {outcome:?} {}",
            std::fs::read_to_string(&err).unwrap_or_default()
        );
        assert_eq!(
            std::fs::read_to_string(&out).unwrap().trim(),
            "hello",
            "{id}"
        );
        assert!(
            // (a tiny program may show 0: the figure counts what it used
            // above the box's own baseline)
            outcome.memory_kib < TIGHT_MIB << 10,
            "{id}: {} KiB resident",
            outcome.memory_kib
        );
    }
}

/// The memory limit every language's hello world runs under: less than
/// what the runtimes reserve (a JVM's heap and code cache, Go's arenas,
/// V8's cage), more than any touches.
const TIGHT_MIB: u64 = 96;

/// Compiles C `text` in the box; what came of it and how long it took.
pub(super) fn compile_c(sb: &dyn Runner, text: &str) -> (Compiled, Duration) {
    let data = tempfile::tempdir().unwrap();
    let config = shipped_config(data.path());
    let languages = Languages::new(&config.languages);
    let cache = ProgramCache::new(data.path().join("programs"));
    let lang = languages.get("c").unwrap();
    let start = Instant::now();
    let compiled = lang
        .compile(
            sb,
            &cache,
            &Source::new(text.as_bytes().to_vec()),
            &compile_limits(),
        )
        .unwrap();
    (compiled, start.elapsed())
}

/// Compiles `text` as `id` in the box and runs it there under `limits`.
fn compile_and_run(
    sb: &dyn Runner,
    id: &str,
    text: &str,
    limits: Limits,
) -> (Option<Verdict>, Outcome, String) {
    let data = tempfile::tempdir().unwrap();
    let config = shipped_config(data.path());
    let languages = Languages::new(&config.languages);
    let cache = ProgramCache::new(data.path().join("programs"));
    let lang = languages.get(id).unwrap();
    let source = Source::new(text.as_bytes().to_vec());
    let Compiled::Ok(program) = lang
        .compile(sb, &cache, &source, &compile_limits())
        .unwrap()
    else {
        panic!("{id} source does not compile");
    };
    let (prog, args) = program.command(limits.memory >> 20);
    let cwd = tempfile::tempdir().unwrap();
    let capture = tempfile::tempdir().unwrap();
    let spec = RunSpec::new(prog, cwd.path(), limits)
        .args(args)
        .envs(grundy::lang::base_env())
        .stdout(Stdio::file(capture.path().join("out")))
        .stderr(Stdio::file(capture.path().join("err")))
        .binds(program.binds());
    let outcome = sb.run(&spec).unwrap();
    let out = std::fs::read_to_string(capture.path().join("out")).unwrap_or_default()
        + &std::fs::read_to_string(capture.path().join("err")).unwrap_or_default();
    let verdict = grundy::judge::program_run_verdict(&outcome, &program).map(|v| v.0);
    (verdict, outcome, out)
}

#[test]
fn java_catching_out_of_memory_is_memory_limit_exceeded() {
    let Some(sb) = boxed() else { return };
    if !require_languages(&["java"]) {
        return;
    }
    let l = slow_limits();
    for body in [
        // Many small allocations until the heap is full.
        "java.util.List<long[]> l = new java.util.ArrayList<>(); while (true) l.add(new long[1 << 17]);",
        // One allocation larger than the limit.
        "long[] a = new long[1 << 30]; System.out.println(a.length);",
    ] {
        let text = format!(
            "public class Main {{ public static void main(String[] x) {{ try {{ {body} }} catch (OutOfMemoryError e) {{ System.out.println(\"caught\"); }} }} }}"
        );
        let (verdict, outcome, out) = compile_and_run(sb.as_ref(), "java", &text, l);
        assert_eq!(verdict, Some(Verdict::MLE), "{body}: {outcome:?} {out}");
        assert!(!out.contains("caught"), "{body}: {out}");
    }
}

#[test]
fn doctor_names_the_tiers_in_force() {
    let Some(_) = boxed() else { return };
    let dir = tempfile::tempdir().unwrap();
    let text = include_str!("../../config.toml").replace(
        "data_dir = \"var\"",
        &format!("data_dir = \"{}\"", dir.path().join("var").display()),
    );
    let config = dir.path().join("config.toml");
    std::fs::write(&config, text).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("--config")
        .arg(&config)
        .arg("doctor")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("isolation:   namespaces"), "{stdout}");
    assert!(stdout.contains("\nmeasurement: "), "{stdout}");
    let all = HELLO.map(|(id, _)| id);
    let present = languages_present(&all);
    for id in &present {
        assert!(
            stdout.contains(&format!("language:    {id:<8} ok")),
            "{stdout}"
        );
    }
    // Issue 47: isolated, with the languages this machine has working, the
    // judge is in order; a missing optional toolchain is no fault.
    assert_eq!(out.status.code(), Some(0), "{stdout}");

    // A language marked `required` that does not work is one, named with
    // the tool's own reason on stdout and as the fault on stderr.
    let script = dir.path().join("fake-rustc");
    std::fs::write(
        &script,
        "#!/bin/sh\necho 'error: no default is configured' >&2\nexit 1\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str(&format!(
        "\n[languages.fakers]\nname = \"Fake\"\nextensions = [\"fakers\"]\nsource = \"main.rs\"\n\
         toolchain = [{:?}]\nrun = [\"{{toolchain}}/main\"]\nrequired = true\n",
        script.display().to_string()
    ));
    std::fs::write(&config, text).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("--config")
        .arg(&config)
        .arg("doctor")
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("language:    fakers   MISSING (required): ")
            && stdout.contains("failed: error: no default is configured"),
        "{stdout}"
    );
    assert!(
        stderr.contains("required language fakers does not work"),
        "{stderr}"
    );
}

/// A runner that fails the first `fail` runs as the machine would (a box
/// that cannot come up, or a compiler killed from outside), then runs as
/// `inner` does.
struct Faulty {
    inner: std::sync::Arc<dyn Runner>,
    fail: std::sync::atomic::AtomicUsize,
    how: Fault,
}

#[derive(Clone, Copy)]
enum Fault {
    NoBox,
    Killed,
}

impl Runner for Faulty {
    fn run(&self, spec: &RunSpec) -> Result<Outcome, grundy::sandbox::Error> {
        use std::sync::atomic::Ordering;
        let left = self.fail.load(Ordering::SeqCst);
        if left == 0 || spec.program.ends_with("true") || spec.args.iter().any(|a| a == "--version")
        {
            return self.inner.run(spec);
        }
        self.fail.store(left - 1, Ordering::SeqCst);
        match self.how {
            Fault::NoBox => Err(grundy::sandbox::Error::Setup {
                program: "a box".into(),
                step: "preparing the box's file system",
                source: std::io::Error::from_raw_os_error(libc::EBUSY),
            }),
            Fault::Killed => Ok(Outcome {
                termination: Termination::Signaled(libc::SIGKILL),
                cpu_ms: 5,
                wall_ms: 5,
                memory_kib: 0,
                measured_by: grundy::sandbox::Measurement::Rusage,
            }),
        }
    }

    fn describe(&self) -> String {
        "faulty".into()
    }
}

// Issue 20: a compilation the machine failed (no box, the compiler killed
// from outside) was a final CE, cached or not. It is tried again, and the
// judge's fault (an error, IE) when it persists, never the source's.
#[test]
fn r20_a_compilation_the_machine_failed_is_retried_and_never_ce() {
    let Some(sb) = boxed() else { return };
    let data = tempfile::tempdir().unwrap();
    let config = shipped_config(data.path());
    let languages = Languages::new(&config.languages);
    let c = languages.get("c").unwrap();
    let source = Source::new(b"int main(void) { return 0; }".to_vec());
    for how in [Fault::NoBox, Fault::Killed] {
        let cache = ProgramCache::new(data.path().join(format!("p{}", how as u8)));
        let twice = Faulty {
            inner: sb.clone(),
            fail: 2.into(),
            how,
        };
        match c.compile(&twice, &cache, &source, &compile_limits()) {
            Ok(Compiled::Ok(_)) => {}
            Ok(Compiled::Failed(m)) => panic!("two machine faults became CE: {m}"),
            Err(e) => panic!("two machine faults were not retried: {e}"),
        }
        let cache = ProgramCache::new(data.path().join(format!("q{}", how as u8)));
        let always = Faulty {
            inner: sb.clone(),
            fail: 100.into(),
            how,
        };
        match c.compile(&always, &cache, &source, &compile_limits()) {
            Err(_) => {}
            Ok(Compiled::Failed(m)) => panic!("a machine fault became CE: {m}"),
            Ok(Compiled::Ok(_)) => panic!("compiled with no working box"),
        }
        // Nothing wrong was cached: a working machine compiles it.
        match c.compile(sb.as_ref(), &cache, &source, &compile_limits()) {
            Ok(Compiled::Ok(_)) => {}
            other => panic!("after the machine recovered: {other:?}"),
        }
    }
}

// Issue 21: a Python compile ran `import py_compile` in the source's
// directory, so a sibling `py_compile.py` of a directory submission ran
// at compile time (and could make the judge fail).
#[test]
fn r21_a_python_compile_runs_nothing_of_the_submission() {
    let Some(sb) = boxed() else { return };
    if !require_languages(&["python"]) {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let config = shipped_config(data.path());
    let languages = Languages::new(&config.languages);
    let cache = ProgramCache::new(data.path().join("programs"));
    let mut source = Source::new(b"print('hello')\n".to_vec());
    source.siblings.push((
        std::path::PathBuf::from("box/py_compile.py"),
        b"import sys\nprint('ran at compile time')\nsys.exit(3)\n".to_vec(),
    ));
    let python = languages.get("python").unwrap();
    match python.compile(sb.as_ref(), &cache, &source, &compile_limits()) {
        Ok(Compiled::Ok(_)) => {}
        other => panic!("the submission's py_compile.py ran: {other:?}"),
    }
}

// Issue 21: `#![crate_type = "lib"]` made rustc succeed and write an
// archive where the program should be: the failed exec was IE.
#[test]
fn r21_a_compile_that_leaves_no_program_is_ce() {
    let Some(sb) = boxed() else { return };
    let data = tempfile::tempdir().unwrap();
    let config = shipped_config(data.path());
    let languages = Languages::new(&config.languages);
    let cache = ProgramCache::new(data.path().join("programs"));
    let rust = languages.get("rust").unwrap();
    let source = Source::new(b"#![crate_type = \"lib\"]\npub fn f() {}\n".to_vec());
    match rust.compile(sb.as_ref(), &cache, &source, &compile_limits()) {
        Ok(Compiled::Failed(m)) => assert!(m.contains("no runnable program"), "{m}"),
        other => panic!("a library is not a program: {other:?}"),
    }
}

// Issue 21: what a compile leaves is copied into the program cache; a
// tree the copy chokes on (deeper than PATH_MAX allows, unreadable) was
// the judge's failure, IE. It is the program's: a compilation error.
#[test]
fn r21_a_compile_that_leaves_an_uncopyable_tree_is_ce() {
    let Some(sb) = boxed() else { return };
    let data = tempfile::tempdir().unwrap();
    let config = shipped_config(data.path());
    let languages = Languages::new(&config.languages);
    let cache = ProgramCache::new(data.path().join("programs"));
    // A path of 40 × 201 bytes: past PATH_MAX, made one step at a time.
    let deep = r#"#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void) {
    char name[201];
    memset(name, 'd', 200);
    name[200] = 0;
    for (int i = 0; i < 40; i++)
        if (mkdir(name, 0755) != 0 || chdir(name) != 0) return 1;
    FILE *f = fopen("left", "w");
    return f ? 0 : 1;
}
"#;
    let build = "gcc -o deep deep.c && ./deep && rm deep\n";
    let files = vec![
        (
            std::path::PathBuf::from("build"),
            build.as_bytes().to_vec(),
            true,
        ),
        (
            std::path::PathBuf::from("deep.c"),
            deep.as_bytes().to_vec(),
            false,
        ),
        (std::path::PathBuf::from("run"), b"echo hi\n".to_vec(), true),
    ];
    match grundy::lang::scripted::build(&languages, sb.as_ref(), &cache, &files, &compile_limits())
    {
        Ok(Compiled::Failed(m)) => assert!(m.contains("the compile left"), "{m}"),
        other => panic!("an uncopyable tree is the program's: {other:?}"),
    }
}

/// Compiles `text` as `id` in the box and runs it there as the judge does
/// (the language's process bound) with `env` added; its outcome and what
/// it printed.
fn run_as_judged(
    sb: &dyn Runner,
    id: &str,
    text: &str,
    memory_mib: u64,
    env: &[(&str, &str)],
) -> (Outcome, String) {
    let data = tempfile::tempdir().unwrap();
    let config = shipped_config(data.path());
    let languages = Languages::new(&config.languages);
    let cache = ProgramCache::new(data.path().join("programs"));
    let lang = languages.get(id).unwrap();
    let source = Source::new(text.as_bytes().to_vec());
    let program = match lang
        .compile(sb, &cache, &source, &compile_limits())
        .unwrap()
    {
        Compiled::Ok(p) => p,
        Compiled::Failed(m) => panic!("{id} source does not compile: {m}"),
    };
    let (prog, args) = program.command(memory_mib);
    let limits = Limits::new(Duration::from_secs(5), memory_mib << 20)
        .wall(Duration::from_secs(20))
        .processes(program.processes);
    let cwd = tempfile::tempdir().unwrap();
    let capture = tempfile::tempdir().unwrap();
    let mut envs = grundy::lang::base_env();
    envs.extend(env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let spec = RunSpec::new(prog, cwd.path(), limits)
        .args(args)
        .envs(envs)
        .stdout(Stdio::file(capture.path().join("out")))
        .stderr(Stdio::file(capture.path().join("err")))
        .binds(program.binds());
    let outcome = sb.run(&spec).unwrap();
    let out = std::fs::read_to_string(capture.path().join("out")).unwrap_or_default()
        + &std::fs::read_to_string(capture.path().join("err")).unwrap_or_default();
    (outcome, out)
}

// Issue 36: a box allowed 64 processes and threads, every language alike.
// Go's runtime runs a thread per core it schedules on (GOMAXPROCS, the
// machine's cores): on a machine of 128 cores a Go program with parallel
// work could not start its threads and crashed, a run-time error of the
// judge's making. GOMAXPROCS=128 stands in for such a machine.
#[test]
fn r36_a_go_runtime_gets_the_threads_of_a_many_core_machine() {
    let Some(sb) = boxed() else { return };
    if !require_languages(&["go"]) {
        return;
    }
    let text = r#"package main

import (
	"fmt"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	sums := make([]int, 128)
	for i := range sums {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 20000000; j++ {
				sums[i] += j & 7
			}
		}(i)
	}
	wg.Wait()
	fmt.Println("hello", sums[0])
}
"#;
    let (outcome, out) = run_as_judged(sb.as_ref(), "go", text, 256, &[("GOMAXPROCS", "128")]);
    assert_eq!(
        outcome.termination,
        Termination::Exited(0),
        "{outcome:?} {out}"
    );
    assert!(out.starts_with("hello "), "{out}");
}

// Issue 36: every runtime is held to the memory it keeps resident, not the
// address space it reserves, and a program that really uses more than its
// limit is MLE in every language, its runtime's own failure included (a
// JVM or V8 heap exhausted).
#[test]
fn r36_memory_over_the_limit_is_mle_in_every_runtime() {
    let Some(sb) = boxed() else { return };
    let hogs: [(&str, &str); 6] = [
        ("go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tvar keep [][]byte\n\tfor {\n\t\tb := make([]byte, 1<<20)\n\t\tfor i := range b {\n\t\t\tb[i] = 1\n\t\t}\n\t\tkeep = append(keep, b)\n\t\tif len(keep) < 0 {\n\t\t\tfmt.Println(len(keep))\n\t\t}\n\t}\n}\n"),
        ("javascript", "const keep = []; for (;;) keep.push(new Array(1 << 16).fill(1.5));"),
        ("kotlin", "fun main() { val keep = ArrayList<LongArray>(); while (true) keep.add(LongArray(1 shl 17) { it.toLong() }) }"),
        ("csharp", "public static class P { public static void Main() { var keep = new System.Collections.Generic.List<long[]>(); for (;;) { var a = new long[1 << 17]; for (int i = 0; i < a.Length; i++) a[i] = i; keep.Add(a); } } }"),
        ("pypy3", "keep = []\nwhile True:\n    keep.append(bytearray(b'x' * (1 << 20)))\n"),
        ("php", "<?php\n$keep = [];\nwhile (true) { $keep[] = str_repeat('x', 1 << 20); }\n"),
    ];
    let present = languages_present(&hogs.map(|(id, _)| id));
    for (id, text) in hogs {
        if !present.contains(&id) {
            continue;
        }
        let (verdict, outcome, out) = compile_and_run(sb.as_ref(), id, text, slow_limits());
        assert_eq!(verdict, Some(Verdict::MLE), "{id}: {outcome:?} {out}");
    }
}

// Issue 36: the Kattis ids of config.toml and the codes `grundy import`
// reads agree both ways: each code names, by its extension, a language of
// that id, and each language's id is a code import reads.
#[test]
fn r36_kattis_ids_and_extensions_map_both_ways() {
    let data = tempfile::tempdir().unwrap();
    let config = shipped_config(data.path());
    let codes = grundy::problem::kattis::LANGUAGE_CODES;
    for (code, ext) in codes {
        let (id, lang) = config
            .languages
            .iter()
            .find(|(_, l)| l.extensions.iter().any(|e| e == ext))
            .unwrap_or_else(|| panic!("no language takes .{ext} (Kattis {code})"));
        assert_eq!(lang.kattis_id.as_deref(), Some(*code), "{id}");
    }
    for (id, lang) in &config.languages {
        let code = lang
            .kattis_id
            .as_deref()
            .unwrap_or_else(|| panic!("{id}: no kattis_id"));
        assert!(codes.iter().any(|(c, _)| *c == code), "{id}: {code}");
    }
}
