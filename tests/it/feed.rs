//! The Contest API's event feed as a scoreboard client reads it (issue
//! 32): an open feed gets what the unfreeze reveals, `since_token` resumes
//! and refuses a token the contest never reached, a feed ends when its
//! token is revoked, open feeds are capped per address while the rest of
//! the server answers, feeds that share their reads each get the record
//! whole, and `GET /api` says which API this is.

use std::io::BufRead;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::freeze::{contest, event_of, judged};
use crate::helpers::{workspace_with_server, Server, Workspace};
use grundy::verdict::Verdict;

fn now_ms() -> i64 {
    grundy::site::contests::now_ms()
}

/// A server (`[server]` lines `server` added) with an admin ann, teams
/// bob and cid (their ids), and contest `cup` (its id) running for a
/// minute.
fn cup(server: &str) -> (Workspace, Server, [i64; 2], i64) {
    let ws = workspace_with_server(&format!("submissions_per_minute = 0\n{server}"));
    let s = Server::start(&ws, 0);
    s.account("ann", true);
    let teams = [s.account("bob", false), s.account("cid", false)];
    let cup = contest(&s, "cup", now_ms() - 60_000);
    (ws, s, teams, cup)
}

/// An open feed's lines, read as they come.
struct Feed {
    lines: std::io::Lines<std::io::BufReader<ureq::BodyReader<'static>>>,
}

impl Feed {
    /// Opens `url` with `auth` (`None`: the public).
    fn open(url: &str, auth: Option<&str>) -> Result<Feed, (u16, String)> {
        let agent = crate::http::streaming(Duration::from_secs(30));
        let headers: Vec<(&str, &str)> = auth.map(|a| ("Authorization", a)).into_iter().collect();
        let r = crate::http::open(&agent, "GET", url, &headers, crate::http::Body::Empty);
        if r.status() != 200 {
            let status = r.status().as_u16();
            let body = r.into_body().read_to_string().unwrap_or_default();
            return Err((status, body));
        }
        Ok(Feed {
            lines: std::io::BufReader::new(r.into_body().into_reader()).lines(),
        })
    }

    /// Lines (keep-alive newlines left out) until one satisfies `stop`
    /// (returned with those before it), within a minute.
    fn lines_until(&mut self, stop: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut seen = Vec::new();
        while Instant::now() < deadline {
            let line = self.lines.next().expect("the feed ended").expect("a line");
            if line.is_empty() {
                continue;
            }
            let done = stop(&line);
            seen.push(line);
            if done {
                return seen;
            }
        }
        panic!("nothing ended the wait within a minute: {seen:?}");
    }

    /// Events until one satisfies `stop` (returned with those before it),
    /// or the feed ends (`None`), within a minute.
    fn until(
        &mut self,
        stop: impl Fn(&(String, String, Value)) -> bool,
    ) -> Option<Vec<(String, String, Value)>> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut seen = Vec::new();
        while Instant::now() < deadline {
            let line = self.lines.next()?.ok()?;
            let Some(e) = event_of(&line) else { continue };
            let done = stop(&e);
            seen.push(e);
            if done {
                return Some(seen);
            }
        }
        panic!("nothing ended the wait within a minute: {seen:?}");
    }
}

/// A feed opened during the freeze and kept open across the unfreeze gets
/// the judgements the unfreeze reveals, after what it had read.
#[test]
fn an_open_feed_gets_what_the_unfreeze_reveals() {
    let (_ws, s, [bob, cid], cup) = cup("");
    s.rt.block_on(s.store.set_contest_frozen(cup, Some(now_ms() - 1000)))
        .expect("freeze");
    let sealed: Vec<String> = (0..4)
        .map(|i| {
            let who = if i % 2 == 0 { bob } else { cid };
            judged(&s, who, cup, Verdict::AC).to_string()
        })
        .collect();
    let mut feed =
        Feed::open(&format!("{}/api/contests/cup/event-feed", s.url), None).expect("open");
    let last = sealed.last().unwrap().clone();
    let before = feed
        .until(|e| e.0 == "submissions" && e.1 == last)
        .expect("the submissions");
    assert!(
        !before
            .iter()
            .any(|e| e.0 == "judgements" && e.2["judgement_type_id"].is_string()),
        "a sealed result before the unfreeze: {before:?}"
    );
    crate::freeze::end_now(&s, cup);
    s.rt.block_on(s.store.set_contest_thawed(cup, Some(now_ms())))
        .expect("unfreeze");
    let after = feed
        .until(|e| e.0 == "state" && e.2["thawed"].is_string())
        .expect("the thaw");
    for id in &sealed {
        assert!(
            after
                .iter()
                .any(|e| e.0 == "judgements" && e.1 == *id && e.2["judgement_type_id"] == "AC"),
            "judgement {id} not revealed: {after:?}"
        );
    }
}

/// The public's and admins' open feeds share one read of the record: feeds
/// opened at different moments, by the public and by an admin, and one
/// resumed from an early token, each get every event after where they
/// started, once and in order, as the feed read whole at the end has them.
#[test]
fn feeds_opened_at_different_moments_each_get_the_record_whole() {
    let (_ws, s, [bob, cid], cup) = cup("");
    let admin = format!("Bearer {}", s.token("ann"));
    let url = format!("{}/api/contests/cup/event-feed", s.url);
    let whole = |auth: Option<&str>| -> Vec<String> {
        let headers: Vec<(&str, &str)> = auth.map(|a| ("Authorization", a)).into_iter().collect();
        let r = crate::http::get(&format!("{url}?stream=false"), &headers);
        assert_eq!(r.status, 200, "{}", r.body);
        r.body.lines().map(token_of).collect()
    };
    let mut feeds = Vec::new();
    let mut open = |query: &str, auth: Option<&str>, after: Option<String>| {
        let feed = Feed::open(&format!("{url}{query}"), auth).expect("open");
        feeds.push((feed, auth.map(str::to_owned), after));
    };
    judged(&s, bob, cup, Verdict::WA);
    open("", None, None);
    open("", Some(&admin), None);
    for who in [bob, cid, bob] {
        judged(&s, who, cup, Verdict::WA);
    }
    open("", None, None);
    open("", Some(&admin), None);
    // The record's second event (the judge's settings come first).
    let early = whole(None)
        .into_iter()
        .filter(|t| !t.contains('.'))
        .nth(1)
        .expect("an early event");
    open(&format!("?since_token={early}"), None, Some(early));
    for who in [cid, bob, cid] {
        judged(&s, who, cup, Verdict::AC);
    }
    for (i, (feed, auth, after)) in feeds.iter_mut().enumerate() {
        let mut want = whole(auth.as_deref());
        if let Some(after) = after {
            let at = want.iter().position(|t| t == after).expect("the token");
            want.drain(..=at);
        }
        let last = want.last().expect("events").clone();
        let got: Vec<String> = feed
            .lines_until(|line| token_of(line) == last)
            .iter()
            .map(|l| token_of(l))
            .collect();
        assert_eq!(got, want, "feed {i} ({auth:?}, after {after:?})");
    }
}

/// An event line's token.
fn token_of(line: &str) -> String {
    let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    v["token"].as_str().expect("a token").to_owned()
}

/// `since_token` resumes after an event; a token beyond the record is 400.
#[test]
fn since_token_resumes_and_refuses_a_token_never_given() {
    let (_ws, s, [bob, _], cup) = cup("");
    let first = judged(&s, bob, cup, Verdict::WA);
    let url = format!("{}/api/contests/cup/event-feed?stream=false", s.url);
    let all = crate::http::get(&url, &[]).body;
    let tokens: Vec<(String, String)> = all
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| {
            Some((
                v["token"].as_str()?.to_string(),
                v["id"].as_str().unwrap_or("").to_string(),
            ))
        })
        .collect();
    let (token, _) = tokens
        .iter()
        .find(|(_, id)| *id == first.to_string())
        .expect("the try's token")
        .clone();
    let second = judged(&s, bob, cup, Verdict::AC);
    let resumed = crate::http::get(&format!("{url}&since_token={token}"), &[]);
    assert_eq!(resumed.status, 200, "{}", resumed.body);
    let resumed = resumed.body;
    let ids: Vec<String> = resumed.lines().filter_map(event_of).map(|e| e.1).collect();
    assert!(ids.contains(&second.to_string()), "{resumed}");
    assert!(
        !ids.iter().any(|i| *i == "cup" || *i == "nim"),
        "the contest and its problems again: {resumed}"
    );
    let head: i64 = tokens.last().unwrap().0.parse().unwrap();
    for bad in [
        format!("{}", head + 1000),
        "1.2.x".to_string(),
        "-1".to_string(),
    ] {
        let r = crate::http::get(&format!("{url}&since_token={bad}"), &[]);
        assert_eq!(r.status, 400, "{bad}: {}", r.body);
    }
}

/// A feed opened with a token ends once the token is revoked, and one
/// opened by an account once the account is disabled.
#[test]
fn a_feed_ends_when_its_credentials_stop_being_valid() {
    let (_ws, s, _, _) = cup("");
    let url = format!("{}/api/contests/cup/event-feed", s.url);
    for how in ["revoked", "disabled"] {
        let token = s.token("ann");
        let mut feed = Feed::open(&url, Some(&format!("Bearer {token}"))).expect("open");
        feed.until(|e| e.0 == "state").expect("the state");
        match how {
            "revoked" => {
                let hash = grundy::auth::token_hash(&token);
                assert!(s.rt.block_on(s.store.revoke_token(&hash)).expect("revoke"));
            }
            _ => {
                s.rt.block_on(s.store.set_disabled("ann", true))
                    .expect("disable")
            }
        }
        assert!(
            feed.until(|_| false).is_none(),
            "the feed went on after its token was {how}"
        );
    }
}

/// A feed open to the public ends once an admin closes the board under
/// it.
#[test]
fn a_public_feed_ends_when_the_board_is_closed() {
    let (_ws, s, _, cup) = cup("");
    let url = format!("{}/api/contests/cup/event-feed", s.url);
    let mut feed = Feed::open(&url, None).expect("open");
    feed.until(|e| e.0 == "state").expect("the state");
    s.rt.block_on(s.store.set_board_public(cup, false))
        .expect("close");
    assert!(
        feed.until(|_| false).is_none(),
        "the public's feed went on after the board was closed"
    );
}

/// Feeds past the cap of one address are refused (429) while those open
/// stay open, and `/api/v1/health` still answers.
#[test]
fn open_feeds_are_capped_and_the_server_still_answers() {
    let (_ws, s, _, _) = cup("feeds_per_address = 3\nmax_feeds = 10");
    let url = format!("{}/api/contests/cup/event-feed", s.url);
    let open: Vec<Feed> = (0..3)
        .map(|_| Feed::open(&url, None).expect("within the cap"))
        .collect();
    for _ in 0..5 {
        match Feed::open(&url, None) {
            Err((429, body)) => assert!(
                body.contains("event feeds are open from this address"),
                "{body}"
            ),
            Err(other) => panic!("{other:?}"),
            Ok(_) => panic!("a feed past the cap"),
        }
    }
    let health = crate::http::get(&format!("{}/api/v1/health", s.url), &[]);
    assert_eq!(health.status, 200);
    // One closed: one more may open.
    drop(open);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        match Feed::open(&url, None) {
            Ok(_) => break,
            Err((429, _)) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(100))
            }
            Err(e) => panic!("{e:?}"),
        }
    }
}

/// `GET /api`: the API information object of the 2023-06 Contest API.
#[test]
fn the_api_says_its_version() {
    let ws = workspace_with_server("");
    let s = Server::start(&ws, 0);
    let info: Value = crate::http::get(&format!("{}/api", s.url), &[]).json();
    assert_eq!(info["version"], "2023-06");
    assert!(info["version_url"].as_str().unwrap().contains("2023-06"));
    assert_eq!(info["provider"]["name"], "grundy");
}
