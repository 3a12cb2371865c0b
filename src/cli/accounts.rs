//! `grundy user ...` and `grundy token ...`: the hosted judge's accounts,
//! managed on the server's machine against its database.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::{bail, Context as _};

use crate::auth;
use crate::context::Context;
use crate::plural::count;
use crate::site::roster;
use crate::store::Revoked;

pub fn add(ctx: &Context, name: &str, admin: bool) -> anyhow::Result<u8> {
    if !roster::valid_name(name) {
        bail!("user name {name:?}: use 1 to 32 letters, digits, '-', '_' and '.'");
    }
    let password = read_password(&format!("password for {name}: "))?;
    let hash = auth::hash_password(&password)?;
    let rt = super::runtime()?;
    let store = rt.block_on(super::open_store(ctx))?;
    rt.block_on(store.add_user(name, &hash, admin))?;
    rt.block_on(store.close());
    let role = if admin { "admin" } else { "user" };
    writeln!(std::io::stdout(), "added {role} {name}")?;
    Ok(0)
}

/// A password: prompted without echo at a terminal (twice), else the first
/// line of standard input.
fn read_password(prompt: &str) -> anyhow::Result<String> {
    let password = if std::io::stdin().is_terminal() {
        let first = rpassword::prompt_password(prompt).context("reading the password")?;
        let again = rpassword::prompt_password("again: ").context("reading the password")?;
        if first != again {
            bail!("the passwords differ");
        }
        first
    } else {
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .context("reading the password from standard input")?;
        line.trim_end_matches(['\n', '\r']).to_string()
    };
    if password.is_empty() {
        bail!("the password is empty");
    }
    Ok(password)
}

pub fn list(ctx: &Context) -> anyhow::Result<u8> {
    let rt = super::runtime()?;
    let store = rt.block_on(super::open_store(ctx))?;
    let users = rt.block_on(store.users())?;
    rt.block_on(store.close());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "{:<24} {:<6} {:<9} created", "name", "role", "state")?;
    for u in users {
        let role = if u.is_admin { "admin" } else { "user" };
        let state = if u.disabled { "disabled" } else { "active" };
        writeln!(out, "{:<24} {role:<6} {state:<9} {}", u.name, u.created_at)?;
    }
    Ok(0)
}

pub fn disable(ctx: &Context, name: &str) -> anyhow::Result<u8> {
    let rt = super::runtime()?;
    let store = rt.block_on(super::open_store(ctx))?;
    rt.block_on(store.set_disabled(name, true))?;
    rt.block_on(store.close());
    writeln!(
        std::io::stdout(),
        "disabled {name}; their tokens no longer work"
    )?;
    Ok(0)
}

pub fn enable(ctx: &Context, name: &str) -> anyhow::Result<u8> {
    let rt = super::runtime()?;
    let store = rt.block_on(super::open_store(ctx))?;
    rt.block_on(store.set_disabled(name, false))?;
    rt.block_on(store.close());
    writeln!(std::io::stdout(), "enabled {name}")?;
    Ok(0)
}

/// `grundy user hide NAME [--unhide]`.
pub fn hide(ctx: &Context, name: &str, hidden: bool) -> anyhow::Result<u8> {
    let rt = super::runtime()?;
    let store = rt.block_on(super::open_store(ctx))?;
    let found = rt.block_on(store.set_hidden(name, hidden));
    rt.block_on(store.close());
    if !found? {
        bail!("no user {name:?}");
    }
    let done = if hidden { "hid" } else { "unhid" };
    writeln!(std::io::stdout(), "{done} team {name}")?;
    Ok(0)
}

pub fn password(ctx: &Context, name: &str) -> anyhow::Result<u8> {
    let rt = super::runtime()?;
    let store = rt.block_on(super::open_store(ctx))?;
    // An unknown name is said before a password is asked for.
    if rt.block_on(store.user(name))?.is_none() {
        bail!("no user {name:?}");
    }
    let password = read_password(&format!("new password for {name}: "))?;
    if password.chars().count() < roster::MIN_PASSWORD {
        bail!(
            "the password is shorter than {} characters",
            roster::MIN_PASSWORD
        );
    }
    let hash = auth::hash_password(&password)?;
    rt.block_on(store.set_password(name, &hash))?;
    rt.block_on(store.close());
    writeln!(
        std::io::stdout(),
        "set a new password for {name}; their sessions were ended"
    )?;
    Ok(0)
}

pub fn import(ctx: &Context, file: &std::path::Path) -> anyhow::Result<u8> {
    let text = if file == std::path::Path::new("-") {
        std::io::read_to_string(std::io::stdin()).context("reading standard input")?
    } else {
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?
    };
    let entries = roster::parse(&text).map_err(|e| {
        // Each wrong line on one line of its own, named by the file.
        let shown = file.display();
        anyhow::anyhow!(
            "{}",
            e.lines()
                .map(|l| format!("{shown}: {l}"))
                .collect::<Vec<_>>()
                .join("\n")
        )
    })?;
    let mut hashed = Vec::with_capacity(entries.len());
    for e in &entries {
        hashed.push((e.name.clone(), auth::hash_password(&e.password)?));
    }
    let rt = super::runtime()?;
    let store = rt.block_on(super::open_store(ctx))?;
    let added = rt.block_on(store.add_users(&hashed));
    rt.block_on(store.close());
    added.map_err(|e| anyhow::anyhow!("{e}; no account was added"))?;
    let mut out = std::io::stdout().lock();
    // Generated passwords on stdout (CSV, to hand out), shown this once;
    // the count on stderr.
    for e in entries.iter().filter(|e| e.generated) {
        writeln!(out, "{},{}", e.name, e.password)?;
    }
    eprintln!("grundy: added {}", count(entries.len(), "user", "users"));
    Ok(0)
}

pub fn new_token(ctx: &Context, name: &str) -> anyhow::Result<u8> {
    let token = auth::new_token();
    let rt = super::runtime()?;
    let store = rt.block_on(super::open_store(ctx))?;
    rt.block_on(store.add_token(name, &token.hash, &token.prefix))?;
    rt.block_on(store.close());
    // Only the token on stdout, for scripts; it is shown this once.
    writeln!(std::io::stdout(), "{}", token.token)?;
    Ok(0)
}

pub fn revoke(ctx: &Context, token_or_prefix: &str) -> anyhow::Result<u8> {
    let rt = super::runtime()?;
    let store = rt.block_on(super::open_store(ctx))?;
    let result = if auth::looks_like_token(token_or_prefix) {
        let hash = auth::token_hash(token_or_prefix);
        if rt.block_on(store.revoke_token(&hash))? {
            Revoked::One
        } else {
            Revoked::NoMatch
        }
    } else {
        rt.block_on(store.revoke_token_prefix(token_or_prefix))?
    };
    rt.block_on(store.close());
    match result {
        Revoked::One => {
            writeln!(std::io::stdout(), "revoked")?;
            Ok(0)
        }
        Revoked::NoMatch => bail!("no live token matches {token_or_prefix:?}"),
        Revoked::Ambiguous(n) => {
            bail!("{n} live tokens start with {token_or_prefix:?}; give more of it")
        }
    }
}

/// The account named `name`, or the one-line error naming it.
fn account(
    rt: &tokio::runtime::Runtime,
    store: &crate::store::Store,
    name: &str,
) -> anyhow::Result<crate::store::User> {
    rt.block_on(store.user(name))?
        .ok_or_else(|| anyhow::anyhow!("no user {name:?}"))
}

/// `grundy token list NAME`: the user's live tokens, by prefix.
pub fn list_tokens(ctx: &Context, name: &str) -> anyhow::Result<u8> {
    let rt = super::runtime()?;
    let store = rt.block_on(super::open_store(ctx))?;
    let tokens = account(&rt, &store, name).and_then(|u| Ok(rt.block_on(store.tokens_of(u.id))?));
    rt.block_on(store.close());
    let tokens = tokens?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{:<12} made", "prefix")?;
    for t in tokens {
        writeln!(out, "{:<12} {}", t.prefix, t.created_at)?;
    }
    Ok(0)
}

/// `grundy token revoke --user NAME PREFIX`: one of the user's tokens.
pub fn revoke_of(ctx: &Context, name: &str, token_or_prefix: &str) -> anyhow::Result<u8> {
    let rt = super::runtime()?;
    let store = rt.block_on(super::open_store(ctx))?;
    let result = account(&rt, &store, name).and_then(|u| {
        rt.block_on(async {
            if !auth::looks_like_token(token_or_prefix) {
                return Ok(store.revoke_own_token(u.id, token_or_prefix).await?);
            }
            // A whole token: revoked only if it is the user's.
            let hash = auth::token_hash(token_or_prefix);
            let theirs = store
                .user_for_token(&hash)
                .await?
                .is_some_and(|holder| holder.id == u.id);
            Ok(match theirs && store.revoke_token(&hash).await? {
                true => Revoked::One,
                false => Revoked::NoMatch,
            })
        })
    });
    rt.block_on(store.close());
    match result? {
        Revoked::One => {
            writeln!(std::io::stdout(), "revoked")?;
            Ok(0)
        }
        Revoked::NoMatch => bail!("no live token of {name} matches {token_or_prefix:?}"),
        Revoked::Ambiguous(n) => {
            bail!("{n} live tokens of {name} start with {token_or_prefix:?}; give more of it")
        }
    }
}

/// `grundy token revoke --user NAME --all`: every live token of the user.
pub fn revoke_all(ctx: &Context, name: &str) -> anyhow::Result<u8> {
    let rt = super::runtime()?;
    let store = rt.block_on(super::open_store(ctx))?;
    let n = account(&rt, &store, name).and_then(|u| Ok(rt.block_on(store.revoke_tokens_of(u.id))?));
    rt.block_on(store.close());
    let n = n?;
    writeln!(
        std::io::stdout(),
        "revoked {n} {} of {name}",
        if n == 1 { "token" } else { "tokens" }
    )?;
    Ok(0)
}

/// `grundy user affiliations FILE...`: reads every file, checks the whole,
/// then stores it in one transaction.
pub fn affiliations(ctx: &Context, files: &[std::path::PathBuf]) -> anyhow::Result<u8> {
    let mut all = crate::contest::affiliation::Affiliations::default();
    for path in files {
        let body =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let name = path.display().to_string();
        let read = if name.ends_with(".csv") {
            all.add_csv(&name, &body)
        } else {
            all.add_clics(&name, &body)
        };
        read.map_err(anyhow::Error::msg)?;
    }
    all.check().map_err(anyhow::Error::msg)?;
    let rt = super::runtime()?;
    let store = rt.block_on(super::open_store(ctx))?;
    let done = rt.block_on(store.import_affiliations(&all));
    rt.block_on(store.close());
    let done = done?;
    writeln!(
        std::io::stdout(),
        "set {}, {} and {}; {}",
        count(done.organizations, "organization", "organizations"),
        count(done.groups, "group", "groups"),
        count(done.teams, "team", "teams"),
        count(
            done.contests,
            "contest's record follows",
            "contests' records follow"
        )
    )?;
    Ok(0)
}
