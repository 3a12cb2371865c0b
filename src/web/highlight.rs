//! Syntax highlighting of a submission's source for its page: keywords,
//! strings, comments, numbers and (C, C++, C#) preprocessor lines, enough
//! to read code by, for every language the shipped `config.toml` has. A
//! small lexer of our own: no grammar files, no script. Everything it
//! emits is escaped; a language it does not know is shown plain.

use super::markdown::escape;

/// The lexical conventions of a language family.
struct Syntax {
    keywords: &'static [&'static str],
    /// What starts a comment to the end of the line.
    line_comments: &'static [&'static str],
    /// What opens and closes a comment that may span lines.
    block_comments: &'static [(&'static str, &'static str)],
    preprocessor: bool,
    /// Python's and Kotlin's `"""` strings (and Python's `'''`).
    triple_quotes: bool,
    /// `` `...` `` strings that may span lines (Go's raw strings,
    /// JavaScript's templates).
    backticks: bool,
    /// A `'` before a name is no quote (Rust's lifetimes, OCaml's type
    /// variables).
    lifetimes: bool,
    /// A `'` inside a name is part of it (Haskell's and OCaml's `x'`).
    primes: bool,
    /// Keywords in any case (Pascal).
    any_case: bool,
}

const C_KEYWORDS: &[&str] = &[
    "auto",
    "bool",
    "break",
    "case",
    "char",
    "const",
    "constexpr",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "false",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "nullptr",
    "register",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "true",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    // C++ on top
    "auto",
    "class",
    "delete",
    "namespace",
    "new",
    "operator",
    "private",
    "protected",
    "public",
    "template",
    "this",
    "throw",
    "try",
    "catch",
    "typename",
    "using",
    "virtual",
    "const_cast",
    "static_cast",
    "reinterpret_cast",
    "noexcept",
    "override",
    "final",
];

const RUST_KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "dyn", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128",
    "usize", "f32", "f64", "bool", "char", "str", "String", "Vec", "Option", "Some", "None", "Ok",
    "Err",
];

const PYTHON_KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield", "print", "range", "len", "int", "str", "list", "dict", "set", "input",
];

const JAVA_KEYWORDS: &[&str] = &[
    "abstract",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "final",
    "finally",
    "float",
    "for",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "new",
    "null",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "super",
    "switch",
    "this",
    "throw",
    "throws",
    "true",
    "false",
    "try",
    "var",
    "void",
    "while",
    "String",
];

const GO_KEYWORDS: &[&str] = &[
    "break",
    "case",
    "chan",
    "const",
    "continue",
    "default",
    "defer",
    "else",
    "fallthrough",
    "for",
    "func",
    "go",
    "goto",
    "if",
    "import",
    "interface",
    "map",
    "package",
    "range",
    "return",
    "select",
    "struct",
    "switch",
    "type",
    "var",
    "true",
    "false",
    "nil",
    "int",
    "int64",
    "string",
    "bool",
    "byte",
    "rune",
    "float64",
    "make",
    "len",
    "append",
];

const JS_KEYWORDS: &[&str] = &[
    "async",
    "await",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "default",
    "delete",
    "do",
    "else",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "from",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "let",
    "new",
    "null",
    "of",
    "return",
    "static",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "undefined",
    "var",
    "void",
    "while",
    "yield",
    "require",
];

const KOTLIN_KEYWORDS: &[&str] = &[
    "as",
    "break",
    "class",
    "continue",
    "do",
    "else",
    "false",
    "for",
    "fun",
    "if",
    "import",
    "in",
    "interface",
    "is",
    "null",
    "object",
    "package",
    "return",
    "super",
    "this",
    "throw",
    "true",
    "try",
    "catch",
    "finally",
    "val",
    "var",
    "when",
    "while",
    "data",
    "private",
    "public",
    "override",
    "open",
    "companion",
    "lateinit",
    "Int",
    "Long",
    "String",
    "Boolean",
    "Array",
];

const CSHARP_KEYWORDS: &[&str] = &[
    "abstract",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "false",
    "finally",
    "float",
    "for",
    "foreach",
    "if",
    "in",
    "int",
    "interface",
    "internal",
    "long",
    "namespace",
    "new",
    "null",
    "out",
    "override",
    "private",
    "protected",
    "public",
    "readonly",
    "ref",
    "return",
    "static",
    "string",
    "struct",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "using",
    "var",
    "virtual",
    "void",
    "while",
];

const HASKELL_KEYWORDS: &[&str] = &[
    "case",
    "class",
    "data",
    "deriving",
    "do",
    "else",
    "if",
    "import",
    "in",
    "infix",
    "infixl",
    "infixr",
    "instance",
    "let",
    "module",
    "newtype",
    "of",
    "then",
    "type",
    "where",
    "qualified",
    "as",
    "hiding",
    "Int",
    "Integer",
    "String",
    "Bool",
    "True",
    "False",
    "IO",
];

const OCAML_KEYWORDS: &[&str] = &[
    "and",
    "as",
    "begin",
    "do",
    "done",
    "downto",
    "else",
    "end",
    "exception",
    "false",
    "for",
    "fun",
    "function",
    "if",
    "in",
    "let",
    "match",
    "module",
    "mutable",
    "of",
    "open",
    "rec",
    "then",
    "to",
    "true",
    "try",
    "type",
    "when",
    "while",
    "with",
    "int",
    "string",
    "unit",
    "ref",
];

/// Lower case: Pascal's keywords are matched in any case.
const PASCAL_KEYWORDS: &[&str] = &[
    "and",
    "array",
    "begin",
    "case",
    "const",
    "div",
    "do",
    "downto",
    "else",
    "end",
    "for",
    "function",
    "if",
    "integer",
    "int64",
    "longint",
    "mod",
    "not",
    "of",
    "or",
    "procedure",
    "program",
    "readln",
    "read",
    "record",
    "repeat",
    "string",
    "then",
    "to",
    "type",
    "until",
    "uses",
    "var",
    "while",
    "with",
    "writeln",
    "write",
    "boolean",
    "true",
    "false",
];

const RUBY_KEYWORDS: &[&str] = &[
    "begin", "break", "case", "class", "def", "do", "else", "elsif", "end", "ensure", "false",
    "for", "if", "in", "module", "next", "nil", "not", "or", "and", "puts", "require", "rescue",
    "return", "self", "then", "true", "unless", "until", "when", "while", "yield", "gets",
];

const PHP_KEYWORDS: &[&str] = &[
    "array", "as", "break", "case", "class", "const", "continue", "default", "do", "echo", "else",
    "elseif", "false", "for", "foreach", "function", "if", "new", "null", "print", "private",
    "public", "return", "static", "switch", "true", "while", "fgets", "STDIN",
];

/// The syntax of a language by its id in `config.toml` (a variant such
/// as `cpp17` or `pypy3` by its family); `None`: shown plain.
fn syntax(language: &str) -> Option<Syntax> {
    let plain = Syntax {
        keywords: &[],
        line_comments: &[],
        block_comments: &[],
        preprocessor: false,
        triple_quotes: false,
        backticks: false,
        lifetimes: false,
        primes: false,
        any_case: false,
    };
    let c_like = |keywords| Syntax {
        keywords,
        line_comments: &["//"],
        block_comments: &[("/*", "*/")],
        ..plain
    };
    let hash_comments = |keywords| Syntax {
        keywords,
        line_comments: &["#"],
        ..plain
    };
    let family = language.trim_end_matches(|c: char| c.is_ascii_digit());
    Some(match family {
        "c" | "cpp" | "c++" | "cxx" => Syntax {
            preprocessor: true,
            ..c_like(C_KEYWORDS)
        },
        "rust" => Syntax {
            lifetimes: true,
            ..c_like(RUST_KEYWORDS)
        },
        "java" => c_like(JAVA_KEYWORDS),
        "python" | "pypy" | "py" => Syntax {
            triple_quotes: true,
            ..hash_comments(PYTHON_KEYWORDS)
        },
        "go" => Syntax {
            backticks: true,
            ..c_like(GO_KEYWORDS)
        },
        "javascript" | "js" | "node" => Syntax {
            backticks: true,
            ..c_like(JS_KEYWORDS)
        },
        "kotlin" => Syntax {
            triple_quotes: true,
            ..c_like(KOTLIN_KEYWORDS)
        },
        "csharp" | "cs" => Syntax {
            preprocessor: true,
            ..c_like(CSHARP_KEYWORDS)
        },
        "haskell" => Syntax {
            keywords: HASKELL_KEYWORDS,
            line_comments: &["--"],
            block_comments: &[("{-", "-}")],
            primes: true,
            ..plain
        },
        "ocaml" => Syntax {
            keywords: OCAML_KEYWORDS,
            block_comments: &[("(*", "*)")],
            lifetimes: true,
            primes: true,
            ..plain
        },
        "pascal" => Syntax {
            keywords: PASCAL_KEYWORDS,
            line_comments: &["//"],
            block_comments: &[("{", "}"), ("(*", "*)")],
            any_case: true,
            ..plain
        },
        "ruby" => hash_comments(RUBY_KEYWORDS),
        "php" => Syntax {
            line_comments: &["//", "#"],
            ..c_like(PHP_KEYWORDS)
        },
        _ => return None,
    })
}

/// The source as HTML spans (`k` keyword, `s` string, `c` comment, `n`
/// number, `p` preprocessor), to go inside a `<pre><code>`.
pub fn highlight(language: &str, source: &str) -> String {
    let Some(syn) = syntax(language) else {
        return escape(source);
    };
    let mut out = String::with_capacity(source.len() * 2);
    let chars: Vec<char> = source.chars().collect();
    let text = |from: usize, to: usize| -> String { chars[from..to].iter().collect() };
    let starts = |at: usize, pat: &str| {
        pat.chars()
            .enumerate()
            .all(|(k, p)| chars.get(at + k) == Some(&p))
    };
    let span = |out: &mut String, class: &str, body: &str| {
        out.push_str("<span class=\"");
        out.push_str(class);
        out.push_str("\">");
        out.push_str(&escape(body));
        out.push_str("</span>");
    };
    let mut i = 0;
    let mut line_start = true;
    let name_char = |c: char| c.is_alphanumeric() || c == '_' || (syn.primes && c == '\'');
    while i < chars.len() {
        let c = chars[i];
        let begin = i;
        let block = syn.block_comments.iter().find(|(open, _)| starts(i, open));
        if syn.preprocessor && line_start && c == '#' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            span(&mut out, "p", &text(begin, i));
        } else if syn.line_comments.iter().any(|l| starts(i, l)) {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            span(&mut out, "c", &text(begin, i));
        } else if let Some((open, close)) = block {
            i += open.chars().count();
            while i < chars.len() && !starts(i, close) {
                i += 1;
            }
            i = (i + close.chars().count()).min(chars.len());
            span(&mut out, "c", &text(begin, i));
        } else if syn.triple_quotes && (starts(i, "\"\"\"") || starts(i, "\'\'\'")) {
            let quote = text(i, i + 3);
            i += 3;
            while i < chars.len() && !starts(i, &quote) {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i = (i + 3).min(chars.len());
            span(&mut out, "s", &text(begin, i));
        } else if syn.backticks && c == '`' {
            i += 1;
            while i < chars.len() && chars[i] != '`' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i = (i + 1).min(chars.len());
            span(&mut out, "s", &text(begin, i));
        } else if c == '"' || (c == '\'' && !is_prime(&syn, &chars, i)) {
            i += 1;
            while i < chars.len() && chars[i] != c && chars[i] != '\n' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i = (i + 1).min(chars.len());
            span(&mut out, "s", &text(begin, i));
        } else if c.is_ascii_digit() {
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric() || chars[i] == '.' || chars[i] == '_')
            {
                i += 1;
            }
            span(&mut out, "n", &text(begin, i));
        } else if c.is_alphabetic() || c == '_' || c == '\'' {
            // A `'` reaches here only as a lifetime's.
            i += 1;
            while i < chars.len() && name_char(chars[i]) {
                i += 1;
            }
            let word = text(begin, i);
            let keyword = if syn.any_case {
                syn.keywords.contains(&word.to_ascii_lowercase().as_str())
            } else {
                syn.keywords.contains(&word.as_str())
            };
            if keyword {
                span(&mut out, "k", &word);
            } else {
                out.push_str(&escape(&word));
            }
        } else {
            i += 1;
            out.push_str(&escape(&c.to_string()));
        }
        line_start = chars.get(i.saturating_sub(1)) == Some(&'\n')
            || (line_start && chars[begin..i].iter().all(|c| *c == ' ' || *c == '\t'));
    }
    out
}

/// Whether a `'` opens no character literal but a name: a Rust lifetime
/// (`'a`), an OCaml type variable, where the language has them.
fn is_prime(syn: &Syntax, chars: &[char], i: usize) -> bool {
    syn.lifetimes
        && chars
            .get(i + 1)
            .is_some_and(|c| c.is_alphabetic() || *c == '_')
        && chars.get(i + 2) != Some(&'\'')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_keywords_strings_comments_numbers_and_includes_are_marked() {
        let html = highlight(
            "c",
            "#include <stdio.h>\nint main(void) { // hi\n  puts(\"a<b\"); return 0; }\n",
        );
        assert!(
            html.contains("<span class=\"p\">#include &lt;stdio.h&gt;</span>"),
            "{html}"
        );
        assert!(html.contains("<span class=\"k\">int</span>"), "{html}");
        assert!(html.contains("<span class=\"c\">// hi</span>"), "{html}");
        assert!(
            html.contains("<span class=\"s\">&quot;a&lt;b&quot;</span>"),
            "{html}"
        );
        assert!(html.contains("<span class=\"n\">0</span>"), "{html}");
    }

    #[test]
    fn python_comments_and_triple_quoted_strings_are_marked() {
        let html = highlight("python", "# c\ndef f():\n    return '''x\ny'''\n");
        assert!(html.contains("<span class=\"c\"># c</span>"), "{html}");
        assert!(html.contains("<span class=\"k\">def</span>"), "{html}");
        assert!(
            html.contains("<span class=\"s\">&#39;&#39;&#39;x\ny&#39;&#39;&#39;</span>"),
            "{html}"
        );
    }

    #[test]
    fn rust_lifetimes_are_not_strings() {
        let html = highlight("rust", "fn f<'a>(x: &'a str) -> char { 'z' }");
        assert!(
            html.contains("<span class=\"s\">&#39;z&#39;</span>"),
            "{html}"
        );
        assert_eq!(html.matches("class=\"s\"").count(), 1, "{html}");
    }

    /// The text a browser shows of `html` (only `span`s of ours and the
    /// escapes `escape` writes), or a panic naming any other markup.
    fn shown(html: &str) -> String {
        let mut rest = html;
        let mut text = String::new();
        let mut open = false;
        while let Some(at) = rest.find('<') {
            text.push_str(&rest[..at]);
            rest = &rest[at..];
            if let Some(after) = rest.strip_prefix("</span>") {
                assert!(open, "a span closed that was not open: {html}");
                open = false;
                rest = after;
            } else {
                let tag = ["k", "s", "c", "n", "p"]
                    .iter()
                    .map(|c| format!("<span class=\"{c}\">"))
                    .find(|t| rest.starts_with(t.as_str()))
                    .unwrap_or_else(|| panic!("markup not ours: {rest}"));
                assert!(!open, "spans nest: {html}");
                open = true;
                rest = &rest[tag.len()..];
            }
        }
        assert!(!open, "a span left open: {html}");
        text.push_str(rest);
        text.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&")
    }

    #[test]
    fn every_shipped_language_is_highlighted_and_its_html_shows_the_source() {
        let config: toml::Table = include_str!("../../config.toml").parse().unwrap();
        let languages = config["languages"].as_table().unwrap();
        assert_eq!(languages.len(), 18, "the shipped languages");
        // What trips a lexer: quotes of every kind left open, comment
        // openers inside strings, markup, a lone backslash at the end.
        let nasty = "x = \"a</span><b>\" // 'q\n/* (* {- `t\n'\\' & y' <i> \"\"\" ''' \\";
        for id in languages.keys() {
            assert!(syntax(id).is_some(), "{id} has no syntax: shown plain");
            let source = match id.as_str() {
                "java" => "class Main { public static void main(String[] a) { int x = 1; } }",
                "haskell" => "main :: IO ()\nmain = let x' = 'a' in print x' -- c\n{- b -}",
                "ocaml" => "let f (x : 'a) = x (* c *) in print_endline \"s\"",
                "pascal" => "PROGRAM p; { c } BEGIN writeln('hi') END.",
                _ => "if x then 'y' else \"z\" // c",
            };
            for text in [source, nasty] {
                let html = highlight(id, text);
                assert_eq!(shown(&html), text, "{id}: {html}");
            }
            assert!(
                highlight(id, source).contains("<span class=\"k\">"),
                "{id}: no keyword marked in {source:?}"
            );
        }
        // A language of an admin's own: plain, escaped.
        assert!(syntax("brainfuck").is_none());
        assert_eq!(shown(&highlight("brainfuck", nasty)), nasty);
    }

    #[test]
    fn haskell_primes_and_pascal_keywords_in_any_case() {
        let html = highlight("haskell", "let x' = 'a'");
        assert!(html.contains("x&#39; ="), "{html}");
        assert!(
            html.contains("<span class=\"s\">&#39;a&#39;</span>"),
            "{html}"
        );
        let html = highlight("pascal", "BEGIN end");
        assert_eq!(html.matches("class=\"k\"").count(), 2, "{html}");
        let html = highlight("cpp17", "#include <x>\nint y;");
        assert!(html.contains("<span class=\"p\">"), "{html}");
        let html = highlight("javascript", "const s = `a\n${b}`;");
        assert!(
            html.contains("<span class=\"s\">`a\n${b}`</span>"),
            "{html}"
        );
    }

    #[test]
    fn markup_in_a_source_is_escaped_even_unhighlighted() {
        assert_eq!(highlight("brainfuck", "<script>"), "&lt;script&gt;");
        assert!(!highlight("c", "x = \"</pre><script>\";").contains("<script"));
    }
}
