//! A finished contest exported as a CLICS contest package (2023-06) for
//! the ICPC Resolver: `grundy contest export` and the admin page's
//! download. Each file is checked against the standard's own schemas, the
//! feed is the admin's complete feed ending in the final state, and the
//! feed's judgements, folded into a board by the ICPC rules written out
//! here again, give the API's final scoreboard.

use std::collections::BTreeMap;
use std::io::Read as _;
use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use crate::clics::{assert_valid, basic, get, json};
use crate::helpers::{c_judge, NIM_C_AC, NIM_C_WA_FIRST};

fn now_ms() -> i64 {
    grundy::site::contests::now_ms()
}

/// Sleeps until the clock reads `ms` (a moment a few seconds ahead).
fn wait_until(ms: i64) {
    assert!(ms - now_ms() < 60_000, "waits only for moments close ahead");
    while now_ms() < ms {
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A RELTIME (`H:MM:SS.fff`) in milliseconds.
fn reltime_ms(text: &str) -> i64 {
    let (sign, text) = match text.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, text),
    };
    let parts: Vec<&str> = text.split(':').collect();
    assert_eq!(parts.len(), 3, "RELTIME {text}");
    let h: i64 = parts[0].parse().expect("hours");
    let m: i64 = parts[1].parse().expect("minutes");
    let s: f64 = parts[2].parse().expect("seconds");
    sign * ((h * 60 + m) * 60_000 + (s * 1000.0).round() as i64)
}

/// A team's standing folded from the feed: solved, penalty time, and per
/// problem (solved, minute of the accepted try).
#[derive(Debug, PartialEq)]
struct Standing {
    solved: i64,
    time: i64,
    last_ac: i64,
    problems: BTreeMap<String, (bool, Option<i64>)>,
}

/// Folds an event feed into each team's standing by the ICPC rules: per
/// problem, tries in order of time up to the first accepted one; each
/// earlier try whose judgement type has a penalty adds `penalty_time`
/// minutes (CE and JE none); the accepted try adds its minute. The latest
/// event of an object is its state; a try's latest judgement its result.
fn replay(events: &[Value]) -> BTreeMap<String, Standing> {
    let mut latest: BTreeMap<(String, String), Value> = BTreeMap::new();
    let mut contest = Value::Null;
    for e in events {
        let kind = e["type"].as_str().expect("a type").to_string();
        if kind == "contest" {
            contest = e["data"].clone();
        } else if let Some(id) = e["id"].as_str() {
            latest.insert((kind, id.to_string()), e["data"].clone());
        }
    }
    let penalty = contest["penalty_time"].as_i64().expect("penalty_time");
    let of = |kind: &str| -> Vec<&Value> {
        latest
            .iter()
            .filter(|((k, _), v)| k == kind && !v.is_null())
            .map(|(_, v)| v)
            .collect()
    };
    let types: BTreeMap<&str, (bool, bool)> = of("judgement-types")
        .into_iter()
        .map(|t| {
            (
                t["id"].as_str().unwrap(),
                (
                    t["penalty"].as_bool().unwrap(),
                    t["solved"].as_bool().unwrap(),
                ),
            )
        })
        .collect();
    // A try's verdict is its latest judgement's (a rejudge is a new
    // judgement, begun later).
    let mut judgements = of("judgements");
    judgements.sort_by_key(|j| j["start_time"].as_str().map(String::from));
    let verdicts: BTreeMap<&str, &str> = judgements
        .into_iter()
        .filter_map(|j| {
            Some((
                j["submission_id"].as_str()?,
                j["judgement_type_id"].as_str()?,
            ))
        })
        .collect();
    let problems: Vec<&str> = of("problems")
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    let mut tries: Vec<(&str, &str, i64, i64, Option<&str>)> = of("submissions")
        .into_iter()
        .map(|s| {
            let id = s["id"].as_str().unwrap();
            (
                s["team_id"].as_str().unwrap(),
                s["problem_id"].as_str().unwrap(),
                reltime_ms(s["contest_time"].as_str().unwrap()),
                id.parse::<i64>().unwrap(),
                verdicts.get(id).copied(),
            )
        })
        .collect();
    tries.sort_by_key(|t| (t.2, t.3));
    let mut out = BTreeMap::new();
    for team in of("teams") {
        let team = team["id"].as_str().unwrap();
        let mut standing = Standing {
            solved: 0,
            time: 0,
            last_ac: 0,
            problems: BTreeMap::new(),
        };
        for p in &problems {
            let mut rejected = 0;
            let mut cell = (false, None);
            for (_, _, at, _, verdict) in tries.iter().filter(|t| t.0 == team && t.1 == *p) {
                let verdict = verdict.expect("every try judged in a final feed");
                let (penalised, solved) = types[verdict];
                if solved {
                    let minute = at / 60_000;
                    cell = (true, Some(minute));
                    standing.solved += 1;
                    standing.time += minute + penalty * rejected;
                    standing.last_ac = standing.last_ac.max(minute);
                    break;
                }
                if penalised {
                    rejected += 1;
                }
            }
            standing.problems.insert(p.to_string(), cell);
        }
        out.insert(team.to_string(), standing);
    }
    out
}

/// Ranks by solved, then time, then the last accepted minute; equal
/// teams share.
fn ranks(board: &BTreeMap<String, Standing>) -> BTreeMap<String, u64> {
    let key = |s: &Standing| (-s.solved, s.time, s.last_ac);
    board
        .iter()
        .map(|(team, s)| {
            let better = board.values().filter(|o| key(o) < key(s)).count();
            (team.clone(), better as u64 + 1)
        })
        .collect()
}

fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn read_json(dir: &Path, name: &str) -> Value {
    let text = std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The files of a ZIP archive, read by Python's zipfile (an implementation
/// other than ours), or `None` without python3.
fn unzip(zip: &[u8]) -> Option<BTreeMap<String, Vec<u8>>> {
    if !crate::helpers::runnable(Path::new("/usr/bin/python3")) {
        crate::helpers::skip("python3 (to read ZIP archives back): apt-get install python3");
        return None;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("a.zip");
    std::fs::write(&path, zip).expect("write");
    let out = std::process::Command::new("/usr/bin/python3")
        .args([
            "-c",
            "import json, sys, zipfile\n\
             z = zipfile.ZipFile(sys.argv[1])\n\
             assert z.testzip() is None\n\
             print(json.dumps({n: list(z.read(n)) for n in z.namelist()}))",
        ])
        .arg(&path)
        .output()
        .expect("python3");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let files: BTreeMap<String, Vec<u8>> = serde_json::from_slice(&out.stdout).expect("JSON");
    Some(files)
}

fn get_bytes(url: &str, headers: &[(&str, &str)]) -> (u16, String, Vec<u8>) {
    let agent = crate::http::agent(Duration::from_secs(60), false);
    let resp = crate::http::open(&agent, "GET", url, headers, crate::http::Body::Empty);
    let status = resp.status().as_u16();
    let kind = crate::http::mime_type(
        resp.headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
    );
    let mut body = Vec::new();
    resp.into_body()
        .into_reader()
        .take(64 << 20)
        .read_to_end(&mut body)
        .expect("body");
    (status, kind, body)
}

#[test]
fn a_finished_contest_exports_a_package_that_replays_to_its_final_board() {
    let Some((ws, s)) = c_judge() else {
        return;
    };
    s.account("ann", true);
    let bob = s.account("bob", false);
    let cid = s.account("cid", false);
    let dan = s.account("dan", false);
    // Twelve seconds, the last six frozen.
    let start = now_ms() - 1000;
    let new = grundy::store::NewContest {
        slug: "cup".into(),
        name: "The Cup".into(),
        start_ms: start,
        duration_s: 12,
        freeze_s: 6,
        penalty_min: 20,
        scoring: grundy::contest::Scoring::Icpc,
        medals: grundy::contest::Medals::default(),
        participants: Some(vec!["bob".into(), "cid".into(), "dan".into()]),
        problems: vec![("A".into(), "nim".into())],
        colors: Vec::new(),
    };
    let id =
        s.rt.block_on(s.store.create_contest(&new, now_ms()))
            .expect("create");
    let submit = |user: i64, source: &str| s.contest_submit("cup", user, source);
    // Before the freeze: bob wrong, a compile error (no penalty), right;
    // cid wrong.
    submit(bob, NIM_C_WA_FIRST);
    submit(bob, "int main( {\n");
    let bob_ac = submit(bob, NIM_C_AC);
    submit(cid, NIM_C_WA_FIRST);
    let refused = ws.grundy(&["contest", "export", "cup", "early"]);
    refused.assert_usage_error("has not ended");
    assert!(!ws.dir.path().join("early").exists(), "nothing written");
    // Frozen: cid right, dan wrong.
    wait_until(start + 6_100);
    submit(cid, NIM_C_AC);
    submit(dan, NIM_C_WA_FIRST);
    wait_until(start + 12_100);
    s.contest_judged(id);
    let api = format!("{}/api/contests/cup", s.url);

    // Ended, still frozen: final for the Resolver to reveal, with every
    // result (the admin's view), and no end_of_updates yet.
    let frozen_dir = ws.dir.path().join("frozen");
    let out = ws.grundy(&["contest", "export", "cup", frozen_dir.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("still frozen"), "{}", out.stderr);
    let state = read_json(&frozen_dir, "state.json");
    assert_valid("state", &state);
    assert!(
        state["finalized"].is_string() && state["frozen"].is_string(),
        "{state}"
    );
    assert!(
        state["thawed"].is_null() && state["end_of_updates"].is_null(),
        "{state}"
    );
    let judgements = read_json(&frozen_dir, "judgements.json");
    assert_eq!(judgements.as_array().map(Vec::len), Some(6), "{judgements}");
    let feed = lines(&std::fs::read_to_string(frozen_dir.join("event-feed.ndjson")).unwrap());
    assert!(feed.iter().all(|e| e["data"]["end_of_updates"].is_null()));
    // Every line has a token of its own, as a package reader requires.
    let tokens: Vec<&str> = feed.iter().filter_map(|e| e["token"].as_str()).collect();
    assert_eq!(tokens.len(), feed.len(), "a line without a token");
    let unique: std::collections::BTreeSet<&str> = tokens.iter().copied().collect();
    assert_eq!(unique.len(), tokens.len(), "a token repeated: {tokens:?}");
    let public = json(&format!("{api}/scoreboard"), None);
    assert_eq!(
        public["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["team_id"].as_str() == Some(cid.to_string().as_str()))
            .unwrap()["problems"][0]["num_pending"],
        1,
        "the public still sees cid's try pending: {public}"
    );

    // Unfrozen: the archive, ending with end_of_updates.
    s.rt.block_on(s.store.set_contest_thawed(id, Some(now_ms())))
        .expect("thaw");
    let dir = ws.dir.path().join("cup");
    let out = ws.grundy(&["contest", "export", "cup", dir.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.is_empty(), "no warning: {}", out.stderr);
    assert!(out.stdout.contains("exported cup"), "{}", out.stdout);
    ws.grundy(&["contest", "export", "cup", dir.to_str().unwrap()])
        .assert_usage_error("is not empty");
    for (file, schema) in [
        ("api.json", "api_information"),
        ("contest.json", "contest"),
        ("state.json", "state"),
        ("access.json", "access"),
        ("judgement-types.json", "judgement-types"),
        ("languages.json", "languages"),
        ("problems.json", "problems"),
        ("teams.json", "teams"),
        ("submissions.json", "submissions"),
        ("judgements.json", "judgements"),
        ("runs.json", "runs"),
        ("clarifications.json", "clarifications"),
        ("awards.json", "awards"),
        ("scoreboard.json", "scoreboard"),
    ] {
        assert_valid(schema, &read_json(&dir, file));
    }
    let contest = read_json(&dir, "contest.json");
    assert_eq!(contest["id"], "cup");
    assert_eq!(contest["scoreboard_freeze_duration"], "0:00:06.000");
    let text = std::fs::read_to_string(dir.join("event-feed.ndjson")).unwrap();
    let feed = lines(&text);
    for e in &feed {
        assert_valid("event-feed", e);
    }
    let last = feed.last().expect("events");
    assert_eq!(last["type"], "state", "{last}");
    assert!(last["data"]["end_of_updates"].is_string(), "{last}");
    assert!(
        feed[..feed.len() - 1]
            .iter()
            .all(|e| e["data"]["end_of_updates"].is_null()),
        "end_of_updates once, last"
    );
    let state = read_json(&dir, "state.json");
    assert_eq!(&last["data"], &state, "the feed ends in state.json's state");
    for moment in ["started", "frozen", "ended", "thawed", "finalized"] {
        assert!(state[moment].is_string(), "{moment} in {state}");
    }

    // The same feed as the API's, for the admin (the states aside: the
    // package adds the final one, as no admin finalized the contest), its
    // awards as the standings left them: its awards.json.
    let mut awards: Vec<(String, Value)> = Vec::new();
    for e in feed.iter().filter(|e| e["type"] == "awards") {
        let id = e["id"].as_str().unwrap().to_string();
        match awards.iter_mut().find(|(k, _)| *k == id) {
            Some(slot) => slot.1 = e["data"].clone(),
            None => awards.push((id, e["data"].clone())),
        }
    }
    let awards: Vec<Value> = awards
        .into_iter()
        .map(|(_, v)| v)
        .filter(|v| !v.is_null())
        .collect();
    assert_eq!(Value::Array(awards.clone()), read_json(&dir, "awards.json"));
    assert!(awards.iter().any(|a| a["id"] == "winner"), "{awards:?}");
    let (status, live) = get(
        &format!("{api}/event-feed?stream=false"),
        Some(&basic("ann")),
    );
    assert_eq!(status, 200);
    let objects = |events: &[Value]| -> Vec<String> {
        let mut v: Vec<String> = events
            .iter()
            .filter(|e| e["type"] != "state")
            .map(|e| format!("{} {} {}", e["type"], e["id"], e["data"]))
            .collect();
        v.sort();
        v
    };
    assert_eq!(objects(&feed), objects(&lines(&live)));

    // Replayed, the feed gives the API's final board.
    let replayed = replay(&feed);
    let rank = ranks(&replayed);
    let board = json(&format!("{api}/scoreboard"), None);
    let rows = board["rows"].as_array().unwrap();
    assert_eq!(rows.len(), replayed.len());
    for row in rows {
        let team = row["team_id"].as_str().unwrap();
        let mine = &replayed[team];
        assert_eq!(row["score"]["num_solved"], mine.solved, "{team}: {row}");
        assert_eq!(row["score"]["total_time"], mine.time, "{team}: {row}");
        assert_eq!(row["rank"], rank[team], "{team}: {row}");
        for p in row["problems"].as_array().unwrap() {
            let (solved, minute) = mine.problems[p["problem_id"].as_str().unwrap()];
            assert_eq!(p["solved"], solved, "{team}: {p}");
            if solved {
                assert_eq!(p["time"], minute.unwrap(), "{team}: {p}");
            }
        }
    }
    // bob: accepted with one penalised try before it (the CE is free).
    let bob_row = &replayed[&bob.to_string()];
    assert_eq!(bob_row.solved, 1);
    assert_eq!(bob_row.time, 20, "minute 0 plus one wrong try");
    assert_eq!(replayed[&cid.to_string()].time, 20, "cid too");
    assert_eq!(replayed[&dan.to_string()].solved, 0);
    assert_eq!(read_json(&dir, "scoreboard.json")["rows"], board["rows"]);

    // Each submission's files: a reference to files.zip, the file beside
    // it holding the source at its root.
    let subs = read_json(&dir, "submissions.json");
    assert_eq!(subs.as_array().map(Vec::len), Some(6));
    for sub in subs.as_array().unwrap() {
        let sid = sub["id"].as_str().unwrap();
        assert_eq!(sub["files"][0]["filename"], "files.zip");
        assert_eq!(sub["files"][0]["mime"], "application/zip");
        assert!(
            dir.join(format!("submissions/{sid}/files.zip")).is_file(),
            "{sid}"
        );
    }
    let zip = std::fs::read(dir.join(format!("submissions/{bob_ac}/files.zip"))).unwrap();
    if let Some(files) = unzip(&zip) {
        assert_eq!(files.keys().collect::<Vec<_>>(), ["main.c"]);
        assert_eq!(files["main.c"], NIM_C_AC.as_bytes());
    }
    // The same files from the API: for the admin and the team, no one else.
    let url = format!("{api}/submissions/{bob_ac}/files");
    let (status, kind, body) = get_bytes(&url, &[("Authorization", &basic("bob"))]);
    assert_eq!((status, kind.as_str()), (200, "application/zip"));
    assert_eq!(body, zip);
    assert_eq!(get_bytes(&url, &[("Authorization", &basic("ann"))]).0, 200);
    assert_eq!(get_bytes(&url, &[("Authorization", &basic("cid"))]).0, 403);
    assert_eq!(get_bytes(&url, &[]).0, 403);
    let public_subs = json(&format!("{api}/submissions"), None);
    assert!(
        public_subs
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["files"] == serde_json::json!([])),
        "no file references for the public: {public_subs}"
    );

    // Exported again: the same package.
    let again = ws.dir.path().join("again");
    assert_eq!(
        ws.grundy(&["contest", "export", "cup", again.to_str().unwrap()])
            .code,
        0
    );
    assert_eq!(
        std::fs::read(again.join("event-feed.ndjson")).unwrap(),
        text.as_bytes(),
        "an export is a function of the stored contest"
    );

    // The admin page's download: the same files in one archive.
    let ann = crate::web::sign_in(&s.url, "ann");
    let (status, kind, body) = get_bytes(
        &format!("{}/admin/contests/cup/package.zip", s.url),
        &[("Cookie", &ann)],
    );
    assert_eq!((status, kind.as_str()), (200, "application/zip"));
    if let Some(files) = unzip(&body) {
        assert_eq!(files["event-feed.ndjson"], text.as_bytes());
        assert_eq!(
            files.len(),
            17 + 6,
            "16 JSON files, the feed, 6 submissions"
        );
    }
    let bob_cookie = crate::web::sign_in(&s.url, "bob");
    assert_eq!(
        get_bytes(
            &format!("{}/admin/contests/cup/package.zip", s.url),
            &[("Cookie", &bob_cookie)]
        )
        .0,
        403
    );
    let page = crate::web::http(
        "GET",
        &format!("{}/admin/contests/cup", s.url),
        Some(&ann),
        None,
    );
    assert!(
        page.body.contains("id=\"download-package\""),
        "{}",
        page.body
    );
}
