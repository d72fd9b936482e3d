//! Columns for ingestion's diagnostics. html5ever tells the line of each
//! node, not its column; a diagnostic about an element gets the columns of
//! that element's start tag (`<iframe ...>`) from the page's own text: the
//! element is the k-th of its name created on its line, and its start tag
//! the k-th `<name` on that line. An element whose start tag is not there
//! (one the parser made up, such as `<tbody>`, or a tag that begins on an
//! earlier line) keeps its line alone.
//!
//! Only warnings and errors get columns (notes keep their line), only the
//! lines concerned are decoded (in the ASCII-compatible encodings), every
//! line concerned is scanned once for all its start tags, and the arena
//! once for the elements' ranks: linear in the page, whatever the number
//! of diagnostics.

use std::collections::HashMap;

use wikitext::Span;

use super::diag::Diagnostic;
use html5ever::LocalName;

use super::sink::{Arena, Data, NodeId};

/// The text a tree was parsed from: the page's bytes in their encoding,
/// or the text itself.
pub(crate) enum Parsed<'t> {
    Bytes(&'t [u8], &'static encoding_rs::Encoding),
    Text(&'t str),
}

impl Parsed<'_> {
    /// The lines `wanted` (1-based), as text. In an encoding where a line
    /// feed is the byte 0x0A, no other character holds that byte and
    /// nothing carries over from one line to the next (the ASCII-compatible
    /// ones but ISO-2022-JP, whose escapes set a state), only those lines
    /// are decoded; in the others, the page is decoded again.
    fn lines(&self, wanted: &[u32]) -> HashMap<u32, String> {
        let last = wanted.last().copied().unwrap_or(0);
        let mut out = HashMap::new();
        match self {
            Parsed::Text(text) => {
                for (num, line) in (1u32..=last).zip(text.split('\n')) {
                    if wanted.binary_search(&num).is_ok() {
                        out.insert(num, line.to_owned());
                    }
                }
            }
            Parsed::Bytes(bytes, encoding)
                if encoding.is_ascii_compatible() && *encoding != encoding_rs::ISO_2022_JP =>
            {
                for (num, line) in (1u32..=last).zip(bytes.split(|&b| b == b'\n')) {
                    if wanted.binary_search(&num).is_ok() {
                        let (text, _) = encoding.decode_without_bom_handling(line);
                        let text = if num == 1 {
                            text.trim_start_matches('\u{feff}').to_owned()
                        } else {
                            text.into_owned()
                        };
                        out.insert(num, text);
                    }
                }
            }
            Parsed::Bytes(bytes, encoding) => {
                let text = sniff::decode(bytes, encoding).text;
                return Parsed::Text(&text).lines(wanted);
            }
        }
        out
    }
}

/// Gives the diagnostics at `attributed` (index into `diags`, the element
/// it is about) the columns of their element's start tag in `source`, what
/// the arena was parsed from.
pub(crate) fn add_columns(
    diags: &mut [Diagnostic],
    attributed: &[(usize, NodeId)],
    arena: &Arena,
    source: &Parsed<'_>,
) {
    // The elements concerned, in creation order, and their lines.
    let mut wanted: Vec<NodeId> = attributed.iter().map(|&(_, id)| id).collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut lines: Vec<u32> = wanted
        .iter()
        .filter_map(|&id| arena.node(id).map(|n| n.line))
        .collect();
    if lines.is_empty() {
        return;
    }
    lines.sort_unstable();
    lines.dedup();
    // Each wanted element's rank among the elements of its name on its
    // line, in creation order (the order of their start tags). Nodes are
    // made in the order of the text, so one pass with two cursors (over
    // the lines concerned and over the wanted nodes) does.
    let mut seen: HashMap<(u32, LocalName), usize> = HashMap::new();
    let mut rank: HashMap<NodeId, (u32, String, usize)> = HashMap::new();
    let (mut next_line, mut next_wanted) = (0usize, 0usize);
    for (index, node) in arena.nodes.iter().enumerate() {
        while lines.get(next_line).is_some_and(|&l| l < node.line) {
            next_line += 1;
        }
        let Some(&line) = lines.get(next_line) else {
            break;
        };
        if line != node.line {
            continue;
        }
        let Data::Element(e) = &node.data else {
            continue;
        };
        let Ok(id) = NodeId::try_from(index) else {
            break;
        };
        let count = seen.entry((node.line, e.name.local.clone())).or_default();
        while wanted.get(next_wanted).is_some_and(|&w| w < id) {
            next_wanted += 1;
        }
        if wanted.get(next_wanted) == Some(&id) {
            let name = e.name.local.to_string().to_ascii_lowercase();
            rank.insert(id, (node.line, name, *count));
        }
        *count += 1;
    }
    // The start tags of each line concerned: name -> (column, end column).
    // The names looked for on each line.
    let mut names: HashMap<u32, Vec<String>> = HashMap::new();
    for (line, name, _) in rank.values() {
        let list = names.entry(*line).or_default();
        if !list.contains(name) {
            list.push(name.clone());
        }
    }
    let tags: HashMap<u32, HashMap<String, Vec<(u32, u32)>>> = source
        .lines(&lines)
        .into_iter()
        .map(|(num, line)| {
            let wanted = names.get(&num).map_or(&[][..], Vec::as_slice);
            (num, start_tags(&line, wanted))
        })
        .collect();
    for &(index, id) in attributed {
        let Some((line, name, k)) = rank.get(&id) else {
            continue;
        };
        let found = tags
            .get(line)
            .and_then(|t| t.get(name))
            .and_then(|v| v.get(*k));
        if let (Some(&(column, end)), Some(d)) = (found, diags.get_mut(index))
            && d.span.line == *line
            && d.span.column == 0
        {
            d.span = Span::new(*line, column, *line, end);
        }
    }
}

/// The start tags of a line with one of `names` (lower case): for each
/// name, the 1-based columns (in characters) from its `<` to just after its
/// `>` (or the line's end).
fn start_tags(line: &str, names: &[String]) -> HashMap<String, Vec<(u32, u32)>> {
    let mut out: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
    let line = line.trim_end_matches('\r');
    let bytes = line.as_bytes();
    // Columns count characters: the characters before byte `at`, counted
    // as the scan goes (each byte once).
    let (mut counted_to, mut column) = (0usize, 0u32);
    let mut columns_to = |at: usize| {
        column += u32::try_from(line.get(counted_to..at).map_or(0, |s| s.chars().count()))
            .unwrap_or(u32::MAX);
        counted_to = at;
        column
    };
    let mut i = 0;
    while let Some(offset) = bytes
        .get(i..)
        .and_then(|rest| rest.iter().position(|&b| b == b'<'))
    {
        let start = i + offset;
        i = start + 1;
        if !bytes.get(start + 1).is_some_and(u8::is_ascii_alphabetic) {
            continue;
        }
        let mut j = start + 1;
        while bytes
            .get(j)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'-' || *c == b':')
        {
            j += 1;
        }
        let tag = line.get(start + 1..j).unwrap_or("");
        let Some(name) = names.iter().find(|n| n.eq_ignore_ascii_case(tag)) else {
            i = j;
            continue;
        };
        let close = bytes
            .get(j..)
            .and_then(|rest| rest.iter().position(|&b| b == b'>'))
            .map_or(bytes.len(), |p| j + p + 1);
        let begin = columns_to(start) + 1;
        let end = columns_to(close) + 1;
        out.entry(name.clone()).or_default().push((begin, end));
        i = close.max(start + 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::start_tags;

    #[test]
    fn start_tags_are_found_by_name_with_their_columns() {
        let names = ["iframe", "b", "br", "p"].map(str::to_owned);
        let tags = start_tags("a <IFRAME src=x></iframe> <b>é</b><br/> < p>", &names);
        assert_eq!(tags["iframe"], [(3, 17)]);
        assert_eq!(tags["b"], [(27, 30)]);
        assert_eq!(tags["br"], [(35, 40)]);
        assert!(!tags.contains_key("p"), "{tags:?}");
    }

    #[test]
    fn an_element_gets_the_columns_of_its_start_tag() {
        let page = htmlio_page("<p>a <s>b</s> c <s>d</s>\n<video src=v.mp4></video>");
        let spans: Vec<String> = page
            .iter()
            .filter(|d| matches!(d.code.as_str(), "presentation-lost" | "media-as-link"))
            .map(|d| d.span.to_string())
            .collect();
        assert_eq!(spans, ["1:6-9", "1:17-20", "2:1-18"]);
    }

    fn htmlio_page(html: &str) -> Vec<super::Diagnostic> {
        crate::ingest::ingest_str(html, &crate::ingest::Options::default()).diagnostics
    }
}
