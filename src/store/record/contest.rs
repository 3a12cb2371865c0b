//! The contest's own objects as the record tells them: its settings,
//! problems and state, and its clarifications.

use super::{Audience, NewEvent};
use crate::contest::clics;
use crate::contest::Contest;

/// The events of a clarification `q` just asked (`answered` false) or
/// answered.
pub(in crate::store) fn clarification_events(
    c: &Contest,
    q: &clics::Clarification<'_>,
    answered: bool,
) -> Vec<NewEvent> {
    let mut out = Vec::new();
    if !answered {
        if let (Some(v), Some(team)) = (clics::question(c, q), q.team) {
            out.push(NewEvent::of("clarifications", v, Audience::Team(team)));
        }
        return out;
    }
    let Some(answer) = clics::answer(c, q) else {
        return out;
    };
    match (q.team, q.to_all) {
        (Some(team), true) => {
            // The question, now everyone's too, without who asked.
            if let Some(v) = clics::public_question(c, q) {
                out.push(NewEvent::of(
                    "clarifications",
                    v,
                    Audience::Others(Some(team)),
                ));
            }
            out.push(NewEvent::of("clarifications", answer, Audience::All));
        }
        (Some(team), false) => {
            out.push(NewEvent::of("clarifications", answer, Audience::Team(team)));
        }
        (None, _) => out.push(NewEvent::of("clarifications", answer, Audience::All)),
    }
    out
}

/// The contest's problems as the record keeps them, for `audience`.
pub(in crate::store) fn problem_events(c: &Contest, audience: Audience) -> Vec<NewEvent> {
    (0..c.problems.len())
        .filter_map(|i| clics::problem_place(c, i))
        .map(|p| NewEvent::of("problems", p, audience))
        .collect()
}

/// The contest object, its problems, its teams (`teams`: their events,
/// with their organizations and groups), as a change of its settings at
/// `now` records them.
pub(in crate::store) fn settings_events(
    c: &Contest,
    teams: Vec<NewEvent>,
    now: i64,
) -> Vec<NewEvent> {
    let mut out = vec![NewEvent::of("contest", clics::contest(c), Audience::All)];
    let problems = if now < c.start_ms {
        Audience::Admin
    } else {
        Audience::All
    };
    out.extend(problem_events(c, problems));
    // A hidden team's absence for everyone but the admins is said when it
    // is hidden (if they held it); here it would name it to them.
    out.extend(
        teams
            .into_iter()
            .filter(|e| e.data.is_some() || e.audience != Audience::Others(None)),
    );
    out.push(NewEvent::of("state", clics::state(c, now), Audience::All));
    out
}
