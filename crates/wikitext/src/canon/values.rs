//! Values inside inline markup as the text can hold them: a link's URL
//! and fragment (characters a value cannot hold, and delimiters that would
//! end the markup around it, percent-encoded), and whether the braces of a
//! superscript's or subscript's text balance (`#Extend subsup`).

use crate::diag::{Code, Severity};
use crate::model::{Inline, Pos};

use super::Fixer;

/// A link's URL and fragment as the text can hold them: characters a
/// value cannot hold percent-encoded, and the delimiters that would end
/// the markup around it ([`encode_enders`]), each change reported. A URL
/// so encoded names the same resource (an info); an anchor keeps a name,
/// but links to the old one no longer find it (a warning).
pub(super) fn link_values(
    url: Option<&str>,
    fragment: Option<&str>,
    pos: Pos,
    fixer: &mut Fixer,
) -> (Option<String>, Option<String>) {
    let mut encode = |value: &str, severity: Severity, what: &str| {
        let e = encode_enders(&crate::grammar::encode_link_value(value), &fixer.enclosing);
        if e != value {
            fixer.report(
                Code::UnrepresentableLink,
                severity,
                format!(
                    "characters the format does not allow in {what} were percent-encoded: `{e}`"
                ),
                pos,
            );
        }
        e
    };
    let url = url.map(|u| encode(u, Severity::Info, "a URL"));
    let fragment = fragment.map(|f| {
        encode(
            f,
            Severity::Warning,
            "an anchor name (or that would end the markup around it)",
        )
    });
    (url, fragment)
}

/// A link value inside emphasis, strong emphasis or sample text (their
/// delimiters are `enclosing`) with each run of such a delimiter that
/// could end the element around it percent-encoded (`_(` in
/// `/wiki/Flock_(web_browser)` would end emphasis: `%5F(`). The value
/// names the same resource (the characters are unreserved); parsed text
/// never holds such a run there, as it would have ended the element.
pub(crate) fn encode_enders(value: &str, enclosing: &[u8]) -> String {
    let mut out = value.to_owned();
    for &c in enclosing {
        let ends: Vec<(usize, usize)> = crate::scan::char_runs(&out, c)
            .filter(|&(_, _, before, after)| {
                // The value stands between `[` or `|` and `|`.
                crate::scan::run_can_end(before.or(Some('[')), after)
            })
            .map(|(a, b, _, _)| (a, b))
            .collect();
        if ends.is_empty() {
            continue;
        }
        let code = match c {
            b'_' => "%5F",
            b'*' => "%2A",
            _ => "%27",
        };
        let mut next = String::with_capacity(out.len() + 8);
        let mut from = 0;
        for (a, b) in ends {
            next.push_str(out.get(from..a).unwrap_or_default());
            for _ in a..b {
                next.push_str(code);
            }
            from = b;
        }
        next.push_str(out.get(from..).unwrap_or_default());
        out = next;
    }
    out
}

/// A run as the text spells it without escapes: the characters whose
/// braces the reader pairs (an image's braces and title included).
pub(super) fn spelled(run: &[Inline]) -> String {
    let mut text = String::new();
    crate::render::render_run(run, false, 0, &mut text);
    text
}

/// Whether every `}` of `text` closes a `{` before it and every `{` is
/// closed: then the braces around a superscript or subscript holding it
/// end where they should (`#Extend subsup`).
pub(super) fn braces_balance(text: &str) -> bool {
    let mut open = 0usize;
    for b in text.bytes() {
        match b {
            b'{' => open += 1,
            b'}' => match open.checked_sub(1) {
                Some(n) => open = n,
                None => return false,
            },
            _ => {}
        }
    }
    open == 0
}
