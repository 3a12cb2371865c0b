//! A Kattis package on the hosted judge (issue 23): the hosted judge
//! serves catalog problems only, so a Kattis package reaches it through
//! `grundy import`, which writes the time limit derived from the package's
//! accepted submissions into the problem. That limit is derived once per
//! package version and kept, so `grundy submit` on the package, `import`
//! and the workers judging the imported problem all judge under one limit.
// See: issue 23.

use crate::helpers::{require_languages, require_sources, Server};
use crate::kattis::{copy, fixture, with_own_problems};

/// Doubles its input, as `tongues` asks, after spinning until its own CPU
/// clock reads 5 s: over any limit derived from the package's accepted
/// submissions (which take milliseconds), well under the 60 s a Kattis
/// package has before its limit is derived.
const SLOW_DOUBLE: &str = r#"#include <stdio.h>
#include <time.h>
int main(void) {
    long long n;
    if (scanf("%lld", &n) != 1) return 1;
    volatile unsigned long spin = 0;
    while (clock() < 5 * CLOCKS_PER_SEC) spin++;
    printf("%lld\n", 2 * n);
    return 0;
}
"#;

/// The seconds of a `time limit derived: ... = X s; ...` line.
fn derived_seconds(text: &str) -> f64 {
    let line = text
        .lines()
        .find(|l| l.contains("time limit derived"))
        .unwrap_or_else(|| panic!("no derived limit in: {text}"));
    let after = line.rsplit_once(" = ").map(|(_, a)| a).unwrap_or_default();
    let after = after.split(';').next().unwrap_or_default();
    after
        .trim()
        .trim_end_matches(" s")
        .parse()
        .unwrap_or_else(|_| panic!("no seconds in: {line}"))
}

#[test]
fn a_derived_time_limit_is_the_hosted_judges_limit_too() {
    if !require_sources(&[&fixture("tongues")]) || !require_languages(&["c"]) {
        return;
    }
    let ws = with_own_problems();
    // A version of its own: its limit is derived here, not found kept by
    // another test.
    let dir = copy(&ws, "tongues");
    let yaml = dir.join("problem.yaml");
    let mut text = std::fs::read_to_string(&yaml).unwrap();
    text.push_str(&format!("# copy at {}\n", dir.display()));
    std::fs::write(&yaml, text).unwrap();
    let slow = ws.file("slow.c", SLOW_DOUBLE);

    // The command line derives the limit and judges under it.
    let out = ws.grundy(&["submit", dir.to_str().unwrap(), slow.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}\n{}", out.stdout, out.stderr);
    let seconds = derived_seconds(&out.stderr);
    assert!(
        seconds < 4.0,
        "derived {seconds} s: the spinner must exceed it"
    );
    assert!(out.stdout.contains("TLE"), "{}", out.stdout);

    // import finds the same limit kept, and writes it into the problem.
    let out = ws.grundy(&["import", dir.to_str().unwrap(), "--as", "tongues-hosted"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("kept: derived once"), "{}", out.stdout);
    assert_eq!(derived_seconds(&out.stdout), seconds);

    // The hosted judge's worker judges the imported problem under it: the
    // same verdict, and the limit it recorded is the derived one.
    let s = Server::start(&ws, 1);
    let admin = s.user("root", true);
    let (code, v) = crate::server::submit(&s, &admin, "tongues-hosted", "c", SLOW_DOUBLE);
    assert_eq!(code, 202, "{v}");
    let id = v["id"].as_i64().unwrap();
    let done = crate::server::wait_done(&s, &admin, id);
    assert_eq!(done["verdict"], "TLE", "{done}");
    let limit_ms = (seconds * 1000.0).round() as u64;
    assert_eq!(
        done["timing"]["time_limit_ms"].as_u64(),
        Some(limit_ms),
        "{done}"
    );
    // And an accepted submission of the package is accepted there too.
    let fast = std::fs::read_to_string(dir.join("submissions/accepted/double.C")).unwrap();
    let (code, v) = crate::server::submit(&s, &admin, "tongues-hosted", "cpp", &fast);
    assert_eq!(code, 202, "{v}");
    let done = crate::server::wait_done(&s, &admin, v["id"].as_i64().unwrap());
    assert_eq!(done["verdict"], "AC", "{done}");
}
