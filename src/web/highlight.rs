//! Syntax highlighting of a submission's source for its page: keywords,
//! strings, comments, numbers and (C, C++) preprocessor lines, enough to
//! read code by. A small lexer of our own: no grammar files, no script.
//! Everything it emits is escaped; unknown languages are shown plain.

use super::markdown::escape;

/// The lexical conventions of a language family.
struct Syntax {
    keywords: &'static [&'static str],
    line_comment: &'static str,
    block_comment: bool,
    preprocessor: bool,
    /// Python's `'''` and `"""` strings.
    triple_quotes: bool,
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

fn syntax(language: &str) -> Option<Syntax> {
    let c_like = |keywords| Syntax {
        keywords,
        line_comment: "//",
        block_comment: true,
        preprocessor: false,
        triple_quotes: false,
    };
    Some(match language {
        "c" | "cpp" => Syntax {
            preprocessor: true,
            ..c_like(C_KEYWORDS)
        },
        "rust" => c_like(RUST_KEYWORDS),
        "java" => c_like(JAVA_KEYWORDS),
        "python" => Syntax {
            keywords: PYTHON_KEYWORDS,
            line_comment: "#",
            block_comment: false,
            preprocessor: false,
            triple_quotes: true,
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
    while i < chars.len() {
        let c = chars[i];
        let begin = i;
        if syn.preprocessor && line_start && c == '#' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            span(&mut out, "p", &text(begin, i));
        } else if starts(i, syn.line_comment) {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            span(&mut out, "c", &text(begin, i));
        } else if syn.block_comment && starts(i, "/*") {
            i += 2;
            while i < chars.len() && !starts(i, "*/") {
                i += 1;
            }
            i = (i + 2).min(chars.len());
            span(&mut out, "c", &text(begin, i));
        } else if syn.triple_quotes && (starts(i, "\"\"\"") || starts(i, "'''")) {
            let quote = text(i, i + 3);
            i += 3;
            while i < chars.len() && !starts(i, &quote) {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i = (i + 3).min(chars.len());
            span(&mut out, "s", &text(begin, i));
        } else if c == '"' || (c == '\'' && !is_rust_lifetime(&syn, &chars, i)) {
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
        } else if c.is_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word = text(begin, i);
            if syn.keywords.contains(&word.as_str()) {
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

/// Whether a `'` in Rust opens a lifetime (`'a`) rather than a char.
fn is_rust_lifetime(syn: &Syntax, chars: &[char], i: usize) -> bool {
    syn.keywords == RUST_KEYWORDS
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

    #[test]
    fn markup_in_a_source_is_escaped_even_unhighlighted() {
        assert_eq!(highlight("brainfuck", "<script>"), "&lt;script&gt;");
        assert!(!highlight("c", "x = \"</pre><script>\";").contains("<script"));
    }
}
