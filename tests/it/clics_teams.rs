//! Issue 39: organizations, groups and balloon colours, as the ICPC
//! Resolver and the CDS read them. Imported from the CLICS files and a CSV
//! sheet on the command line; sent by the Contest API (checked against the
//! standard's schemas), in the feed (an organization before the team that
//! names it, a change as an update) and in the exported package; a bad
//! import is one line and stores nothing.

use serde_json::Value;

use crate::clics::{assert_valid, basic, json};

/// The events of the contest's feed, read whole.
fn feed(url: &str, auth: Option<&str>) -> Vec<Value> {
    let (status, text) = crate::clics::get(&format!("{url}/event-feed?stream=false"), auth);
    assert_eq!(status, 200, "{text}");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("an event"))
        .collect()
}

/// Every team event's organization and groups were sent before it.
fn referenced_before(events: &[Value]) {
    for (i, e) in events.iter().enumerate() {
        if e["type"] != "teams" || e["data"].is_null() {
            continue;
        }
        let sent = |kind: &str, id: &Value| {
            events[..i]
                .iter()
                .any(|o| o["type"] == kind && o["data"]["id"] == *id)
        };
        let org = &e["data"]["organization_id"];
        assert!(
            org.is_null() || sent("organizations", org),
            "{e} before {org}"
        );
        for g in e["data"]["group_ids"].as_array().into_iter().flatten() {
            assert!(sent("groups", g), "{e} before group {g}");
        }
    }
}

fn ok(out: &crate::helpers::Output) -> String {
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    out.stdout.clone()
}

#[test]
fn organizations_groups_and_colours_reach_the_api_the_feed_and_the_package() {
    let ws = crate::helpers::workspace_with_server("submissions_per_minute = 0");
    let s = crate::helpers::Server::start(&ws, 0);
    s.account("ann", true);
    s.account("bob", false);
    s.account("cid", false);
    let dan = s.account("dan", false);
    let ann = basic("ann");
    ok(&ws.grundy(&[
        "contest",
        "create",
        "wf",
        "--start",
        "now",
        "--duration",
        "20s",
        "--problems",
        "nim,lasker-nim",
        "--participants",
        "bob,cid,dan",
        "--colors",
        "A=#F00",
    ]));
    let api = format!("{}/api/contests/wf", s.url);

    // The CLICS files a registration system writes: cid is found by the
    // team's name, bob by its id.
    let orgs = ws.file(
        "organizations.json",
        r#"[{"id":"uva","name":"UvA","formal_name":"Universiteit van Amsterdam","country":"NLD"},
            {"id":"kth","name":"KTH"}]"#,
    );
    let groups = ws.file("groups.json", r#"[{"id":"bsc","name":"Bachelor teams"}]"#);
    let teams = ws.file(
        "teams.json",
        r#"[{"id":"bob","name":"The Heaps","organization_id":"uva","group_ids":["bsc"]},
            {"id":"t2","name":"cid","organization_id":"kth","group_ids":[]}]"#,
    );
    let files = [&orgs, &groups, &teams].map(|p| p.to_str().unwrap().to_string());
    let said = ok(&ws.grundy(&["user", "affiliations", &files[0], &files[1], &files[2]]));
    assert!(
        said.contains("2 organizations, 1 group and 2 teams"),
        "{said}"
    );
    // A CSV sheet for dan, making the ids of the names.
    let sheet = ws.file(
        "dan.csv",
        "team,organization,groups\ndan,\"Université de Nîmes\",Bachelor teams; Remote\n",
    );
    ok(&ws.grundy(&["user", "affiliations", sheet.to_str().unwrap()]));

    let teams = json(&format!("{api}/teams"), Some(&ann));
    assert_valid("teams", &teams);
    // A team's id is its registration's (issue 43); dan, whom the sheet
    // gives none, keeps his account number.
    let team = |id: &str| {
        teams
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"].as_str() == Some(id))
            .cloned()
            .unwrap_or_else(|| panic!("team {id} in {teams}"))
    };
    let dan = dan.to_string();
    assert_eq!(team("bob")["organization_id"], "uva");
    assert_eq!(team("bob")["group_ids"], serde_json::json!(["bsc"]));
    assert_eq!(team("t2")["organization_id"], "kth");
    assert_eq!(team("t2")["label"], "t2");
    assert_eq!(team(&dan)["organization_id"], "universit-de-n-mes");
    assert_eq!(
        team(&dan)["group_ids"],
        serde_json::json!(["bachelor-teams", "remote"])
    );
    let orgs = json(&format!("{api}/organizations"), Some(&ann));
    assert_valid("organizations", &orgs);
    // In the order the record first holds them (the teams' order).
    let mut ids: Vec<&str> = orgs
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_str().unwrap())
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, ["kth", "universit-de-n-mes", "uva"]);
    let uva = orgs
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == "uva")
        .unwrap();
    assert_eq!(uva["formal_name"], "Universiteit van Amsterdam");
    assert_eq!(uva["country"], "NLD");
    let groups = json(&format!("{api}/groups"), None);
    assert_valid("groups", &groups);
    // The sheet's groups have ids made of their names: "Bachelor teams"
    // there is a group of its own beside the CLICS file's `bsc`.
    assert_eq!(groups.as_array().unwrap().len(), 3, "{groups}");
    // Each group has its winner's award (no team placed yet).
    let awards = json(&format!("{api}/awards"), Some(&ann));
    for g in ["bsc", "remote"] {
        assert!(
            awards
                .as_array()
                .unwrap()
                .iter()
                .any(|a| a["id"] == format!("group-winner-{g}")),
            "{awards}"
        );
    }
    let only_uva = json(&format!("{api}/teams?organization_id=uva"), None);
    assert_eq!(only_uva.as_array().unwrap().len(), 1, "{only_uva}");

    // The contest's colour for A; B has none (no property, as the
    // standard has no null for it).
    let problems = json(&format!("{api}/problems"), None);
    assert_valid("problems", &problems);
    assert_eq!(problems[0]["rgb"], "#ff0000", "{problems}");
    assert_eq!(problems[0]["color"], "red");
    assert!(problems[1].get("rgb").is_none(), "{problems}");

    // A bad import is one line and changes nothing.
    let bad = ws.file("teams.json", r#"[{"id":"bob","organization_id":"mit"}]"#);
    let out = ws.grundy(&["user", "affiliations", bad.to_str().unwrap()]);
    assert_ne!(out.code, 0);
    let err = &out.stderr;
    assert!(err.contains("no organization \"mit\""), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let nobody = ws.file("teams.json", r#"[{"id":"zed","name":"Zed"}]"#);
    let out = ws.grundy(&["user", "affiliations", nobody.to_str().unwrap()]);
    assert!(
        out.stderr.contains("no account named \"zed\" or \"Zed\""),
        "{}",
        out.stderr
    );
    assert_eq!(json(&format!("{api}/teams"), Some(&ann)), teams);

    // Colours from the contest's problemset.yaml: B now blue, A as it was.
    let set = ws.file(
        "problemset.yaml",
        "problems:\n  - letter: A\n    rgb: '#ff0000'\n  - letter: B\n    short-name: lasker-nim\n    rgb: '#0000ff'\n",
    );
    ok(&ws.grundy(&[
        "contest",
        "edit",
        "wf",
        "--colors",
        &format!("@{}", set.display()),
    ]));
    let problems = json(&format!("{api}/problems"), None);
    assert_eq!(problems[1]["rgb"], "#0000ff", "{problems}");
    assert_eq!(problems[1]["color"], "blue");

    // The feed: organizations and groups before the teams that name them;
    // bob's move to KTH is one team update, and the last teams event of
    // bob's says so.
    let move_bob = ws.file(
        "teams.json",
        r#"[{"id":"bob","organization_id":"kth","group_ids":["bsc"]}]"#,
    );
    let before = feed(&api, None).len();
    ok(&ws.grundy(&["user", "affiliations", move_bob.to_str().unwrap()]));
    let events = feed(&api, None);
    for e in &events {
        assert_valid("event-feed", e);
    }
    referenced_before(&events);
    // One team update, then UvA, no team's any more, deleted.
    let new: Vec<&Value> = events[before..].iter().collect();
    assert_eq!(new.len(), 2, "one change, its events: {new:?}");
    assert_eq!(new[0]["type"], "teams");
    assert_eq!(new[0]["data"]["organization_id"], "kth");
    assert_eq!(new[1]["type"], "organizations");
    assert_eq!(new[1]["id"], "uva");
    assert!(new[1]["data"].is_null(), "{}", new[1]);
    let colours: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "problems" && e["id"] == "lasker-nim")
        .collect();
    assert_eq!(
        colours.last().unwrap()["data"]["rgb"],
        "#0000ff",
        "{colours:?}"
    );

    // The package: organizations.json, groups.json, teams with them.
    let dir = ws.dir.path().join("package");
    // Only an ended contest is exported: wait for its end.
    let c = s.rt.block_on(s.store.contest("wf")).unwrap().unwrap();
    while grundy::site::contests::now_ms() <= c.end_ms() {
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    // After the end the colours still change, nothing else does.
    ok(&ws.grundy(&["contest", "edit", "wf", "--colors", "A=#00ff00"]));
    let problems = json(&format!("{api}/problems"), None);
    assert_eq!(problems[0]["rgb"], "#00ff00", "{problems}");
    assert!(problems[1].get("rgb").is_none(), "{problems}");
    let out = ws.grundy(&["contest", "edit", "wf", "--name", "Renamed"]);
    assert!(
        out.code != 0 && out.stderr.contains("has ended"),
        "{}",
        out.stderr
    );
    ok(&ws.grundy(&["contest", "export", "wf", dir.to_str().unwrap()]));
    let read = |name: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(name)).expect(name)).expect(name)
    };
    // UvA has no team here since bob moved: the contest shows KTH and
    // Nîmes.
    let orgs = read("organizations.json");
    assert_eq!(orgs.as_array().unwrap().len(), 2, "{orgs}");
    assert_eq!(read("groups.json").as_array().unwrap().len(), 3);
    let teams = read("teams.json");
    assert!(teams
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["id"] == "bob" && t["organization_id"] == "kth"));
}

/// A language's CLICS id is the configuration's `clics_id`, the same on
/// the languages endpoint, the submissions and the feed (before, the
/// submissions and the feed kept a built-in mapping of their own).
#[test]
fn a_configured_language_id_is_the_same_everywhere() {
    let ws = crate::helpers::workspace_with_server("submissions_per_minute = 0");
    let config = std::fs::read_to_string(ws.config()).expect("config");
    let at = config.find("[languages.c]").expect("C's section");
    let (head, tail) = config.split_at(at);
    let tail = tail.replacen("clics_id = \"c\"", "clics_id = \"gnu-c\"", 1);
    std::fs::write(ws.config(), format!("{head}{tail}")).expect("write");
    let s = crate::helpers::Server::start(&ws, 0);
    s.account("ann", true);
    let bob = s.account("bob", false);
    let now = grundy::site::contests::now_ms();
    let new = crate::clics::icpc_on_nim("wf", "WF", now - 60_000, &["bob"]);
    let id =
        s.rt.block_on(s.store.create_contest(&new, now))
            .expect("create");
    crate::freeze::judged(&s, bob, id, grundy::verdict::Verdict::AC);
    let api = format!("{}/api/contests/wf", s.url);
    let ann = basic("ann");
    let languages = json(&format!("{api}/languages"), None);
    assert!(
        languages
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["id"] == "gnu-c"),
        "{languages}"
    );
    let submissions = json(&format!("{api}/submissions"), Some(&ann));
    assert_eq!(submissions[0]["language_id"], "gnu-c", "{submissions}");
    let events = feed(&api, Some(&ann));
    let sent: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "submissions")
        .collect();
    assert_eq!(sent.len(), 1, "{events:?}");
    assert_eq!(sent[0]["data"]["language_id"], "gnu-c", "{}", sent[0]);
}

/// Issue 44: a group award exists only for a group that a team of the
/// contest is in. A group only the admin is in, and a group of an account
/// outside the contest, were awarded on `/awards` and in the package's
/// `awards.json` while `/groups` and `groups.json` left them out.
#[test]
fn group_awards_go_only_to_groups_of_the_contests_teams() {
    use grundy::contest::affiliation::{Affiliations, Group, Membership};
    let ws = crate::helpers::workspace_with_server("submissions_per_minute = 0");
    let s = crate::helpers::Server::start(&ws, 0);
    s.account("ann", true);
    s.account("bob", false);
    s.account("eve", false);
    let now = grundy::site::contests::now_ms();
    // Ended an hour ago, so that it is exported.
    let new = crate::clics::icpc_on_nim("wf", "WF", now - 2 * 3_600_000, &["bob"]);
    s.rt.block_on(s.store.create_contest(&new, now))
        .expect("create");
    let group = |id: &str| Group {
        id: id.into(),
        name: format!("Group {id}"),
        icpc_id: None,
    };
    let member = |name: &str, group: &str| Membership {
        keys: vec![name.into()],
        organization: None,
        groups: vec![group.into()],
        ..Membership::default()
    };
    let a = Affiliations {
        organizations: Vec::new(),
        groups: vec![group("bsc"), group("jury"), group("outside")],
        teams: vec![
            member("bob", "bsc"),
            member("ann", "jury"),
            member("eve", "outside"),
        ],
    };
    s.rt.block_on(s.store.import_affiliations(&a))
        .expect("import");
    let api = format!("{}/api/contests/wf", s.url);
    let ids = |list: &Value, prefix: &str| -> Vec<String> {
        list.as_array()
            .expect("an array")
            .iter()
            .filter_map(|o| o["id"].as_str())
            .filter_map(|id| id.strip_prefix(prefix).map(String::from))
            .collect()
    };
    let groups = json(&format!("{api}/groups"), None);
    assert_eq!(ids(&groups, ""), ["bsc"], "{groups}");
    let awards = json(&format!("{api}/awards"), Some(&basic("ann")));
    assert_valid("awards", &awards);
    assert_eq!(ids(&awards, "group-winner-"), ["bsc"], "{awards}");

    let dir = ws.dir.path().join("package");
    ok(&ws.grundy(&["contest", "export", "wf", dir.to_str().unwrap()]));
    let read = |name: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(name)).expect(name)).expect(name)
    };
    assert_eq!(ids(&read("groups.json"), ""), ["bsc"]);
    assert_eq!(ids(&read("awards.json"), "group-winner-"), ["bsc"]);
    let shown = ok(&ws.grundy(&["contest", "show", "wf", "--json"]));
    let shown: Value = serde_json::from_str(&shown).expect("one object");
    assert_eq!(ids(&shown["awards"], "group-winner-"), ["bsc"], "{shown}");
}

/// Issue 44: names have sizes a page can show. A 1 MB organization name
/// was taken by the affiliation import, and the contest's public
/// `/organizations` became 2 MB. Over its bound, a name (organization,
/// formal name, group; from the CLICS files or a CSV sheet) is one line on
/// the command line and nothing is stored; so is a contest's name.
#[test]
fn an_oversized_name_is_one_line_and_nothing_is_stored() {
    let ws = crate::helpers::workspace_with_server("submissions_per_minute = 0");
    let s = crate::helpers::Server::start(&ws, 0);
    s.account("bob", false);
    let now = grundy::site::contests::now_ms();
    let new = crate::clics::icpc_on_nim("wf", "WF", now - 60_000, &["bob"]);
    s.rt.block_on(s.store.create_contest(&new, now))
        .expect("create");
    let huge = "x".repeat(1 << 20);
    let teams = ws.file(
        "teams.json",
        r#"[{"id":"bob","organization_id":"big","group_ids":["g"]}]"#,
    );
    let cases = [
        (
            format!(r#"[{{"id":"big","name":"{huge}"}}]"#),
            r#"[{"id":"g","name":"G"}]"#.to_string(),
            "organization big: an organization's name is at most",
        ),
        (
            format!(r#"[{{"id":"big","name":"Big","formal_name":"{huge}"}}]"#),
            r#"[{"id":"g","name":"G"}]"#.to_string(),
            "organization big: an organization's formal name is at most",
        ),
        (
            r#"[{"id":"big","name":"Big"}]"#.to_string(),
            format!(r#"[{{"id":"g","name":"{huge}"}}]"#),
            "group g: a group's name is at most",
        ),
    ];
    let refused = |out: &crate::helpers::Output, says: &str| {
        assert_eq!(out.code, 2, "{}", out.stderr);
        assert!(
            out.stderr.contains(says),
            "{}",
            &out.stderr[..out.stderr.len().min(300)]
        );
        assert_eq!(out.stderr.trim().lines().count(), 1);
        assert!(out.stderr.len() < 300, "the name is not echoed");
    };
    for (orgs, groups, says) in &cases {
        let orgs = ws.file("organizations.json", orgs);
        let groups = ws.file("groups.json", groups);
        let files = [&orgs, &groups, &teams].map(|p| p.to_str().unwrap().to_string());
        let out = ws.grundy(&["user", "affiliations", &files[0], &files[1], &files[2]]);
        refused(&out, says);
    }
    let sheet = ws.file(
        "bob.csv",
        &format!("team,organization,organization_id\nbob,{huge},big\n"),
    );
    let out = ws.grundy(&["user", "affiliations", sheet.to_str().unwrap()]);
    refused(&out, "an organization's name is at most 100 characters");
    let (orgs, groups, _) = s.rt.block_on(s.store.affiliations()).expect("read");
    assert!(orgs.is_empty() && groups.is_empty(), "{orgs:?} {groups:?}");
    let api = format!("{}/api/contests/wf", s.url);
    assert_eq!(
        json(&format!("{api}/organizations"), None),
        serde_json::json!([])
    );

    // The store refuses what an edge might let through.
    let mut long = crate::clics::icpc_on_nim("big", &"n".repeat(101), now + 60_000, &[]);
    let err =
        s.rt.block_on(s.store.create_contest(&long, now))
            .unwrap_err();
    assert!(matches!(err, grundy::store::Error::TooLong(_)), "{err}");
    long.name = "N".into();
    let id =
        s.rt.block_on(s.store.create_contest(&long, now))
            .expect("create");
    long.name = "n".repeat(101);
    let err =
        s.rt.block_on(s.store.update_contest(id, &long))
            .unwrap_err();
    assert!(matches!(err, grundy::store::Error::TooLong(_)), "{err}");
    let err =
        s.rt.block_on(s.store.ask(id, None, None, &"?".repeat(4001), now))
            .unwrap_err();
    assert!(matches!(err, grundy::store::Error::TooLong(_)), "{err}");
    let err =
        s.rt.block_on(s.store.add_user(&"u".repeat(33), "h", false))
            .unwrap_err();
    assert!(matches!(err, grundy::store::Error::TooLong(_)), "{err}");
    let big = s.rt.block_on(s.store.contest("big")).unwrap().unwrap();
    assert_eq!(big.name, "N");

    // A contest's name on the command line: one line, nothing stored.
    let out = ws.grundy(&[
        "contest",
        "create",
        "long",
        "--start",
        "+1h",
        "--duration",
        "1h",
        "--problems",
        "nim",
        "--name",
        &"n".repeat(101),
    ]);
    refused(&out, "a contest's name is at most 100 characters");
    assert!(s.rt.block_on(s.store.contest("long")).unwrap().is_none());
}

/// A try by account `user` in contest `cid` made at `at_ms`, judged
/// `verdict`.
fn tried_at(
    s: &crate::helpers::Server,
    user: i64,
    cid: i64,
    at_ms: i64,
    verdict: grundy::verdict::Verdict,
) -> i64 {
    let new = grundy::store::NewSubmission {
        problem: "nim",
        language: "c",
        source: b"int main(void) { return 0; }\n",
        user_id: Some(user),
    };
    let id =
        s.rt.block_on(s.store.insert_contest_submission(new, cid, at_ms))
            .expect("insert");
    let lease =
        s.rt.block_on(crate::helpers::claim_own(
            &s.store,
            id,
            std::time::Duration::from_secs(60),
        ))
        .expect("claimed");
    use grundy::store::Queue as _;
    assert!(s
        .rt
        .block_on(s.store.finish(lease, &crate::store::report(verdict), None))
        .expect("finish"));
    id
}

/// Issue 43, point 5: the ids a registration gives teams are the ids the
/// API, the feed and the package show for them, and their `icpc_id`s
/// with them (checked against the standard's schemas); a REST path and a
/// filter take them; an import that would change a recorded id is one
/// line and changes nothing. A hidden team (`hidden` in teams.json, or
/// `grundy user hide`) is off every scoreboard and the awards, and the
/// admins' only.
#[test]
fn registration_ids_are_kept_and_hidden_teams_are_the_admins_only() {
    use grundy::verdict::Verdict;
    let ws = crate::helpers::workspace_with_server("submissions_per_minute = 0");
    let s = crate::helpers::Server::start(&ws, 0);
    s.account("ann", true);
    let bob = s.account("bob", false);
    let cid = s.account("cid", false);
    let dan = s.account("dan", false);
    let now = grundy::site::contests::now_ms();
    // Ended an hour ago, so that it is exported.
    let start = now - 2 * 3_600_000;
    let new = crate::clics::icpc_on_nim("wf", "WF", start, &["bob", "cid", "dan"]);
    let id =
        s.rt.block_on(s.store.create_contest(&new, now))
            .expect("create");
    let orgs = ws.file(
        "organizations.json",
        r#"[{"id":"uva","name":"UvA","icpc_id":"1881"}]"#,
    );
    let groups = ws.file(
        "groups.json",
        r#"[{"id":"div1","name":"Division 1","icpc_id":99}]"#,
    );
    let teams = ws.file(
        "teams.json",
        r#"[{"id":"wf-bob","name":"bob","icpc_id":4711,"organization_id":"uva","group_ids":["div1"]},
            {"id":"wf-cid","name":"cid","group_ids":["div1"]},
            {"id":"wf-dan","name":"dan","hidden":true}]"#,
    );
    let files = [&orgs, &groups, &teams].map(|p| p.to_str().unwrap().to_string());
    ok(&ws.grundy(&["user", "affiliations", &files[0], &files[1], &files[2]]));
    // dan, hidden, solves first; bob next; cid fails.
    tried_at(&s, dan, id, start + 300_000, Verdict::AC);
    let bobs = tried_at(&s, bob, id, start + 600_000, Verdict::AC);
    tried_at(&s, cid, id, start + 900_000, Verdict::WA);

    let api = format!("{}/api/contests/wf", s.url);
    let admin = basic("ann");
    let ids = |list: &Value, key: &str| -> Vec<String> {
        list.as_array()
            .expect("an array")
            .iter()
            .map(|o| o[key].as_str().unwrap_or("?").to_string())
            .collect()
    };
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };

    // Teams: the admins see all three, dan hidden; the public two.
    let all = json(&format!("{api}/teams"), Some(&admin));
    assert_valid("teams", &all);
    assert_eq!(sorted(ids(&all, "id")), ["wf-bob", "wf-cid", "wf-dan"]);
    let team = |id: &str| {
        all.as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == id)
            .cloned()
            .unwrap()
    };
    assert_eq!(team("wf-bob")["label"], "wf-bob");
    assert_eq!(team("wf-bob")["icpc_id"], "4711");
    assert_eq!(team("wf-bob")["hidden"], false);
    assert!(team("wf-cid").get("icpc_id").is_none());
    assert_eq!(team("wf-dan")["hidden"], true);
    let public = json(&format!("{api}/teams"), None);
    assert_valid("teams", &public);
    assert_eq!(sorted(ids(&public, "id")), ["wf-bob", "wf-cid"]);
    let one = json(&format!("{api}/teams/wf-bob"), None);
    assert_eq!(one["id"], "wf-bob");
    let (status, _) = crate::clics::get(&format!("{api}/teams/wf-dan"), None);
    assert_eq!(status, 404);
    let orgs = json(&format!("{api}/organizations"), None);
    assert_valid("organizations", &orgs);
    assert_eq!(orgs[0]["icpc_id"], "1881", "{orgs}");
    let groups = json(&format!("{api}/groups"), None);
    assert_valid("groups", &groups);
    assert_eq!(groups[0]["icpc_id"], "99", "{groups}");

    // Submissions: the registration's ids; dan's the admins' only.
    let subs = json(&format!("{api}/submissions"), Some(&admin));
    assert_valid("submissions", &subs);
    assert_eq!(
        sorted(ids(&subs, "team_id")),
        ["wf-bob", "wf-cid", "wf-dan"]
    );
    let subs = json(&format!("{api}/submissions"), None);
    assert_eq!(sorted(ids(&subs, "team_id")), ["wf-bob", "wf-cid"]);
    let bob_only = json(&format!("{api}/submissions?team_id=wf-bob"), None);
    assert_eq!(ids(&bob_only, "id"), [bobs.to_string()]);

    // The scoreboard and the awards: bob wins, dan is nowhere.
    for auth in [Some(admin.as_str()), None] {
        let board = json(&format!("{api}/scoreboard"), auth);
        assert_valid("scoreboard", &board);
        assert_eq!(ids(&board["rows"], "team_id"), ["wf-bob", "wf-cid"]);
        assert_eq!(board["rows"][0]["rank"], 1);
    }
    let awards = json(&format!("{api}/awards"), Some(&admin));
    assert_valid("awards", &awards);
    let winner = awards
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["id"] == "winner")
        .unwrap();
    assert_eq!(winner["team_ids"], serde_json::json!(["wf-bob"]));
    assert!(!awards.to_string().contains("wf-dan"), "{awards}");
    let bearer = format!("Bearer {}", s.token("bob"));
    let v1 = json(
        &format!("{}/api/v1/contests/wf/board", s.url),
        Some(&bearer),
    );
    assert!(v1.to_string().contains("\"bob\""), "{v1}");
    assert!(!v1.to_string().contains("\"dan\""), "{v1}");

    // The feed: the same ids; the public's has nothing of dan.
    let events = feed(&api, Some(&admin));
    let sent: Vec<&str> = events
        .iter()
        .filter(|e| e["type"] == "submissions")
        .filter_map(|e| e["data"]["team_id"].as_str())
        .collect();
    assert!(
        sent.contains(&"wf-bob") && sent.contains(&"wf-dan"),
        "{sent:?}"
    );
    let public = feed(&api, None);
    for e in &public {
        assert_valid("event-feed", e);
    }
    let text = serde_json::to_string(&public).unwrap();
    assert!(!text.contains("wf-dan"), "{text}");
    assert!(text.contains("\"team_id\":\"wf-bob\""));

    // Importing the same files again changes nothing; one that would
    // change bob's recorded id is one line and changes nothing.
    let length = feed(&api, Some(&admin)).len();
    ok(&ws.grundy(&["user", "affiliations", &files[0], &files[1], &files[2]]));
    let change = ws.file(
        "teams.json",
        r#"[{"id":"wf-cid","name":"cid","group_ids":[]},{"id":"bob-2","name":"bob"}]"#,
    );
    let out = ws.grundy(&["user", "affiliations", change.to_str().unwrap()]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("team bob-2"), "{}", out.stderr);
    assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
    assert_eq!(feed(&api, Some(&admin)).len(), length);
    assert_eq!(json(&format!("{api}/teams"), Some(&admin)), all);

    // The package: the same ids, the same icpc_id.
    let dir = ws.dir.path().join("package");
    ok(&ws.grundy(&["contest", "export", "wf", dir.to_str().unwrap()]));
    let read = |name: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(name)).expect(name)).expect(name)
    };
    let teams = read("teams.json");
    assert!(
        teams
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["id"] == "wf-bob" && t["icpc_id"] == "4711"),
        "{teams}"
    );
    assert!(ids(&read("submissions.json"), "team_id").contains(&"wf-bob".to_string()));

    // Hiding cid on the command line takes it off the board; showing it
    // again puts it back.
    ok(&ws.grundy(&["user", "hide", "cid"]));
    let board = json(&format!("{api}/scoreboard"), None);
    assert_eq!(ids(&board["rows"], "team_id"), ["wf-bob"]);
    let subs = json(&format!("{api}/submissions"), None);
    assert_eq!(ids(&subs, "team_id"), ["wf-bob"]);
    ok(&ws.grundy(&["user", "hide", "cid", "--unhide"]));
    let board = json(&format!("{api}/scoreboard"), None);
    assert_eq!(ids(&board["rows"], "team_id"), ["wf-bob", "wf-cid"]);
    let out = ws.grundy(&["user", "hide", "nobody"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("no user \"nobody\""), "{}", out.stderr);
}
