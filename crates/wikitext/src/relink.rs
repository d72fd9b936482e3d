//! Changing the URLs of a text's links in place, for a site's pages that
//! must point somewhere else (a page renamed or moved).
//!
//! A link is `[URL|Fragment|text]` (seed 000, "Inline Elements"): its URL
//! starts right after the `[` and runs to the first `|`, and holds no
//! escape, white space or any of `{}[|]<>"`. So the URL of a link that the
//! parser found at a position can be replaced in the source text without
//! writing the document again: every other byte of the text stays as it
//! was, its spelling, escapes and white space included.

use crate::grammar::{encode_link_value, is_link_value_char};

/// A text with some of its links' URLs changed ([`relink`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relinked {
    /// The text, with every URL the callback changed replaced.
    pub text: String,
    /// How many URLs were replaced.
    pub changed: usize,
    /// How many URLs the callback changed that could not be found at the
    /// link's position in the text (none, unless the text and its parse
    /// disagree): those were left as they were.
    pub missed: usize,
}

/// The text `text` with each link URL that `new_url` maps to a new URL
/// replaced by it, in place; `new_url` gets every link's URL (as the text
/// holds it) and answers `None` to keep it. A new URL is made a valid link
/// value first ([`encode_link_value`]: white space and `{}[|]<>"`
/// percent-encoded), so that the link stays a link. Anchors, link texts,
/// header lines and everything else are untouched.
///
/// ```
/// let text = "\nSee [a.txt#top||the page], [b.txt||b] and [|a.txt|x].\n";
/// let out = wikitext::relink(text, |url| url.starts_with("a.txt").then(|| url.replacen("a.txt", "new dir/a.txt", 1)));
/// assert_eq!(out.text, "\nSee [new%20dir/a.txt#top||the page], [b.txt||b] and [|a.txt|x].\n");
/// assert_eq!((out.changed, out.missed), (1, 0));
/// ```
pub fn relink(text: &str, mut new_url: impl FnMut(&str) -> Option<String>) -> Relinked {
    let doc = crate::parse(text).document;
    let refs = crate::references(&doc);
    let starts = line_starts(text);
    // Byte ranges of the URLs to replace and their new values, in order.
    let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    let mut missed = 0;
    for &(url, pos) in &refs.links {
        let Some(new) = new_url(url) else { continue };
        let new = encode_link_value(&new).into_owned();
        if new == url {
            continue;
        }
        match url_at(text, &starts, pos, url) {
            Some(range) => edits.push((range, new)),
            None => missed += 1,
        }
    }
    edits.sort_by_key(|(range, _)| range.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut changed = 0;
    for (range, new) in edits {
        // Two links never share a URL's bytes; a repeat is skipped.
        if range.start < at {
            missed += 1;
            continue;
        }
        out.push_str(&text[at..range.start]);
        out.push_str(&new);
        at = range.end;
        changed += 1;
    }
    out.push_str(&text[at..]);
    Relinked {
        text: out,
        changed,
        missed,
    }
}

/// The byte offset where each line of `text` starts.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// The byte range of the URL `url` of the link whose `[` is at `pos`
/// (1-based line, column in characters), when the text holds exactly
/// `[URL|` there.
fn url_at(
    text: &str,
    starts: &[usize],
    pos: crate::Pos,
    url: &str,
) -> Option<std::ops::Range<usize>> {
    let line_start = *starts.get(usize::try_from(pos.line).ok()?.checked_sub(1)?)?;
    let column = usize::try_from(pos.column).ok()?.checked_sub(1)?;
    let line = &text[line_start..];
    let (offset, _) = line.char_indices().nth(column)?;
    let open = line_start + offset;
    let rest = text.get(open..)?.strip_prefix('[')?;
    let after = rest.strip_prefix(url)?;
    if !after.starts_with('|') || !url.chars().all(is_link_value_char) {
        return None;
    }
    Some(open + 1..open + 1 + url.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn swap(text: &str, from: &str, to: &str) -> Relinked {
        relink(text, |url| (url == from).then(|| to.to_owned()))
    }

    #[test]
    fn only_the_url_changes() {
        let text = "#Title T\n#Escape \\\n\n= [x.txt||Head] =\n\n* item \\_ [x.txt|a|x.txt] _em [x.txt||in]_\n\t[x.txt||tab] ü [x.txt||after]\n";
        let out = swap(text, "x.txt", "../y.txt");
        assert_eq!(out.missed, 0);
        assert_eq!(out.changed, 5);
        assert_eq!(out.text, text.replace("[x.txt|", "[../y.txt|"));
    }

    #[test]
    fn other_links_anchors_and_text_are_kept() {
        let text = "\n[|x.txt|anchor] x.txt [y.txt||x.txt] <a@b.c> http://x.txt/\n";
        let out = swap(text, "x.txt", "z.txt");
        assert_eq!(out.text, text);
        assert_eq!((out.changed, out.missed), (0, 0));
    }

    #[test]
    fn new_urls_are_made_valid_link_values() {
        let out = swap("\n[a.txt||a]\n", "a.txt", "b c|d.txt");
        assert_eq!(out.text, "\n[b%20c%7Cd.txt||a]\n");
        let reparsed = crate::parse(&out.text).document;
        assert_eq!(crate::references(&reparsed).links[0].0, "b%20c%7Cd.txt");
    }

    #[test]
    fn crlf_lines_are_found() {
        let out = swap("\r\n[a.txt||a]\r\n[a.txt||b]\r\n", "a.txt", "b.txt");
        assert_eq!(out.text, "\r\n[b.txt||a]\r\n[b.txt||b]\r\n");
        assert_eq!(out.missed, 0);
    }
}
