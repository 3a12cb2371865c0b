//! A problem statement as HTML: CommonMark with tables, and `$...$` /
//! `$$...$$` math rendered on the server to MathML (which browsers draw
//! themselves, so no math script is served). Raw HTML in a statement is
//! shown as text, never passed through.

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
    out
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
    fn code_blocks_and_tables_render() {
        let html = render("```\n2\n2 3\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
        assert!(html.contains("<pre><code>2\n2 3\n</code></pre>"), "{html}");
        assert!(html.contains("<table>"), "{html}");
    }
}
