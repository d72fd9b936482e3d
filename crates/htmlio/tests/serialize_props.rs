//! Property test of the optional-tag rules against a real HTML parser: for
//! any conforming document, the markup with optional tags omitted parses
//! (html5ever) to exactly the tree the markup with every tag gives.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;

use htmlio::serialize::{self, Element, HtmlOptions, Node};
use proptest::prelude::*;

fn el(name: &'static str, children: Vec<Node<'static>>) -> Node<'static> {
    let mut e = Element::new(name);
    e.children = children;
    e.into()
}

fn text() -> impl Strategy<Value = Node<'static>> + Clone {
    let chars = vec!['a', 'b', ' ', ' ', '\n', '<', '&', '>', 'é', '"'];
    prop::collection::vec(prop::sample::select(chars), 1..6)
        .prop_map(|c| Node::Text(String::from_iter(c).into()))
}

fn space() -> impl Strategy<Value = Option<Node<'static>>> + Clone {
    prop::option::weighted(
        0.3,
        prop::sample::select(vec![" ", "\n"]).prop_map(|s| Node::Text(s.into())),
    )
}

/// Phrasing content without `a` (so that links never nest).
fn phrasing() -> impl Strategy<Value = Node<'static>> + Clone {
    let leaf = prop_oneof![
        4 => text(),
        1 => Just(el("br", vec![])),
        1 => Just(Node::Comment(" c ".into())),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        let kids = prop::collection::vec(inner, 0..3);
        prop_oneof![
            kids.clone().prop_map(|k| el("em", k)),
            kids.clone().prop_map(|k| el("span", k)),
            kids.clone().prop_map(|k| el("code", k)),
        ]
    })
}

fn phrasings() -> impl Strategy<Value = Vec<Node<'static>>> + Clone {
    prop::collection::vec(
        prop_oneof![
            6 => phrasing(),
            1 => prop::collection::vec(phrasing(), 0..2).prop_map(|k| el("a", k)),
        ],
        0..3,
    )
}

fn rows() -> impl Strategy<Value = Vec<Node<'static>>> + Clone {
    let cell = (prop::sample::select(vec!["td", "th"]), phrasings()).prop_map(|(n, k)| el(n, k));
    prop::collection::vec(
        prop::collection::vec(cell, 0..3).prop_map(|c| el("tr", c)),
        0..3,
    )
}

fn table() -> impl Strategy<Value = Node<'static>> {
    (
        prop::option::of(phrasings().prop_map(|k| el("caption", k))),
        prop::collection::vec(
            (0usize..3).prop_map(|n| el("colgroup", vec![el("col", vec![]); n])),
            0..2,
        ),
        prop::option::of(rows().prop_map(|r| el("thead", r))),
        prop::collection::vec(rows().prop_map(|r| el("tbody", r)), 0..3),
        prop::option::of(rows().prop_map(|r| el("tfoot", r))),
        space(),
    )
        .prop_map(|(caption, colgroups, thead, tbodies, tfoot, ws)| {
            let mut kids: Vec<Node<'static>> = Vec::new();
            kids.extend(caption);
            kids.extend(colgroups);
            kids.extend(ws.clone());
            kids.extend(thead);
            for b in tbodies {
                kids.push(b);
                kids.extend(ws.clone());
            }
            kids.extend(tfoot);
            el("table", kids)
        })
}

fn select() -> impl Strategy<Value = Node<'static>> {
    let option = text().prop_map(|t| el("option", vec![t]));
    let group = prop::collection::vec(option.clone(), 0..3).prop_map(|o| el("optgroup", o));
    prop::collection::vec(prop_oneof![option, group], 0..4).prop_map(|k| el("select", k))
}

fn ruby() -> impl Strategy<Value = Node<'static>> {
    prop::collection::vec(
        (text(), prop::sample::select(vec!["rt", "rp"]), text())
            .prop_map(|(base, n, t)| vec![base, el(n, vec![t])]),
        1..3,
    )
    .prop_map(|parts| el("ruby", parts.into_iter().flatten().collect()))
}

fn flow() -> impl Strategy<Value = Node<'static>> {
    let leaf = prop_oneof![
        4 => phrasings().prop_map(|k| el("p", k)),
        1 => phrasings().prop_map(|k| el("h2", k)),
        1 => phrasings().prop_map(|k| el("pre", k)),
        1 => Just(el("hr", vec![])),
        1 => table(),
        1 => select(),
        1 => ruby(),
        1 => phrasing(),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        let kids = prop::collection::vec(inner.clone(), 0..4);
        let items = |name: &'static str| {
            prop::collection::vec(
                prop::collection::vec(inner.clone(), 0..3).prop_map(move |k| el(name, k)),
                0..3,
            )
        };
        let dl = prop::collection::vec(
            prop_oneof![
                phrasings().prop_map(|k| el("dt", k)),
                prop::collection::vec(inner.clone(), 0..3).prop_map(|k| el("dd", k)),
            ],
            0..4,
        );
        prop_oneof![
            kids.clone().prop_map(|k| el("div", k)),
            kids.clone().prop_map(|k| el("section", k)),
            kids.clone().prop_map(|k| el("blockquote", k)),
            items("li").prop_map(|k| el("ul", k)),
            items("li").prop_map(|k| el("ol", k)),
            dl.prop_map(|k| el("dl", k)),
            (kids.clone(), space()).prop_map(|(k, ws)| {
                let mut kids = Vec::new();
                kids.extend(ws);
                kids.extend(k);
                el("div", kids)
            }),
        ]
    })
}

fn document() -> impl Strategy<Value = Vec<Node<'static>>> {
    (space(), prop::collection::vec(flow(), 0..4), any::<bool>()).prop_map(|(ws, body, meta)| {
        let mut head = vec![];
        if meta {
            head.push(Element::new("meta").attr("charset", "utf-8").into());
        }
        head.push(el("title", vec![Node::Text("t".into())]));
        let mut body_kids = Vec::new();
        body_kids.extend(ws);
        body_kids.extend(body);
        vec![
            Node::Doctype(serialize::Doctype::html()),
            el("html", vec![el("head", head), el("body", body_kids)]),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256),
        ..ProptestConfig::default()
    })]

    #[test]
    fn omitting_optional_tags_keeps_the_tree(doc in document()) {
        let full = serialize::html(serialize::tokens(&doc), &HtmlOptions::default());
        let short = serialize::html(
            serialize::tokens(&doc),
            &HtmlOptions { omit_optional_tags: true, ..HtmlOptions::default() },
        );
        prop_assert_eq!(support::html_tree(&short), support::html_tree(&full), "\n{}\n{}", full, short);
    }
}
