//! The hosted judge's core, shared by its two edges: the API (`server`)
//! and the pages (`web`), which know this module and not each other. It
//! holds what both must decide the same way: how a submission is taken
//! ([`intake`], and by every edge the one way, [`take`]), who sees what of it ([`policy`]), what practice may reach
//! while contests hold problems ([`practice`]), and how sign-ins are
//! throttled and passwords hashed on a bounded pool ([`signin`]), where a
//! request comes from as every per-address limit counts it ([`place`]), what
//! admins are shown of the workers' speeds ([`speeds`]), and the state
//! they all run on ([`AppState`]).
//!
//! Knows the context, the judge's plan and the store; nothing of HTTP
//! beyond status codes and the client address a connection carries
//! ([`place::Place::of_request`], so both edges read it one way).

pub mod boards;
pub mod catalog;
pub mod clock;
pub mod contest_edit;
pub mod contests;
pub mod intake;
pub mod offered;
pub mod place;
pub mod policy;
pub mod practice;
pub mod roster;
pub mod signin;
pub mod speeds;
pub mod state;
pub mod take;
pub mod waiting;

pub use state::{AppState, WorkerEnv};

/// Logs an internal failure with its whole chain of causes (what a client
/// is never shown).
pub fn log_internal(err: &(dyn std::error::Error + 'static), what: &str) {
    let mut chain = err.to_string();
    let mut cause = err.source();
    while let Some(c) = cause {
        chain.push_str(": ");
        chain.push_str(&c.to_string());
        cause = c.source();
    }
    tracing::error!(error = %chain, "{what}");
}

/// The Contest API's id of the judge's language `id`: its `clics_id` in
/// the configuration, else the standard's name for it
/// ([`crate::contest::clics::language_id`]). One mapping for the languages endpoint, the
/// submissions and the feed, so they cannot disagree. An id no language
/// has (a record written before ids were mapped on reading) is as it is.
pub fn clics_language(ctx: &crate::context::Context, id: &str) -> String {
    ctx.languages
        .iter()
        .find(|l| l.id == id)
        .and_then(|l| l.config.clics_id.clone())
        .unwrap_or_else(|| crate::contest::clics::language_id(id).to_string())
}
