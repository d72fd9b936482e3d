//! Same-document references: links `[#name||text]` and the anchors
//! `[|name|text]` they point to.
//!
//! Seed 002 §2.4.8 parses a hash-name reference in three steps: find the
//! `#` (step 1), take what follows (step 2), and find the element whose
//! `id` or `name` matches it (step 3). Steps 1 and 2 are the microsyntax
//! crate's ([`microsyntax::parse_hash_name_reference`]); step 3 needs the
//! document, and is here. The seed matches names by compatibility caseless
//! comparison; the later standard (and every browser) matches exactly, then
//! after percent-decoding the fragment. A reference is found when the later
//! rules find it; one that only the seed's caseless rule finds is reported,
//! because a browser will not follow it.

use std::collections::HashMap;

use crate::diag::{Code, Diagnostic, Severity, Span};
use crate::model::{Document, Inline, Pos};

/// A same-document reference with no anchor of its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dangling<'a> {
    /// The name referred to: the link's URL after its `#`.
    pub name: &'a str,
    /// Where the link is.
    pub pos: Pos,
    /// An anchor that the seed's compatibility caseless match finds
    /// (seed 002 §2.4.8 step 3), though a browser does not.
    pub caseless: Option<&'a str>,
}

/// The anchors and links of a document, in document order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct References<'a> {
    /// Every anchor name (`[|name|text]`, or the name of a link that is an
    /// anchor too).
    pub anchors: Vec<&'a str>,
    /// Every link's URL (`[url||text]`), with where the link is.
    pub links: Vec<(&'a str, Pos)>,
}

/// The anchors and links of `doc`, for checks across documents (a site's
/// pages linking to each other's anchors) as well as within one.
///
/// ```
/// let doc = wikitext::parse("\n[|top|Hi], see [other.html#a||there]\n").document;
/// let refs = wikitext::references(&doc);
/// assert_eq!(refs.anchors, ["top"]);
/// assert_eq!(refs.links[0].0, "other.html#a");
/// ```
pub fn references(doc: &Document) -> References<'_> {
    let mut out = References::default();
    for run in crate::walk::runs(&doc.body) {
        let mut stack: Vec<&[Inline]> = vec![run];
        while let Some(items) = stack.pop() {
            for inline in items {
                if let Inline::Link {
                    url, fragment, pos, ..
                } = inline
                {
                    if let Some(name) = fragment {
                        out.anchors.push(name);
                    }
                    if let Some(url) = url {
                        out.links.push((url, *pos));
                    }
                }
                if let Some(children) = inline.children() {
                    stack.push(children);
                }
            }
        }
    }
    out
}

/// Whether a browser finds an anchor of `anchors` for the fragment `name`:
/// the name itself, or once percent-decoded (the later standard's "find a
/// potential indicated element"; the seed's caseless match is not a
/// browser's).
///
/// ```
/// let anchors = ["café"].into_iter().collect();
/// assert!(wikitext::finds_anchor(&anchors, "caf%C3%A9"));
/// assert!(!wikitext::finds_anchor(&anchors, "Café"));
/// ```
pub fn finds_anchor(anchors: &std::collections::HashSet<&str>, name: &str) -> bool {
    anchors.contains(name)
        || anchors.contains(
            percent_encoding::percent_decode_str(name)
                .decode_utf8_lossy()
                .as_ref(),
        )
}

/// Spec: seed 002 §2.4.8 "rules for parsing a hash-name reference" applied
/// to every same-document link of `doc` (a URL starting with `#`): the
/// links whose name no anchor of the document has, in document order. A
/// name matches an anchor exactly or, as the later standard's "find a
/// potential indicated element" does, once percent-decoded.
///
/// ```
/// let doc = wikitext::parse("\n[|Intro|Hello] see [#Intro||there], [#intro||here] or [#none||x]\n").document;
/// let dangling = wikitext::dangling_references(&doc);
/// let names: Vec<_> = dangling.iter().map(|d| (d.name, d.caseless)).collect();
/// assert_eq!(names, [("intro", Some("Intro")), ("none", None)]);
/// ```
pub fn dangling_references(doc: &Document) -> Vec<Dangling<'_>> {
    let References { anchors, links } = references(doc);
    // Steps 1 and 2: what follows the `#`.
    let references: Vec<(&str, Pos)> = links
        .into_iter()
        .filter(|(u, _)| u.starts_with('#'))
        .filter_map(|(u, pos)| microsyntax::parse_hash_name_reference(u).map(|name| (name, pos)))
        .collect();
    if references.is_empty() {
        return Vec::new();
    }
    let exact: std::collections::HashSet<&str> = anchors.iter().copied().collect();
    // The seed's comparison, keyed once per anchor (the first wins, as
    // step 3 returns the first element); built at the first miss.
    let mut caseless: Option<HashMap<String, &str>> = None;
    let mut out = Vec::new();
    for (name, pos) in references {
        if finds_anchor(&exact, name) {
            continue;
        }
        // Step 3, as the seed says it.
        let keys = caseless.get_or_insert_with(|| {
            anchors
                .iter()
                .rev()
                .map(|&a| (microsyntax::compatibility_caseless_key(a), a))
                .collect()
        });
        let key = microsyntax::compatibility_caseless_key(name);
        out.push(Dangling {
            name,
            pos,
            caseless: keys.get(&key).copied(),
        });
    }
    out
}

/// [`dangling_references`] as warnings ([`Code::DanglingReference`]), for
/// `pagetext check`.
///
/// ```
/// let doc = wikitext::parse("\n[#nowhere||x]\n").document;
/// let diags = wikitext::reference_diagnostics(&doc);
/// assert_eq!(diags[0].to_string(), "2:1: warning[dangling-reference]: same-document link #nowhere: the document has no anchor \"nowhere\"");
/// ```
pub fn reference_diagnostics(doc: &Document) -> Vec<Diagnostic> {
    dangling_references(doc)
        .into_iter()
        .map(|d| {
            let message = match d.caseless {
                Some(anchor) => format!(
                    "same-document link #{}: the document has no anchor {:?}, only {anchor:?} (seed 002 §2.4.8 matches it caselessly; browsers do not)",
                    d.name, d.name
                ),
                None => format!(
                    "same-document link #{}: the document has no anchor {:?}",
                    d.name, d.name
                ),
            };
            Diagnostic::new(
                Code::DanglingReference,
                Severity::Warning,
                message,
                Span::at(d.pos),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<(String, Option<String>)> {
        let doc = crate::parse(text).document;
        dangling_references(&doc)
            .into_iter()
            .map(|d| (d.name.to_owned(), d.caseless.map(str::to_owned)))
            .collect()
    }

    #[test]
    fn step_3_finds_anchors_anywhere() {
        // Anchors in headings, lists and nested markup; links before and
        // after them.
        let text = "\n[#a||to a] [#b||to b]\n\n= [|a|Title] =\n\n* _[|b|item]_\n";
        assert!(names(text).is_empty());
    }

    #[test]
    fn missing_and_caseless() {
        assert_eq!(names("\n[#x||x]\n"), [("x".to_owned(), None)]);
        // Seed 002's own rule: compatibility caseless (ß and SS fold alike).
        assert_eq!(
            names("\n[|STRASSE|s] [#straße||t]\n"),
            [("straße".to_owned(), Some("STRASSE".to_owned()))]
        );
    }

    #[test]
    fn percent_decoded_names_match() {
        assert!(names("\n[|café|c] [#caf%C3%A9||t]\n").is_empty());
        assert!(names("\n[|Section%201|c] [#Section%201||t]\n").is_empty());
    }

    #[test]
    fn not_same_document_references() {
        // Step 1: no `#`, or nothing after it; other documents' fragments.
        assert!(names("\n[page.html#x||p] [http://a/#y||q]\n").is_empty());
    }
}
