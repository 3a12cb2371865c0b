//! Shadowing another contest system (issue 48): a contest set up from a
//! CLICS contest package or a live Contest API (`grundy contest import`),
//! its feed followed and every submission judged again here (`grundy
//! shadow follow`), and the differences listed (`grundy shadow diff`),
//! against the sources a jury meets: a package written by hand as another
//! system would (other ids, other language ids, a judgement deleted and
//! replaced, a judgement before its submission, a submission whose files
//! are missing), a package grundy exported, and a second grundy serving
//! the contest live. Verdicts are planted to differ, and the shadow is
//! killed in the middle of the feed.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::helpers::{
    c_judge, require_languages, workspace_with_server, zip_dir, Workspace, NIM_C_AC, NIM_C_WA_FIRST,
};

fn now_ms() -> i64 {
    grundy::site::contests::now_ms()
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A ZIP archive of `files` (name, contents).
fn zip_of(files: &[(&str, &str)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, text) in files {
        w.start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        std::io::Write::write_all(&mut w, text.as_bytes()).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// A contest package as another system writes one: its own ids for the
/// contest, problem, teams and languages (`gnu-c` for C); submissions `s-100` (right,
/// judged right), `s-101` (wrong on test 1, judged right there: planted),
/// `s-102` (right; its first judgement, wrong, deleted and replaced by a
/// right one), `s-103` (its files missing), `s-104` (COBOL, which grundy
/// does not judge), `s-105` (deleted by the other system); the judgement
/// of `s-101` comes before the submission, and `s-100` comes twice.
fn hand_written_package(dir: &Path) {
    let start = jiff::Timestamp::from_millisecond(now_ms() - 3_600_000).unwrap();
    write(
        &dir.join("contest.json"),
        &json!({
            "id": "wf2026", "name": "Finals", "formal_name": "World Finals 2026",
            "start_time": start.to_string(), "duration": "5:00:00.000",
            "scoreboard_freeze_duration": "1:00:00.000", "penalty_time": "0:20:00",
            "scoreboard_type": "pass-fail",
        })
        .to_string(),
    );
    write(
        &dir.join("problems.json"),
        &json!([{"id": "p-nim", "label": "A", "name": "Nim", "ordinal": 1, "rgb": "#ff0000"}])
            .to_string(),
    );
    write(
        &dir.join("languages.json"),
        &json!([{"id": "gnu-c", "name": "C"}, {"id": "cobol", "name": "COBOL"}]).to_string(),
    );
    write(
        &dir.join("organizations.json"),
        &json!([{"id": "uni-1", "name": "Uni One", "formal_name": "University One", "country": "NLD", "icpc_id": "4411"}])
            .to_string(),
    );
    write(
        &dir.join("groups.json"),
        &json!([{"id": "participants", "name": "Participants"}]).to_string(),
    );
    write(
        &dir.join("teams.json"),
        &json!([
            {"id": "team-7", "name": "Seven", "organization_id": "uni-1", "group_ids": ["participants"], "icpc_id": "777"},
            {"id": "team-9", "name": "Nine", "organization_id": "uni-1", "group_ids": ["participants"]},
        ])
        .to_string(),
    );
    let sub = |id: &str, team: &str, lang: &str, at: &str| {
        json!({"type": "submissions", "id": id, "data": {
            "id": id, "team_id": team, "problem_id": "p-nim", "language_id": lang,
            "contest_time": at, "time": "2026-11-30T10:00:00.000+00:00",
            "files": [{"href": format!("contests/wf2026/submissions/{id}/files"), "mime": "application/zip"}],
        }})
    };
    let judgement = |id: &str, sub: &str, verdict: &str| {
        json!({"type": "judgements", "id": id, "data": {
            "id": id, "submission_id": sub, "judgement_type_id": verdict,
            "start_contest_time": "0:30:00.000", "max_run_time": 0.05,
        }})
    };
    let run = |id: &str, judgement: &str, ordinal: i64, verdict: &str| {
        json!({"type": "runs", "id": id, "data": {
            "id": id, "judgement_id": judgement, "ordinal": ordinal,
            "judgement_type_id": verdict, "run_time": 0.01,
        }})
    };
    let gone = |kind: &str, id: &str| json!({"type": kind, "id": id, "data": null});
    let events = vec![
        json!({"type": "judgement-types", "id": null, "data": [
            {"id": "AC", "name": "correct", "penalty": false, "solved": true},
            {"id": "WA", "name": "wrong", "penalty": true, "solved": false},
            {"id": "RTE", "name": "crash", "penalty": true, "solved": false},
        ]}),
        json!({"type": "contest", "id": "wf2026", "data": {"id": "wf2026"}}),
        sub("s-100", "team-7", "gnu-c", "0:10:00.000"),
        judgement("j-100", "s-100", "AC"),
        run("r-1", "j-100", 1, "AC"),
        // The same submission again (an update of its object): judged once.
        sub("s-100", "team-7", "gnu-c", "0:10:00.000"),
        // Out of order: the judgement and a run before the submission.
        judgement("j-101", "s-101", "AC"),
        run("r-2", "j-101", 1, "AC"),
        sub("s-101", "team-9", "gnu-c", "0:20:00.000"),
        sub("s-102", "team-7", "gnu-c", "0:40:00.000"),
        judgement("j-102a", "s-102", "WA"),
        gone("judgements", "j-102a"),
        judgement("j-102b", "s-102", "AC"),
        sub("s-103", "team-9", "gnu-c", "0:50:00.000"),
        sub("s-104", "team-9", "cobol", "0:55:00.000"),
        sub("s-105", "team-7", "gnu-c", "1:00:00.000"),
        judgement("j-105", "s-105", "WA"),
        gone("submissions", "s-105"),
        json!({"type": "state", "id": null, "data": {"started": start.to_string(), "end_of_updates": start.to_string()}}),
    ];
    let feed: String = events
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let mut e = e.clone();
            e["token"] = json!(format!("t{}", i + 1));
            format!("{e}\n")
        })
        .collect();
    write(&dir.join("event-feed.ndjson"), &feed);
    // Files: a ZIP archive (the reference's form) or a directory.
    let files = dir.join("submissions");
    std::fs::create_dir_all(files.join("s-100")).unwrap();
    std::fs::write(
        files.join("s-100/files.zip"),
        zip_of(&[("main.c", NIM_C_AC)]),
    )
    .unwrap();
    write(&files.join("s-101/files/wrong.c"), NIM_C_WA_FIRST);
    write(&files.join("s-102/files/right.c"), NIM_C_AC);
    write(
        &files.join("s-104/files/main.cob"),
        "IDENTIFICATION DIVISION.\n",
    );
    write(&files.join("s-105/files/main.c"), NIM_C_WA_FIRST);
}

/// `grundy shadow follow SLUG` started, as a child process.
fn follow_child(ws: &Workspace, slug: &str) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("--config")
        .arg(ws.config())
        .args(["shadow", "follow", slug, "--workers", "1"])
        .current_dir(ws.dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start grundy shadow follow")
}

fn diff_json(ws: &Workspace, slug: &str, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["shadow", "diff", slug, "--json"];
    args.extend_from_slice(extra);
    let out = ws.grundy(&args);
    assert!(out.code == 0 || out.code == 1, "{}", out.stderr);
    (out.code, out.json())
}

/// The submissions of contest `slug` in the workspace's database.
fn contest_submissions(ws: &Workspace, slug: &str) -> Vec<grundy::store::ContestSubmission> {
    let config = grundy::config::Config::load(&ws.config()).expect("config");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let store = grundy::store::Store::open(&config.database_url())
            .await
            .expect("store");
        let c = store.contest(slug).await.expect("read").expect("there");
        let subs = store.contest_submissions(c.id, None).await.expect("read");
        store.close().await;
        subs
    })
}

#[test]
fn a_package_another_system_wrote_is_imported_shadowed_through_a_kill_and_its_differences_listed() {
    if !require_languages(&["c"]) {
        return;
    }
    let ws = workspace_with_server("lease_seconds = 3");
    let pkg = ws.dir.path().join("pkg");
    hand_written_package(&pkg);
    let pkg = pkg.to_str().unwrap();

    // Without a mapping, what cannot be mapped is listed and nothing is
    // imported: the problem (no catalog problem p-nim or A), gnu-c, COBOL.
    let refused = ws.grundy(&["contest", "import", pkg, "--slug", "wf"]);
    refused.assert_usage_error("nothing imported: 3 items cannot be mapped: ");
    assert!(
        refused.stderr.contains("language gnu-c"),
        "{}",
        refused.stderr
    );
    assert!(
        refused.stderr.contains("problem p-nim (A)"),
        "{}",
        refused.stderr
    );
    assert!(
        refused.stderr.contains("language cobol"),
        "{}",
        refused.stderr
    );
    let list = ws.grundy(&["contest", "list", "--json"]);
    assert_eq!(list.json(), json!([]), "no contest");
    assert!(
        !ws.grundy(&["user", "list"]).stdout.contains("team-7"),
        "no account"
    );

    let map = ws.file(
        "map.toml",
        "[problems]\np-nim = \"nim\"\n\n[languages]\ngnu-c = \"c\"\ncobol = \"\"\n",
    );
    let out = ws.grundy(&[
        "contest",
        "import",
        pkg,
        "--slug",
        "wf",
        "--map",
        map.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let imported = out.json();
    assert_eq!(imported["teams"], 2, "{imported}");
    assert_eq!(imported["accounts_made"], 2, "{imported}");
    assert_eq!(
        imported["problems"],
        json!([{"label": "A", "problem": "nim"}])
    );
    // Imported again: refused whole, the first import untouched.
    ws.grundy(&[
        "contest",
        "import",
        pkg,
        "--slug",
        "wf",
        "--map",
        map.to_str().unwrap(),
    ])
    .assert_usage_error("nothing imported");

    // The teams are accounts with the ids the other system gave them.
    let accounts = ws.grundy(&["user", "list"]).stdout;
    assert!(
        accounts.contains("team-7") && accounts.contains("team-9"),
        "{accounts}"
    );

    // Killed once it stored its first submission for judging.
    let mut child = follow_child(&ws, "wf");
    let stderr = child.stderr.take().unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    for line in BufReader::new(stderr).lines() {
        let line = line.unwrap();
        if line.contains("judging s-100 as submission") {
            break;
        }
        assert!(Instant::now() < deadline, "no submission stored");
    }
    child.kill().unwrap();
    child.wait().unwrap();

    // Started again: it goes on from where it was, to the end.
    let out = ws.grundy(&["shadow", "follow", "wf", "--workers", "1"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout.trim(),
        "6 submissions: 2 agree, 1 differs (1 not checked), 0 pending, 2 not judged here, 1 deleted by the other system",
        "{}",
        out.stderr
    );
    assert!(
        !out.stderr.contains("judging s-100"),
        "judged once: {}",
        out.stderr
    );

    // Each judged submission stored once, whatever the kill.
    let subs = contest_submissions(&ws, "wf");
    assert_eq!(subs.len(), 4, "s-100, s-101, s-102, s-105: {subs:?}");
    assert!(subs.iter().all(|s| s.status == "done"), "{subs:?}");

    let (code, diff) = diff_json(&ws, "wf", &[]);
    assert_eq!(code, 1, "a difference not checked: {diff}");
    let listed = diff["submissions"].as_array().unwrap();
    assert_eq!(listed.len(), 1, "{diff}");
    let s101 = &listed[0];
    assert_eq!(s101["id"], "s-101");
    assert_eq!(s101["team"], "team-9");
    assert_eq!(
        (s101["theirs"].as_str(), s101["ours"].as_str()),
        (Some("AC"), Some("WA"))
    );
    assert_eq!(s101["first_difference"], 1, "{s101}");
    assert_eq!(s101["first_difference_verdicts"], json!(["AC", "WA"]));
    assert_eq!(s101["their_time_ms"], 50);
    assert!(
        diff["matrix"]
            .as_array()
            .unwrap()
            .contains(&json!({"theirs": "AC", "ours": "WA", "count": 1})),
        "{diff}"
    );
    assert!(
        diff["matrix"]
            .as_array()
            .unwrap()
            .contains(&json!({"theirs": "AC", "ours": "AC", "count": 2})),
        "{diff}"
    );

    let (_, all) = diff_json(&ws, "wf", &["--all"]);
    let by_id = |id: &str| -> Value {
        all["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == id)
            .cloned()
            .unwrap()
    };
    assert_eq!(
        by_id("s-102")["agreement"],
        "agree",
        "the replacing judgement counts"
    );
    assert_eq!(by_id("s-102")["judgement"], "j-102b");
    assert!(
        by_id("s-103")["reason"]
            .as_str()
            .unwrap()
            .contains("no files for submission s-103"),
        "{all}"
    );
    assert!(
        by_id("s-104")["reason"]
            .as_str()
            .unwrap()
            .contains("not judged here"),
        "{all}"
    );
    assert_eq!(by_id("s-105")["agreement"], "deleted");
    // Filters.
    let (_, only) = diff_json(&ws, "wf", &["--all", "--team", "team-7", "--verdict", "AC"]);
    let ids: Vec<&str> = only["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["s-100", "s-102"]);

    // Checked, with a note: no longer counted as not checked.
    let out = ws.grundy(&[
        "shadow",
        "check",
        "wf",
        "s-101",
        "--note",
        "their test 1 was wrong",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (code, diff) = diff_json(&ws, "wf", &[]);
    assert_eq!(code, 0, "{diff}");
    assert_eq!(diff["submissions"][0]["checked"], "their test 1 was wrong");
    ws.grundy(&["shadow", "check", "wf", "s-999", "--note", "x"])
        .assert_usage_error("no submission \"s-999\"");
    let human = ws.grundy(&["shadow", "diff", "wf"]);
    assert!(
        human.stdout.contains("s-101") && human.stdout.contains("checked: their test 1 was wrong"),
        "{}",
        human.stdout
    );
    assert!(
        human
            .stdout
            .trim_end()
            .ends_with("1 deleted by the other system"),
        "{}",
        human.stdout
    );
}

#[test]
fn a_live_grundy_and_a_package_grundy_exported_are_shadowed_through_a_stop_with_the_planted_differences_found(
) {
    let Some((ws, s)) = c_judge() else {
        return;
    };
    s.account("ann", true);
    let bob = s.account("bob", false);
    let cid = s.account("cid", false);
    // A contest of forty-five seconds.
    let start = now_ms() - 1000;
    let new = grundy::store::NewContest {
        slug: "cup".into(),
        name: "The Cup".into(),
        start_ms: start,
        duration_s: 45,
        freeze_s: 0,
        penalty_min: 20,
        scoring: grundy::contest::Scoring::Icpc,
        medals: grundy::contest::Medals::default(),
        participants: Some(vec!["bob".into(), "cid".into()]),
        problems: vec![("A".into(), "nim".into())],
        colors: Vec::new(),
    };
    let id =
        s.rt.block_on(s.store.create_contest(&new, now_ms()))
            .expect("create");
    s.contest_submit("cup", bob, NIM_C_WA_FIRST);
    s.contest_submit("cup", bob, NIM_C_AC);
    s.contest_submit("cup", cid, NIM_C_WA_FIRST);
    s.contest_judged(id);
    let token = s.token("ann");

    // Live: a second grundy, through its API, imports the contest from the
    // first one's Contest API and follows its feed; its worker judges.
    let live = workspace_with_server("lease_seconds = 3");
    let shadow = crate::helpers::Server::start(&live, 1);
    shadow.account("jury", true);
    let jury = format!("Bearer {}", shadow.token("jury"));
    let agent = crate::http::agent(Duration::from_secs(120), false);
    let post = |path: &str, body: Value| {
        crate::http::send(
            &agent,
            "POST",
            &format!("{}/api/v1{path}", shadow.url),
            &[("Authorization", &jury)],
            crate::http::Body::Json(body),
        )
    };
    let url = format!("{}/api/contests/cup", s.url);
    let refused = post(
        "/contests/import",
        json!({"source": url, "token": token, "map": {"problems": {"nim": "no-such-problem"}}}),
    );
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert_eq!(refused.json()["error"]["code"], "not_mapped");
    // Planted: the shadow judges problem A against another problem's
    // tests (anti-nim's), as a shadow with wrong test data would.
    let made = post(
        "/contests/import",
        json!({"source": url, "token": token, "map": {"problems": {"nim": "anti-nim"}}}),
    );
    assert_eq!(made.status, 201, "{}", made.body);
    assert_eq!(made.json()["accounts_made"], 2, "{}", made.body);
    let follow = post("/contests/cup/shadow/follow", json!({"token": token}));
    assert_eq!(follow.status, 202, "{}", follow.body);
    let again = post("/contests/cup/shadow/follow", json!({"token": token}));
    assert_eq!(again.status, 409, "followed once: {}", again.body);
    let report = || {
        crate::http::get(
            &format!("{}/api/v1/contests/cup/shadow?all=true", shadow.url),
            &[("Authorization", &jury)],
        )
        .json()
    };
    // Until `n` submissions are judged on both sides.
    let judged = |n: i64| {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let all = report();
            let done = all["summary"]["agree"].as_i64().unwrap_or(0)
                + all["summary"]["differ"].as_i64().unwrap_or(0);
            if done == n {
                return all;
            }
            assert!(Instant::now() < deadline, "not {n} judged: {all}");
            std::thread::sleep(Duration::from_millis(300));
        }
    };
    let all = judged(3);
    assert_eq!(all["following"]["running"], true, "{all}");
    // bob's right try: right there, wrong against the other tests here.
    assert_eq!(
        (
            all["summary"]["agree"].as_i64(),
            all["summary"]["differ"].as_i64()
        ),
        (Some(2), Some(1)),
        "{all}"
    );
    let differs = all["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["agreement"] == "differ")
        .unwrap()
        .clone();
    assert_eq!(
        (differs["theirs"].as_str(), differs["ours"].as_str()),
        (Some("AC"), Some("WA")),
        "{all}"
    );
    assert_eq!(
        differs["first_difference"], 1,
        "grundy publishes runs: {all}"
    );
    // Stopped in the middle of the feed; a try made meanwhile is judged
    // once it follows again, and nothing twice.
    let stop = post("/contests/cup/shadow/stop", json!({}));
    assert_eq!(stop.json()["stopped"], true, "{}", stop.body);
    let deadline = Instant::now() + Duration::from_secs(30);
    while report()["following"]["running"] != false {
        assert!(Instant::now() < deadline, "not stopped");
        std::thread::sleep(Duration::from_millis(100));
    }
    s.contest_submit("cup", cid, NIM_C_AC);
    let follow = post("/contests/cup/shadow/follow", json!({"token": token}));
    assert_eq!(follow.status, 202, "{}", follow.body);
    let all = judged(4);
    assert_eq!(all["summary"]["differ"], 2, "{all}");
    post("/contests/cup/shadow/stop", json!({}));
    drop(shadow);
    assert_eq!(
        contest_submissions(&live, "cup").len(),
        4,
        "each judged once"
    );

    // The package grundy exports once the contest ended, shadowed offline.
    while now_ms() < start + 45_500 {
        std::thread::sleep(Duration::from_millis(100));
    }
    s.contest_judged(id);
    let dir = live.dir.path().join("cup-package");
    let out = ws.grundy(&["contest", "export", "cup", dir.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // Planted: the package says cid's first (wrong) try was right.
    let feed_path = dir.join("event-feed.ndjson");
    let feed = std::fs::read_to_string(&feed_path).unwrap();
    let mut planted = false;
    let feed: String = feed
        .lines()
        .map(|l| {
            let mut e: Value = serde_json::from_str(l).unwrap();
            if !planted
                && e["type"] == "judgements"
                && e["data"]["judgement_type_id"] == "WA"
                && e["data"]["submission_id"] == "3"
            {
                e["data"]["judgement_type_id"] = json!("AC");
                planted = true;
            }
            format!("{e}\n")
        })
        .collect();
    assert!(planted, "cid's first try has its judgement in the feed");
    std::fs::write(&feed_path, feed).unwrap();
    let offline = workspace_with_server("lease_seconds = 3");
    let out = offline.grundy(&[
        "contest",
        "import",
        dir.to_str().unwrap(),
        "--slug",
        "cup-again",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // Killed once it stored a submission, then started again.
    let mut child = follow_child(&offline, "cup-again");
    let stderr = child.stderr.take().unwrap();
    for line in BufReader::new(stderr).lines() {
        if line.unwrap().contains("as submission") {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let out = offline.grundy(&["shadow", "follow", "cup-again", "--workers", "1"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout.trim(),
        "4 submissions: 3 agree, 1 differs (1 not checked), 0 pending, 0 not judged here"
    );
    assert_eq!(
        contest_submissions(&offline, "cup-again").len(),
        4,
        "each judged once"
    );
    let (code, diff) = diff_json(&offline, "cup-again", &[]);
    assert_eq!(code, 1, "{diff}");
    assert_eq!(diff["submissions"][0]["id"], "3", "{diff}");
    assert_eq!(
        (
            diff["submissions"][0]["theirs"].as_str(),
            diff["submissions"][0]["ours"].as_str()
        ),
        (Some("AC"), Some("WA"))
    );
}

#[test]
fn a_problem_the_package_carries_enters_the_catalog_verified_and_its_submissions_are_judged() {
    if !require_languages(&["cpp", "python"]) {
        return;
    }
    // A catalog of the workspace's own: nim only.
    let ws = workspace_with_server("lease_seconds = 3");
    let problems = ws.dir.path().join("problems");
    for name in ["_common", "nim"] {
        crate::helpers::copy_dir(
            &crate::helpers::repo().join("problems").join(name),
            &problems.join(name),
        );
    }
    ws.use_problems(&problems);
    let fixture = crate::helpers::repo().join("tests/fixtures/kattis/divisor");
    let pkg = ws.dir.path().join("pkg");
    // The files people write, in YAML (contest.yaml, problems.yaml).
    let start = jiff::Timestamp::from_millisecond(now_ms() - 600_000).unwrap();
    write(
        &pkg.join("contest.yaml"),
        &format!("id: regional\nname: Regional\nstart_time: {start}\nduration: 2:00:00\npenalty_time: 20\n"),
    );
    write(
        &pkg.join("problems.yaml"),
        "- id: nim\n  label: A\n  ordinal: 1\n- id: divisor\n  label: B\n  ordinal: 2\n  package:\n  - href: contests/regional/problems/divisor/package\n    filename: divisor.zip\n    mime: application/zip\n",
    );
    std::fs::create_dir_all(pkg.join("problems/divisor")).unwrap();
    std::fs::write(
        pkg.join("problems/divisor/divisor.zip"),
        zip_dir(&fixture, "divisor/"),
    )
    .unwrap();
    write(
        &pkg.join("teams.json"),
        &json!([{"id": "t1", "name": "One"}]).to_string(),
    );
    write(
        &pkg.join("languages.json"),
        &json!([{"id": "cpp"}]).to_string(),
    );
    let smallest =
        std::fs::read_to_string(fixture.join("submissions/accepted/smallest.cpp")).unwrap();
    std::fs::create_dir_all(pkg.join("submissions/s1")).unwrap();
    std::fs::write(
        pkg.join("submissions/s1/source.zip"),
        zip_of(&[("smallest.cpp", &smallest)]),
    )
    .unwrap();
    let events = [
        json!({"type": "submissions", "id": "s1", "token": "1", "data": {
            "id": "s1", "team_id": "t1", "problem_id": "divisor", "language_id": "cpp",
            "contest_time": "0:05:00.000",
            "files": [{"href": "x", "filename": "source.zip", "mime": "application/zip"}]}}),
        json!({"type": "judgements", "id": "j1", "token": "2", "data": {
            "id": "j1", "submission_id": "s1", "judgement_type_id": "AC"}}),
    ];
    let feed: String = events.iter().map(|e| format!("{e}\n")).collect();
    write(&pkg.join("event-feed.ndjson"), &feed);

    let out = ws.grundy(&["contest", "import", pkg.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("imported contest regional (2 problems, 1 team"),
        "{}",
        out.stdout
    );
    assert!(
        problems.join("divisor").is_dir(),
        "the carried problem is in the catalog"
    );
    let shown = ws.grundy(&["show", "divisor"]);
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    let out = ws.grundy(&["shadow", "follow", "regional", "--workers", "1"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout.trim(),
        "1 submission: 1 agree, 0 differ (0 not checked), 0 pending, 0 not judged here"
    );
}
