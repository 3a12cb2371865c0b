//! Changing and deleting a contest, as the command line (`grundy contest
//! edit|delete`) and the admin's contest page both do it: one set of rules
//! for what may change when, and every change made through the store's
//! contest record (`update_contest` and `delete_contest` append to it, or
//! drop it, in the change's own transaction), so scoreboards and feeds
//! follow.
//!
//! Before the start everything may change. While it runs, its start, its
//! problems, its scoring and its penalty are fixed (tries were made under
//! them); its name, its end (never into the past), its freeze and its
//! participants may change. Once ended it is history: nothing changes but
//! its medal counts, until its results are final (its awards are then in
//! its record).
//! Only a contest with no submissions is deleted: tries are history too.

use super::contests::{check_settings, Settings};
use crate::contest::time::format_time;
use crate::contest::{Contest, Phase};
use crate::context::Context;
use crate::store::{self, NewContest, Store};

/// Why a change or a delete was refused.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    /// A setting is wrong, or may not change now (the message says which).
    #[error("{0}")]
    Setting(String),
    /// The contest holds submissions and cannot be deleted.
    #[error(
        "contest {slug} holds {}, which would be lost; it is not deleted",
        submissions(*n)
    )]
    HasSubmissions { slug: String, n: usize },
    #[error(transparent)]
    Store(#[from] store::Error),
}

/// "1 submission", "2 submissions".
fn submissions(n: usize) -> String {
    crate::plural::count(n, "submission", "submissions")
}

/// `c`'s settings as typed, to be edited and checked back.
///
/// # Errors
/// Database failures.
pub async fn settings_of(store: &Store, c: &Contest) -> Result<Settings, store::Error> {
    let participants = if c.open_to_all {
        String::new()
    } else {
        store
            .contest_teams(c)
            .await?
            .into_iter()
            .map(|t| t.name)
            .collect::<Vec<_>>()
            .join(",")
    };
    Ok(Settings {
        slug: c.slug.clone(),
        name: c.name.clone(),
        start: format_time(c.start_ms)[..19].to_string(),
        duration: length(c.duration_s),
        freeze: if c.freeze_s > 0 {
            length(c.freeze_s)
        } else {
            String::new()
        },
        penalty: c.penalty_min.to_string(),
        scoring: c.scoring.as_str().to_string(),
        problems: c
            .problems
            .iter()
            .map(|p| format!("{}={}", p.label, p.slug))
            .collect::<Vec<_>>()
            .join(","),
        participants,
        colors: c
            .problems
            .iter()
            .filter_map(|p| Some(format!("{}={}", p.label, p.rgb.as_deref()?)))
            .collect::<Vec<_>>()
            .join(","),
        medals: c.medals.to_string(),
    })
}

/// `seconds` as the settings take it back (`5h`, `1h30m`, `45s`): a short
/// contest keeps its seconds when edited.
pub fn length(seconds: i64) -> String {
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let mut out = String::new();
    for (n, unit) in [(h, 'h'), (m, 'm'), (s, 's')] {
        if n > 0 {
            out.push_str(&format!("{n}{unit}"));
        }
    }
    if out.is_empty() {
        out.push_str("0s");
    }
    out
}

/// Whether `new` may replace `before`'s settings at `now` (module docs).
///
/// # Errors
/// A one-line message naming what may not change, and why.
pub fn check_change(before: &Contest, new: &NewContest, now: i64) -> Result<(), String> {
    match before.phase(now) {
        Phase::Before => {
            if new.start_ms + new.duration_s * 1000 <= now {
                return Err(
                    "the new window is already over: give a later start or a longer duration"
                        .into(),
                );
            }
            Ok(())
        }
        Phase::Ended => Err(format!(
            "contest {} has ended: its settings no longer change, only its medals until the \
             results are final (a rejudge changes results)",
            before.slug
        )),
        Phase::Running => {
            let problems: Vec<(String, String)> = before
                .problems
                .iter()
                .map(|p| (p.label.clone(), p.slug.clone()))
                .collect();
            let fixed = [
                ("start", new.start_ms != before.start_ms),
                ("problems", new.problems != problems),
                ("scoring", new.scoring != before.scoring),
                ("penalty", new.penalty_min != before.penalty_min),
            ];
            if let Some((what, _)) = fixed.iter().find(|(_, changed)| *changed) {
                let verb = if *what == "problems" {
                    "change"
                } else {
                    "changes"
                };
                return Err(format!(
                    "contest {} is running: its {what} no longer {verb} \
                     (its name, end, freeze and participants still do)",
                    before.slug
                ));
            }
            if new.start_ms + new.duration_s * 1000 <= now {
                return Err(format!(
                    "contest {} is running: its end cannot move into the past",
                    before.slug
                ));
            }
            Ok(())
        }
    }
}

/// Changes `c` to `settings` (its slug kept), through the contest record.
///
/// # Errors
/// [`Refused::Setting`] for a wrong setting, an unknown participant or a
/// change not allowed now; database failures.
pub async fn edit(
    ctx: &Context,
    store: &Store,
    c: &Contest,
    settings: &Settings,
    now: i64,
) -> Result<NewContest, Refused> {
    let settings = Settings {
        slug: c.slug.clone(),
        ..settings.clone()
    };
    let mut new = check_settings(ctx, &settings, now)
        .map_err(|why| Refused::Setting(phase_first(ctx, c, &settings, now, why)))?;
    // The start as typed has whole seconds: the same second is the same
    // start (one made with `now` keeps its milliseconds).
    if new.start_ms.div_euclid(1000) == c.start_ms.div_euclid(1000) {
        new.start_ms = c.start_ms;
    }
    if c.phase(now) == Phase::Ended {
        return after_the_end(ctx, store, c, new, now).await;
    }
    check_change(c, &new, now).map_err(Refused::Setting)?;
    match store.update_contest(c.id, &new).await {
        Ok(()) => Ok(new),
        Err(e @ (store::Error::NoUser(_) | store::Error::Refused(..))) => {
            Err(Refused::Setting(e.to_string()))
        }
        Err(e) => Err(e.into()),
    }
}

/// Why `settings` are refused, given that they failed their own check
/// with `why`: where the problems they name are ones `c`'s phase no longer
/// lets change (it runs, or has ended), that is the reason, not a colour
/// naming a problem the change drops (issue 47: `contest edit --problems`
/// on a running contest answered with a colour error).
fn phase_first(ctx: &Context, c: &Contest, settings: &Settings, now: i64, why: String) -> String {
    if c.phase(now) == Phase::Before {
        return why;
    }
    let bare = Settings {
        colors: String::new(),
        ..settings.clone()
    };
    let Ok(mut bare) = check_settings(ctx, &bare, now) else {
        return why;
    };
    let same_problems = bare.problems.len() == c.problems.len()
        && bare
            .problems
            .iter()
            .zip(&c.problems)
            .all(|((label, slug), p)| *label == p.label && *slug == p.slug);
    if same_problems {
        return why;
    }
    bare.start_ms = c.start_ms;
    check_change(c, &bare, now).err().unwrap_or(why)
}

/// The colours set for `c`'s problems that `problems` (a new problem list
/// as typed: `nim,kayles` or `A=nim,B=kayles`) still holds, each named by
/// its problem rather than its label: what an edit of the problems that
/// gives no colours keeps, whatever label each problem has now.
pub fn kept_colors(c: &Contest, problems: &str) -> String {
    let slugs: Vec<&str> = problems
        .split(',')
        .map(|p| p.split_once('=').map_or(p, |(_, slug)| slug).trim())
        .collect();
    c.problems
        .iter()
        .filter(|p| slugs.contains(&p.slug.as_str()))
        .filter_map(|p| Some(format!("{}={}", p.slug, p.rgb.as_deref()?)))
        .collect::<Vec<_>>()
        .join(",")
}

/// A change after the end: only the medal counts (until the finalize)
/// and the balloon colours (the Resolver and the balloon printers read
/// them then; until the end of updates) may differ from what `c` has.
async fn after_the_end(
    ctx: &Context,
    store: &Store,
    c: &Contest,
    new: NewContest,
    now: i64,
) -> Result<NewContest, Refused> {
    let was = check_settings(ctx, &settings_of(store, c).await?, now).ok();
    let Some(was) = was.filter(|was| {
        let mut was = was.clone();
        was.start_ms = c.start_ms;
        was.medals = new.medals;
        was.colors.clone_from(&new.colors);
        was == new
    }) else {
        return Err(Refused::Setting(
            check_change(c, &new, now).err().unwrap_or_default(),
        ));
    };
    let refused = |e: store::Error| match e {
        e @ store::Error::Refused(..) => Refused::Setting(e.to_string()),
        e => e.into(),
    };
    if was.medals != new.medals {
        store
            .set_contest_medals(c.id, new.medals)
            .await
            .map_err(refused)?;
    }
    if was.colors != new.colors {
        store.update_contest(c.id, &new).await.map_err(refused)?;
    }
    Ok(new)
}

/// Deletes `c` with its problems, participants, clarifications and record,
/// unless it holds submissions.
///
/// # Errors
/// [`Refused::HasSubmissions`]; database failures.
pub async fn delete(store: &Store, c: &Contest) -> Result<(), Refused> {
    match store.delete_contest(c.id).await? {
        0 => Ok(()),
        n => Err(Refused::HasSubmissions {
            slug: c.slug.clone(),
            n,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contest::{ContestProblem, Scoring};

    fn running() -> (Contest, NewContest) {
        let c = Contest {
            id: 1,
            slug: "cup".into(),
            name: "Cup".into(),
            start_ms: 1_000_000,
            duration_s: 3600,
            freeze_s: 0,
            penalty_min: 20,
            scoring: Scoring::Icpc,
            open_to_all: true,
            board_public: true,
            frozen_ms: None,
            thawed_ms: None,
            finalized_ms: None,
            medals: crate::contest::Medals::default(),
            problems: vec![ContestProblem {
                label: "A".into(),
                slug: "nim".into(),
                rgb: None,
            }],
        };
        let new = NewContest {
            slug: "cup".into(),
            name: "Cup".into(),
            start_ms: c.start_ms,
            duration_s: c.duration_s,
            freeze_s: 0,
            penalty_min: 20,
            scoring: Scoring::Icpc,
            medals: crate::contest::Medals::default(),
            participants: None,
            problems: vec![("A".into(), "nim".into())],
            colors: Vec::new(),
        };
        (c, new)
    }

    #[test]
    fn a_running_contest_keeps_its_rules_and_may_run_longer() {
        let (c, new) = running();
        let now = c.start_ms + 60_000;
        let longer = NewContest {
            duration_s: 7200,
            name: "Cup, extended".into(),
            participants: Some(vec!["late".into()]),
            ..new.clone()
        };
        assert_eq!(check_change(&c, &longer, now), Ok(()));
        let moved = NewContest {
            start_ms: c.start_ms + 1,
            ..new.clone()
        };
        assert!(check_change(&c, &moved, now).unwrap_err().contains("start"));
        let other = NewContest {
            problems: vec![("A".into(), "kayles".into())],
            colors: Vec::new(),
            ..new.clone()
        };
        assert!(check_change(&c, &other, now)
            .unwrap_err()
            .contains("problems"));
        let past = NewContest {
            duration_s: 30,
            ..new.clone()
        };
        assert!(check_change(&c, &past, now).unwrap_err().contains("past"));
        let ended = c.start_ms + 3_600_000 + 1;
        assert!(check_change(&c, &new, ended).unwrap_err().contains("ended"));
    }

    #[test]
    fn new_problems_keep_the_colours_of_the_problems_that_stay() {
        let (mut c, _) = running();
        c.problems = vec![
            ContestProblem {
                label: "A".into(),
                slug: "nim".into(),
                rgb: Some("#ff0000".into()),
            },
            ContestProblem {
                label: "B".into(),
                slug: "kayles".into(),
                rgb: Some("#00ff00".into()),
            },
            ContestProblem {
                label: "C".into(),
                slug: "wythoff".into(),
                rgb: None,
            },
        ];
        assert_eq!(kept_colors(&c, "kayles"), "kayles=#00ff00");
        assert_eq!(
            kept_colors(&c, "X=kayles, Y=nim,wythoff"),
            "nim=#ff0000,kayles=#00ff00"
        );
        assert_eq!(kept_colors(&c, "anti-nim"), "");
    }

    #[test]
    fn lengths_read_back_as_typed() {
        use crate::contest::time::parse_length;
        for seconds in [40, 90, 3600, 5400, 18_000, 3 * 3600 + 61] {
            let text = length(seconds);
            assert_eq!(parse_length(&text), Some(seconds), "{text}");
        }
        assert_eq!(length(40), "40s");
        assert_eq!(length(5400), "1h30m");
    }
}
