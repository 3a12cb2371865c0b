//! Contests as both edges serve them: taking a submission to a contest
//! (within its window, from a participant, to one of its problems), the
//! scoreboard a viewer may see, which submissions' results the freeze
//! seals from a viewer ([`Seals`], [`list`]), and which problems a
//! contest not yet started hides from everyone but admins.

use std::collections::HashMap;
use std::sync::Arc;

use super::intake::{self, Entry, Refusal};
use super::policy::{Object, Who};
// The clock and the problems contests close to practice belong to
// `practice` (which `intake` uses too); the edges reach them from here.
pub use super::practice::{closed_by, hidden, hidden_all, now_ms, Closed};
use crate::contest::time::format_human;
use crate::contest::{Contest, Phase, Viewer};
use crate::context::Context;
use crate::store::{self, ListFilter, Store, Submission, SubmitLimits, Summary};

/// Takes `source` in `language` by account `user_id` for the problem
/// labelled `label` of `contest`.
///
/// # Errors
/// A [`Refusal`]: the contest not started or over, the user not taking
/// part, no such problem, or any refusal of a practice submission.
pub async fn submit(
    ctx: &Arc<Context>,
    store: &Store,
    limits: SubmitLimits,
    contest: &Contest,
    label: &str,
    entry: Entry,
) -> Result<i64, Refusal> {
    match contest.phase(now_ms()) {
        Phase::Before => {
            return Err(Refusal::ContestNotStarted(
                contest.name.clone(),
                format_human(contest.start_ms),
            ))
        }
        Phase::Ended => {
            return Err(Refusal::ContestOver {
                contest: contest.name.clone(),
                practice: contest
                    .problem(label)
                    .map_or("/problems".into(), |p| format!("/problems/{}", p.slug)),
            })
        }
        Phase::Running => {}
    }
    let takes_part = store
        .takes_part(contest, entry.user_id)
        .await
        .map_err(|e| internal(&e))?;
    if !takes_part {
        return Err(Refusal::NotParticipant(contest.name.clone()));
    }
    let Some(problem) = contest.problem(label) else {
        return Err(Refusal::UnknownProblem(label.to_string()));
    };
    let entry = Entry {
        problem: problem.slug.clone(),
        ..entry
    };
    // The contest's moments before the try in its record, should the
    // clock not have written them yet.
    store
        .catch_up_contest(contest.id)
        .await
        .map_err(|e| internal(&e))?;
    intake::take(ctx, store, limits, entry, Some(contest)).await
}

/// The contest named `name`: its id where `name` is a number (no slug is
/// one: [`crate::contest::valid_slug`]), else its slug.
///
/// # Errors
/// Database failures.
pub async fn find(store: &Store, name: &str) -> Result<Option<Contest>, store::Error> {
    match name.parse::<i64>() {
        Ok(id) => store.contest_by_id(id).await,
        Err(_) => store.contest(name).await,
    }
}

/// The label in `contest` of `problem`, a label or a catalog slug (as
/// given when it is neither: [`submit`] then says it is unknown).
pub fn label_for(contest: &Contest, problem: &str) -> String {
    match contest.problem(problem) {
        Some(p) => p.label.clone(),
        None => contest.label_of(problem).unwrap_or(problem).to_string(),
    }
}

/// The board of `contest` now, as `viewer` may see it, with what its
/// readers made of it ([`super::boards::Shown`]).
///
/// # Errors
/// Database failures.
pub async fn board(
    state: &super::AppState,
    contest: &Contest,
    viewer: Viewer,
) -> Result<std::sync::Arc<super::boards::Shown>, store::Error> {
    state
        .boards
        .board(&state.store, contest, viewer, now_ms())
        .await
}

/// Who account `user` (`None`: no account) is to `contest`.
///
/// # Errors
/// Database failures.
pub async fn who(
    store: &Store,
    contest: &Contest,
    user: Option<&store::User>,
) -> Result<Who, store::Error> {
    Ok(match user {
        Some(u) if u.is_admin => Who::Admin,
        Some(u) if store.takes_part(contest, u.id).await? => Who::Participant(u.id),
        _ => Who::Other,
    })
}

/// Whether `who` may reach `what` of `contest` now ([`super::policy::may`]).
pub fn may(contest: &Contest, who: Who, what: Object) -> bool {
    super::policy::may(contest, who, what, now_ms())
}

/// What one viewer may see of submissions now, reading each contest once
/// per request: whether a submission is hidden from them altogether
/// ([`Seals::hidden`]), and whether the freeze seals its result
/// ([`super::policy::sealed`]).
pub struct Seals<'s> {
    store: &'s Store,
    viewer: Viewer,
    now: i64,
    contests: HashMap<i64, Option<Contest>>,
    /// Whether the viewer takes part, by contest.
    takes_part: HashMap<i64, bool>,
    /// The catalog problems closed to practice now, once read.
    closed: Option<Vec<String>>,
}

impl<'s> Seals<'s> {
    pub fn new(store: &'s Store, viewer: Viewer) -> Seals<'s> {
        Seals {
            store,
            viewer,
            now: now_ms(),
            contests: HashMap::new(),
            takes_part: HashMap::new(),
            closed: None,
        }
    }

    async fn contest(&mut self, id: i64) -> Result<Option<&Contest>, store::Error> {
        if !self.contests.contains_key(&id) {
            let c = self.store.contest_by_id(id).await?;
            self.contests.insert(id, c);
        }
        Ok(self.contests.get(&id).and_then(Option::as_ref))
    }

    /// Whether a submission by `author` to `problem` (in contest `contest`,
    /// else practice) is hidden from the viewer, as if it did not exist:
    /// never from admins or its author; a contest's when the viewer may
    /// not see its board ([`Object::Board`]); a practice one while its
    /// problem is closed to practice ([`hidden`]: a contest that holds it
    /// has not ended).
    ///
    /// # Errors
    /// Database failures.
    pub async fn hidden(
        &mut self,
        contest: Option<i64>,
        author: Option<i64>,
        problem: &str,
    ) -> Result<bool, store::Error> {
        let me = match self.viewer {
            Viewer::Admin => return Ok(false),
            Viewer::Team(id) => Some(id),
            Viewer::Public => None,
        };
        if me.is_some() && author == me {
            return Ok(false);
        }
        let Some(id) = contest else {
            if self.closed.is_none() {
                self.closed = Some(hidden_all(self.store).await?);
            }
            return Ok(self
                .closed
                .as_ref()
                .is_some_and(|c| c.iter().any(|p| p == problem)));
        };
        let (store, now) = (self.store, self.now);
        let mut takes_part = self.takes_part.get(&id).copied();
        let Some(c) = self.contest(id).await? else {
            return Ok(false);
        };
        let who = match me {
            Some(me) => {
                let part = match takes_part {
                    Some(part) => part,
                    None => store.takes_part(c, me).await?,
                };
                takes_part = Some(part);
                if part {
                    Who::Participant(me)
                } else {
                    Who::Other
                }
            }
            None => Who::Other,
        };
        let hidden = !super::policy::may(c, who, Object::Board, now);
        if let Some(part) = takes_part {
            self.takes_part.insert(id, part);
        }
        Ok(hidden)
    }

    /// Whether `sub` is [`Seals::hidden`].
    ///
    /// # Errors
    /// Database failures.
    pub async fn hides(&mut self, sub: &Submission) -> Result<bool, store::Error> {
        self.hidden(sub.contest_id, sub.user_id, &sub.problem).await
    }

    /// Whether the result of a submission by `author` made at
    /// `submitted_at` in contest `contest` (if any) is sealed.
    ///
    /// # Errors
    /// Database failures.
    pub async fn sealed(
        &mut self,
        contest: Option<i64>,
        author: Option<i64>,
        submitted_at: &str,
    ) -> Result<bool, store::Error> {
        let Some(id) = contest else {
            return Ok(false);
        };
        // A time that does not read is taken as late as can be: hidden
        // while anything is.
        let at = crate::contest::time::parse_time(submitted_at).unwrap_or(i64::MAX);
        let (viewer, now) = (self.viewer, self.now);
        let contest = self.contest(id).await?;
        Ok(super::policy::sealed(viewer, author, contest, at, now))
    }

    /// Whether `sub`'s result is sealed.
    ///
    /// # Errors
    /// Database failures.
    pub async fn submission(&mut self, sub: &Submission) -> Result<bool, store::Error> {
        self.sealed(sub.contest_id, sub.user_id, &sub.submitted_at)
            .await
    }
}

/// The most pages of the store's list read for one page shown (when a
/// verdict filter leaves sealed submissions out).
const MAX_READS: usize = 100;

/// A page of the submission list as `viewer` may see it: a hidden
/// submission ([`Seals::hidden`]) is left out; a sealed one shows as
/// [`super::policy::FROZEN`] with no result, and with a verdict filter it
/// is left out (whether it matches is its result); the list reads on until
/// the page is full.
///
/// # Errors
/// Database failures.
pub async fn list(
    store: &Store,
    viewer: Viewer,
    filter: &ListFilter<'_>,
) -> Result<Vec<Summary>, store::Error> {
    let mut seals = Seals::new(store, viewer);
    let mut out = Vec::new();
    let mut page = filter.clone();
    for _ in 0..MAX_READS {
        let rows = store.list(&page).await?;
        let full = rows.len() == page.limit as usize;
        page.before = rows.last().map(|r| r.id);
        for mut row in rows {
            if seals
                .hidden(row.contest_id, row.user_id, &row.problem)
                .await?
            {
                continue;
            }
            if seals
                .sealed(row.contest_id, row.user_id, &row.submitted_at)
                .await?
            {
                if filter.verdict.is_some() {
                    continue;
                }
                row.status = super::policy::FROZEN.to_string();
                row.verdict = None;
                row.score = None;
                row.time_ms = None;
                row.memory_kib = None;
            }
            out.push(row);
            if out.len() == filter.limit as usize {
                return Ok(out);
            }
        }
        if !full {
            break;
        }
    }
    Ok(out)
}

/// Who `user` is to `contest`'s scoreboard.
pub fn viewer_of(user: Option<&store::User>) -> Viewer {
    match user {
        Some(u) if u.is_admin => Viewer::Admin,
        Some(u) => Viewer::Team(u.id),
        None => Viewer::Public,
    }
}

fn internal(e: &store::Error) -> Refusal {
    super::log_internal(e, "internal error taking a contest submission");
    Refusal::Internal
}

/// A contest's settings as typed (on the command line or in a form).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
pub struct Settings {
    #[serde(default)]
    pub slug: String,
    #[serde(default)]
    pub name: String,
    /// `2026-12-01T10:00` (UTC unless a zone is given), `now`, `+10m`.
    #[serde(default)]
    pub start: String,
    /// `5h`, `90m`, `2:30`.
    #[serde(default)]
    pub duration: String,
    /// As `duration`; empty for none.
    #[serde(default)]
    pub freeze: String,
    #[serde(default)]
    pub penalty: String,
    #[serde(default)]
    pub scoring: String,
    /// `nim,kayles` (labelled A, B, ...) or `X=nim,Y=kayles`.
    #[serde(default)]
    pub problems: String,
    /// Account names; empty for every signed-in user.
    #[serde(default)]
    pub participants: String,
    /// Balloon colours: `A=#ff0000,B=#00c000` (a problem's label or slug,
    /// then `#rrggbb`); problems not named keep their problem.toml's.
    #[serde(default)]
    pub colors: String,
    /// Gold, silver and bronze medal counts: `4,4,4` (empty: ICPC's 4, 4, 4).
    #[serde(default)]
    pub medals: String,
}

impl Settings {
    /// A new contest's settings before any is given: its name the slug,
    /// ICPC scoring, 20 penalty minutes, no freeze, every signed-in user,
    /// the problems' own colours and the default medals.
    pub fn new_contest(slug: String) -> Settings {
        Settings {
            name: slug.clone(),
            scoring: "icpc".into(),
            penalty: "20".into(),
            slug,
            ..Settings::default()
        }
    }
}

/// `settings` checked into a contest to store; the error says which
/// setting is wrong and how to write it.
///
/// # Errors
/// A one-line message naming the setting.
pub fn check_settings(
    ctx: &Context,
    settings: &Settings,
    now: i64,
) -> Result<store::NewContest, String> {
    use crate::contest::time::{parse_length, read_time};
    let slug = settings.slug.trim().to_string();
    if !crate::contest::valid_slug(&slug) {
        return Err(format!(
            "contest name {slug:?}: use 1 to 36 letters, digits, '-', '_' and '.', not starting with '-' or '.', not all digits"
        ));
    }
    let start = settings.start.trim();
    let how = "use e.g. 2026-12-01T10:00 (UTC), now, or +10m";
    let start_ms = match start {
        "now" => now,
        _ => match start.strip_prefix('+') {
            Some(after) => parse_length(after)
                .map(|s| now + s * 1000)
                .ok_or_else(|| format!("start {start:?}: {how}"))?,
            None => read_time(start).map_err(|e| format!("start {e}; {how}"))?,
        },
    };
    let duration_s = parse_length(&settings.duration)
        .filter(|&s| s > 0)
        .ok_or_else(|| format!("duration {:?}: use e.g. 5h, 90m, 2:30", settings.duration))?;
    let freeze = settings.freeze.trim();
    let freeze_s = if freeze.is_empty() {
        0
    } else {
        parse_length(freeze)
            .ok_or_else(|| format!("freeze {freeze:?}: use e.g. 1h, 30m, 0:45, or nothing"))?
    };
    if freeze_s >= duration_s {
        return Err("the freeze must be shorter than the contest".into());
    }
    let penalty = settings.penalty.trim();
    let penalty_min = if penalty.is_empty() {
        20
    } else {
        penalty
            .parse::<i64>()
            .ok()
            .filter(|p| (0..=1000).contains(p))
            .ok_or_else(|| format!("penalty {penalty:?}: whole minutes, 0 to 1000"))?
    };
    let scoring = match settings.scoring.trim() {
        "" => crate::contest::Scoring::Icpc,
        s => s.parse()?,
    };
    let names: Vec<&str> = settings
        .problems
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if names.is_empty() {
        return Err("a contest needs at least one problem".into());
    }
    let mut problems: Vec<(String, String)> = Vec::new();
    for (name, auto) in names.iter().zip(crate::contest::labels(names.len())) {
        let (label, slug) = match name.split_once('=') {
            Some((label, slug)) => (label.trim().to_string(), slug.trim()),
            None => (auto, *name),
        };
        if label.is_empty() || label.len() > 8 || !label.bytes().all(|b| b.is_ascii_alphanumeric())
        {
            return Err(format!(
                "problem label {label:?}: use up to 8 letters and digits"
            ));
        }
        if ctx.catalog.load(slug).is_err() {
            return Err(format!("no problem {slug:?} in the catalog"));
        }
        if problems.iter().any(|(l, s)| *l == label || s == slug) {
            return Err(format!("problem {label} ({slug}) is listed twice"));
        }
        problems.push((label, slug.to_string()));
    }
    let mut colors: Vec<(String, String)> = Vec::new();
    for entry in settings
        .colors
        .split([',', '\n'])
        .map(str::trim)
        .filter(|e| !e.is_empty())
    {
        let Some((key, rgb)) = entry.split_once('=') else {
            return Err(format!(
                "colour {entry:?}: write it as A=#ff0000 (a label or problem, then the colour)"
            ));
        };
        let key = key.trim();
        let Some((label, _)) = problems.iter().find(|(l, s)| l == key || s == key) else {
            return Err(format!(
                "colour {entry:?}: no problem {key:?} in the contest"
            ));
        };
        let rgb = crate::color::parse_rgb(rgb)?;
        colors.retain(|(l, _)| l != label);
        colors.push((label.clone(), rgb));
    }
    let participants: Vec<String> = settings
        .participants
        .split([',', ' ', '\n'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(String::from)
        .collect();
    let medals = match settings.medals.trim() {
        "" => crate::contest::Medals::default(),
        m => m.parse()?,
    };
    let name = settings.name.trim();
    crate::bounds::Field::ContestName
        .check(name)
        .map_err(|e| e.to_string())?;
    Ok(store::NewContest {
        name: if name.is_empty() {
            slug.clone()
        } else {
            name.to_string()
        },
        slug,
        start_ms,
        duration_s,
        freeze_s,
        penalty_min,
        scoring,
        medals,
        participants: (!participants.is_empty()).then_some(participants),
        problems,
        colors,
    })
}
