//! Tidy checks: the architecture invariants of ARCHITECTURE.md that can be
//! checked mechanically, on the source text.
//!
//! - Library crates never print.
//! - Only wikitext knows the text grammar: htmlio's sources hold none of
//!   the text format's rules (they ask `wikitext::grammar` or leave the
//!   decision to `wikitext::canon`).
//! - In wikitext and htmlio, no function is longer than 150 lines and no
//!   file longer than 1,000 lines (unit-test modules not counted).

use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Every `.rs` file below `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    testkit::files_below(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect()
}

/// The source of a file without its unit-test module (by convention the
/// last item, from `#[cfg(test)]` on).
fn without_tests(text: &str) -> &str {
    match text.find("\n#[cfg(test)]") {
        Some(at) => &text[..at],
        None => text,
    }
}

/// Lines that are code, not comments.
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .map(|(n, l)| (n + 1, l))
}

fn src(krate: &str) -> PathBuf {
    root().join("crates").join(krate).join("src")
}

/// The `.rs` files of a crate's sources; none would make every check below
/// pass without looking at anything.
fn sources(krate: &str) -> Vec<PathBuf> {
    let files = rust_files(&src(krate));
    assert!(!files.is_empty(), "no sources found for {krate}");
    files
}

#[test]
fn library_crates_never_print() {
    let mut found = Vec::new();
    for krate in ["sniff", "microsyntax", "wikitext", "htmlio"] {
        for file in sources(krate) {
            let text = fs::read_to_string(&file).unwrap_or_default();
            for (n, line) in code_lines(without_tests(&text)) {
                for mac in ["println!", "eprintln!", "print!(", "eprint!(", "dbg!("] {
                    if line.contains(mac) {
                        found.push(format!("{}:{n}: {}", file.display(), line.trim()));
                    }
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "library code prints:\n{}",
        found.join("\n")
    );
}

/// Fragments that would mean htmlio encodes a rule of the text format
/// itself, with the rule each stands for.
const RULE_COPIES: &[(&str, &str)] = &[
    (
        "is_ascii_punctuation",
        "rule 3's side characters (wikitext::grammar::is_side_char)",
    ),
    (
        "'{' | '}'",
        "characters a link value cannot hold (wikitext::grammar)",
    ),
    (
        "b'{' | b'}'",
        "characters a link value cannot hold (wikitext::grammar)",
    ),
    (
        "'.' | '!' | '?' | ':'",
        "the end of a sentence in a term (wikitext::grammar::ends_sentence)",
    ),
    (
        "split_whitespace().collect::<Vec<_>>().join(\" \")",
        "header words (wikitext::grammar::words)",
    ),
    (
        "\"   \"",
        "three spaces make a compact item (wikitext::canon)",
    ),
];

#[test]
fn only_wikitext_knows_the_text_grammar() {
    let mut found = Vec::new();
    for file in sources("htmlio") {
        let text = fs::read_to_string(&file).unwrap_or_default();
        for (n, line) in code_lines(without_tests(&text)) {
            for (fragment, rule) in RULE_COPIES {
                if line.contains(fragment) {
                    found.push(format!("{}:{n}: {rule}: {}", file.display(), line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "htmlio encodes text-format rules wikitext owns:\n{}",
        found.join("\n")
    );
}

/// The functions of a source text longer than `max` lines: an `fn` line
/// to the `}` at its indentation (rustfmt's layout).
fn long_functions(text: &str, max: usize) -> Vec<(usize, String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let is_fn = [
            "fn ",
            "pub fn ",
            "pub(crate) fn ",
            "pub(super) fn ",
            "const fn ",
            "pub const fn ",
        ]
        .iter()
        .any(|p| trimmed.starts_with(p));
        if !is_fn || trimmed.ends_with(';') {
            continue;
        }
        let close = format!("{}}}", " ".repeat(indent));
        let end = lines
            .iter()
            .enumerate()
            .skip(i + 1)
            .find(|(_, l)| **l == close)
            .map_or(i, |(j, _)| j);
        let len = end + 1 - i;
        if len > max {
            let after = trimmed.split_once("fn ").map_or(trimmed, |(_, rest)| rest);
            let name = after.split(['(', '<']).next().unwrap_or(after).to_owned();
            out.push((i + 1, name, len));
        }
    }
    out
}

#[test]
fn functions_and_files_stay_small() {
    let mut found = Vec::new();
    for krate in ["wikitext", "htmlio"] {
        for file in sources(krate) {
            let text = fs::read_to_string(&file).unwrap_or_default();
            let code = without_tests(&text);
            let lines = code.lines().count();
            if lines > 1000 {
                found.push(format!("{}: {lines} lines", file.display()));
            }
            for (at, name, len) in long_functions(code, 150) {
                found.push(format!("{}:{at}: {name}: {len} lines", file.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "over 150 lines a function or 1,000 a file:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_length_check_finds_a_long_function() {
    let body = "    x();\n".repeat(160);
    let text = format!("fn long() {{\n{body}}}\n\nfn short() {{\n}}\n");
    let found = long_functions(&text, 150);
    assert_eq!(found, vec![(1, "long".to_owned(), 162)]);
}

#[test]
fn the_walk_finds_the_sources() {
    let files = sources("wikitext");
    assert!(files.iter().any(|f| f.ends_with("canon/mod.rs")));
    assert!(
        files
            .iter()
            .all(|f| f.extension().is_some_and(|e| e == "rs"))
    );
}
