//! A problem statement as HTML: CommonMark with tables, and `$...$` /
//! `$$...$$` math rendered on the server to MathML (which browsers draw
//! themselves, so no math script is served). Raw HTML in a statement is
//! shown as text, never passed through; and what the renderer made goes
//! through a maintained sanitizer (ammonia) that keeps the markup
//! Markdown and math produce and only http, https, mailto and relative
//! links: a statement (an imported package's too) runs no script in the
//! reader's session.

use pulldown_cmark::{html, CowStr, Event, Options, Parser};

/// Renders a statement's Markdown to HTML.
pub fn render(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_MATH | Options::ENABLE_STRIKETHROUGH;
    let events = Parser::new_ext(markdown, options).map(|event| match event {
        Event::InlineMath(tex) => Event::InlineHtml(math(&tex, false).into()),
        Event::DisplayMath(tex) => Event::InlineHtml(math(&tex, true).into()),
        // Whatever HTML a statement holds is shown, not obeyed.
        Event::Html(text) | Event::InlineHtml(text) => Event::Text(text),
        other => other,
    });
    let mut out = String::with_capacity(markdown.len() * 2);
    html::push_html(&mut out, events);
    sanitizer().clean(&out).to_string()
}

/// The MathML elements latex2mathml writes, and their attributes.
const MATH_TAGS: &[&str] = &[
    "math",
    "semantics",
    "annotation",
    "mrow",
    "mi",
    "mn",
    "mo",
    "ms",
    "mtext",
    "mspace",
    "msup",
    "msub",
    "msubsup",
    "mfrac",
    "msqrt",
    "mroot",
    "munder",
    "mover",
    "munderover",
    "mtable",
    "mtr",
    "mtd",
    "mstyle",
    "mpadded",
    "mphantom",
    "menclose",
    "merror",
    "mmultiscripts",
    "mprescripts",
    "none",
];
const MATH_ATTRIBUTES: &[&str] = &[
    "xmlns",
    "display",
    "mathvariant",
    "stretchy",
    "fence",
    "separator",
    "accent",
    "accentunder",
    "movablelimits",
    "lspace",
    "rspace",
    "width",
    "height",
    "depth",
    "columnalign",
    "rowalign",
    "columnspacing",
    "rowspacing",
    "linethickness",
    "displaystyle",
    "scriptlevel",
    "form",
    "largeop",
    "symmetric",
    "minsize",
    "maxsize",
    "encoding",
    "notation",
];

fn sanitizer() -> &'static ammonia::Builder<'static> {
    static BUILDER: std::sync::OnceLock<ammonia::Builder<'static>> = std::sync::OnceLock::new();
    BUILDER.get_or_init(|| {
        let mut b = ammonia::Builder::default();
        b.url_schemes(["http", "https", "mailto"].into_iter().collect())
            .url_relative(ammonia::UrlRelative::PassThrough)
            .add_tags(MATH_TAGS)
            .add_tag_attributes("code", ["class"]);
        for tag in MATH_TAGS {
            b.add_tag_attributes(tag, MATH_ATTRIBUTES);
        }
        b
    })
}

/// MathML for one formula; a formula the converter cannot read is shown
/// as its TeX source, escaped.
fn math(tex: &CowStr<'_>, display: bool) -> String {
    use latex2mathml::{latex_to_mathml, DisplayStyle};
    let style = if display {
        DisplayStyle::Block
    } else {
        DisplayStyle::Inline
    };
    // The converter copies characters through unescaped: markup's own
    // characters go in as private-use stand-ins and come out as entities.
    const STAND_INS: [(char, &str); 4] = [
        ('<', "&lt;"),
        ('>', "&gt;"),
        ('"', "&quot;"),
        ('\'', "&#39;"),
    ];
    let mut input = tex.to_string();
    for (i, (c, _)) in STAND_INS.iter().enumerate() {
        input = input.replace(*c, &stand_in(i).to_string());
    }
    match latex_to_mathml(&input, style) {
        Ok(mut mathml) => {
            for (i, (_, entity)) in STAND_INS.iter().enumerate() {
                mathml = mathml.replace(stand_in(i), entity);
            }
            mathml
        }
        Err(_) => format!("<code class=\"tex\">{}</code>", escape(tex)),
    }
}

fn stand_in(i: usize) -> char {
    char::from_u32(0xE000 + i as u32).unwrap_or('?')
}

/// Escapes text for HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_and_display_math_become_mathml() {
        let html = render("Let $x^2$ be.\n\n$$\\sum_{i=1}^n a_i$$\n");
        assert!(html.contains("<math"), "{html}");
        assert!(html.contains("display=\"block\""), "{html}");
        assert!(!html.contains('$'), "{html}");
    }

    #[test]
    fn raw_html_in_a_statement_is_shown_as_text() {
        let html = render("Hi <script>alert(1)</script> there\n\n<div onclick=x>y</div>\n");
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<div"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }

    #[test]
    fn comparisons_in_math_do_not_open_markup() {
        let html = render("When $a < b$ and $c > d$.\n");
        assert!(!html.contains("< b"), "{html}");
        assert!(html.contains("<math"), "{html}");
    }

    #[test]
    fn only_http_https_mailto_and_relative_links_are_kept() {
        let html = render(
            "[a](javascript:alert(1)) [b](JaVaScRiPt:alert(2)) [c](data:text/html,x) \
             [d](vbscript:x) [e](https://example.org/) [f](mailto:x@example.org) \
             [g](/problems/nim) [h](other)\n\n![i](javascript:alert(3))\n",
        );
        for bad in ["javascript:", "JaVaScRiPt:", "data:", "vbscript:"] {
            assert!(!html.contains(bad), "{bad} in {html}");
        }
        for good in [
            "https://example.org/",
            "mailto:x@example.org",
            "/problems/nim",
            "\"other\"",
        ] {
            assert!(html.contains(good), "{good} in {html}");
        }
    }

    #[test]
    fn code_blocks_and_tables_render() {
        let html = render("```\n2\n2 3\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
        assert!(html.contains("<pre><code>2\n2 3\n</code></pre>"), "{html}");
        assert!(html.contains("<table>"), "{html}");
    }
}
