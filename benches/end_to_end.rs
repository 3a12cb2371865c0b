//! A whole judgement from the command line against the same work done
//! bare, in the same run (issue 46): `cargo bench --bench end_to_end`.
//! Nothing is asserted.
//!
//! - **Cached**: `grundy submit nim xor.cpp` whose program is in the cache,
//!   all of nim's tests (61), against a bare loop over the same tests: the
//!   program (compiled once with the same flags) started on each input,
//!   its output compared with `diff -qw`. Goal: ≤ 1.1×.
//! - **New**: a `<cstdio>` source the cache has not seen (a comment with
//!   the round's number), against `g++` of it bare and the same loop.
//!   Goal: ≤ 1.0×.
//!
//! The two sides alternate, round by round, so a machine that drifts moves
//! both; medians are printed with their ratio. Also printed: how long
//! `grundy submit` takes to exit once its verdict is on stdout (the boxes'
//! teardown is what is left then).

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GRUNDY: &str = env!("CARGO_BIN_EXE_grundy");
const ROUNDS: usize = 9;

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

/// `grundy submit` of `source`: how long it took, and how long of that
/// came after the first byte of its verdict.
fn submit(config: &Path, source: &Path) -> (Duration, Duration) {
    let t = Instant::now();
    let mut child = Command::new(GRUNDY)
        .arg("--config")
        .arg(config)
        .args(["submit", "nim"])
        .arg(source)
        .arg("--json")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("grundy submit");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 1];
    stdout.read_exact(&mut first).expect("a verdict");
    let printed = Instant::now();
    let mut text = vec![first[0]];
    stdout.read_to_end(&mut text).expect("stdout");
    assert!(
        child.wait().expect("wait").success(),
        "grundy submit failed"
    );
    let elapsed = t.elapsed();
    let text = String::from_utf8_lossy(&text);
    assert!(text.contains("\"AC\""), "not accepted: {text}");
    (elapsed, printed.elapsed())
}

/// nim's tests as built in data directory `data`: (input, answer) pairs.
fn tests(data: &Path) -> Vec<(PathBuf, PathBuf)> {
    let nim = data.join("tests/nim");
    let built = std::fs::read_dir(&nim)
        .expect("nim's tests built")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.is_dir())
        .expect("a build of nim's tests");
    let mut pairs: Vec<(PathBuf, PathBuf)> = std::fs::read_dir(&built)
        .expect("tests")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "in"))
        .map(|input| (input.clone(), input.with_extension("ans")))
        .collect();
    pairs.sort();
    pairs
}

fn compile(source: &Path, program: &Path) -> Duration {
    let t = Instant::now();
    let ok = Command::new("/usr/bin/g++")
        .args(["-std=c++17", "-O2", "-pipe", "-o"])
        .arg(program)
        .arg(source)
        .status()
        .expect("g++")
        .success();
    assert!(ok, "g++");
    t.elapsed()
}

/// Each test run bare and its output compared by `diff -qw`.
fn bare_loop(program: &Path, tests: &[(PathBuf, PathBuf)], out: &Path) -> Duration {
    let t = Instant::now();
    for (input, answer) in tests {
        let ok = Command::new(program)
            .stdin(std::fs::File::open(input).expect("input"))
            .stdout(std::fs::File::create(out).expect("output"))
            .status()
            .expect("run")
            .success();
        assert!(ok, "the program on {}", input.display());
        let same = Command::new("diff")
            .arg("-qw")
            .arg(out)
            .arg(answer)
            .stdout(Stdio::null())
            .status()
            .expect("diff")
            .success();
        assert!(same, "a wrong answer on {}", input.display());
    }
    t.elapsed()
}

fn main() {
    if Command::new("/usr/bin/g++")
        .arg("--version")
        .output()
        .is_err()
    {
        println!("end to end: skipped (needs g++)");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("var");
    let config = common::config(dir.path(), &data, None, str::to_owned);
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let xor = repo.join("problems/nim/submissions/accepted/xor.cpp");
    // Untimed: builds nim's tests and the precompiled header, caches xor.
    submit(&config, &xor);
    let tests = tests(&data);
    let program = dir.path().join("xor");
    compile(&xor, &program);
    let out = dir.path().join("out");

    let (mut cached, mut bare) = (Vec::new(), Vec::new());
    let (mut fresh, mut bare_fresh) = (Vec::new(), Vec::new());
    let mut tails = Vec::new();
    let text = std::fs::read_to_string(&xor).expect("xor.cpp");
    for round in 0..ROUNDS {
        let (took, tail) = submit(&config, &xor);
        cached.push(took);
        tails.push(tail);
        bare.push(bare_loop(&program, &tests, &out));
        let source = dir.path().join(format!("new{round}.cpp"));
        std::fs::write(&source, format!("{text}// round {round}\n")).expect("source");
        let (took, tail) = submit(&config, &source);
        fresh.push(took);
        tails.push(tail);
        let own = dir.path().join(format!("new{round}"));
        let compiled = compile(&source, &own);
        bare_fresh.push(compiled + bare_loop(&own, &tests, &out));
    }
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let (c, b, f, bf) = (
        median(cached),
        median(bare),
        median(fresh),
        median(bare_fresh),
    );
    println!(
        "end to end, {} tests, median of {ROUNDS}: grundy submit of a cached program {:.0} ms, \
         a bare loop with diff {:.0} ms: {:.2}x (goal <= 1.1x)",
        tests.len(),
        ms(c),
        ms(b),
        c.as_secs_f64() / b.as_secs_f64()
    );
    println!(
        "  a new <cstdio> source: grundy submit {:.0} ms, bare g++ + the loop {:.0} ms: {:.2}x \
         (goal <= 1.0x)",
        ms(f),
        ms(bf),
        f.as_secs_f64() / bf.as_secs_f64()
    );
    println!(
        "  after its verdict is printed, grundy submit exits in {:.1} ms (median of its {} runs)",
        ms(median(tails)),
        2 * ROUNDS
    );
}
