//! A short contest walked through in real browsers (headless Chromium over
//! WebDriver): an admin creates it from the admin pages; a participant
//! watches the countdown, sees the problems appear at the start without a
//! reload, submits a wrong and a right solution from the contest page and
//! sees the results and the board change live; a signed-out visitor's
//! scoreboard follows along, shows the freeze and another participant's
//! try as pending; a clarification is asked, answered to all, and appears
//! on the participant's open page; the admin unfreezes after the end and
//! the final board has the right counts and penalties.
//!
//! Every wait is a bounded poll of the page; the contest is short (its
//! windows are set in seconds, from this machine's measured pace of
//! judging) and the test asserts no time.

use std::time::Duration;

use serde_json::json;

use crate::browser::Browser;
use crate::helpers::{c_judge, csrf_of, NIM_C_AC, NIM_C_WA_FIRST};
use crate::web::http;

fn now_ms() -> i64 {
    grundy::site::contests::now_ms()
}

/// The contest's windows, in seconds: the lead before the start, the time
/// open before the freeze (two judged tries of bob's and the board after
/// them), and the frozen end (cid's try, judged, and a clarification).
/// Each is the shortest that fits on a quick machine, or a multiple of the
/// machine's measured pace where that is longer: a loaded machine gets a
/// longer contest instead of a window it misses.
struct Schedule {
    lead_s: i64,
    open_s: i64,
    frozen_s: i64,
}

impl Schedule {
    fn for_pace(pace: Duration) -> Schedule {
        let at_least = |floor: i64, paces: u32| floor.max((pace * paces).as_secs() as i64 + 1);
        Schedule {
            lead_s: at_least(20, 4),
            open_s: at_least(45, 8),
            frozen_s: at_least(30, 6),
        }
    }
}

/// How long one judging of a C submission to nim takes on this machine now:
/// a practice try of the admin's through the API, timed from sending it to
/// its verdict (before the contest, which closes nim to practice).
fn judging_pace(s: &crate::helpers::Server) -> Duration {
    let token = s.token("ann");
    let started = std::time::Instant::now();
    let (code, v) = crate::server::submit(s, &token, "nim", "c", NIM_C_AC);
    assert!(code < 300, "{code}: {v}");
    let id = v["id"].as_i64().expect("an id");
    let done = crate::server::wait_done(s, &token, id);
    assert_eq!(done["verdict"], "AC", "{done}");
    started.elapsed()
}

/// The cells of `team`'s row on the scoreboard shown (rank, team, solved,
/// time, then one per problem), as the page shows them.
fn row(b: &Browser, team: &str) -> Vec<String> {
    let v = b.script_with(
        "const r = document.querySelector('#scoreboard tr[data-team=\"' + arguments[0] + '\"]');
         return r ? Array.from(r.querySelectorAll('td')).map(td => td.innerText.trim()) : [];",
        &[json!(team)],
    );
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|c| c.as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// The contest minutes a try sent between `before` and `after` (ms) may
/// carry: the board counts whole minutes from the start, and how many have
/// passed depends on this machine's pace, so the test reads them from the
/// clock rather than assuming minute 0.
fn minutes(start_ms: i64, before: i64, after: i64) -> std::ops::RangeInclusive<i64> {
    (before - start_ms).div_euclid(60_000)..=(after - start_ms).div_euclid(60_000)
}

/// A solved cell's text, `TRIES/MINUTE`, with the minute in `window`.
fn solved_in(cell: Option<&String>, tries: u32, window: &std::ops::RangeInclusive<i64>) -> bool {
    cell.and_then(|c| c.strip_prefix(&format!("{tries}/")))
        .and_then(|m| m.parse::<i64>().ok())
        .is_some_and(|m| window.contains(&m))
}

fn same_page(b: &Browser) -> bool {
    b.script("return window.__same_page === true;") == json!(true)
}

/// The result of the participant's newest submission, as their page
/// shows it.
fn newest_result(b: &Browser) -> String {
    b.try_text("#my-submissions tbody tr:first-child td:last-child")
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// Submits `source` in C to problem A from the contest page; waits for
/// the page it lands on.
fn submit(b: &Browser, source: &str) {
    b.click("#label option[value=\"A\"]");
    b.click("#language option[value=\"c\"]");
    b.type_into("#source", source);
    b.script("window.__before_submit = true;");
    b.click("#submit");
    b.wait_for("the contest page after submitting", Duration::from_secs(120), |b| {
        b.script("return window.__before_submit === undefined && !!document.getElementById('my-submissions');")
            == json!(true)
    });
}

#[test]
fn a_participant_and_an_admin_go_through_a_short_contest_in_real_browsers() {
    let Some((_ws, s)) = c_judge() else {
        return;
    };
    s.account("ann", true);
    s.account("bob", false);
    s.account("cid", false);
    let url = s.url.as_str();
    let Some(bob) = Browser::start() else {
        return;
    };
    let ann = Browser::start().expect("a second browser");
    let public = Browser::start().expect("a third browser");
    let judged = Duration::from_secs(300);
    let plan = Schedule::for_pace(judging_pace(&s));
    bob.sign_in(url, "bob");
    ann.sign_in(url, "ann");

    // The admin creates the contest: it starts in 20 seconds, runs 75, and
    // its board freezes for the last 30 (longer on a machine that judges
    // slowly: see `Schedule`).
    ann.goto(&format!("{url}/admin/contests"));
    let (start, duration, freeze) = (
        format!("+{}s", plan.lead_s),
        format!("{}s", plan.open_s + plan.frozen_s),
        format!("{}s", plan.frozen_s),
    );
    for (field, value) in [
        ("#set-slug", "cup"),
        ("#set-name", "The Cup"),
        ("#set-start", start.as_str()),
        ("#set-duration", duration.as_str()),
        ("#set-freeze", freeze.as_str()),
        ("#set-penalty", "20"),
        ("#set-problems", "nim"),
        ("#set-participants", "bob,cid"),
    ] {
        ann.type_into(field, value);
    }
    ann.click("#create");
    ann.wait_for("the contest's admin page", Duration::from_secs(60), |b| {
        b.url().ends_with("/admin/contests/cup")
    });
    let contest =
        s.rt.block_on(s.store.contest("cup"))
            .expect("read")
            .expect("created");
    assert_eq!(
        (contest.duration_s, contest.freeze_s),
        (plan.open_s + plan.frozen_s, plan.frozen_s)
    );
    assert!(ann.text("#package").contains("once the contest has ended"));
    ann.wait_for("the admin page's countdown", Duration::from_secs(10), |b| {
        b.text("#countdown").starts_with("starts in")
    });
    ann.shot("contest-admin-created");

    // Before the start: no problems, a countdown; the public board empty.
    bob.goto(&format!("{url}/contests/cup"));
    assert!(
        now_ms() < contest.start_ms,
        "the page came after the start: the machine is too slow for a {} s lead",
        plan.lead_s
    );
    assert!(bob.try_find("#not-started").is_some());
    assert!(bob.try_find("#problem-A").is_none(), "no statement yet");
    bob.wait_for("the countdown", Duration::from_secs(10), |b| {
        b.text("#countdown").starts_with("starts in")
    });
    bob.shot("contest-before-start");
    bob.script("window.__same_page = true;");
    public.goto(&format!("{url}/contests/cup/scoreboard"));
    public.script("window.__same_page = true;");

    // The start: the problems appear on the open page.
    bob.wait_for(
        "the problems at the start",
        Duration::from_millis((contest.start_ms - now_ms()).max(0) as u64)
            + Duration::from_secs(60),
        |b| b.try_find("#problem-A").is_some(),
    );
    assert!(same_page(&bob), "the problems came without a reload");
    assert!(bob.text("#problem-A").contains("heaps of stones"));
    assert!(
        bob.text("#countdown").ends_with("left"),
        "{}",
        bob.text("#countdown")
    );
    assert_eq!(bob.text("#phase"), "running");
    bob.shot("contest-started");

    // A wrong try, then the right one; each result arrives on the open page.
    submit(&bob, NIM_C_WA_FIRST);
    bob.script("window.__same_page = true;");
    bob.wait_for("the WA result", judged, |b| newest_result(b) == "WA");
    assert!(same_page(&bob));
    assert_eq!(row(&bob, "bob")[2..], ["0", "0", "1"], "one rejected try");
    let before = now_ms();
    submit(&bob, NIM_C_AC);
    let bob_minutes = minutes(contest.start_ms, before, now_ms());
    bob.script("window.__same_page = true;");
    bob.wait_for("the AC result", judged, |b| newest_result(b) == "AC");
    bob.wait_for("bob's solved cell", Duration::from_secs(60), |b| {
        solved_in(row(b, "bob").get(4), 2, &bob_minutes)
    });
    assert!(same_page(&bob));
    let bob_row = row(&bob, "bob");
    let bob_minute: i64 = bob_row[4]["2/".len()..].parse().expect("a minute");
    let bob_time = (bob_minute + 20).to_string();
    assert_eq!(bob_row[..4], ["1", "bob", "1", bob_time.as_str()]);
    bob.shot("contest-solved");

    // The public board followed without a reload, the first solve marked.
    public.wait_for(
        "bob's solve on the public board",
        Duration::from_secs(60),
        |b| row(b, "bob").get(4) == Some(&bob_row[4]),
    );
    assert!(public
        .try_find("#scoreboard td.first[data-label=\"A\"]")
        .is_some());
    assert!(same_page(&public));

    // The freeze: the public board says so; cid's try after it is pending
    // there, and to bob.
    let freeze = contest.end_ms() - plan.frozen_s * 1000;
    public.wait_for(
        "the freeze on the public board",
        Duration::from_millis((freeze - now_ms()).max(0) as u64) + Duration::from_secs(60),
        |b| b.try_find("#frozen-note").is_some(),
    );
    assert!(
        now_ms() < contest.end_ms() - 5_000,
        "too late for cid's try"
    );
    let cid = crate::web::sign_in(url, "cid");
    let page = http("GET", &format!("{url}/contests/cup"), Some(&cid), None);
    let csrf = csrf_of(&page.body);
    let before = now_ms();
    let sent = http(
        "POST",
        &format!("{url}/contests/cup/submit"),
        Some(&cid),
        Some(&[
            ("csrf", csrf.as_str()),
            ("label", "A"),
            ("language", "c"),
            ("source", NIM_C_AC),
        ]),
    );
    assert_eq!(sent.status, 303, "{}", sent.body);
    let cid_minutes = minutes(contest.start_ms, before, now_ms());
    public.wait_for("cid's try pending on the public board", judged, |b| {
        row(b, "cid").get(4).map(String::as_str) == Some("1?")
    });
    // Judged, it stays pending to everyone but cid and the admins.
    s.contest_judged(contest.id);
    assert_eq!(row(&public, "cid"), ["2", "cid", "0", "0", "1?"]);
    bob.wait_for("cid's try pending to bob", Duration::from_secs(60), |b| {
        row(b, "cid").get(4).map(String::as_str) == Some("1?")
    });
    assert!(same_page(&public) && same_page(&bob));
    public.shot("contest-frozen-board");

    // A clarification: bob asks, the admin answers to all, the answer
    // comes to bob's open page.
    bob.click("#ask-label option[value=\"A\"]");
    bob.type_into("#question", "May a heap be empty?");
    bob.script("window.__before_submit = true;");
    bob.click("#ask");
    bob.wait_for("the question listed", Duration::from_secs(60), |b| {
        b.script("return window.__before_submit === undefined;") == json!(true)
            && b.try_text("#clarification-list")
                .is_some_and(|t| t.contains("May a heap be empty?"))
    });
    bob.script("window.__same_page = true;");
    ann.goto(&format!("{url}/admin/contests/cup"));
    assert!(ann.text("#clarifications").contains("May a heap be empty?"));
    ann.type_into(".answer-form textarea[name=\"answer\"]", "Yes, it may.");
    ann.click(".answer-form input[name=\"to\"][value=\"all\"]");
    ann.click(".answer-form button[type=\"submit\"]");
    bob.wait_for("the answer on bob's page", Duration::from_secs(60), |b| {
        b.try_text("#clarification-list")
            .is_some_and(|t| t.contains("Yes, it may.") && t.contains("(to all)"))
    });
    assert!(same_page(&bob), "the answer came without a reload");
    bob.shot("contest-clarification");

    // After the end the admin unfreezes; the final board, on the page
    // the visitor kept open: cid first (its minute, no penalty), bob
    // second (his minute and 20 for the wrong try).
    ann.wait_for(
        "the end",
        Duration::from_millis((contest.end_ms() - now_ms()).max(0) as u64)
            + Duration::from_secs(60),
        |_| now_ms() > contest.end_ms(),
    );
    ann.goto(&format!("{url}/admin/contests/cup"));
    ann.click("#unfreeze");
    ann.wait_for("the revealed state", Duration::from_secs(60), |b| {
        b.try_find("#state-revealed").is_some()
    });
    // Revealed once, it is not offered again (issue 47).
    assert!(ann.try_find("#unfreeze").is_none());
    assert!(ann.try_find("#freeze").is_none());
    public.wait_for("the final board", Duration::from_secs(60), |b| {
        b.try_find("#frozen-note").is_none() && solved_in(row(b, "cid").get(4), 1, &cid_minutes)
    });
    let cid_row = row(&public, "cid");
    let cid_time = cid_row[4]["1/".len()..].to_string();
    assert!(cid_time.parse::<i64>().expect("a minute") < bob_minute + 20);
    assert_eq!(
        cid_row,
        ["1", "cid", "1", cid_time.as_str(), cid_row[4].as_str()]
    );
    assert_eq!(
        row(&public, "bob"),
        ["2", "bob", "1", bob_time.as_str(), bob_row[4].as_str()]
    );
    assert!(same_page(&public), "the board followed the whole contest");
    public.shot("contest-final-board");
    bob.wait_for("the end on bob's page", Duration::from_secs(10), |b| {
        b.text("#countdown") == "over"
    });
    assert!(
        ann.try_find("#download-package").is_some(),
        "the package once ended"
    );
    ann.shot("contest-admin-final");
}

/// What a page's script returns, as text.
fn js_text(b: &Browser, js: &str) -> String {
    match b.script(js) {
        serde_json::Value::String(s) => s,
        other => other.to_string(),
    }
}

/// Issue 47's pages, looked at in Chromium: balloon colours on the
/// problem labels, the statements and the board's headers; each team's
/// organization under its name; the SOLVED and TIME headers aligned with
/// their numbers; the question form within reach in a short window; and
/// submit forms that offer only the languages a live worker judges, one
/// entry per name.
#[test]
fn contest_pages_show_balloons_organizations_aligned_numbers_and_only_judged_languages() {
    let ws = crate::helpers::workspace_with_server("submissions_per_minute = 0");
    let s = crate::helpers::Server::start(&ws, 0);
    s.account("bob", false);
    s.account("cid", false);
    let Some(b) = Browser::start() else {
        return;
    };
    // A worker process elsewhere, alive, that judges C and Python only.
    s.rt.block_on(s.store.register_workers("far", 1, "isolation: test"))
        .expect("register");
    s.rt.block_on(
        s.store
            .announce_workers("far", 2, "c gcc 12\npython Python 3.11\n"),
    )
    .expect("announce");
    let mut teams = grundy::contest::affiliation::Affiliations::default();
    teams
        .add_csv("teams.csv", "team,organization\nbob,Heap University\n")
        .expect("a sheet");
    s.rt.block_on(s.store.import_affiliations(&teams))
        .expect("import");
    let now = now_ms();
    let new = grundy::store::NewContest {
        colors: vec![("A".into(), "#e01b24".into())],
        ..crate::clics::icpc_on_nim("cup", "The Cup", now - 60_000, &["bob", "cid"])
    };
    s.rt.block_on(s.store.create_contest(&new, now))
        .expect("create");
    let url = s.url.as_str();
    b.sign_in(url, "bob");
    b.resize(1280, 640);
    b.goto(&format!("{url}/contests/cup"));
    b.wait_for("the board", Duration::from_secs(30), |b| {
        b.try_find("#scoreboard").is_some()
    });
    for place in [
        "#problem-labels",
        "#problem-A h2",
        "#scoreboard thead th.cell",
    ] {
        let fill = js_text(
            &b,
            &format!("return document.querySelector('{place} svg.balloon circle')?.getAttribute('fill') ?? 'none';"),
        );
        assert_eq!(fill, "#e01b24", "the balloon in {place}");
    }
    assert_eq!(
        b.text("#scoreboard tr[data-team=bob] .org"),
        "Heap University"
    );
    let aligned = js_text(
        &b,
        "return [...document.querySelectorAll('#scoreboard thead th.num')]
            .map(th => getComputedStyle(th).textAlign).join(',');",
    );
    assert_eq!(aligned, "right,right,right", "#, Solved and Time");
    // The panel never runs past the window's bottom (what is below its
    // fold is reached by scrolling the panel itself).
    let panel = js_text(
        &b,
        "const a = document.querySelector('.submit-box'); const r = a.getBoundingClientRect();
         return [getComputedStyle(a).overflowY, r.height <= window.innerHeight,
                 Math.round(r.height), window.innerHeight].join(' ');",
    );
    assert!(panel.starts_with("auto true "), "the submit panel: {panel}");
    let offered = |b: &Browser| {
        js_text(
            b,
            "return [...document.querySelectorAll('#language option')].map(o => o.value).join(',');",
        )
    };
    assert_eq!(offered(&b), "c,python");
    b.shot("contest-balloons-organizations");
    // The practice form offers the same; with every language judged, one
    // entry per name (cpp and cpp17 are one "C++17 (g++)").
    b.goto(&format!("{url}/problems/lasker-nim"));
    assert_eq!(offered(&b), "c,python");
    s.rt.block_on(s.store.announce_workers("far", 2, ""))
        .expect("announce");
    b.goto(&format!("{url}/problems/lasker-nim"));
    let names = js_text(
        &b,
        "return [...document.querySelectorAll('#language option')].map(o => o.textContent).join('|');",
    );
    let names: Vec<&str> = names.split('|').collect();
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(names.len(), unique.len(), "{names:?}");
    assert!(names.contains(&"C++17 (g++)"), "{names:?}");
}
