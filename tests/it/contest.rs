//! Contests end to end over HTTP: the window, hidden problems, contest
//! submissions judged by a worker, the scoreboard with its freeze,
//! clarifications, and the command line.

use std::time::Duration;

use crate::helpers::{c_judge, csrf_of, Workspace, NIM_C_AC, NIM_C_WA_FIRST};
use crate::web::{http, sign_in, Reply};

fn now_ms() -> i64 {
    grundy::site::contests::now_ms()
}

fn get(url: &str, cookie: &str) -> Reply {
    http("GET", url, Some(cookie), None)
}

/// Posts `form` with the csrf token of the page at `page`.
fn post(url: &str, page: &str, cookie: &str, form: &[(&str, &str)]) -> Reply {
    let csrf = csrf_of(&get(page, cookie).body);
    let mut fields = vec![("csrf", csrf.as_str())];
    fields.extend_from_slice(form);
    http("POST", url, Some(cookie), Some(&fields))
}

/// The text of the board row of `team` (cells joined by `|`).
fn row(html: &str, team: &str) -> String {
    let at = html
        .find(&format!("data-team=\"{team}\""))
        .unwrap_or_else(|| panic!("no row of {team} in {html}"));
    let rest = &html[at..];
    let rest = &rest[rest.find('>').expect("end of the tag") + 1..];
    let row = rest[..rest.find("</tr>").expect("end of row")].replace("&#x2f;", "/");
    let mut text = String::new();
    let mut in_tag = false;
    for c in row.chars() {
        match c {
            '<' => {
                in_tag = true;
                text.push('|');
            }
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.split('|')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join("|")
}

#[test]
fn a_contest_from_before_its_start_to_after_its_end() {
    let Some((_ws, s)) = c_judge() else {
        return;
    };
    s.account("ann", true);
    s.account("bob", false);
    s.account("cid", false);
    let url = s.url.as_str();
    let ann = sign_in(url, "ann");
    let bob = sign_in(url, "bob");
    let cid = sign_in(url, "cid");

    // The admin creates it from the pages, starting in a few seconds.
    let made = post(
        &format!("{url}/admin/contests"),
        &format!("{url}/admin/contests"),
        &ann,
        &[
            ("slug", "cup"),
            ("name", "The Cup"),
            ("start", "+4s"),
            ("duration", "1h"),
            ("freeze", ""),
            ("penalty", "20"),
            ("scoring", "icpc"),
            ("problems", "nim"),
            ("participants", "bob,cid"),
        ],
    );
    assert_eq!(made.status, 303, "{}", made.body);
    let bad = post(
        &format!("{url}/admin/contests"),
        &format!("{url}/admin/contests"),
        &ann,
        &[
            ("slug", "x"),
            ("start", "soon"),
            ("duration", "1h"),
            ("problems", "nim"),
        ],
    );
    assert_eq!(bad.status, 400);
    assert!(bad.body.contains("start &quot;soon&quot;"), "{}", bad.body);
    let contest =
        s.rt.block_on(s.store.contest("cup"))
            .expect("read")
            .expect("created");

    // Before the start: the problem is hidden from participants, even in
    // practice, and the contest takes nothing.
    assert_eq!(get(&format!("{url}/problems/nim"), &bob).status, 404);
    assert!(!get(&format!("{url}/problems"), &bob)
        .body
        .contains("/problems/nim\""));
    assert_eq!(get(&format!("{url}/problems/nim"), &ann).status, 200);
    let page = get(&format!("{url}/contests/cup"), &bob);
    assert!(page.body.contains("id=\"not-started\""), "{}", page.body);
    assert!(
        !page.body.contains("heaps of stones"),
        "no statement before the start"
    );
    let early = post(
        &format!("{url}/contests/cup/submit"),
        &format!("{url}/contests/cup"),
        &bob,
        &[("label", "A"), ("language", "c"), ("source", NIM_C_AC)],
    );
    assert_eq!(early.status, 403);
    assert!(early.body.contains("has not started yet"), "{}", early.body);

    while now_ms() < contest.start_ms + 200 {
        std::thread::sleep(Duration::from_millis(100));
    }
    let page = get(&format!("{url}/contests/cup"), &bob);
    assert!(page.body.contains("problem-A"), "{}", page.body);
    // While it runs its problems are reached through it only (issue 33).
    assert_eq!(get(&format!("{url}/problems/nim"), &bob).status, 404);

    // bob: a wrong try, then accepted; cid: a wrong try.
    let submit = |who: &str, source: &str| {
        let r = post(
            &format!("{url}/contests/cup/submit"),
            &format!("{url}/contests/cup"),
            who,
            &[("label", "A"), ("language", "c"), ("source", source)],
        );
        assert_eq!(r.status, 303, "{}", r.body);
    };
    submit(&bob, NIM_C_WA_FIRST);
    submit(&bob, NIM_C_AC);
    submit(&cid, NIM_C_WA_FIRST);
    s.contest_judged(contest.id);
    let board = get(&format!("{url}/contests/cup/scoreboard"), "x=y").body;
    assert_eq!(row(&board, "bob"), "1|bob|1|20|2/0", "{board}");
    assert_eq!(row(&board, "cid"), "2|cid|0|0|1", "{board}");
    assert!(
        board.contains("class=\"cell first\""),
        "bob's first solve is marked"
    );

    // The freeze: cid's accepted try after it is pending to bob and the
    // public; cid sees it.
    let frozen = post(
        &format!("{url}/admin/contests/cup/act"),
        &format!("{url}/admin/contests/cup"),
        &ann,
        &[("action", "freeze")],
    );
    assert_eq!(frozen.status, 303);
    std::thread::sleep(Duration::from_millis(10));
    submit(&cid, NIM_C_AC);
    s.contest_judged(contest.id);
    let public = get(&format!("{url}/contests/cup/scoreboard"), "x=y").body;
    assert!(public.contains("id=\"frozen-note\""));
    assert_eq!(row(&public, "cid"), "2|cid|0|0|1|1?", "{public}");
    assert_eq!(
        row(
            &get(&format!("{url}/contests/cup/scoreboard"), &bob).body,
            "cid"
        ),
        "2|cid|0|0|1|1?"
    );
    let own = get(&format!("{url}/contests/cup/scoreboard"), &cid).body;
    assert_eq!(row(&own, "cid"), "1|cid|1|20|2/0", "a team sees its own");

    // A clarification, answered to all, shows on every participant's page.
    let asked = post(
        &format!("{url}/contests/cup/ask"),
        &format!("{url}/contests/cup"),
        &bob,
        &[("label", "A"), ("question", "May heaps be empty?")],
    );
    assert_eq!(asked.status, 303, "{}", asked.body);
    assert!(!get(&format!("{url}/contests/cup"), &cid)
        .body
        .contains("May heaps be empty?"));
    let id =
        s.rt.block_on(s.store.clarifications(contest.id, None))
            .expect("read")[0]
            .id
            .to_string();
    let answered = post(
        &format!("{url}/admin/contests/cup/answer"),
        &format!("{url}/admin/contests/cup"),
        &ann,
        &[("id", &id), ("answer", "Yes, they may."), ("to", "all")],
    );
    assert_eq!(answered.status, 303);
    let cids = get(&format!("{url}/contests/cup"), &cid).body;
    assert!(cids.contains("May heaps be empty?") && cids.contains("Yes, they may."));

    // The live fragment answers at once when the page is behind.
    let live = get(
        &format!("{url}/contests/cup/live?page=contest&seen=old&wait=5"),
        &cid,
    );
    assert_eq!(live.status, 200);
    assert!(live.body.starts_with("<section id=\"live\""));

    // Unfreezing before the end is refused, with why (issue 39).
    let early = post(
        &format!("{url}/admin/contests/cup/act"),
        &format!("{url}/admin/contests/cup"),
        &ann,
        &[("action", "unfreeze")],
    );
    assert_eq!(early.status, 400, "{}", early.body);
    assert!(early.body.contains("not ended"), "{}", early.body);
    // Unfreeze after the end: everyone sees the final board.
    crate::freeze::end_now(&s, contest.id);
    post(
        &format!("{url}/admin/contests/cup/act"),
        &format!("{url}/admin/contests/cup"),
        &ann,
        &[("action", "unfreeze")],
    );
    let final_board = get(&format!("{url}/contests/cup/scoreboard"), "x=y").body;
    assert_eq!(row(&final_board, "cid"), "1|cid|1|20|2/0", "{final_board}");
    assert_eq!(
        row(&final_board, "bob"),
        "1|bob|1|20|2/0",
        "a tie shares the rank"
    );
    assert!(!final_board.contains("frozen-note"));

    // A closed board is for participants and admins only.
    post(
        &format!("{url}/admin/contests/cup/act"),
        &format!("{url}/admin/contests/cup"),
        &ann,
        &[("action", "close-board")],
    );
    assert_eq!(
        get(&format!("{url}/contests/cup/scoreboard"), "x=y").status,
        404
    );
    assert_eq!(
        get(&format!("{url}/contests/cup/scoreboard"), &bob).status,
        200
    );

    // After the end the contest refuses, and says where practice goes on.
    let mut over = grundy::store::NewContest {
        slug: "cup".into(),
        name: "The Cup".into(),
        start_ms: contest.start_ms - 3_600_000,
        duration_s: 3600,
        freeze_s: 0,
        penalty_min: 20,
        scoring: grundy::contest::Scoring::Icpc,
        medals: grundy::contest::Medals::default(),
        participants: Some(vec!["bob".into(), "cid".into()]),
        problems: vec![("A".into(), "nim".into())],
        colors: Vec::new(),
    };
    s.rt.block_on(s.store.update_contest(contest.id, &over))
        .expect("move the window");
    let late = post(
        &format!("{url}/contests/cup/submit"),
        &format!("{url}/contests/cup/scoreboard"),
        &bob,
        &[("label", "A"), ("language", "c"), ("source", NIM_C_AC)],
    );
    assert_eq!(late.status, 403);
    assert!(
        late.body
            .replace("&#x2f;", "/")
            .contains("practice goes on at /problems/nim"),
        "{}",
        late.body
    );
    // A non-participant is refused.
    over.start_ms = now_ms() - 1000;
    s.rt.block_on(s.store.update_contest(contest.id, &over))
        .expect("reopen");
    let dan = {
        s.account("dan", false);
        sign_in(url, "dan")
    };
    assert_eq!(get(&format!("{url}/contests/cup"), &dan).status, 403);
}

#[test]
fn the_command_line_creates_lists_shows_and_freezes_contests() {
    let ws = Workspace::new();
    let made = ws.grundy(&[
        "contest",
        "create",
        "spring",
        "--name",
        "Spring Cup",
        "--start",
        "2030-03-01T10:00",
        "--duration",
        "5h",
        "--problems",
        "nim,B=anti-nim",
        "--freeze",
        "1h",
        "--scoring",
        "ioi",
    ]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    assert!(made.stdout.contains("created contest spring"));
    let listed = ws.grundy(&["contest", "list", "--json"]);
    let list = listed.json();
    assert_eq!(list[0]["slug"], "spring");
    assert_eq!(list[0]["start"], "2030-03-01T10:00:00.000+00:00");
    assert_eq!(list[0]["scoring"], "ioi");
    assert_eq!(list[0]["phase"], "upcoming");
    assert_eq!(list[0]["problems"][1]["label"], "B");
    assert_eq!(list[0]["problems"][1]["problem"], "anti-nim");
    // One line naming what is wrong.
    ws.grundy(&[
        "contest",
        "create",
        "spring",
        "--start",
        "now",
        "--duration",
        "1h",
        "--problems",
        "nim",
    ])
    .assert_usage_error("already exists");
    ws.grundy(&[
        "contest",
        "create",
        "x",
        "--start",
        "now",
        "--duration",
        "1h",
        "--problems",
        "nope",
    ])
    .assert_usage_error("no problem \"nope\"");
    ws.grundy(&[
        "contest",
        "create",
        "x",
        "--start",
        "now",
        "--duration",
        "1h",
        "--problems",
        "nim",
        "--freeze",
        "2h",
    ])
    .assert_usage_error("freeze must be shorter");
    // An impossible date is refused with the reason, not moved to March.
    for (start, why) in [
        ("2030-02-31T10:00", "`1..=28`"),
        ("2029-02-29T10:00", "`1..=28`"),
        ("2030-04-31T10:00", "`1..=30`"),
        ("2030-13-01T10:00", "month"),
        ("2030-03-01", "write the date and the time"),
    ] {
        let refused = ws.grundy(&[
            "contest",
            "create",
            "x",
            "--start",
            start,
            "--duration",
            "1h",
            "--problems",
            "nim",
        ]);
        refused.assert_usage_error(&format!("start \"{start}\" is not a time"));
        assert!(refused.stderr.contains(why), "{start}: {}", refused.stderr);
    }
    ws.grundy(&["contest", "freeze", "nope"])
        .assert_usage_error("no contest \"nope\"");
    // Only a running contest freezes, and its results are revealed only
    // after its end: each refusal is one line.
    let early = ws.grundy(&["contest", "freeze", "spring"]);
    assert_eq!(early.code, 2, "{}", early.stderr);
    assert_eq!(early.stderr.lines().count(), 1, "{}", early.stderr);
    let made = ws.grundy(&[
        "contest",
        "create",
        "summer",
        "--start",
        "now",
        "--duration",
        "1h",
        "--problems",
        "nim",
    ]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    assert_eq!(ws.grundy(&["contest", "freeze", "summer"]).code, 0);
    let shown = ws.grundy(&["contest", "show", "summer", "--json"]).json();
    assert_eq!(shown["frozen"], true);
    assert_eq!(
        shown["scoreboard"]["rows"].as_array().map(Vec::len),
        Some(0)
    );
    let early = ws.grundy(&["contest", "unfreeze", "summer"]);
    assert_eq!(early.code, 2, "{}", early.stderr);
    assert_eq!(early.stderr.lines().count(), 1, "{}", early.stderr);
    let shown = ws.grundy(&["contest", "show", "summer", "--json"]).json();
    assert_eq!(shown["frozen"], true);
}

/// Issue 39: the admin's contest page lists the awards, changes a
/// citation, adds and removes an award of the admins' own, refuses an
/// unknown team or an empty citation in one line, and sets the medals
/// after the end until the results are final.
#[test]
fn the_admins_page_changes_awards_and_medals() {
    use grundy::verdict::Verdict;
    let ws = crate::helpers::workspace_with_server("submissions_per_minute = 0");
    let s = crate::helpers::Server::start(&ws, 0);
    s.account("ann", true);
    let bob = s.account("bob", false);
    s.account("cid", false);
    let url = s.url.as_str();
    let ann = sign_in(url, "ann");
    let made = post(
        &format!("{url}/admin/contests"),
        &format!("{url}/admin/contests"),
        &ann,
        &[
            ("slug", "cup"),
            ("start", "now"),
            ("duration", "1h"),
            ("problems", "nim"),
            ("participants", "bob,cid"),
            ("medals", "1,1,0"),
        ],
    );
    assert_eq!(made.status, 303, "{}", made.body);
    let contest =
        s.rt.block_on(s.store.contest("cup"))
            .expect("read")
            .expect("there");
    assert_eq!(contest.medals.to_string(), "1,1,0");
    crate::freeze::judged(&s, bob, contest.id, Verdict::AC);
    let page = format!("{url}/admin/contests/cup");
    let award = |form: &[(&str, &str)]| post(&format!("{page}/award"), &page, &ann, form);

    let html = get(&page, &ann).body;
    assert!(html.contains("data-award=\"gold-medal\""), "{html}");
    assert!(!html.contains("data-award=\"bronze-medal\""), "0 bronze");
    // Issue 47: only what the contest's state allows is offered (running:
    // freeze and rejudge, no unfreeze or finalize), and each try names its
    // team.
    for (id, offered) in [
        ("freeze", true),
        ("rejudge-contest", true),
        ("unfreeze", false),
        ("finalize", false),
    ] {
        assert_eq!(html.contains(&format!("id=\"{id}\"")), offered, "{id}");
    }
    let tries = &html[html.find("id=\"contest-submissions\"").unwrap()..];
    assert!(tries.contains("<td class=\"team\">bob</td>"), "{tries}");
    let refused = [
        (
            vec![
                ("award", "special"),
                ("citation", "Spirit"),
                ("teams", "zed"),
            ],
            "no team &quot;zed&quot;",
        ),
        (vec![("award", "winner"), ("citation", " ")], "citation"),
    ];
    for (form, says) in refused {
        let r = award(&form);
        assert_eq!(r.status, 400, "{form:?}");
        let line = r.body[r.body.find("id=\"contest-error\"").expect("the error")..]
            .split("</p>")
            .next()
            .unwrap()
            .to_string();
        assert!(line.contains(says), "{line}");
    }
    for form in [
        vec![("award", "winner"), ("citation", "Champion")],
        vec![
            ("award", "special-spirit"),
            ("citation", "Team spirit"),
            ("teams", "cid"),
        ],
    ] {
        let r = award(&form);
        assert_eq!(r.status, 303, "{form:?}: {}", r.body);
    }
    let html = get(&page, &ann).body;
    assert!(html.contains("<td>Champion</td><td>bob</td>"), "{html}");
    assert!(html.contains("<td>Team spirit</td><td>cid</td>"), "{html}");
    let api = |path: &str| {
        let r = http(
            "GET",
            &format!("{url}/api/contests/cup{path}"),
            Some(&ann),
            None,
        );
        assert_eq!(r.status, 200, "{}", r.body);
        serde_json::from_str::<serde_json::Value>(&r.body).expect("JSON")
    };
    assert_eq!(api("/awards/winner")["citation"], "Champion");
    let r = award(&[("award", "special-spirit"), ("action", "remove")]);
    assert_eq!(r.status, 303);
    assert!(!get(&page, &ann).body.contains("Team spirit"));

    // Ended: the medals still change from the page, until the finalize.
    crate::freeze::end_now(&s, contest.id);
    let html = get(&page, &ann).body;
    assert!(html.contains("id=\"medals-form\""), "{html}");
    let mut fields: Vec<(String, String)> = Vec::new();
    let form = &html[html.find("id=\"medals-form\"").unwrap()..];
    let form = &form[..form.find("</form>").unwrap()];
    for input in form.split("<input").skip(1) {
        let attr = |name: &str| {
            input
                .split(&format!("{name}=\""))
                .nth(1)
                .map(|v| v[..v.find('"').unwrap()].replace("&#x2f;", "/"))
        };
        if let (Some(n), Some(v)) = (attr("name"), attr("value")) {
            if n != "csrf" {
                fields.push((
                    n,
                    if attr("id").is_some() {
                        "2,2,2".into()
                    } else {
                        v
                    },
                ));
            }
        }
    }
    let fields: Vec<(&str, &str)> = fields
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    let r = post(&page, &page, &ann, &fields);
    assert_eq!(r.status, 303, "{fields:?}: {}", r.body);
    let medals = |s: &crate::helpers::Server| {
        s.rt.block_on(s.store.contest("cup"))
            .expect("read")
            .expect("there")
            .medals
            .to_string()
    };
    assert_eq!(medals(&s), "2,2,2");
    s.rt.block_on(s.store.finalize_contest(contest.id))
        .expect("finalize");
    let html = get(&page, &ann).body;
    assert!(!html.contains("id=\"medals-form\""));
    // Final: no freeze, finalize or rejudge offered any more, and since
    // when in words a reader reads.
    for id in ["freeze", "unfreeze", "finalize", "rejudge-contest"] {
        assert!(
            !html.contains(&format!("id=\"{id}\"")),
            "{id} offered after the finalize"
        );
    }
    let since = &html[html.find("Results final since ").expect("the final state")..];
    let since = &since["Results final since ".len()..since.find('.').unwrap()];
    // `2026-11-29 10:41:00 UTC`, not the ISO stamp `2026-11-29T10:41:00.000Z`.
    assert!(
        since.ends_with(" UTC") && since.as_bytes().get(10) == Some(&b' ') && !since.contains('Z'),
        "{since}"
    );
    let fewer: Vec<(&str, &str)> = fields
        .iter()
        .map(|&(n, v)| (n, if n == "medals" { "1,1,1" } else { v }))
        .collect();
    let r = post(&page, &page, &ann, &fewer);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("final"), "{}", r.body);
    assert_eq!(medals(&s), "2,2,2");
}

/// Issue 49: while the judge shuts down, a contest try from its page is
/// refused with 503 and stored nowhere, as a practice try and the API's
/// are (the contest's handler had lost the check its copy had).
#[test]
fn while_the_judge_stops_a_contest_try_is_refused_with_503() {
    let ws = crate::helpers::workspace_with_server("submissions_per_minute = 0");
    let s = crate::helpers::Server::start(&ws, 0);
    s.account("bob", false);
    let now = now_ms();
    let new = crate::clics::icpc_on_nim("cup", "Cup", now - 60_000, &["bob"]);
    let id =
        s.rt.block_on(s.store.create_contest(&new, now))
            .expect("create");
    let url = &s.url;
    let bob = sign_in(url, "bob");
    let page = format!("{url}/contests/cup");
    let csrf = csrf_of(&get(&page, &bob).body);
    s.state.begin_shutdown();
    let tried = http(
        "POST",
        &format!("{url}/contests/cup/submit"),
        Some(&bob),
        Some(&[
            ("csrf", csrf.as_str()),
            ("label", "A"),
            ("language", "c"),
            ("source", NIM_C_AC),
        ]),
    );
    assert_eq!(tried.status, 503, "{}", tried.body);
    assert!(tried.body.contains("shutting down"), "{}", tried.body);
    let practice = http(
        "POST",
        &format!("{url}/problems/nim/submit"),
        Some(&bob),
        Some(&[
            ("csrf", csrf.as_str()),
            ("language", "c"),
            ("source", NIM_C_AC),
        ]),
    );
    assert_eq!(practice.status, 503, "{}", practice.body);
    let stored =
        s.rt.block_on(s.store.contest_submissions(id, None))
            .expect("read");
    assert!(stored.is_empty(), "{stored:?}");
}
