//! Near-miss hints ([`wikitext::hints`]) over the project's valid documents
//! and over random and large inputs.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::path::{Path, PathBuf};

use proptest::prelude::*;

/// Every `.txt` under `dir`, sorted, with an explicit stack (no recursion).
fn texts(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read testdata") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "txt") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Documents under `testdata/wikitext` that draw hints on purpose: these
/// snapshot cases exist to show how the parser reads the traps the
/// hints are about, so each hint here is a true near miss. Each entry is
/// the file (relative to `testdata/wikitext`) and the hints it draws.
const EXPECTED: &[(&str, &[&str])] = &[
    // "This paragraph has three lines ... / is followed by an indented
    // line, so the seed reads / that last line as a compact term": the
    // middle line would join the term if the term ended in `::`.
    (
        "rules/compact-term-after-text.txt",
        &["3:1-51 term-without-colons"],
    ),
    // `== Unbalanced =`, shown as text.
    ("rules/headings.txt", &["10:1-16 heading-markers-uneven"]),
    // Lines that show what is no table: `| is text: ...` after `|- x`,
    // and `| a row must end with a bar`.
    ("table/blocks-edges.txt", &["27:1-37 table-not-recognized"]),
    ("table/not-tables.txt", &["5:1-28 table-not-recognized"]),
    // `é_x_` (rule 3 with a non-ASCII letter) and the two links with a
    // space and a quote in the URL, shown as text.
    (
        "rules/inline-edge-cases.txt",
        &[
            "6:63-66 markup-blocked-by-side",
            "24:34-46 link-not-recognized",
            "24:47-59 link-not-recognized",
        ],
    ),
    // Rows of a table in a document that does not declare `#Extend table`,
    // shown as the text a seed reader makes of them (the first hint is the
    // note on the backquoted `#Extend table` in the prose above them).
    (
        "table/undeclared.txt",
        &[
            "2:9-24 markdown-habit",
            "4:1-10 markdown-habit",
            "5:1-10 markdown-habit",
        ],
    ),
    // Prose that quotes markup in backquotes, as Markdown writes code: a
    // note each (`#Extend image`, `!`, `open`, `<`, `^`).
    (
        "image/undeclared.txt",
        &["3:55-70 markdown-habit", "4:50-53 markdown-habit"],
    ),
    ("open/unknown-feature.txt", &["3:52-58 markdown-habit"]),
    (
        "table/spans.txt",
        &["9:24-27 markdown-habit", "9:31-34 markdown-habit"],
    ),
];

#[test]
fn valid_documents_draw_no_false_hints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/wikitext");
    let files = texts(&root);
    assert!(
        files.len() > 20,
        "testdata not found under {}",
        root.display()
    );
    let mut report = String::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("read");
        let name = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let got: Vec<String> = wikitext::hints(&text)
            .iter()
            .map(|d| format!("{} {}", d.span, d.code))
            .collect();
        let expected: Vec<String> = EXPECTED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, h)| h.iter().map(|s| (*s).to_owned()).collect())
            .unwrap_or_default();
        if got != expected {
            report.push_str(&format!("{name}: {got:?}\n"));
        }
    }
    assert!(report.is_empty(), "unexpected hints:\n{report}");
}

#[test]
fn large_inputs_run() {
    // 100 KB of markup characters, spaces and line ends, in several
    // shapes: no timing, but a quadratic scan would show.
    let units = [
        "_*'[|<>]x ",
        "a_b_c foo*bar* ",
        "[a b|c|d] [[[[",
        "= x ==\n",
        "text\nterm\n  def\n",
        "a   b\nc\n",
        "\\\\\\_x_y ",
        "x_y_",
    ];
    for unit in units {
        let body = unit.repeat(100_000 / unit.len());
        for text in [format!("\n{body}"), format!("#Escape \\\n\n{body}")] {
            let hints = wikitext::hints(&text);
            assert!(hints.len() <= text.len());
        }
    }
    // One line of 100 KB with a single `[` at the start.
    let text = format!("\n[{}", "a b|".repeat(25_000));
    let _ = wikitext::hints(&text);
}

/// Random documents over the characters the hints look at, with or
/// without the escape declaration.
fn alphabet() -> impl Strategy<Value = String> {
    (any::<bool>(), "[_*'\\[\\]|=: \n\t\\\\ab1é.\r>-]{0,300}").prop_map(|(escape, body)| {
        if escape {
            format!("#Escape \\\n\n{body}")
        } else {
            body
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

    /// Never panics; every span is on a line of the input, in order.
    #[test]
    fn hints_never_panic(text in alphabet()) {
        let hints = wikitext::hints(&text);
        let ends = text.chars().filter(|&c| c == '\n' || c == '\r').count();
        let lines = u32::try_from(ends + 1).unwrap();
        for d in &hints {
            prop_assert!(d.span.line >= 1 && d.span.line <= lines);
            prop_assert!(d.span.end_column >= d.span.column);
        }
    }

    #[test]
    fn hints_never_panic_on_any_string(text in "\\PC{0,300}") {
        let _ = wikitext::hints(&text);
    }
}
