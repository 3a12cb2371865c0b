//! A grundy validator rewritten as one self-contained Kattis input
//! validator.
//!
//! grundy's validators are Rust programs that pull in shared code with
//! `#[path = "../_common/validate.rs"] mod validate;`, accept an input by
//! returning from `main` (exit status 0) and reject it with
//! `std::process::exit(1)`. Kattis builds an input validator from the files
//! of `input_validators/` alone and reads exit status 42 as valid and 43 as
//! invalid. So the source is rewritten, keeping every other byte:
//!
//! * each `#[path = "FILE"] mod NAME;` becomes `mod NAME { ...FILE... }`
//!   (its `//!` and `#![...]` lines stay valid at the start of the block);
//! * every `exit(1)` call, in the validator and in the inlined files, becomes
//!   `exit(43)`, and every `exit(0)` becomes `exit(42)`;
//! * `fn main()` is renamed, and a new `main` calls it and exits 42.
//!
//! Comments and string literals are blanked before the source is searched,
//! so a `fn main` in a comment is not taken for the real one. Anything of
//! another shape — no `fn main()` or several, a `main` with a return type,
//! a `mod NAME;` without `#[path]`, a nested `#[path]` in an inlined file,
//! an `exit` with another status — is refused rather than guessed at.
//! A panic still exits 101, which Kattis reports as a failed validator.
//!
//! Why not a `build`/`run` pair that maps the exit statuses instead: the
//! format lets those scripts assume only a POSIX shell, `python3`, `cc` and
//! `c++`, so building the Rust source there needs a `rustc` the importing
//! judge need not have, and a prebuilt binary is neither portable nor what
//! the format recommends. One Rust source that exits 42/43 itself is built
//! by the Rust language judges that have one (problemtools, DOMjudge), so
//! the rewrite stays.

use std::ops::Range;

/// What `fn main` of the validator is renamed to.
const RENAMED_MAIN: &str = "grundy_validator_main";

/// Rewrites `source` (a validator, `name` in messages) as a Kattis input
/// validator, reading each `#[path]` module through `read_module`, which
/// receives the attribute's path as written.
///
/// # Errors
/// A one-line description of the shape that is not understood, or
/// `read_module`'s own error.
pub(super) fn kattis_validator(
    name: &str,
    source: &str,
    read_module: &dyn Fn(&str) -> Result<String, String>,
) -> Result<String, String> {
    let code = blank_comments_and_literals(source);
    if words(&code).any(|w| &source[w] == RENAMED_MAIN) {
        return Err(format!(
            "already uses the name `{RENAMED_MAIN}`, which the export gives its `main`"
        ));
    }
    let mut edits = Vec::new();

    let mains = fn_main(&code);
    let main = match mains.as_slice() {
        [] => return Err("no `fn main()` found".into()),
        [one] => one.clone(),
        more => {
            return Err(format!(
                "{} `fn main` found (lines {}); expected one",
                more.len(),
                more.iter()
                    .map(|m| line_of(source, m.start).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
    };
    let after = skip_ws(&code, main.end);
    let closes =
        code.get(after) == Some(&b'(') && code.get(skip_ws(&code, after + 1)) == Some(&b')');
    let body = skip_ws(&code, skip_ws(&code, after + 1) + 1);
    if !closes || code.get(body) != Some(&b'{') {
        return Err(format!(
            "`fn main` on line {} must be `fn main() {{` (no parameters, no return type)",
            line_of(source, main.start)
        ));
    }
    edits.push((main, RENAMED_MAIN.to_string()));

    let modules = path_modules(source, &code)?;
    for m in &modules {
        let text = read_module(&m.path)?;
        let inlined = inline_module(&m.path, &text)?;
        let nl = if inlined.ends_with('\n') { "" } else { "\n" };
        edits.push((
            m.span.clone(),
            format!(
                "// {path}, inlined: Kattis builds the validator from this one file.\n\
                 {vis}mod {name} {{\n{inlined}{nl}}}",
                path = m.path,
                vis = m.visibility,
                name = m.name,
            ),
        ));
    }
    if let Some(m) = plain_modules(&code)
        .into_iter()
        .find(|m| !modules.iter().any(|p| p.span.contains(&m.start)))
    {
        return Err(format!(
            "line {}: `mod {};` without `#[path]` names a file the package would not have",
            line_of(source, m.start),
            &source[m]
        ));
    }
    edits.extend(exit_edits(source, &code)?);

    edits.sort_by_key(|(range, _)| range.start);
    let mut out = format!(
        "// Exported by grundy from {name} as a Kattis input validator.\n\
         // The shared modules are inlined, `exit(1)` (invalid) became `exit(43)`,\n\
         // and a `main` at the end exits 42 (valid) once the validator's own returns.\n"
    );
    let mut at = 0;
    for (range, text) in edits {
        out.push_str(&source[at..range.start]);
        out.push_str(&text);
        at = range.end;
    }
    out.push_str(&source[at..]);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!(
        "\n// Kattis: exit status 42 for a valid input, 43 (above) for an invalid one.\n\
         fn main() {{\n    {RENAMED_MAIN}();\n    std::process::exit(42);\n}}\n"
    ));
    Ok(out)
}

/// The text of a `#[path]` module with its exit statuses mapped; nested
/// module files are refused (their paths would resolve elsewhere once
/// inlined).
fn inline_module(path: &str, text: &str) -> Result<String, String> {
    let code = blank_comments_and_literals(text);
    let nested = path_modules(text, &code)
        .map_err(|e| format!("{path}: {e}"))?
        .first()
        .map(|m| m.span.start)
        .or_else(|| plain_modules(&code).first().map(|m| m.start));
    if let Some(at) = nested {
        return Err(format!(
            "{path}, line {}: a module file inside an inlined module is not supported",
            line_of(text, at)
        ));
    }
    let mut edits = exit_edits(text, &code).map_err(|e| format!("{path}: {e}"))?;
    edits.sort_by_key(|(range, _)| range.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (range, new) in edits {
        out.push_str(&text[at..range.start]);
        out.push_str(&new);
        at = range.end;
    }
    out.push_str(&text[at..]);
    Ok(out)
}

/// One `#[path = "..."] mod NAME;` item.
#[derive(Debug)]
struct PathModule {
    /// From `#` to `;`.
    span: Range<usize>,
    path: String,
    /// `pub ` or `pub(crate) ` as written, or empty.
    visibility: String,
    name: String,
}

/// Every `#[path = "..."]` attribute, each of which must be followed by
/// `mod NAME;`.
fn path_modules(source: &str, code: &[u8]) -> Result<Vec<PathModule>, String> {
    let mut found = Vec::new();
    for (hash, _) in code.iter().enumerate().filter(|(_, &b)| b == b'#') {
        let open = skip_ws(code, hash + 1);
        if code.get(open) != Some(&b'[') {
            continue;
        }
        let Some(word) = word_at(code, skip_ws(code, open + 1)) else {
            continue;
        };
        if &code[word.clone()] != b"path" {
            continue;
        }
        let line = line_of(source, hash);
        let malformed = || format!("line {line}: expected `#[path = \"FILE\"] mod NAME;`");
        let eq = skip_ws(code, word.end);
        let quote = skip_ws(code, eq + 1);
        if code.get(eq) != Some(&b'=') || code.get(quote) != Some(&b'"') {
            return Err(malformed());
        }
        // The literal's contents are blank in `code`: its end is the next quote.
        let close = quote
            + 1
            + code[quote + 1..]
                .iter()
                .position(|&b| b == b'"')
                .ok_or_else(malformed)?;
        let path = &source[quote + 1..close];
        if path.contains('\\') {
            return Err(format!(
                "line {line}: escapes in a `#[path]` are not supported"
            ));
        }
        let bracket = skip_ws(code, close + 1);
        if code.get(bracket) != Some(&b']') {
            return Err(malformed());
        }
        let mut at = skip_ws(code, bracket + 1);
        let vis_start = at;
        if let Some(w) = word_at(code, at).filter(|w| &code[w.clone()] == b"pub") {
            at = skip_ws(code, w.end);
            if code.get(at) == Some(&b'(') {
                let end = code[at..]
                    .iter()
                    .position(|&b| b == b')')
                    .ok_or_else(malformed)?;
                at = skip_ws(code, at + end + 1);
            }
        }
        let visibility = if at > vis_start {
            format!("{} ", source[vis_start..at].trim_end())
        } else {
            String::new()
        };
        let keyword = word_at(code, at)
            .filter(|w| &code[w.clone()] == b"mod")
            .ok_or_else(malformed)?;
        let name = word_at(code, skip_ws(code, keyword.end)).ok_or_else(malformed)?;
        let semi = skip_ws(code, name.end);
        if code.get(semi) != Some(&b';') {
            return Err(malformed());
        }
        found.push(PathModule {
            span: hash..semi + 1,
            path: path.to_string(),
            visibility,
            name: source[name].to_string(),
        });
    }
    Ok(found)
}

/// The names in every `mod NAME;` item (with or without `#[path]`).
fn plain_modules(code: &[u8]) -> Vec<Range<usize>> {
    words(code)
        .filter(|w| &code[w.clone()] == b"mod")
        .filter_map(|w| {
            let name = word_at(code, skip_ws(code, w.end))?;
            (code.get(skip_ws(code, name.end)) == Some(&b';')).then_some(name)
        })
        .collect()
}

/// The `main` of every `fn main(`.
fn fn_main(code: &[u8]) -> Vec<Range<usize>> {
    words(code)
        .filter(|w| &code[w.clone()] == b"fn")
        .filter_map(|w| {
            let name = word_at(code, skip_ws(code, w.end))?;
            (&code[name.clone()] == b"main" && code.get(skip_ws(code, name.end)) == Some(&b'('))
                .then_some(name)
        })
        .collect()
}

/// Edits turning each `exit(1)` call into `exit(43)` and each `exit(0)`
/// into `exit(42)`.
///
/// # Errors
/// An `exit` call whose argument is anything else: its meaning for Kattis
/// cannot be known.
fn exit_edits(source: &str, code: &[u8]) -> Result<Vec<(Range<usize>, String)>, String> {
    let mut edits = Vec::new();
    let mut previous: Option<Range<usize>> = None;
    for w in words(code) {
        let defines = previous.as_ref().is_some_and(|p| &code[p.clone()] == b"fn");
        previous = Some(w.clone());
        if &code[w.clone()] != b"exit" || defines {
            continue;
        }
        let open = skip_ws(code, w.end);
        if code.get(open) != Some(&b'(') {
            continue;
        }
        let arg = skip_ws(code, open + 1);
        let end = arg
            + code[arg..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
        let status = match (&code[arg..end], code.get(skip_ws(code, end))) {
            (b"0", Some(b')')) => "42",
            (b"1", Some(b')')) => "43",
            _ => {
                return Err(format!(
                    "line {}: an `exit` call with a status other than 0 or 1 cannot be mapped to Kattis's 42 and 43",
                    line_of(source, w.start)
                ))
            }
        };
        edits.push((arg..end, status.to_string()));
    }
    Ok(edits)
}

/// `source` with the insides of comments and of string, byte-string and
/// character literals replaced by spaces (newlines kept), so that a search
/// finds only code; offsets are unchanged, and string literals keep their
/// quotes.
fn blank_comments_and_literals(source: &str) -> Vec<u8> {
    let mut out = source.as_bytes().to_vec();
    let s = source.as_bytes();
    let blank = |out: &mut Vec<u8>, range: Range<usize>| {
        for b in &mut out[range] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'/' if s.get(i + 1) == Some(&b'/') => {
                let end = s[i..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(s.len(), |p| i + p);
                blank(&mut out, i..end);
                i = end;
            }
            b'/' if s.get(i + 1) == Some(&b'*') => {
                let (mut depth, mut j) = (1, i + 2);
                while j < s.len() && depth > 0 {
                    if s[j..].starts_with(b"/*") {
                        depth += 1;
                        j += 2;
                    } else if s[j..].starts_with(b"*/") {
                        depth -= 1;
                        j += 2;
                    } else {
                        j += 1;
                    }
                }
                blank(&mut out, i..j);
                i = j;
            }
            b'"' => {
                let mut j = i + 1;
                while j < s.len() && s[j] != b'"' {
                    j += if s[j] == b'\\' { 2 } else { 1 };
                }
                let j = j.min(s.len());
                blank(&mut out, i + 1..j);
                i = j + 1;
            }
            b'\'' => {
                // A character literal, or a lifetime or label (left alone).
                let end = if s.get(i + 1) == Some(&b'\\') {
                    s[i + 2..]
                        .iter()
                        .skip(1)
                        .position(|&b| b == b'\'')
                        .map(|p| i + 3 + p)
                } else {
                    source[i + 1..]
                        .chars()
                        .next()
                        .map(|c| i + 1 + c.len_utf8())
                        .filter(|&j| s.get(j) == Some(&b'\''))
                };
                match end {
                    Some(j) => {
                        blank(&mut out, i + 1..j);
                        i = j + 1;
                    }
                    None => i += 1,
                }
            }
            b if is_ident(b) => {
                let start = i;
                while i < s.len() && is_ident(s[i]) {
                    i += 1;
                }
                let prefix = &s[start..i];
                let hashes = s[i..].iter().take_while(|&&b| b == b'#').count();
                let raw =
                    matches!(prefix, b"r" | b"br" | b"cr") && s.get(i + hashes) == Some(&b'"');
                if raw {
                    let open = i + hashes + 1;
                    let mut closing = vec![b'"'];
                    closing.resize(1 + hashes, b'#');
                    let end = s[open..]
                        .windows(closing.len())
                        .position(|w| w == closing.as_slice())
                        .map_or(s.len(), |p| open + p);
                    blank(&mut out, open..end);
                    i = (end + closing.len()).min(s.len());
                }
            }
            _ => i += 1,
        }
    }
    out
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// Every identifier, keyword or number in `code`.
fn words(code: &[u8]) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < code.len() && !is_ident(code[i]) {
            i += 1;
        }
        let start = i;
        while i < code.len() && is_ident(code[i]) {
            i += 1;
        }
        (i > start).then_some(start..i)
    })
}

/// The word starting exactly at `at`, if any.
fn word_at(code: &[u8], at: usize) -> Option<Range<usize>> {
    if at > 0 && code.get(at - 1).copied().is_some_and(is_ident) {
        return None;
    }
    let len = code.get(at..)?.iter().take_while(|&&b| is_ident(b)).count();
    (len > 0).then_some(at..at + len)
}

fn skip_ws(code: &[u8], mut at: usize) -> usize {
    while code.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

fn line_of(source: &str, at: usize) -> usize {
    1 + source.as_bytes()[..at.min(source.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHARED: &str = "//! Shared.\n//!\n//! ```ignore\n//! #[path = \"x.rs\"]\n//! mod x;\n//! ```\n\
        #![allow(dead_code)]\n\npub fn fail() -> ! {\n    eprintln!(\"exit(1) in a string\");\n    std::process::exit(1)\n}\n";

    fn read(path: &str) -> Result<String, String> {
        match path {
            "../_common/validate.rs" => Ok(SHARED.to_string()),
            "../_common/rng.rs" => Ok("pub fn seed() -> u64 { 7 }".to_string()),
            other => Err(format!("{other}: no such file")),
        }
    }

    fn export(source: &str) -> Result<String, String> {
        kattis_validator("v.rs", source, &read)
    }

    #[test]
    fn shared_module_is_inlined_main_renamed_and_exits_mapped() {
        let source = "// fn main() in a comment\n#[path = \"../_common/validate.rs\"]\nmod validate;\n\n\
            fn main() {\n    let s = \"fn main() {\";\n    if s.is_empty() { validate::fail() }\n}\n";
        let out = export(source).unwrap();
        assert!(out.contains("\nmod validate {\n//! Shared.\n"), "{out}");
        assert!(!out.contains("#[path = \"../_common"), "{out}");
        assert!(out.contains("    std::process::exit(43)\n}\n}"), "{out}");
        assert!(out.contains("\"exit(1) in a string\""), "{out}");
        assert!(out.contains("fn grundy_validator_main() {\n    let s = \"fn main() {\";"));
        assert!(out.ends_with(
            "fn main() {\n    grundy_validator_main();\n    std::process::exit(42);\n}\n"
        ));
        assert_eq!(
            out.matches("fn main()").count(),
            3,
            "two in text, one real: {out}"
        );
        assert_eq!(fn_main(&blank_comments_and_literals(&out)).len(), 1);
    }

    #[test]
    fn any_path_module_is_inlined_with_its_visibility() {
        let source =
            "#[path=\"../_common/rng.rs\"] pub(crate) mod rng;\nfn main() { rng::seed(); }";
        let out = export(source).unwrap();
        assert!(
            out.contains("pub(crate) mod rng {\npub fn seed() -> u64 { 7 }\n}\nfn grundy_validator_main() { rng::seed(); }\n"),
            "{out}"
        );
    }

    #[test]
    fn validators_own_exits_are_mapped_and_others_refused() {
        let out = export(
            "fn main() {\n    if true { std::process::exit( 1 ) }\n    process::exit(0);\n}",
        )
        .unwrap();
        assert!(out.contains("std::process::exit( 43 )"), "{out}");
        assert!(out.contains("process::exit(42);\n}"), "{out}");
        let e = export("fn main() {\n    std::process::exit(2)\n}").unwrap_err();
        assert!(
            e.starts_with("line 2: an `exit` call with a status other than 0 or 1"),
            "{e}"
        );
        let e = export("fn main() { let c = 1; std::process::exit(c) }").unwrap_err();
        assert!(e.contains("other than 0 or 1"), "{e}");
    }

    #[test]
    fn unexpected_shapes_are_refused_with_the_line() {
        assert_eq!(
            export("// fn main() {}\n").unwrap_err(),
            "no `fn main()` found"
        );
        let e = export("fn main() {}\nmod m { fn main() {} }\n").unwrap_err();
        assert_eq!(e, "2 `fn main` found (lines 1, 2); expected one");
        let e = export("fn main() -> Result<(), String> { Ok(()) }").unwrap_err();
        assert!(e.contains("must be `fn main() {`"), "{e}");
        let e = export("mod helpers;\nfn main() {}").unwrap_err();
        assert!(
            e.starts_with("line 1: `mod helpers;` without `#[path]`"),
            "{e}"
        );
        let e =
            export("#[path = \"../_common/validate.rs\"]\n#[allow(unused)]\nmod v;\nfn main() {}")
                .unwrap_err();
        assert!(
            e.starts_with("line 1: expected `#[path = \"FILE\"] mod NAME;`"),
            "{e}"
        );
        let e = export("#[path = \"../_common/gone.rs\"] mod gone;\nfn main() {}").unwrap_err();
        assert_eq!(e, "../_common/gone.rs: no such file");
        let e = export("fn grundy_validator_main() {}\nfn main() {}").unwrap_err();
        assert!(e.contains("already uses the name"), "{e}");
    }

    #[test]
    fn a_nested_module_file_in_a_shared_file_is_refused() {
        let nested = |_: &str| Ok::<_, String>("mod deeper;\n".to_string());
        let e = kattis_validator("v.rs", "#[path = \"s.rs\"] mod s;\nfn main() {}", &nested)
            .unwrap_err();
        assert_eq!(
            e,
            "s.rs, line 1: a module file inside an inlined module is not supported"
        );
    }

    #[test]
    fn comments_and_literals_are_blanked_but_lifetimes_kept() {
        let src =
            "a /* x /* y */ z */ b // c\n\"q\\\"fn\" 'x' '\\'' '\\u{41}' 'a: r#\"fn \"# br\"m\" é";
        let code = String::from_utf8(blank_comments_and_literals(src)).unwrap();
        assert_eq!(code.len(), src.len());
        let words: Vec<&str> = words(code.as_bytes()).map(|w| &src[w]).collect();
        assert_eq!(words, ["a", "b", "a", "r", "br", "é"]);
    }
}
