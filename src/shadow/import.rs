//! A contest set up from another system's: its settings, problems,
//! organizations, groups and teams read from its Contest API or contest
//! package, and mapped to grundy's. The plan is made whole before
//! anything is stored: what cannot be mapped is listed, every item at
//! once, and then nothing is imported. The store writes a plan in one
//! transaction ([`crate::store::Store::import_contest`]).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::feed::{reltime_ms, text, time_ms};
use super::source::Source;
use crate::contest::affiliation::Affiliations;
use crate::contest::{valid_slug, Medals, Scoring};
use crate::context::Context;
use crate::store::{ImportedContest, NewContest};

/// The mapping file's names for what differs between the two systems
/// (TOML): `[problems]` their problem's id or label = a problem of the
/// catalog; `[languages]` their language's id = a language of grundy, or
/// `""` for one grundy does not judge (its submissions are listed with
/// that reason).
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mapping {
    #[serde(default)]
    pub problems: BTreeMap<String, String>,
    #[serde(default)]
    pub languages: BTreeMap<String, String>,
}

impl Mapping {
    /// Reads a mapping file.
    ///
    /// # Errors
    /// One line naming the file and what is wrong.
    pub fn read(path: &std::path::Path) -> Result<Mapping, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("reading the mapping {}: {e}", path.display()))?;
        toml::from_str(&text).map_err(|e| {
            format!(
                "the mapping {}: {}",
                path.display(),
                e.to_string().lines().next().unwrap_or_default()
            )
        })
    }
}

/// Why a contest was not imported: every item that cannot be mapped (on
/// the command line's one line, `; ` between them).
#[derive(Debug)]
pub struct Refused(pub Vec<String>);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "nothing imported: {} cannot be mapped: {}",
            crate::plural::count(self.0.len(), "item", "items"),
            self.0.join("; ")
        )
    }
}

impl std::error::Error for Refused {}

/// A length of the contest object: a RELTIME, or the seconds a YAML 1.1
/// reader makes of `5:00:00` (base 60).
fn length_ms(v: &Value) -> Option<i64> {
    match v {
        Value::String(t) => reltime_ms(t),
        Value::Number(n) => n.as_i64().map(|s| s * 1000),
        _ => None,
    }
}

/// Reads the contest of `source` and maps it: `slug` instead of its id
/// where given, `accounts` the account names that exist already (their
/// teams are taken as they are, their id set as the source gives it).
///
/// # Errors
/// [`Refused`] listing every item that cannot be mapped; the source's
/// own failures (unreadable, refused) as they come.
pub fn plan(
    ctx: &Context,
    source: &Source,
    map: &Mapping,
    slug: Option<&str>,
    accounts: &BTreeSet<String>,
) -> anyhow::Result<Planned> {
    let mut wrong = Vec::new();
    let contest = source
        .object("")?
        .ok_or_else(|| anyhow::anyhow!("{}: no contest object", source.describe()))?;
    let list = |endpoint: &str| -> anyhow::Result<Vec<Value>> {
        Ok(match source.object(endpoint)? {
            Some(Value::Array(all)) => all,
            Some(_) => anyhow::bail!("{endpoint}: not an array of objects"),
            None => Vec::new(),
        })
    };
    let slug = slug
        .map(str::to_string)
        .or_else(|| text(&contest, "id"))
        .unwrap_or_default();
    if !valid_slug(&slug) {
        wrong.push(format!(
            "contest id {slug:?} is no contest name of grundy (1 to 36 letters, digits, '-', '_', '.', not all digits): give --slug"
        ));
    }
    let name = text(&contest, "formal_name")
        .or_else(|| text(&contest, "name"))
        .unwrap_or_else(|| slug.clone());
    let start_ms = contest["start_time"].as_str().and_then(time_ms);
    if start_ms.is_none() {
        wrong
            .push("contest: no start_time (a contest not yet scheduled cannot be shadowed)".into());
    }
    let duration_ms = length_ms(&contest["duration"]).filter(|d| *d > 0);
    if duration_ms.is_none() {
        wrong.push(format!(
            "contest: duration {}: not a RELTIME",
            contest["duration"]
        ));
    }
    let freeze_ms = match &contest["scoreboard_freeze_duration"] {
        Value::Null => Some(0),
        v => length_ms(v),
    };
    if freeze_ms.is_none() {
        wrong.push(format!(
            "contest: scoreboard_freeze_duration {}: not a RELTIME",
            contest["scoreboard_freeze_duration"]
        ));
    }
    // Minutes in 2020-03 and 2022-07, a RELTIME in 2023-06.
    let penalty_min = match &contest["penalty_time"] {
        Value::Null => Some(20),
        Value::Number(n) => n.as_i64(),
        Value::String(t) => reltime_ms(t).map(|ms| ms / 60_000),
        _ => None,
    };
    if penalty_min.is_none() {
        wrong.push(format!(
            "contest: penalty_time {}: neither minutes nor a RELTIME",
            contest["penalty_time"]
        ));
    }
    let scoring = match contest["scoreboard_type"].as_str() {
        None | Some("pass-fail") => Scoring::Icpc,
        Some("score") => Scoring::Ioi,
        Some(other) => {
            wrong.push(format!(
                "contest: scoreboard_type {other:?}: grundy knows pass-fail and score"
            ));
            Scoring::Icpc
        }
    };

    // Problems: by the mapping, then the catalog's problem of the same id,
    // then of the same label.
    let catalog: BTreeSet<String> = ctx
        .catalog
        .slugs()
        .map_err(|e| anyhow::anyhow!("listing the problems: {e}"))?
        .into_iter()
        .collect();
    let mut problems_json = list("problems")?;
    problems_json.sort_by_key(|p| p["ordinal"].as_i64().unwrap_or(i64::MAX));
    let mut problems = Vec::new();
    let mut colors = Vec::new();
    let mut problem_labels = BTreeMap::new();
    let mut carried = Vec::new();
    let package_limit = ctx.config.server.upload_limit_mib << 20;
    for p in &problems_json {
        let id = text(p, "id").unwrap_or_default();
        let label = text(p, "label").unwrap_or_else(|| id.clone());
        let find = |key: &str| {
            map.problems.get(key).cloned().or_else(|| {
                [key.to_string(), key.to_ascii_lowercase()]
                    .into_iter()
                    .find(|k| catalog.contains(k))
            })
        };
        let found = find(&id).or_else(|| find(&label));
        let ours = match found {
            Some(ours) => ours,
            // Not in the catalog: the problem package the source carries,
            // added to the catalog (verified first) before the contest.
            None => match source.problem_package(&id, p, package_limit) {
                Ok(Some(bytes))
                    if crate::site::catalog::valid_slug(&id) && !catalog.contains(&id) =>
                {
                    carried.push((id.clone(), bytes));
                    id.clone()
                }
                Ok(_) => {
                    wrong.push(format!(
                        "problem {id} ({label}): no problem {id:?} or {label:?} in the catalog; map it under [problems] or add its package"
                    ));
                    continue;
                }
                Err(e) => {
                    wrong.push(crate::errors::chain(&*e));
                    continue;
                }
            },
        };
        if !catalog.contains(&ours) && !carried.iter().any(|(slug, _)| *slug == ours) {
            wrong.push(format!(
                "problem {id} ({label}): the mapping names {ours:?}, not in the catalog"
            ));
            continue;
        }
        if label.is_empty() || label.len() > 8 || !label.bytes().all(|b| b.is_ascii_alphanumeric())
        {
            wrong.push(format!(
                "problem {id}: label {label:?}: grundy's labels are up to 8 letters and digits"
            ));
            continue;
        }
        if let Some(rgb) = text(p, "rgb").and_then(|c| crate::color::parse_rgb(&c).ok()) {
            colors.push((label.clone(), rgb));
        }
        problem_labels.insert(id, label.clone());
        problems.push((label, ours));
    }
    if problems_json.is_empty() {
        wrong.push("problems: the contest has none".into());
    }

    // Languages: by the mapping, else grundy's of the same CLICS id.
    let mut languages = BTreeMap::new();
    for l in list("languages")? {
        let id = text(&l, "id").unwrap_or_default();
        let ours = map.languages.get(&id).cloned().or_else(|| {
            ctx.languages
                .iter()
                .find(|ours| crate::site::clics_language(ctx, &ours.id) == id)
                .map(|ours| ours.id.clone())
        });
        match ours {
            Some(ours) if ours.is_empty() || ctx.languages.get(&ours).is_ok() => {
                languages.insert(id, ours);
            }
            Some(ours) => wrong.push(format!("language {id}: the mapping names {ours:?}, no language of grundy")),
            None => wrong.push(format!(
                "language {id}: grundy has no language of that CLICS id; map it under [languages] (\"\" for none)"
            )),
        }
    }
    for (theirs, ours) in &map.languages {
        languages
            .entry(theirs.clone())
            .or_insert_with(|| ours.clone());
    }

    // Organizations, groups and teams, their ids kept.
    let mut affiliations = Affiliations::default();
    let teams = list("teams")?;
    for (file, endpoint) in [
        ("organizations.json", "organizations"),
        ("groups.json", "groups"),
        ("teams.json", "teams"),
    ] {
        let all = if endpoint == "teams" {
            teams.clone()
        } else {
            list(endpoint)?
        };
        if let Err(e) = affiliations.add_clics(file, &Value::Array(all).to_string()) {
            wrong.push(e);
        }
    }
    let mut names = Vec::new();
    for t in &teams {
        let id = text(t, "id").unwrap_or_default();
        if crate::site::roster::valid_name(&id) {
            names.push(id);
        } else {
            wrong.push(format!(
                "team {id}: its id is no account name of grundy (1 to 32 letters, digits, '_', '.', '-')"
            ));
        }
    }
    // Each team is found by its id: its display name is no key of it here.
    for m in &mut affiliations.teams {
        m.keys.truncate(1);
    }
    if let Err(e) = affiliations.check() {
        wrong.push(e);
    }
    if !wrong.is_empty() {
        return Err(Refused(wrong).into());
    }
    let new_accounts = names
        .iter()
        .filter(|n| !accounts.contains(*n))
        .cloned()
        .collect();
    let contest = ImportedContest {
        contest: NewContest {
            slug,
            name,
            start_ms: start_ms.unwrap_or_default(),
            duration_s: (duration_ms.unwrap_or_default() + 999) / 1000,
            freeze_s: freeze_ms.unwrap_or_default() / 1000,
            penalty_min: penalty_min.unwrap_or(20),
            scoring,
            medals: Medals::default(),
            participants: Some(names),
            problems,
            colors,
        },
        new_accounts,
        affiliations,
        source: source.describe(),
        problems: problem_labels,
        languages,
    };
    Ok(Planned { contest, carried })
}

/// A contest mapped, and the problem packages it carries that are not in
/// the catalog yet: (slug, the package's ZIP archive).
pub struct Planned {
    pub contest: ImportedContest,
    pub carried: Vec<(String, Vec<u8>)>,
}

/// Reads `source` (a URL, a directory or a ZIP archive; `token` for an
/// API), maps it with `map` and stores it whole: the edges' one way to
/// import. Returns the contest's id and what was imported.
///
/// # Errors
/// [`Refused`] listing what cannot be mapped; the source's failures; the
/// store's refusal (a contest of that name, a team id another account
/// holds), after which nothing is stored.
pub async fn import(
    ctx: &std::sync::Arc<Context>,
    store: &crate::store::Store,
    source: &str,
    token: Option<String>,
    map: Mapping,
    slug: Option<String>,
) -> anyhow::Result<(i64, ImportedContest)> {
    let accounts: BTreeSet<String> = store.users().await?.into_iter().map(|u| u.name).collect();
    let (ctx2, text) = (std::sync::Arc::clone(ctx), source.to_string());
    let Planned {
        contest: mut plan,
        carried,
    } = tokio::task::spawn_blocking(move || {
        let source = Source::open(&text, token.as_deref())?;
        plan(&ctx2, &source, &map, slug.as_deref(), &accounts)
    })
    .await??;
    plan.source = source.to_string();
    // The problems it carries enter the catalog first, each verified as an
    // admin's upload is; one refused refuses the import (those before it
    // stay in the catalog, as uploads).
    let state = crate::site::AppState::new(std::sync::Arc::clone(ctx), store.clone());
    for (slug, archive) in carried {
        let upload = crate::site::catalog::Upload {
            archive,
            slug: Some(slug.clone()),
            replace: false,
            rejudge: false,
        };
        crate::site::catalog::upload(&state, upload)
            .await
            .map_err(|e| anyhow::anyhow!("problem {slug}: its package was not taken into the catalog: {e}; nothing imported"))?;
    }
    // The teams' accounts are nobody's until an admin sets their passwords.
    let hash = tokio::task::spawn_blocking(crate::site::roster::nobodys_password_hash).await??;
    let id = store
        .import_contest(&plan, &hash, crate::site::contests::now_ms())
        .await
        .map_err(|e| anyhow::anyhow!("{e}; nothing imported"))?;
    Ok((id, plan))
}

impl Mapping {
    /// A mapping as TOML text (a form's).
    ///
    /// # Errors
    /// One line saying what is wrong.
    pub fn parse(text: &str) -> Result<Mapping, String> {
        toml::from_str(text).map_err(|e| {
            format!(
                "the mapping: {}",
                e.to_string().lines().next().unwrap_or_default()
            )
        })
    }
}
