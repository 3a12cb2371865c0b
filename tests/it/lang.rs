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

/// A language whose compiler runs the source (a shell script) as the
/// compile: what Template Haskell or a `-pgmF` preprocessor lets any
/// Haskell source do, without needing GHC. Its compile limits are
/// `limits`.
fn compiling_shell(data: &Path) -> Languages {
    let mut config = shipped_config(data);
    let mut sh = config.languages["python"].clone();
    sh.name = "compile-time shell".into();
    sh.kattis_id = None;
    sh.clics_id = None;
    sh.extensions = vec!["sh".into()];
    sh.source = "main.sh".into();
    sh.compile = vec!["/bin/sh".into(), "main.sh".into()];
    sh.run = vec!["/bin/sh".into(), "{dir}/main.sh".into()];
    sh.version = Vec::new();
    sh.toolchain = Vec::new();
    sh.prepare = Vec::new();
    sh.paths = Vec::new();
    // The same, whose run starts the file the compile left (`main`).
    let mut shx = sh.clone();
    shx.extensions = vec!["shx".into()];
    shx.run = vec!["{dir}/main".into()];
    config.languages.insert("sh".into(), sh);
    config.languages.insert("shx".into(), shx);
    Languages::new(&config.languages)
}

/// What the language `shx` of [`compiling_shell`] needs in a config.toml.
const SHX: &str = "\n[languages.shx]\nname = \"compile-time shell\"\nextensions = [\"shx\"]\nsource = \"main.sh\"\ncompile = [\"/bin/sh\", \"main.sh\"]\nrun = [\"{dir}/main\"]\n";

/// Compile limits for a compile that sleeps: 2 s of CPU, 4 s of wall
/// clock.
fn short_compile_limits() -> CompileLimits {
    CompileLimits {
        cpu_limit: 2.0,
        time_limit: 4.0,
        ..compile_limits()
    }
}

/// Compile limits for a compile that is busy: 1 s of CPU, and a wall
/// clock long enough that even a busy machine gives it that second first.
fn busy_compile_limits() -> CompileLimits {
    CompileLimits {
        cpu_limit: 1.0,
        time_limit: 60.0,
        ..compile_limits()
    }
}

/// Compiles `text` as `id` under `limits` in a fresh cache, and expects
/// a compilation error containing `reason`; the program cache keeps
/// nothing of it (a limit met is not the compiler's verdict).
fn expect_ce(
    sb: &dyn Runner,
    languages: &Languages,
    id: &str,
    text: &str,
    limits: &CompileLimits,
    reason: &str,
) {
    let data = tempfile::tempdir().unwrap();
    let cache = ProgramCache::new(data.path().join("programs"));
    let lang = languages.get(id).unwrap();
    let source = Source::new(text.as_bytes().to_vec());
    match lang.compile(sb, &cache, &source, limits) {
        Ok(Compiled::Failed(m)) => assert!(m.contains(reason), "{id} {text:?}: {m}"),
        Ok(Compiled::Ok(_)) => panic!("{id} {text:?} compiled"),
        Err(e) => panic!(
            "{id} {text:?} is the judge's fault (IE): {}",
            grundy::errors::chain(&e)
        ),
    }
    let left: Vec<_> = std::fs::read_dir(data.path().join("programs"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        // (a language's prepared directory, the C++ header, is no compile's)
        .filter(|n| n != "tmp" && !n.to_string_lossy().starts_with("prepared-"))
        .collect();
    assert!(left.is_empty(), "{id} {text:?}: cached {left:?}");
}

// Issue 45: a compile that killed its own compiler, or slept past its
// wall clock with CPU time to spare, was taken for the machine's fault:
// tried three times and IE. Any compile-time code could do it. It is the
// source's CE, with the reason shown; the machine is blamed only when a
// trivial compile in the same language fails too (see
// `r20_a_compilation_the_machine_failed_is_retried_and_never_ce`).
#[test]
fn r45_a_compile_killed_by_a_signal_or_its_wall_clock_is_ce() {
    let Some(sb) = boxed() else { return };
    let data = tempfile::tempdir().unwrap();
    let languages = compiling_shell(data.path());
    let limits = short_compile_limits();
    for (text, reason) in [
        ("kill -KILL $$\n", "killed by signal 9 (SIGKILL)"),
        ("kill -SEGV $$\n", "killed by signal 11 (SIGSEGV)"),
        // Asleep: no CPU used, the wall clock runs out.
        ("sleep 600\n", "compilation used more than 4 s"),
    ] {
        expect_ce(sb.as_ref(), &languages, "sh", text, &limits, reason);
    }
    // Busy: the CPU limit.
    let busy = "while :; do :; done\n";
    expect_ce(
        sb.as_ref(),
        &languages,
        "sh",
        busy,
        &busy_compile_limits(),
        "compilation used more than 1 s of CPU time",
    );
}

// Issue 45: a compile worked in a directory on the host's disk, bounded
// only per file (one compile wrote 504 MiB there in files of 64 MiB). Its
// working space is a tmpfs of the box now, bounded as a whole: a compile
// that fills it is CE with that reason, and nothing it wrote reached the
// host's disk. What a compile leaves within it comes back (files, links,
// directories 32 deep), and the program runs.
#[test]
fn r45_a_compile_works_in_a_bounded_space_off_the_hosts_disk() {
    let Some(sb) = boxed() else { return };
    let data = tempfile::tempdir().unwrap();
    let languages = compiling_shell(data.path());
    let limits = CompileLimits {
        space_limit: 96,
        ..compile_limits()
    };
    // Nine files of 40 MiB, each within the 64 MiB a file may take.
    let fill = "[ \"$(stat -f -c %T .)\" = tmpfs ] || { echo NOT A TMPFS; exit 9; }\n\
                for i in 1 2 3 4 5 6 7 8 9; do head -c 41943040 /dev/zero > big$i || exit 3; done\n\
                cp /bin/true main\n";
    expect_ce(
        sb.as_ref(),
        &languages,
        "shx",
        fill,
        &limits,
        "compilation ran out of its working space (96 MiB)",
    );

    let leaves = "mkdir -p a/b/c && echo kept > a/b/file && ln -s a/b/file link\n\
                  cp /bin/true main\n";
    let cache = ProgramCache::new(data.path().join("programs"));
    let source = Source::new(leaves.as_bytes().to_vec());
    let compiled = languages
        .get("shx")
        .unwrap()
        .compile(sb.as_ref(), &cache, &source, &limits)
        .unwrap_or_else(|e| panic!("IE: {}", grundy::errors::chain(&e)));
    let Compiled::Ok(program) = compiled else {
        panic!("{compiled:?}");
    };
    let dir = &program.dir;
    assert_eq!(
        std::fs::read_to_string(dir.join("a/b/file")).unwrap(),
        "kept\n"
    );
    assert_eq!(
        std::fs::read_link(dir.join("link")).unwrap(),
        Path::new("a/b/file")
    );
    assert!(dir.join("a/b/c").is_dir() && dir.join("main").is_file());
    // Deeper than a cached program may be: copied back to that depth only,
    // and refused.
    let deep =
        "(i=0; while [ $i -lt 40 ]; do mkdir d && cd d || exit 4; i=$((i+1)); done) || exit 4\n\
                cp /bin/true main\n";
    expect_ce(
        sb.as_ref(),
        &languages,
        "shx",
        deep,
        &limits,
        "the compile left directories more than 32 deep",
    );
}

// Issue 45: a C++ compile that runs long (an include bomb: each level
// includes itself twice) is CE with the limit it met, never IE.
#[test]
fn r45_a_cpp_compile_that_runs_long_is_ce() {
    let Some(sb) = boxed() else { return };
    if !require_languages(&["cpp"]) {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let config = shipped_config(data.path());
    let languages = Languages::new(&config.languages);
    let bomb =
        "#if __INCLUDE_LEVEL__ < 40\n#include __FILE__\n#include __FILE__\n#endif\nint main() {}\n";
    expect_ce(
        sb.as_ref(),
        &languages,
        "cpp",
        bomb,
        &busy_compile_limits(),
        "compilation used more than 1 s of CPU time",
    );
}

// Issue 45: Template Haskell runs arbitrary code in GHC: a splice that
// kills GHC, or sleeps, made the compile IE. It is CE.
#[test]
fn r45_template_haskell_that_kills_or_sleeps_is_ce() {
    let Some(sb) = boxed() else { return };
    if !require_languages(&["haskell"]) {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let config = shipped_config(data.path());
    let languages = Languages::new(&config.languages);
    // Room for GHC to start and reach the splice on a busy machine.
    let limits = CompileLimits {
        cpu_limit: 20.0,
        time_limit: 25.0,
        ..compile_limits()
    };
    let splice = |action: &str| {
        format!(
            "{{-# LANGUAGE TemplateHaskell #-}}\nimport Language.Haskell.TH\nimport qualified Control.Concurrent\nimport qualified System.Posix.Signals\nmain :: IO ()\nmain = print $(runIO ({action}) >> [| (1 :: Int) |])\n"
        )
    };
    let kill = splice("System.Posix.Signals.raiseSignal System.Posix.Signals.sigKILL");
    expect_ce(
        sb.as_ref(),
        &languages,
        "haskell",
        &kill,
        &limits,
        "killed by signal 9 (SIGKILL)",
    );
    let sleep = splice("Control.Concurrent.threadDelay 600000000");
    expect_ce(
        sb.as_ref(),
        &languages,
        "haskell",
        &sleep,
        &limits,
        "compilation used more than 25 s",
    );
}

// Issue 45: a compile whose program was a symbolic link (to an absolute
// path) passed the host's check, was cached, and could never start in
// the box: IE on every test of every later submission of it. A program
// must be a file of its own, and a link out of the compile's directory is
// refused: CE, nothing cached.
#[test]
fn r45_a_compile_that_leaves_a_link_is_ce_and_not_cached() {
    let Some(sb) = boxed() else { return };
    let data = tempfile::tempdir().unwrap();
    let languages = compiling_shell(data.path());
    for (text, reason) in [
        ("ln -s /bin/true main\n", "main is a symbolic link"),
        (
            "cp /bin/true real && ln -s real main\n",
            "main is a symbolic link",
        ),
        (
            "cp /bin/true main && ln -s /etc/passwd data\n",
            "a symbolic link out of its directory: data -> /etc/passwd",
        ),
        (
            "cp /bin/true main && mkdir d && ln -s ../../x d/up\n",
            "a symbolic link out of its directory",
        ),
    ] {
        expect_ce(
            sb.as_ref(),
            &languages,
            "shx",
            text,
            &compile_limits(),
            reason,
        );
    }
}

/// The compile directories a cache holds while compiles run: none once
/// they are over.
fn compile_dirs_left(cache_root: &Path) -> Vec<std::ffi::OsString> {
    std::fs::read_dir(cache_root.join("tmp"))
        .map(|read| read.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default()
}

// Issue 45: what a compile left was removed by a walk that held a
// descriptor per level (30,000 nested directories: EMFILE, and the tree
// stayed) and could not enter a directory of mode 000 (a judge that is
// not root: the tree stayed). Both shapes are left here, with the compile
// failing and succeeding; nothing of them survives, as root and as an
// ordinary user.
#[test]
fn r45_nothing_a_compile_leaves_survives_it() {
    let Some(sb) = boxed() else { return };
    let data = tempfile::tempdir().unwrap();
    let languages = compiling_shell(data.path());
    let maker = r#"#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int deep = atoi(argv[1]);
    if (mkdir("locked", 0700) || mkdir("locked/inner", 0700)) return 1;
    FILE *f = fopen("locked/inner/file", "w");
    if (!f) return 1;
    fclose(f);
    if (chmod("locked/inner", 0) || chmod("locked", 0)) return 1;
    for (int i = 0; i < deep; i++)
        if (mkdir("d", 0700) || chdir("d")) return 1;
    f = fopen("bottom", "w");
    if (!f) return 1;
    fclose(f);
    if (chmod(".", 0)) return 1;
    puts("made");
    return 0;
}
"#;
    for (deep, ends) in [
        (30_000, "exit 1"),
        (30_000, "cp /bin/true main"),
        (3, "cp /bin/true main"),
    ] {
        let text = format!(
            "cat > maker.c <<'EOF'\n{maker}EOF\ngcc -o maker maker.c && ./maker {deep} && rm maker maker.c || {{ echo MAKER FAILED; exit 2; }}\n{ends}\n"
        );
        let cache_root = data.path().join(format!("programs-{deep}-{}", ends.len()));
        let cache = ProgramCache::new(cache_root.clone());
        let source = Source::new(text.into_bytes());
        let compiled = languages
            .get("shx")
            .unwrap()
            .compile(sb.as_ref(), &cache, &source, &compile_limits())
            .unwrap_or_else(|e| panic!("{deep} {ends}: IE: {}", grundy::errors::chain(&e)));
        // Refused or cached; never the maker's own failure.
        match &compiled {
            Compiled::Failed(m) => assert!(
                !m.is_empty() && !m.contains("MAKER FAILED"),
                "{deep} {ends}: {m}"
            ),
            Compiled::Ok(p) => assert!(deep < 32 && p.dir.join("main").is_file(), "{deep} {ends}"),
        }
        assert_eq!(
            compile_dirs_left(&cache_root),
            Vec::<std::ffi::OsString>::new(),
            "{deep} {ends}"
        );
    }
}

// Issue 45: a cached program that does not start in the box was IE on
// every test, and for every later submission of it, since the cache
// served it again. It is evicted and compiled once more; a program that
// cannot start even when fresh is the submission's CE, never IE.
#[test]
fn r45_a_cached_program_that_does_not_start_is_compiled_again() {
    let Some(_) = boxed() else { return };
    // Judging nim builds its tests with its Rust solver.
    if !require_languages(&["c", "rust"]) {
        return;
    }
    let ws = super::helpers::Workspace::new();
    let mut config = std::fs::read_to_string(ws.config()).unwrap();
    config.push_str(SHX);
    std::fs::write(ws.config(), config).unwrap();
    // Unique to this run, so its cache entry is this test's alone.
    let nonce = format!(
        "# {} {:?}\n",
        std::process::id(),
        std::time::SystemTime::now()
    );
    // The program too: the cache outlives a run of the tests, and an entry
    // of an earlier run must not be taken for this one's.
    let program = format!(
        "#!/bin/sh\n# {}\necho No\n",
        nonce.trim_start_matches("# ").trim()
    );
    let good = format!(
        "{nonce}printf '{}' > main && chmod 755 main\n",
        program.replace('\n', "\\n")
    );
    let first = ws.submit("nim", "good.shx", &good).json();
    let verdict = first["verdict"].as_str().unwrap().to_string();
    assert!(verdict == "AC" || verdict == "WA", "{first}");
    // The entry it left, made into a program the box cannot start (as a
    // compile of an older judge, or a damaged disk, could leave it).
    let programs = super::helpers::shared_data().join("programs");
    let entry = std::fs::read_dir(&programs)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("main").is_file())
        .find(|p| std::fs::read_to_string(p.join("main")).is_ok_and(|t| t == program))
        .expect("the program in the cache");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&entry, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(entry.join("main"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(entry.join("main"), "#!/nonexistent/interpreter\n").unwrap();
    let again = ws.submit("nim", "good.shx", &good).json();
    assert_eq!(again["verdict"], first["verdict"], "{again}");
    assert_eq!(
        std::fs::read_to_string(entry.join("main")).unwrap(),
        program,
        "compiled once more into the cache"
    );
    // A compile whose fresh program cannot start either: CE.
    let broken =
        format!("{nonce}printf '#!/nonexistent/interpreter\\n' > main && chmod 755 main\n");
    let out = ws.submit("nim", "broken.shx", &broken);
    let json = out.json();
    assert_eq!(json["verdict"], "CE", "{json} {}", out.stderr);
    assert!(
        json["compile_output"]
            .as_str()
            .unwrap()
            .contains("cannot be started"),
        "{json}"
    );
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
