//! The page's elements with their spans, built from the scanned tokens on an
//! explicit stack. The tree builder's implied end tags that decide where
//! blocks end are followed (seed 001 §8.2.5: a `p` closed by a block, `li`,
//! `dd`, `dt`, rows, cells and table sections closed by the next one, a
//! heading by a heading, void elements); the rest of the tree builder (the
//! adoption agency, foster parenting, the head and body moved into place)
//! changes nothing of where a block of text lies, so it is left out.

use super::scan::{Kind, Token};

/// One element: its name, where its start tag and its end lie, and its
/// parent. The root (index 0) stands for the whole page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Element {
    /// The tag name, lowercased (`#root` for the root).
    pub(crate) name: String,
    /// Where the start tag's `<` is.
    pub(crate) start: usize,
    /// Where the start tag ends: the content starts here.
    pub(crate) open_end: usize,
    /// Where the content ends: the end tag's `<`, or where an implied end
    /// tag would be.
    pub(crate) close_start: usize,
    /// Where the element ends: after its end tag, or `close_start`.
    pub(crate) end: usize,
    /// The parent element; the root is its own parent.
    pub(crate) parent: usize,
    /// How many elements hold it (0 for the root).
    pub(crate) depth: usize,
}

/// The page's elements, and for each token the element it lies in.
pub(crate) struct Tree {
    /// Every element in the order of its start tag; 0 is the root.
    pub(crate) elements: Vec<Element>,
    /// For each token, the element that holds it (for a start tag, its
    /// parent; for an end tag, the element it closes or would).
    pub(crate) parent_of: Vec<usize>,
}

impl Tree {
    /// The nearest element that holds both `a` and `b` (each holds
    /// itself): the deeper one climbs until they meet.
    pub(crate) fn common(&self, mut a: usize, mut b: usize) -> usize {
        let depth = |e: usize| self.elements.get(e).map_or(0, |e| e.depth);
        let parent = |e: usize| self.elements.get(e).map_or(0, |e| e.parent);
        while a != b {
            if depth(a) >= depth(b) {
                a = parent(a);
            } else {
                b = parent(b);
            }
        }
        a
    }
}

/// Start tags that close an open `p` (§8.2.5.10, "in body": "if the stack
/// of open elements has a p element in button scope, close a p element").
const CLOSES_P: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "center",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "hr",
    "li",
    "dd",
    "dt",
    "main",
    "menu",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "ul",
    "plaintext",
    "listing",
    "xmp",
];

/// Elements that bound a scope: an implied end never closes past them.
const SCOPE: &[&str] = &[
    "html", "table", "td", "th", "caption", "marquee", "object", "applet", "template", "button",
    "svg", "math", "#root",
];

/// How far down the stack an implied end or an end tag looks for the
/// element it closes: far past any real page's nesting, and a bound on
/// the work hostile nesting costs.
const SCAN: usize = 512;

/// Builds the tree of `tokens`.
pub(crate) fn build(tokens: &[Token], len: usize) -> Tree {
    let mut elements = vec![Element {
        name: "#root".to_owned(),
        start: 0,
        open_end: 0,
        close_start: len,
        end: len,
        parent: 0,
        depth: 0,
    }];
    let mut foreign = 0usize;
    let mut parent_of = Vec::with_capacity(tokens.len());
    let mut stack: Vec<usize> = vec![0];
    for token in tokens {
        match token.kind {
            Kind::Start { self_closing } => {
                implied_ends(&mut elements, &mut stack, &token.name, token.start);
                let parent = stack.last().copied().unwrap_or(0);
                parent_of.push(parent);
                let index = elements.len();
                elements.push(Element {
                    name: token.name.clone(),
                    start: token.start,
                    open_end: token.end,
                    close_start: token.end,
                    end: token.end,
                    parent,
                    depth: stack.len(),
                });
                let is_foreign_root = token.name == "svg" || token.name == "math";
                let empty = crate::serialize::is_void(&token.name)
                    || (self_closing && (foreign > 0 || is_foreign_root));
                if !empty {
                    stack.push(index);
                    foreign += usize::from(is_foreign_root);
                }
            }
            Kind::End => {
                if token.name == "svg" || token.name == "math" {
                    foreign = foreign.saturating_sub(1);
                }
                let closed = end_tag(&mut elements, &mut stack, token);
                parent_of.push(closed.unwrap_or_else(|| stack.last().copied().unwrap_or(0)));
            }
            _ => parent_of.push(stack.last().copied().unwrap_or(0)),
        }
    }
    while stack.len() > 1 {
        close_top(&mut elements, &mut stack, len, len);
    }
    Tree {
        elements,
        parent_of,
    }
}

/// Closes the top of the stack: its content ends at `close_start`, the
/// element at `end`.
fn close_top(elements: &mut [Element], stack: &mut Vec<usize>, close_start: usize, end: usize) {
    if stack.len() <= 1 {
        return;
    }
    if let Some(e) = stack.pop().and_then(|i| elements.get_mut(i)) {
        e.close_start = close_start;
        e.end = end;
    }
}

/// Where on the stack the nearest element named one of `names` is, looking
/// no further than a scope boundary or one of `stop`.
fn find_open(
    elements: &[Element],
    stack: &[usize],
    names: &[&str],
    stop: &[&str],
) -> Option<usize> {
    // A table's end closes its cells (§8.2.5.14: "in table scope").
    let scope: &[&str] = if names == ["table"] {
        &["html", "template", "#root"]
    } else {
        SCOPE
    };
    for (depth, &e) in stack.iter().enumerate().rev().take(SCAN) {
        let name = elements.get(e).map_or("", |e| e.name.as_str());
        if names.contains(&name) {
            return Some(depth);
        }
        if scope.contains(&name) || stop.contains(&name) {
            return None;
        }
    }
    None
}

/// Pops every element above stack depth `depth`, and that one, as closed
/// by an implied end tag at `at`.
fn close_to(elements: &mut [Element], stack: &mut Vec<usize>, depth: usize, at: usize) {
    while stack.len() > depth.max(1) {
        close_top(elements, stack, at, at);
    }
}

/// The implied end tags a start tag named `name` at `at` causes.
fn implied_ends(elements: &mut [Element], stack: &mut Vec<usize>, name: &str, at: usize) {
    let closes = |elements: &[Element], stack: &[usize]| -> Option<usize> {
        match name {
            "li" => find_open(elements, stack, &["li"], &["ul", "ol"]),
            "dd" | "dt" => find_open(elements, stack, &["dd", "dt"], &["dl"]),
            "tr" => find_open(elements, stack, &["tr"], &["thead", "tbody", "tfoot"]),
            "thead" | "tbody" | "tfoot" => {
                find_open(elements, stack, &["thead", "tbody", "tfoot"], &[])
            }
            "option" | "optgroup" => find_open(elements, stack, &["option"], &["select"]),
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                let top = stack.last().and_then(|&e| elements.get(e))?;
                matches!(top.name.as_str(), "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
                    .then(|| stack.len() - 1)
            }
            _ => None,
        }
    };
    if matches!(name, "td" | "th" | "tr" | "thead" | "tbody" | "tfoot") {
        // A cell, row or section ends the open cell (§8.2.5.10, "in cell").
        let near = stack.len().saturating_sub(SCAN);
        let named = |names: &[&str]| {
            stack
                .iter()
                .skip(near)
                .rposition(|&e| {
                    elements
                        .get(e)
                        .is_some_and(|e| names.contains(&e.name.as_str()))
                })
                .map(|d| d + near)
        };
        let cell = named(&["td", "th"]);
        let table = named(&["table"]);
        if let (Some(cell), Some(table)) = (cell, table)
            && cell > table
        {
            close_to(elements, stack, cell, at);
        }
    }
    if CLOSES_P.contains(&name)
        && let Some(depth) = find_open(elements, stack, &["p"], &[])
    {
        close_to(elements, stack, depth, at);
    }
    if let Some(depth) = closes(elements, stack) {
        close_to(elements, stack, depth, at);
    }
}

/// An end tag: closes the nearest open element of its name and every
/// element above it; returns that element, or `None` when none is open
/// (the tag is ignored, as the tree builder mostly does). `</body>` and
/// `</html>` close nothing: content after them still goes in the body.
fn end_tag(elements: &mut [Element], stack: &mut Vec<usize>, token: &Token) -> Option<usize> {
    if token.name == "body" || token.name == "html" {
        return None;
    }
    let stop: &[&str] = match token.name.as_str() {
        "li" => &["ul", "ol"],
        "dd" | "dt" => &["dl"],
        "td" | "th" | "tr" => &["table"],
        _ => &[],
    };
    let depth = find_open(elements, stack, &[token.name.as_str()], stop).or_else(|| {
        // Formatting and phrase elements close across scope boundaries'
        // absence only; look down the whole stack for them.
        let near = stack.len().saturating_sub(SCAN);
        let d = stack
            .iter()
            .skip(near)
            .rposition(|&e| elements.get(e).is_some_and(|e| e.name == token.name))?
            + near;
        let crosses = stack.get(d..).unwrap_or_default().iter().any(|&e| {
            elements
                .get(e)
                .is_some_and(|e| SCOPE.contains(&e.name.as_str()))
        });
        (!crosses).then_some(d)
    })?;
    while stack.len() > depth + 1 {
        close_top(elements, stack, token.start, token.start);
    }
    let element = stack.get(depth).copied();
    close_top(elements, stack, token.start, token.end);
    element
}

#[cfg(test)]
mod tests {
    use super::super::scan::scan;
    use super::*;

    fn spans(page: &str) -> Vec<(String, &str, &str)> {
        let tree = build(&scan(page), page.len());
        tree.elements
            .iter()
            .skip(1)
            .map(|e| {
                (
                    e.name.clone(),
                    &page[e.start..e.end],
                    &page[e.open_end..e.close_start],
                )
            })
            .collect()
    }

    #[test]
    fn implied_ends_close_paragraphs_items_and_cells() {
        let got =
            spans("<body><p>one<p>two<ul><li>a<li>b</ul><table><tr><td>x<td>y</table></body>");
        let find = |name: &str, n: usize| got.iter().filter(|g| g.0 == name).nth(n).cloned();
        assert_eq!(find("p", 0).map(|g| g.1), Some("<p>one"));
        assert_eq!(find("p", 1).map(|g| g.1), Some("<p>two"));
        assert_eq!(find("li", 0).map(|g| g.2), Some("a"));
        assert_eq!(find("li", 1).map(|g| g.1), Some("<li>b"));
        assert_eq!(find("td", 0).map(|g| g.2), Some("x"));
        assert_eq!(find("td", 1).map(|g| g.2), Some("y"));
        assert_eq!(find("body", 0).map(|g| g.2.len()), Some(got[0].2.len()));
    }

    #[test]
    fn end_tags_close_what_they_name_and_stray_ones_nothing() {
        let got = spans("<div><p><b>x</p></i>y</div><img src=a><br/>z");
        assert_eq!(got[0].1, "<div><p><b>x</p></i>y</div>");
        assert_eq!(got[1].1, "<p><b>x</p>");
        assert_eq!(got[2].2, "x");
        assert_eq!(got[3].1, "<img src=a>");
        let tree = build(&scan("<svg><path/><g>x</g></svg>"), 26);
        assert_eq!(tree.elements[2].name, "path");
        assert_eq!(tree.elements[3].parent, 1);
    }
}
