//! Clarifications through `/api/v1` (issue 47), under the rules of the
//! contest's pages: a participant asks and reads its own questions and what
//! is answered to all; another account reads only what is answered to all,
//! without its asker; an admin reads everything, answers, and announces;
//! bad questions are refused with one line and store nothing; the record
//! (the Contest API) holds what the pages and this API say.

use serde_json::{json, Value};

use crate::freeze::{api, token};
use crate::helpers::{workspace_with_server, Server};

/// The ids and questions of `list` (a `clarifications` answer).
fn questions(list: &Value) -> Vec<(i64, String)> {
    list["clarifications"]
        .as_array()
        .unwrap_or_else(|| panic!("{list}"))
        .iter()
        .map(|q| {
            (
                q["id"].as_i64().unwrap(),
                q["question"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn clarifications_are_asked_answered_and_read_through_the_api() {
    let ws = workspace_with_server("submissions_per_minute = 0\nquestions_per_minute = 2");
    let s = Server::start(&ws, 0);
    s.account("ann", true);
    s.account("bob", false);
    s.account("cid", false);
    s.account("eve", false);
    let now = grundy::site::contests::now_ms();
    let new = crate::clics::icpc_on_nim("cup", "Cup", now - 60_000, &["bob", "cid"]);
    s.rt.block_on(s.store.create_contest(&new, now))
        .expect("create");
    let url = format!("{}/api/v1/contests/cup/clarifications", s.url);
    let (ann, bob, cid, eve) = (
        token(&s, "ann"),
        token(&s, "bob"),
        token(&s, "cid"),
        token(&s, "eve"),
    );

    // Questions: bob about A, cid in general.
    let (status, q1) = api(
        "POST",
        &url,
        &bob,
        Some(json!({"text": " Is n ≤ 10? ", "problem": "A"})),
    );
    assert_eq!(status, 201, "{q1}");
    assert_eq!(q1["question"], "Is n ≤ 10?");
    assert_eq!(q1["problem"], "A");
    assert_eq!(q1["asker"], "bob");
    assert!(q1["answer"].is_null());
    let q1 = q1["id"].as_i64().unwrap();
    let (status, q2) = api("POST", &url, &cid, Some(json!({"text": "Lunch?"})));
    assert_eq!(status, 201, "{q2}");
    let q2 = q2["id"].as_i64().unwrap();

    // Refused, each with one line, nothing stored: not a participant, an
    // unknown problem, an empty text, a field the route does not take,
    // over the rate.
    for (who, body, code) in [
        (&eve, json!({"text": "Me too?"}), 403),
        (&bob, json!({"text": "Which?", "problem": "Z"}), 400),
        (&bob, json!({"text": "   "}), 400),
        (&bob, json!({"text": "Hi", "team": "cid"}), 400),
    ] {
        let (status, v) = api("POST", &url, who, Some(body.clone()));
        assert_eq!(status, code, "{body}: {v}");
        let message = v["error"]["message"]
            .as_str()
            .unwrap_or_else(|| panic!("{v}"));
        assert_eq!(message.lines().count(), 1, "{message}");
    }
    let (status, _) = api("POST", &url, &bob, Some(json!({"text": "Second?"})));
    assert_eq!(status, 201);
    let (status, v) = api("POST", &url, &bob, Some(json!({"text": "Third?"})));
    assert_eq!(status, 429, "two a minute: {v}");

    // Reading: each its own; eve nothing yet; the admin all three.
    let (_, list) = api("GET", &url, &bob, None);
    let mine: Vec<i64> = questions(&list).into_iter().map(|(id, _)| id).collect();
    assert_eq!(mine.len(), 2, "{list}");
    assert!(mine.contains(&q1) && !mine.contains(&q2), "{list}");
    let (_, list) = api("GET", &url, &eve, None);
    assert!(questions(&list).is_empty(), "{list}");
    let (_, list) = api("GET", &url, &ann, None);
    assert_eq!(questions(&list).len(), 3, "{list}");

    // Answers: only an admin; q1 to all, q2 to its asker.
    let answer = |id: i64| format!("{url}/{id}/answer");
    let (status, _) = api("POST", &answer(q1), &bob, Some(json!({"text": "Yes"})));
    assert_eq!(status, 403);
    let (status, v) = api(
        "POST",
        &answer(q1),
        &ann,
        Some(json!({"text": "Yes.", "to_all": true})),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["answer"], "Yes.");
    assert_eq!(v["to_all"], true);
    let (status, _) = api("POST", &answer(q2), &ann, Some(json!({"text": "At noon."})));
    assert_eq!(status, 200);
    let (status, _) = api("POST", &answer(999_999), &ann, Some(json!({"text": "?"})));
    assert_eq!(status, 404);
    // An announcement: the admin's own text, to all.
    let (status, a) = api(
        "POST",
        &url,
        &ann,
        Some(json!({"text": "Ten minutes left."})),
    );
    assert_eq!(status, 201, "{a}");
    assert_eq!(a["announcement"], true);
    assert_eq!(a["answer"], "Ten minutes left.");

    // eve reads what is answered to all, without its asker; cid its own
    // answer too; bob not cid's.
    let (_, list) = api("GET", &url, &eve, None);
    let seen = questions(&list);
    assert_eq!(seen.len(), 2, "{list}");
    let public = &list["clarifications"][0];
    assert_eq!(public["id"], q1);
    assert!(public["asker"].is_null(), "{public}");
    assert_eq!(public["answer"], "Yes.");
    let (_, list) = api("GET", &url, &cid, None);
    assert!(questions(&list).iter().any(|(id, _)| *id == q2), "{list}");
    let (_, list) = api("GET", &url, &bob, None);
    assert!(!questions(&list).iter().any(|(id, _)| *id == q2), "{list}");

    // The Contest API's record says the same: the public's clarifications
    // are the question answered to all (without its asker), its answer
    // and the announcement.
    let clics = crate::clics::json(&format!("{}/api/contests/cup/clarifications", s.url), None);
    let texts: Vec<&str> = clics
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        ["Is n ≤ 10?", "Yes.", "Ten minutes left."],
        "{clics}"
    );
}
