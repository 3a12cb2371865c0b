//! Issue 44, as an attacker tries it: a waiting reason told by audience
//! (the worker, its refusal, a secret test's name and its answer's hash are
//! the admins'), a feed opened with a padded name checked again as the very
//! account that signed in, the token cap held by requests sent at once,
//! every live part refusing whom its page refuses, and an admin listing and
//! revoking a user's tokens (on the command line and the admin page).

use std::time::Duration;

use crate::freeze::{api, contest};
use crate::helpers::{workspace_with_server, Server, NIM_C_AC};
use crate::web::{http, sign_in, PASSWORD};

fn now_ms() -> i64 {
    grundy::site::contests::now_ms()
}

/// What a worker wrote when it refused nim's package: its host and process,
/// a secret test's name and its answer's hash.
const REFUSAL: &str =
    "test secret-07: answer sha256 5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03 \
     is not what the package says";

/// What no one but an admin may read of [`REFUSAL`] and its worker.
const SECRETS: [&str; 5] = ["judge2", "4711", "secret-07", "5891b5b5", "refused"];

fn assert_no_secret(who: &str, route: &str, text: &str) {
    for secret in SECRETS {
        assert!(
            !text.contains(secret),
            "{who} reads {secret:?} on {route}: {text}"
        );
    }
}

/// A queued submission's waiting reason: the author and another account
/// read only what kind of thing it waits for, on the API, the page, its
/// live part and `grundy status --server`; the admin reads the worker and
/// its refusal.
#[test]
fn a_waiting_reason_names_workers_and_tests_to_admins_only() {
    let ws = workspace_with_server("submissions_per_minute = 0");
    let s = Server::start(&ws, 0);
    s.account("boss", true);
    s.account("ann", false);
    s.account("cid", false);
    s.rt.block_on(async {
        s.store.register_workers("judge2:4711", 1, "test").await?;
        s.store
            .announce_workers("judge2:4711", 1, "c gcc 12")
            .await?;
        s.store
            .refuse_package("judge2:4711", "nim", "", REFUSAL)
            .await
    })
    .expect("a worker that refused nim");
    let ann = s.token("ann");
    let (code, queued) = crate::server::submit(&s, &ann, "nim", "c", NIM_C_AC);
    assert_eq!(code, 202, "{queued}");
    let id = queued["id"].as_i64().expect("an id");
    let api_url = format!("{}/api/v1/submissions/{id}", s.url);
    let page = format!("{}/submissions/{id}", s.url);
    let live = format!("{page}/live?wait=0");

    for who in ["ann", "cid", "boss"] {
        let (code, seen) = crate::server::call("GET", &api_url, Some(&s.token(who)), None);
        assert_eq!(code, 200, "{seen}");
        let waiting = seen["waiting"].as_str().expect("a queued one says why");
        let web = sign_in(&s.url, who);
        let shown: Vec<(&str, String)> = vec![
            ("the API", waiting.to_string()),
            ("the page", http("GET", &page, Some(&web), None).body),
            ("the live part", http("GET", &live, Some(&web), None).body),
        ];
        for (route, text) in &shown {
            if who == "boss" {
                assert!(
                    text.contains("worker judge2:4711 refused package nim")
                        && text.contains("secret-07"),
                    "the admin on {route}: {text}"
                );
            } else {
                assert!(
                    text.contains("no judge can take this problem yet"),
                    "{who} on {route}: {text}"
                );
                assert_no_secret(who, route, text);
            }
        }
    }

    // The command line reads the API with the author's token.
    for args in [vec!["--json"], vec![]] {
        let id = id.to_string();
        let mut all = vec!["status", &id, "--server", &s.url, "--token", &ann];
        all.extend(args.iter().copied());
        let out = ws.grundy(&all);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert!(
            out.stdout.contains("no judge can take this problem yet"),
            "{}",
            out.stdout
        );
        assert_no_secret("ann", "grundy status --server", &out.stdout);
    }
}

/// An open feed's lines, read as they come, until it ends or a minute
/// passes (a feed keeps sending a newline every 10 s while silent).
fn feed_ends_within_a_minute(url: &str, auth: &str) -> Result<bool, (u16, String)> {
    use std::io::BufRead;
    let agent = crate::http::streaming(Duration::from_secs(30));
    let r = crate::http::open(
        &agent,
        "GET",
        url,
        &[("Authorization", auth)],
        crate::http::Body::Empty,
    );
    if r.status() != 200 {
        let status = r.status().as_u16();
        return Err((status, r.into_body().read_to_string().unwrap_or_default()));
    }
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let mut lines = std::io::BufReader::new(r.into_body().into_reader()).lines();
    while std::time::Instant::now() < deadline {
        match lines.next() {
            Some(Ok(_)) => continue,
            // The end of the stream, or the connection closed under it.
            _ => return Ok(true),
        }
    }
    Ok(false)
}

/// HTTP Basic with the name padded (`" boss2"`) signs in, as the sign-in
/// trims names; the feed it opened is then checked as the account that
/// signed in, so it ends on a new password and on `user disable`, instead
/// of being taken for the public's forever.
#[test]
fn a_feed_opened_with_a_padded_name_ends_with_its_account() {
    use base64::Engine;
    let ws = workspace_with_server("submissions_per_minute = 0");
    let s = Server::start(&ws, 0);
    s.account("boss2", true);
    s.account("bob", false);
    s.account("cid", false);
    contest(&s, "cup", now_ms() - 60_000);
    let url = format!("{}/api/contests/cup/event-feed", s.url);
    let basic = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!(" boss2:{PASSWORD}"))
    );
    for how in ["a new password", "disabled"] {
        let feed = {
            let (url, basic) = (url.clone(), basic.clone());
            std::thread::spawn(move || feed_ends_within_a_minute(&url, &basic))
        };
        // The feed is open once the server counts it.
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while s.state.feeds.open() == 0 {
            assert!(
                std::time::Instant::now() < deadline,
                "the feed never opened"
            );
            assert!(!feed.is_finished(), "{:?}", feed.join());
            std::thread::sleep(Duration::from_millis(20));
        }
        match how {
            "disabled" => s.rt.block_on(s.store.set_disabled("boss2", true)),
            _ => {
                let hash = grundy::auth::hash_password("another one entirely").expect("hash");
                s.rt.block_on(s.store.set_password("boss2", &hash))
            }
        }
        .expect("change the account");
        let ended = feed.join().expect("the reader");
        assert_eq!(ended, Ok(true), "the feed went on after {how}");
        // Back as it was for the next round.
        let hash = grundy::auth::hash_password(PASSWORD).expect("hash");
        s.rt.block_on(async {
            s.store.set_password("boss2", &hash).await?;
            s.store.set_disabled("boss2", false).await
        })
        .expect("restore");
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while s.state.feeds.open() != 0 {
            assert!(
                std::time::Instant::now() < deadline,
                "the feed stayed counted"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// 40 "new token" requests at once for an account with 15 live tokens
/// make exactly 5: the cap (20) is counted in the insert's transaction.
#[test]
fn forty_new_tokens_at_once_stop_at_the_cap() {
    use base64::Engine;
    let ws = workspace_with_server("submissions_per_minute = 0\npassword_hashers = 8");
    let s = Server::start(&ws, 0);
    let ann = s.account("ann", false);
    for _ in 0..15 {
        s.token("ann");
    }
    let basic = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("ann:{PASSWORD}"))
    );
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(40));
    let url = format!("{}/api/v1/tokens", s.url);
    let replies: Vec<_> = (0..40)
        .map(|_| {
            let (url, basic, barrier) = (url.clone(), basic.clone(), barrier.clone());
            std::thread::spawn(move || {
                barrier.wait();
                // A full hashing pool answers 503: asked again, a bounded
                // number of times.
                for _ in 0..50 {
                    let (code, body) = api("POST", &url, &basic, None);
                    if code != 503 {
                        return (code, body);
                    }
                }
                panic!("the hashing pool stayed full");
            })
        })
        .collect();
    let mut codes: Vec<u16> = Vec::new();
    for r in replies {
        let (code, body) = r.join().expect("a request");
        assert!(code == 201 || code == 409, "{code} {body}");
        if code == 409 {
            assert_eq!(body["error"]["code"], "too_many_tokens", "{body}");
        }
        codes.push(code);
    }
    let live = s.rt.block_on(s.store.tokens_of(ann)).expect("tokens").len();
    assert_eq!(live, grundy::auth::MAX_OWN_TOKENS);
    assert_eq!(codes.iter().filter(|c| **c == 201).count(), 5, "{codes:?}");
}

/// Every live part asks its page's own rule, with the viewer and the
/// contest as they are: whoever a page refuses (another account, a visitor,
/// a participant no longer one), its live part refuses alike.
#[test]
fn every_live_part_refuses_whom_its_page_refuses() {
    let (_ws, s) = crate::access::server();
    let url = s.url.clone();
    let cup = contest(&s, "cup", now_ms() - 60_000);
    let bob = s.rt.block_on(s.store.user("bob")).unwrap().unwrap().id;
    let tried = s.contest_submit("cup", bob, "int main(){}");
    // (page, its live part) for each live route there is.
    let routes = [
        (
            format!("{url}/contests/cup"),
            format!("{url}/contests/cup/live?page=contest"),
        ),
        (
            format!("{url}/contests/cup/scoreboard"),
            format!("{url}/contests/cup/live?page=board"),
        ),
        (
            format!("{url}/contests/cup/scoreboard"),
            format!("{url}/contests/cup/live"),
        ),
        (
            format!("{url}/submissions/{tried}"),
            format!("{url}/submissions/{tried}/live?wait=0"),
        ),
    ];
    let eve = sign_in(&url, "eve");
    let mut refused = Vec::new();
    let mut walk = |label: &str| {
        for viewer in [Some(eve.as_str()), None] {
            for (page, live) in &routes {
                let p = http("GET", page, viewer, None);
                if p.status == 200 {
                    continue;
                }
                // A visitor sent to sign in is sent back where they were.
                let l = http("GET", live, viewer, None);
                assert_eq!(
                    l.status, p.status,
                    "{label}: {page} answers {}, its live part {live} {}: {}",
                    p.status, l.status, l.body
                );
                refused.push(format!("{label} {viewer:?} {live}"));
            }
        }
    };
    walk("open board");
    s.rt.block_on(s.store.set_board_public(cup, false))
        .expect("close");
    walk("closed board");
    assert!(
        refused.len() >= 8,
        "too few refusals walked to mean anything: {refused:#?}"
    );

    // A participant's held contest page live part ends in 403 once the
    // participant is removed and the board closed, however the removal and
    // the hold interleave: each round asks the page's rule again.
    let bob_web = sign_in(&url, "bob");
    let cid_web = sign_in(&url, "cid");
    let contest_live = format!("{url}/contests/cup/live?page=contest");
    let first = http("GET", &contest_live, Some(&bob_web), None);
    assert_eq!(first.status, 200, "{}", first.body);
    let seen = first
        .body
        .split("data-seen=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("data-seen")
        .to_string();
    let held = {
        let at = format!("{contest_live}&wait=25&seen={seen}");
        std::thread::spawn(move || http("GET", &at, Some(&bob_web), None))
    };
    let c =
        s.rt.block_on(s.store.contest_by_id(cup))
            .expect("read")
            .expect("there");
    let without_bob = grundy::store::NewContest {
        slug: c.slug.clone(),
        name: c.name.clone(),
        start_ms: c.start_ms,
        duration_s: c.duration_s,
        freeze_s: c.freeze_s,
        penalty_min: c.penalty_min,
        scoring: c.scoring,
        medals: c.medals,
        participants: Some(vec!["cid".into()]),
        problems: vec![("A".into(), "nim".into())],
        colors: Vec::new(),
    };
    s.rt.block_on(s.store.update_contest(cup, &without_bob))
        .expect("remove bob");
    let reply = held.join().expect("the held request");
    assert_eq!(reply.status, 403, "{}", reply.body);
    // cid, still a participant, reads on.
    assert_eq!(http("GET", &contest_live, Some(&cid_web), None).status, 200);
}

/// An admin lists a user's live tokens and revokes one, then all, on the
/// command line and on the admin page; a revoked token stops working, and
/// the page is the admins' only.
#[test]
fn an_admin_lists_and_revokes_a_users_tokens() {
    let ws = workspace_with_server("submissions_per_minute = 0");
    let s = Server::start(&ws, 0);
    s.account("boss", true);
    s.account("ann", false);
    s.account("bob", false);
    let tokens: Vec<String> = (0..3).map(|_| s.token("ann")).collect();
    let bobs = s.token("bob");
    let works = |t: &str| {
        let (code, _) =
            crate::server::call("GET", &format!("{}/api/v1/tokens", s.url), Some(t), None);
        code == 200
    };
    let prefix = |t: &str| t[..grundy::auth::PREFIX_LEN].to_string();

    // The command line.
    let listed = ws.grundy(&["token", "list", "ann"]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    for t in &tokens {
        assert!(listed.stdout.contains(&prefix(t)), "{}", listed.stdout);
        assert!(!listed.stdout.contains(t.as_str()), "a whole token shown");
    }
    assert!(!listed.stdout.contains(&prefix(&bobs)), "{}", listed.stdout);
    // Another user's token is not revoked as ann's.
    ws.grundy(&["token", "revoke", "--user", "ann", &prefix(&bobs)])
        .assert_usage_error("no live token of ann");
    assert!(works(&bobs));
    let one = ws.grundy(&["token", "revoke", "--user", "ann", &prefix(&tokens[0])]);
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert!(!works(&tokens[0]) && works(&tokens[1]));
    ws.grundy(&["token", "list", "nobody"])
        .assert_usage_error("no user \"nobody\"");

    // The admin page.
    let boss = sign_in(&s.url, "boss");
    let page = format!("{}/admin/users/ann/tokens", s.url);
    let shown = http("GET", &page, Some(&boss), None);
    assert_eq!(shown.status, 200);
    assert!(
        shown.body.contains(&prefix(&tokens[1])) && shown.body.contains(&prefix(&tokens[2])),
        "{}",
        shown.body
    );
    assert!(
        !shown.body.contains(&prefix(&tokens[0])),
        "a revoked one listed"
    );
    let csrf = crate::helpers::csrf_of(&shown.body);
    let revoke = http(
        "POST",
        &format!("{page}/{}/revoke", prefix(&tokens[1])),
        Some(&boss),
        Some(&[("csrf", &csrf)]),
    );
    assert_eq!(revoke.status, 303, "{}", revoke.body);
    assert!(!works(&tokens[1]) && works(&tokens[2]));
    let all = http(
        "POST",
        &format!("{page}/revoke-all"),
        Some(&boss),
        Some(&[("csrf", &csrf)]),
    );
    assert_eq!(all.status, 303, "{}", all.body);
    assert!(tokens.iter().all(|t| !works(t)));
    assert!(works(&bobs), "another user's token is untouched");
    // Contestants may not look.
    let ann_web = sign_in(&s.url, "ann");
    assert_eq!(http("GET", &page, Some(&ann_web), None).status, 403);
    let more = (0..2).map(|_| s.token("ann")).collect::<Vec<_>>();
    let cut = ws.grundy(&["token", "revoke", "--user", "ann", "--all"]);
    assert_eq!(cut.code, 0, "{}", cut.stderr);
    assert!(
        cut.stdout.contains("revoked 2 tokens of ann"),
        "{}",
        cut.stdout
    );
    assert!(more.iter().all(|t| !works(t)));
}
