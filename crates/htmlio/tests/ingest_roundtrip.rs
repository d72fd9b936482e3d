//! Round trips through ingestion.
//!
//! - `ingest(emit(d)) == d` for every document `wikitext::parse` can
//!   produce: over all of `testdata/wikitext/` and over generated texts.
//! - For foreign HTML, text -> XHTML -> text is a fixpoint after the first
//!   conversion.

use std::path::{Path, PathBuf};

use htmlio::ingest::{Options, ingest, ingest_str};
use proptest::prelude::*;

/// Removes what neither emission nor the text writer can hold: definition
/// items with neither terms nor definition (the parser makes one of a lone
/// `::`; emission writes nothing for it), then list items, blockquotes and
/// lists left empty (the writer drops them; ingestion does too). Recursion
/// is bounded by the parser's nesting limit.
fn without_empty_items(doc: &mut wikitext::Document) {
    fn blocks(list: &mut Vec<wikitext::Block>) {
        use wikitext::Block;
        for block in list.iter_mut() {
            match block {
                Block::Blockquote { content, .. } => blocks(content),
                Block::List { items, .. } => {
                    for item in items.iter_mut() {
                        blocks(&mut item.content);
                    }
                    items.retain(|i| !i.content.is_empty());
                }
                Block::DefinitionList { items, .. } => {
                    for item in items.iter_mut() {
                        blocks(&mut item.definition);
                    }
                    items.retain(|i| !(i.terms.is_empty() && i.definition.is_empty()));
                }
                _ => {}
            }
        }
        list.retain(|b| match b {
            Block::Blockquote { content, .. } => !content.is_empty(),
            Block::List { items, .. } => !items.is_empty(),
            Block::DefinitionList { items, .. } => !items.is_empty(),
            _ => true,
        });
    }
    blocks(&mut doc.body);
}

/// Merges bare text blocks that follow each other into one, with a line
/// division between them.
fn merge_adjacent_text(doc: &mut wikitext::Document) {
    use wikitext::{Block, Inline};
    let mut stack: Vec<&mut Vec<Block>> = vec![&mut doc.body];
    while let Some(blocks) = stack.pop() {
        let old = std::mem::take(blocks);
        for block in old {
            match (blocks.last_mut(), block) {
                (Some(Block::Text { content: last, .. }), Block::Text { content, .. }) => {
                    last.push(Inline::line_break());
                    last.extend(content);
                }
                (_, block) => blocks.push(block),
            }
        }
        for block in blocks.iter_mut() {
            match block {
                Block::Blockquote { content, .. } => stack.push(content),
                Block::List { items, .. } => stack.extend(items.iter_mut().map(|i| &mut i.content)),
                Block::DefinitionList { items, .. } => {
                    stack.extend(items.iter_mut().map(|i| &mut i.definition))
                }
                _ => {}
            }
        }
    }
}

/// Whether emission writes an empty line between two bare text blocks.
fn emission_separates_text_blocks() -> bool {
    use wikitext::{Block, Document, Inline};
    let probe = Document {
        body: vec![Block::blockquote(vec![
            Block::text(vec![Inline::text("a")]),
            Block::text(vec![Inline::text("b")]),
        ])],
        ..Document::default()
    };
    htmlio::emit::xhtml(&probe).text.contains("a\n\nb")
}

/// Whether emission marks the end of an item that has terms but no
/// definition (with an empty `<dd>`), so that the next item's terms do not
/// join it.
fn emission_closes_term_only_items() -> bool {
    use wikitext::{Block, DefItem, Document, Inline, Term};
    let probe = Document {
        body: vec![Block::definition_list(
            false,
            vec![
                DefItem::new(vec![Term::new(vec![Inline::text("a")])], vec![]),
                DefItem::new(
                    vec![Term::new(vec![Inline::text("b")])],
                    vec![Block::text(vec![Inline::text("c")])],
                ),
            ],
        )],
        ..Document::default()
    };
    htmlio::emit::xhtml(&probe).text.contains("<dd></dd>")
}

/// Joins the terms of an item without definition to the next item, as HTML
/// reads `<dt>a</dt><dt>b</dt><dd>c</dd>`. Recursion is bounded by the
/// parser's nesting limit.
fn merge_term_only_items(doc: &mut wikitext::Document) {
    fn blocks(list: &mut [wikitext::Block]) {
        use wikitext::Block;
        for block in list.iter_mut() {
            match block {
                Block::Blockquote { content, .. } => blocks(content),
                Block::List { items, .. } => {
                    for item in items.iter_mut() {
                        blocks(&mut item.content);
                    }
                }
                Block::DefinitionList { items, .. } => {
                    let old = std::mem::take(items);
                    let mut waiting: Vec<wikitext::Term> = Vec::new();
                    for mut item in old {
                        blocks(&mut item.definition);
                        if !waiting.is_empty() {
                            waiting.append(&mut item.terms);
                            item.terms = std::mem::take(&mut waiting);
                        }
                        if item.definition.is_empty() && !item.terms.is_empty() {
                            waiting = std::mem::take(&mut item.terms);
                        } else {
                            items.push(item);
                        }
                    }
                    if !waiting.is_empty() {
                        items.push(wikitext::DefItem::new(waiting, Vec::new()));
                    }
                }
                _ => {}
            }
        }
    }
    blocks(&mut doc.body);
}

/// Gives anchor names and the links into the site the form emission writes
/// them in (`htmlio::names`), then drops the names that repeat an earlier
/// one (emission writes them but reports the XHTML invalid; ingestion keeps
/// the first, as browsers do): the link keeps its URL, an anchor without URL
/// becomes its text.
/// Recursion is bounded by the parser's nesting limits.
fn without_repeated_anchors(doc: &mut wikitext::Document) {
    use std::collections::HashSet;
    use wikitext::{Block, Inline};
    fn inlines(run: &mut Vec<Inline>, seen: &mut HashSet<String>) {
        let old = std::mem::take(run);
        for mut inline in old {
            match &mut inline {
                Inline::Emphasis { content, .. }
                | Inline::Strong { content, .. }
                | Inline::Code { content, .. } => inlines(content, seen),
                Inline::Link {
                    url,
                    fragment,
                    content,
                    ..
                } => {
                    inlines(content, seen);
                    // Emission writes names in their XML-name form, and
                    // links into the site follow.
                    if let Some(f) = fragment.as_mut() {
                        *f = htmlio::names::anchor_name(f).into_owned();
                    }
                    if let Some(u) = url.as_mut() {
                        *u = htmlio::names::fragment_reference(u).into_owned();
                    }
                    if let Some(f) = fragment.clone()
                        && !seen.insert(f)
                    {
                        *fragment = None;
                        if url.is_none() {
                            for piece in std::mem::take(content) {
                                match (run.last_mut(), piece) {
                                    (
                                        Some(Inline::Text { text, .. }),
                                        Inline::Text { text: t, .. },
                                    ) => text.push_str(&t),
                                    (_, piece) => run.push(piece),
                                }
                            }
                            continue;
                        }
                    }
                }
                _ => {}
            }
            match (run.last_mut(), inline) {
                (Some(Inline::Text { text, .. }), Inline::Text { text: t, .. }) => {
                    text.push_str(&t)
                }
                (_, inline) => run.push(inline),
            }
        }
    }
    fn blocks(list: &mut [Block], seen: &mut HashSet<String>) {
        for block in list.iter_mut() {
            match block {
                Block::Paragraph { content, .. }
                | Block::Text { content, .. }
                | Block::Heading { content, .. } => inlines(content, seen),
                Block::Preformatted { lines, .. } => {
                    for line in lines {
                        inlines(line, seen);
                    }
                }
                Block::Blockquote { content, .. } => blocks(content, seen),
                Block::List { items, .. } => {
                    for item in items {
                        blocks(&mut item.content, seen);
                    }
                }
                Block::DefinitionList { items, .. } => {
                    for item in items {
                        for term in &mut item.terms {
                            inlines(&mut term.content, seen);
                        }
                        blocks(&mut item.definition, seen);
                    }
                }
                Block::Table { caption, rows, .. } => {
                    inlines(caption, seen);
                    for row in rows {
                        for cell in &mut row.cells {
                            blocks(&mut cell.content, seen);
                        }
                    }
                }
                Block::Figure { image, caption, .. } => {
                    inlines(image, seen);
                    blocks(caption, seen);
                }
                Block::Rule { .. } => {}
            }
        }
    }
    let mut seen = HashSet::new();
    blocks(&mut doc.body, &mut seen);
}

/// Calls `f` on every inline run of `body` (block runs, terms, captions,
/// lines of preformatted text). Recursion is bounded by the test documents.
fn each_run(body: &mut [wikitext::Block], f: &mut dyn FnMut(&mut Vec<wikitext::Inline>)) {
    use wikitext::Block;
    for block in body {
        match block {
            Block::Paragraph { content, .. }
            | Block::Text { content, .. }
            | Block::Heading { content, .. } => f(content),
            Block::Preformatted { lines, .. } => lines.iter_mut().for_each(&mut *f),
            Block::Blockquote { content, .. } => each_run(content, f),
            Block::List { items, .. } => items.iter_mut().for_each(|i| each_run(&mut i.content, f)),
            Block::DefinitionList { items, .. } => {
                for item in items {
                    item.terms.iter_mut().for_each(|t| f(&mut t.content));
                    each_run(&mut item.definition, f);
                }
            }
            Block::Table { caption, rows, .. } => {
                f(caption);
                for row in rows {
                    row.cells
                        .iter_mut()
                        .for_each(|c| each_run(&mut c.content, f));
                }
            }
            Block::Figure { image, caption, .. } => {
                f(image);
                each_run(caption, f);
            }
            Block::Rule { .. } => {}
        }
    }
}

/// Forced breaks as HTML reads them: a `<br>` at the start or end of a
/// block shows nothing (ingestion leaves it out), one at the edge of an
/// inline element shows as one beside it (ingestion puts it there), and a
/// line division right before one is white space it takes in.
fn breaks_as_html_reads(body: &mut [wikitext::Block]) {
    use wikitext::Inline;
    fn hoist(run: &mut Vec<Inline>, depth: usize) {
        let mut out: Vec<Inline> = Vec::with_capacity(run.len());
        for mut node in std::mem::take(run) {
            let (mut before, mut after) = (0, 0);
            let image = matches!(node, Inline::Image { .. });
            if depth < 16
                && !image
                && let Some(children) = node.children_mut()
            {
                hoist(children, depth + 1);
                while matches!(children.first(), Some(Inline::HardBreak { .. })) {
                    children.remove(0);
                    before += 1;
                }
                while matches!(children.last(), Some(Inline::HardBreak { .. })) {
                    children.pop();
                    after += 1;
                }
            }
            out.extend((0..before).map(|_| Inline::hard_break()));
            let empty = node.children().is_some_and(Vec::is_empty)
                && !matches!(node, Inline::Image { .. } | Inline::Link { .. });
            if !empty {
                out.push(node);
            }
            out.extend((0..after).map(|_| Inline::hard_break()));
        }
        // A line division and white space right before a break are taken
        // in, and HTML white space after it; breaks in a row are one.
        let mut kept: Vec<Inline> = Vec::with_capacity(out.len());
        let mut after_break = false;
        for mut node in out {
            if matches!(node, Inline::HardBreak { .. }) {
                loop {
                    match kept.last_mut() {
                        Some(Inline::LineBreak { .. } | Inline::HardBreak { .. }) => {
                            kept.pop();
                        }
                        Some(Inline::Text { text, .. }) if text.trim_end() != text => {
                            text.truncate(text.trim_end().len());
                            if text.is_empty() {
                                kept.pop();
                            }
                        }
                        _ => break,
                    }
                }
                after_break = true;
            } else if let Inline::Text { text, .. } = &mut node
                && after_break
            {
                // Only HTML's white space: a no-break space after a
                // break is shown.
                *text = text
                    .trim_start_matches([' ', '\t', '\n', '\u{c}', '\r'])
                    .to_owned();
                if text.is_empty() {
                    continue;
                }
                after_break = false;
            } else if !matches!(node, Inline::LineBreak { .. }) {
                after_break = false;
            }
            kept.push(node);
        }
        *run = kept;
    }
    each_run(body, &mut |run| {
        hoist(run, 0);
        while matches!(
            run.first(),
            Some(Inline::HardBreak { .. } | Inline::LineBreak { .. })
        ) {
            run.remove(0);
        }
        while matches!(
            run.last(),
            Some(Inline::HardBreak { .. } | Inline::LineBreak { .. })
        ) {
            run.pop();
        }
    });
}

/// Bare text blocks in a row are one run of text in HTML (the empty line
/// between them is white space): where the first ends with a forced
/// break, that break shows, as a new line, and ingestion reads the two as
/// one text block, the break and then the line division of the source.
/// (Without the break the empty line keeps them apart when read back.)
/// Recursion is bounded by the test documents.
fn texts_joined_by_breaks(blocks: &mut Vec<wikitext::Block>) {
    use wikitext::{Block, Inline};
    let mut out: Vec<Block> = Vec::with_capacity(blocks.len());
    for mut block in std::mem::take(blocks) {
        match &mut block {
            Block::Blockquote { content, .. } => texts_joined_by_breaks(content),
            Block::List { items, .. } => items
                .iter_mut()
                .for_each(|i| texts_joined_by_breaks(&mut i.content)),
            Block::DefinitionList { items, .. } => items
                .iter_mut()
                .for_each(|i| texts_joined_by_breaks(&mut i.definition)),
            Block::Table { rows, .. } => rows
                .iter_mut()
                .flat_map(|r| r.cells.iter_mut())
                .for_each(|c| texts_joined_by_breaks(&mut c.content)),
            Block::Figure { caption, .. } => texts_joined_by_breaks(caption),
            _ => {}
        }
        if let (Some(Block::Text { content: last, .. }), Block::Text { content, .. }) =
            (out.last_mut(), &mut block)
            && matches!(last.last(), Some(Inline::HardBreak { .. }))
        {
            last.push(Inline::line_break());
            last.append(content);
            continue;
        }
        out.push(block);
    }
    *blocks = out;
}

/// Every image's alternative text as the plain text HTML's `alt` holds
/// (white space collapsed). Recursion is bounded by the test documents.
fn plain_alts(body: &mut [wikitext::Block]) {
    use wikitext::{Block, Inline};
    fn run(inlines: &mut [Inline]) {
        for inline in inlines {
            if let Inline::Image { alt, .. } = inline {
                let text = wikitext::grammar::words(&wikitext::plain_text(alt));
                *alt = if text.is_empty() {
                    Vec::new()
                } else {
                    vec![Inline::text(text)]
                };
            } else if let Some(children) = inline.children_mut() {
                run(children);
            }
        }
    }
    for block in body {
        match block {
            Block::Paragraph { content, .. }
            | Block::Text { content, .. }
            | Block::Heading { content, .. } => run(content),
            Block::Preformatted { lines, .. } => lines.iter_mut().for_each(|l| run(l)),
            Block::Blockquote { content, .. } => plain_alts(content),
            Block::List { items, .. } => items.iter_mut().for_each(|i| plain_alts(&mut i.content)),
            Block::DefinitionList { items, .. } => {
                for item in items {
                    item.terms.iter_mut().for_each(|t| run(&mut t.content));
                    plain_alts(&mut item.definition);
                }
            }
            Block::Table { caption, rows, .. } => {
                run(caption);
                for row in rows {
                    row.cells
                        .iter_mut()
                        .for_each(|c| plain_alts(&mut c.content));
                }
            }
            Block::Figure { image, caption, .. } => {
                run(image);
                plain_alts(caption);
            }
            Block::Rule { .. } => {}
        }
    }
}

/// A table whose cells are all empty or one text block is a grid: HTML
/// shows a line division in such a cell as a space, and ingestion keeps
/// the table a grid by making it one (a line division would make it a
/// table of the block form). Tables in cells included.
fn grid_cells_on_one_line(blocks: &mut [wikitext::Block]) {
    use wikitext::{Block, Inline};
    for block in blocks {
        match block {
            Block::Blockquote { content, .. } => grid_cells_on_one_line(content),
            Block::List { items, .. } => items
                .iter_mut()
                .for_each(|i| grid_cells_on_one_line(&mut i.content)),
            Block::DefinitionList { items, .. } => items
                .iter_mut()
                .for_each(|i| grid_cells_on_one_line(&mut i.definition)),
            Block::Table { rows, .. } => {
                let cells = || rows.iter().flat_map(|r| &r.cells);
                let grid = cells().all(|c| {
                    matches!(
                        c.content.as_slice(),
                        [] | [Block::Text { .. } | Block::Paragraph { .. }]
                    )
                });
                for cell in rows.iter_mut().flat_map(|r| &mut r.cells) {
                    if !grid {
                        grid_cells_on_one_line(&mut cell.content);
                        continue;
                    }
                    if let [Block::Text { content, .. }] = cell.content.as_mut_slice() {
                        let mut flat = Vec::new();
                        for node in std::mem::take(content) {
                            match node {
                                Inline::LineBreak { pos } => {
                                    wikitext::push_text(&mut flat, " ", pos)
                                }
                                Inline::Text { text, pos } => {
                                    wikitext::push_text(&mut flat, &text, pos)
                                }
                                other => flat.push(other),
                            }
                        }
                        *content = flat;
                    }
                }
            }
            _ => {}
        }
    }
}

/// `ingest(emit(parse(text)))`, compared with `parse(text)`.
fn emit_then_ingest(text: &str) -> Result<(), String> {
    let mut parsed = wikitext::parse(text).document;
    let xhtml = htmlio::emit::xhtml(&parsed);
    // `#Escape \` and `#Extend open` say how the text is spelled, not
    // what it says: XHTML has nothing to carry them, and an ingested page
    // declares them only when its text is written.
    parsed.meta.escape = false;
    parsed.meta.open = false;
    parsed.meta.image = false;
    parsed.meta.table = false;
    parsed.meta.breaks = false;
    parsed.meta.subsup = false;
    parsed.meta.figure = false;
    // An image's alternative text is an attribute: its markup is gone.
    plain_alts(&mut parsed.body);
    texts_joined_by_breaks(&mut parsed.body);
    breaks_as_html_reads(&mut parsed.body);
    // Two bare text blocks in a row, and an item with terms but no
    // definition followed by another item, are only told apart in XHTML
    // when emission marks them (an empty line between the blocks, an empty
    // `<dd>`); until it does, they are compared as HTML reads them.
    if !emission_closes_term_only_items() {
        merge_term_only_items(&mut parsed);
    }
    without_empty_items(&mut parsed);
    without_repeated_anchors(&mut parsed);
    grid_cells_on_one_line(&mut parsed.body);
    if !emission_separates_text_blocks() {
        merge_adjacent_text(&mut parsed);
    }
    let back = ingest_str(&xhtml.text, &Options::default());
    if back.document == parsed {
        Ok(())
    } else {
        Err(format!(
            "ingest(emit(d)) != d\ntext:\n{text}\nxhtml:\n{}\nexpected:\n{}\ngot:\n{}\ndiagnostics: {:#?}",
            xhtml.text,
            wikitext::dump::tree(&parsed),
            wikitext::dump::tree(&back.document),
            back.diagnostics
        ))
    }
}

/// The files below `dir` whose extension is `ext` (the one folder walk is
/// `testkit::files_below`).
fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    out.extend(
        testkit::files_below(dir)
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == ext)),
    );
}

fn testdata(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(sub)
}

#[test]
fn every_wikitext_test_document_comes_back() {
    let mut paths = Vec::new();
    files(&testdata("wikitext"), "txt", &mut paths);
    assert!(!paths.is_empty(), "no test documents found");
    let mut failures = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap();
        if let Err(e) = emit_then_ingest(&text) {
            failures.push(format!("{}: {e}", path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n\n")
    );
}

/// Text -> XHTML -> text is a fixpoint after the first conversion of a
/// foreign page.
fn fixpoint(html: &[u8]) -> Result<(), String> {
    let first = ingest(html, &Options::default());
    let t1 = wikitext::write_with(first.document.clone(), &htmlio::ingest::POLICY).text;
    let d2 = wikitext::parse(&t1).document;
    let x2 = htmlio::emit::xhtml(&d2);
    let d3 = ingest_str(&x2.text, &Options::default()).document;
    let t2 = wikitext::write_with(d3.clone(), &htmlio::ingest::POLICY).text;
    if t1 == t2 {
        Ok(())
    } else {
        Err(format!(
            "not a fixpoint\nfirst text:\n{t1}\nxhtml:\n{}\nsecond text:\n{t2}",
            x2.text
        ))
    }
}

#[test]
fn foreign_test_pages_reach_a_fixpoint() {
    let mut paths = Vec::new();
    files(&testdata("htmlio"), "html", &mut paths);
    files(&testdata("htmlio"), "htm", &mut paths);
    let mut failures = Vec::new();
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        if let Err(e) = fixpoint(&bytes) {
            failures.push(format!("{}: {e}", path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n\n")
    );
}

// ---- generated documents ------------------------------------------------

/// Bits of text that exercise the block grammar and the inline rules.
fn bit() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(" ".to_owned()),
        Just("  ".to_owned()),
        Just("   ".to_owned()),
        Just("\t".to_owned()),
        Just("* ".to_owned()),
        Just("+ ".to_owned()),
        Just("2. ".to_owned()),
        Just("c) ".to_owned()),
        Just("B. ".to_owned()),
        Just("> ".to_owned()),
        Just("::".to_owned()),
        Just("= ".to_owned()),
        Just(" ==".to_owned()),
        Just("-----".to_owned()),
        Just("_".to_owned()),
        Just("*".to_owned()),
        Just("'".to_owned()),
        Just("[".to_owned()),
        Just("]".to_owned()),
        Just("|".to_owned()),
        Just("<".to_owned()),
        Just(">".to_owned()),
        Just("&".to_owned()),
        Just("x@y.org".to_owned()),
        Just("[http://e.org/?a=1&b||".to_owned()),
        Just("[|frag|".to_owned()),
        Just("[#frag|top|".to_owned()),
        Just("mailto:".to_owned()),
        Just("text".to_owned()),
        Just(".".to_owned()),
        Just("?".to_owned()),
        Just("ü".to_owned()),
        Just("\u{a0}".to_owned()),
        // `#Extend break` and `#Extend subsup`, where the header says so.
        Just("x<br>".to_owned()),
        Just("H~{2}O".to_owned()),
        Just("^{".to_owned()),
        Just("}".to_owned()),
        "[a-zA-Z0-9]{1,6}",
    ]
}

fn line() -> impl Strategy<Value = String> {
    (0usize..10, prop::collection::vec(bit(), 0..9))
        .prop_map(|(indent, bits)| format!("{}{}", " ".repeat(indent), bits.concat()))
}

fn document_text() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(
            prop_oneof![
                Just("#Title A title".to_owned()),
                Just("#Lang de-ch".to_owned()),
                Just("#Meta:keywords a, b".to_owned()),
                Just("#Link:alternate:stylesheet s.css Alt Style".to_owned()),
                Just("#Extend break subsup".to_owned()),
            ],
            0..3,
        ),
        prop::collection::vec(line(), 0..16),
    )
        .prop_map(|(header, body)| {
            let mut t = String::new();
            for h in header {
                t.push_str(&h);
                t.push('\n');
            }
            t.push('\n');
            for l in body {
                t.push_str(&l);
                t.push('\n');
            }
            t
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("INGEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(600)
    ))]

    #[test]
    fn parsed_documents_come_back_through_xhtml(text in document_text()) {
        if let Err(e) = emit_then_ingest(&text) {
            prop_assert!(false, "{}", e);
        }
    }
}
