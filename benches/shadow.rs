//! What shadowing costs against judging the same submissions directly
//! (issue 48): `cargo bench --bench shadow`. Nothing is asserted.
//!
//! A contest package holds 32 C++ submissions of nim (half accepted, half
//! wrong), each source new to the program cache (a comment with the
//! round's and the side's number). **Direct**: `grundy submit nim FILE` of
//! each, one after the other. **Shadow**: `grundy contest import` of the
//! package into a fresh database, then `grundy shadow follow --workers 1`
//! to the end (the feed applied, each submission fetched, queued and
//! judged by one worker; the worker first measures the machine's speed,
//! ~0.7 s once per process, as every `grundy worker` does). Goal: shadow ≤
//! 1.1× direct. The two sides alternate, round by round; medians are
//! printed with their ratio.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const GRUNDY: &str = env!("CARGO_BIN_EXE_grundy");
const ROUNDS: usize = 5;
const SUBMISSIONS: usize = 32;

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn run(config: &Path, args: &[&str]) -> String {
    let out = Command::new(GRUNDY)
        .arg("--config")
        .arg(config)
        .args(args)
        .output()
        .expect("grundy");
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "grundy {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The sources of one side of one round: (file name, text).
fn sources(round: usize, side: &str) -> Vec<(String, String)> {
    let nim = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/nim/submissions");
    let right = std::fs::read_to_string(nim.join("accepted/xor.cpp")).expect("xor.cpp");
    let wrong = std::fs::read_to_string(nim.join("wrong_answer/or-instead-of-xor.cpp"))
        .expect("or-instead-of-xor.cpp");
    (0..SUBMISSIONS)
        .map(|i| {
            let text = if i % 2 == 0 { &right } else { &wrong };
            (
                format!("s{i}.cpp"),
                format!("// {side} {round} {i}\n{text}"),
            )
        })
        .collect()
}

/// A contest package of `sources` (a team, nim, C++).
fn package(dir: &Path, sources: &[(String, String)]) {
    use serde_json::json;
    let write = |name: &str, v: serde_json::Value| {
        std::fs::write(dir.join(name), v.to_string()).expect("write");
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("a clock after 1970")
        .as_millis() as i64;
    let start = jiff::Timestamp::from_millisecond(now - 3_600_000).expect("a time");
    write(
        "contest.json",
        json!({"id": "bench", "name": "Bench", "start_time": start.to_string(), "duration": "5:00:00"}),
    );
    write(
        "problems.json",
        json!([{"id": "nim", "label": "A", "ordinal": 1}]),
    );
    write("languages.json", json!([{"id": "cpp", "name": "C++"}]));
    write("teams.json", json!([{"id": "team-1", "name": "One"}]));
    let mut feed = String::new();
    for (i, (name, text)) in sources.iter().enumerate() {
        let id = format!("s{i}");
        let files = dir.join("submissions").join(&id).join("files");
        std::fs::create_dir_all(&files).expect("mkdir");
        std::fs::write(files.join(name), text).expect("write");
        let event = json!({"type": "submissions", "id": id, "token": format!("{}", i + 1), "data": {
            "id": id, "team_id": "team-1", "problem_id": "nim", "language_id": "cpp",
            "contest_time": format!("0:{:02}:00", i + 1), "files": []}});
        feed += &format!("{event}\n");
    }
    std::fs::write(dir.join("event-feed.ndjson"), feed).expect("write");
}

fn main() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let data = scratch.path().join("data");
    // Tests built once, for both sides.
    let warm = scratch.path().join("warm");
    std::fs::create_dir_all(&warm).unwrap();
    let config = common::config(&warm, &data, None, str::to_owned);
    run(&config, &["gen", "nim"]);
    let (mut direct, mut shadow) = (Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        // Direct: each source submitted on its own.
        let dir = scratch.path().join(format!("direct-{round}"));
        std::fs::create_dir_all(&dir).unwrap();
        let db = format!("sqlite://{}", dir.join("grundy.db").display());
        let config = common::config(&dir, &data, Some(&db), str::to_owned);
        let files: Vec<_> = sources(round, "direct")
            .into_iter()
            .map(|(name, text)| {
                let path = dir.join(name);
                std::fs::write(&path, text).unwrap();
                path
            })
            .collect();
        let t = Instant::now();
        for f in &files {
            run(&config, &["submit", "nim", f.to_str().unwrap()]);
        }
        direct.push(t.elapsed());

        // Shadow: the same work through a package.
        let dir = scratch.path().join(format!("shadow-{round}"));
        let pkg = dir.join("pkg");
        std::fs::create_dir_all(&pkg).unwrap();
        package(&pkg, &sources(round, "shadow"));
        let db = format!("sqlite://{}", dir.join("grundy.db").display());
        let config = common::config(&dir, &data, Some(&db), str::to_owned);
        let t = Instant::now();
        run(&config, &["contest", "import", pkg.to_str().unwrap()]);
        let line = run(&config, &["shadow", "follow", "bench", "--workers", "1"]);
        shadow.push(t.elapsed());
        assert!(
            line.starts_with(&format!("{SUBMISSIONS} submissions")),
            "{line}"
        );
        eprintln!(
            "round {round}: direct {:?}, shadow {:?}",
            direct[round], shadow[round]
        );
    }
    let (d, s) = (median(direct), median(shadow));
    println!(
        "shadowing {SUBMISSIONS} C++ submissions: {:.2} s against {:.2} s judged directly: {:.2}x (goal <= 1.1x)",
        s.as_secs_f64(),
        d.as_secs_f64(),
        s.as_secs_f64() / d.as_secs_f64()
    );
}
