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

#[test]
fn every_language_compiles_and_runs_in_the_box() {
    let Some(sb) = boxed() else { return };
    let data = tempfile::tempdir().unwrap();
    let config = shipped_config(data.path());
    let languages = Languages::new(&config.languages);
    let cache = ProgramCache::new(data.path().join("programs"));
    let hello: [(&str, &str); 5] = [
        ("c", "#include <stdio.h>\nint main(void){puts(\"hello\");return 0;}"),
        ("cpp", "#include <bits/stdc++.h>\nint main(){std::cout<<\"hello\\n\";}"),
        ("rust", "fn main(){println!(\"hello\");}"),
        ("python", "print('hello')"),
        ("java", "public class Main{public static void main(String[] a){System.out.println(\"hello\");}}"),
    ];
    for (id, text) in hello {
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
        let (prog, args) = program.command(256);
        let cwd = tempfile::tempdir().unwrap();
        let out = cwd.path().join("out");
        let err = cwd.path().join("err");
        let spec = RunSpec::new(prog, cwd.path().join("box"), slow_limits())
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
            "{id}: {}",
            std::fs::read_to_string(&err).unwrap_or_default()
        );
        assert_eq!(
            std::fs::read_to_string(&out).unwrap().trim(),
            "hello",
            "{id}"
        );
    }
}

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
    for id in ["c", "cpp", "rust", "python", "java"] {
        assert!(
            stdout.contains(&format!("language:    {id:<8} ok")),
            "{stdout}"
        );
    }
    assert_eq!(out.status.code(), Some(0), "{stdout}");
}
