//! A contest try in a language no worker has (issue 47): the finalize
//! names it and what to do, `grundy contest show` says why it waits, an
//! admin withdraws it (the API's route, the command line), its team reads
//! the reason, the feed deletes it, and the contest is then finalized.
// See: issue 47.

use std::time::Duration;

use serde_json::{json, Value};

use crate::clics::{basic, icpc_on_nim};
use crate::helpers::{workspace_with_server, Server};

/// `POST url` with `body` as the holder of `token`: status and JSON body.
fn post(url: &str, token: &str, body: Value) -> (u16, Value) {
    let agent = crate::http::agent(Duration::from_secs(60), false);
    let auth = format!("Bearer {token}");
    let r = crate::http::send(
        &agent,
        "POST",
        url,
        &[("Authorization", &auth)],
        crate::http::Body::Json(body),
    );
    (
        r.status,
        serde_json::from_str(&r.body).unwrap_or(Value::Null),
    )
}

#[test]
fn r47_a_try_no_worker_judges_is_withdrawn_and_the_contest_finalized() {
    let ws = workspace_with_server("submissions_per_minute = 0");
    // No worker at all: nothing is judged.
    let s = Server::start(&ws, 0);
    s.account("ann", true);
    let bob = s.account("bob", false);
    let now = grundy::site::contests::now_ms();
    let settings = icpc_on_nim("late", "Late", now - 5 * 60_000, &["bob"]);
    let cid =
        s.rt.block_on(s.store.create_contest(&settings, now))
            .expect("create");
    let kotlin = grundy::store::NewSubmission {
        problem: "nim",
        language: "kotlin",
        source: b"fun main() {}",
        user_id: Some(bob),
    };
    let stuck =
        s.rt.block_on(s.store.insert_contest_submission(kotlin, cid, now - 60_000))
            .expect("stored");
    // Over an hour ago.
    let mut over = settings.clone();
    over.start_ms -= 2 * 3_600_000;
    s.rt.block_on(s.store.update_contest(cid, &over))
        .expect("end it");

    let out = ws.grundy(&["contest", "finalize", "late"]);
    out.assert_usage_error(&format!("{stuck} (nim, kotlin: not judged yet)"));
    assert!(
        out.stderr
            .contains("grundy contest withdraw late ID --reason TEXT"),
        "{}",
        out.stderr
    );
    let out = ws.grundy(&["contest", "show", "late"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains(&format!(
            "without a result: submission {stuck} (nim, kotlin): "
        )),
        "{}",
        out.stdout
    );

    // Through the API: an admin's only, with a reason.
    let url = format!(
        "{}/api/v1/contests/late/submissions/{stuck}/withdraw",
        s.url
    );
    let (status, _) = post(&url, &s.token("bob"), json!({"reason": "mine"}));
    assert_eq!(status, 403);
    let ann = s.token("ann");
    let (status, body) = post(&url, &ann, json!({"reason": " "}));
    assert_eq!(status, 409, "{body}");
    let reason = "no judge here runs Kotlin";
    let (status, body) = post(&url, &ann, json!({ "reason": reason }));
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["withdrawn"], reason);

    // Its team reads why; the feed deleted it.
    let mine = crate::clics::json(
        &format!("{}/api/v1/submissions/{stuck}", s.url),
        Some(&format!("Bearer {}", s.token("bob"))),
    );
    assert_eq!(mine["withdrawn"], reason, "{mine}");
    let (status, feed) = crate::clics::get(
        &format!("{}/api/contests/late/event-feed?stream=false", s.url),
        Some(&basic("ann")),
    );
    assert_eq!(status, 200, "{feed}");
    let id = stuck.to_string();
    let deleted = feed.lines().any(|l| {
        let e: Value = serde_json::from_str(l).unwrap_or(Value::Null);
        e["type"] == "submissions" && e["id"] == id.as_str() && e["data"].is_null()
    });
    assert!(deleted, "{feed}");

    // The command line says it is done already; the finalize goes through.
    ws.grundy(&[
        "contest",
        "withdraw",
        "late",
        &stuck.to_string(),
        "--reason",
        "x",
    ])
    .assert_usage_error("withdrawn already");
    let out = ws.grundy(&["contest", "show", "late"]);
    assert!(
        out.stdout.contains(&format!(
            "withdrawn: submission {stuck} (nim, kotlin): {reason}"
        )),
        "{}",
        out.stdout
    );
    let out = ws.grundy(&["contest", "finalize", "late"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
}
