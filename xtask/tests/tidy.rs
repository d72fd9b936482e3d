//! Tidy checks: the architecture invariants of ARCHITECTURE.md that can be
//! checked mechanically, on the source text.
//!
//! - Library crates never print.
//! - Only wikitext knows the text grammar: htmlio's sources hold none of
//!   the text format's rules (they ask `wikitext::grammar` or leave the
//!   decision to `wikitext::canon`).
//! - In wikitext, htmlio and the CLI, no function is longer than 150 lines
//!   and no file longer than 1,000 lines. A file's lines stop before its
//!   unit-test module (the first `#[cfg(test)]` outside any braces), which
//!   is not measured; a function's lines run from its `fn` line to the line
//!   of its closing brace, braces being matched outside strings, char
//!   literals and comments.
//! - No module names one that names it back, at any crate's top level or
//!   among the files of any module folder (`canon/`, `render/`, `emit/`,
//!   `ingest/build/`...), but for the recursion edges of [`ALLOWED_EDGES`],
//!   each with its reason. Module A names module B (an edge A -> B) when a
//!   file of A, outside comments and its `#[cfg(test)] mod tests`, holds a
//!   path `crate::B...` (`crate::folder::B...` inside a folder) or lists B
//!   at the top level of such a `use` group; in a file whose parent module
//!   is the crate root or the folder (`A.rs`, `A/mod.rs`), `super::` counts
//!   as that prefix.
//! - Every file name ARCHITECTURE.md gives in a code span is there.
//! - No source, doc or script points at an issue number: the repository
//!   has no tracker to point at.

use std::collections::{BTreeMap, BTreeSet};
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

/// The shape of one source file, by the rule of the module's header: its
/// length up to its unit-test module and the length of each function.
#[derive(Debug, Default, PartialEq, Eq)]
struct Shape {
    /// The file's length in lines, up to its unit-test module (the first
    /// `#[cfg(test)]` outside any braces). Without one, the text split at
    /// each `\n`, so a final line feed counts as one more (empty) line.
    lines: usize,
    /// Each function's first line (1-based), name and length in lines,
    /// from its `fn` line to its closing brace, in the order they close.
    functions: Vec<(usize, String, usize)>,
}

/// What [`strip`] carries from one line to the next.
#[derive(Debug, Default)]
struct Lexer {
    /// How many block comments are open (a `*/` closes one).
    block: usize,
    /// The end of the string literal that is open: `"` or `"##...`.
    string: Option<String>,
}

/// Whether `text` at `at` starts with `pat`.
fn starts(text: &[char], at: usize, pat: &str) -> bool {
    pat.chars()
        .enumerate()
        .all(|(n, c)| text.get(at + n) == Some(&c))
}

/// Where `pat` next occurs in `text` at or after `from`.
fn find(text: &[char], from: usize, pat: &str) -> Option<usize> {
    (from..text.len()).find(|&i| starts(text, i, pat))
}

/// The length of a raw string's opening (`r"`, `br#"`...) at `at`, and its
/// closing delimiter.
fn raw_string_start(text: &[char], at: usize) -> Option<(usize, String)> {
    let mut i = at;
    if text.get(i) == Some(&'b') {
        i += 1;
    }
    if text.get(i) != Some(&'r') {
        return None;
    }
    i += 1;
    let hashes = text[i..].iter().take_while(|c| **c == '#').count();
    i += hashes;
    (text.get(i) == Some(&'"')).then(|| (i + 1 - at, format!("\"{}", "#".repeat(hashes))))
}

/// The length of a char literal at `at` (`'x'`, `'\n'`, `'\u{..}'`,
/// `'\x..'`); `None` for a lifetime or a label.
fn char_literal(text: &[char], at: usize) -> Option<usize> {
    let close = |end: usize| (text.get(end) == Some(&'\'')).then_some(end + 1 - at);
    let body = at + 1;
    let first = *text.get(body)?;
    if first == '\\' {
        // `\\.`, then `\u{hex}`, then `\xhh`, tried in that order.
        let plain = text
            .get(body + 1)
            .filter(|c| **c != '\n')
            .and_then(|_| close(body + 2));
        let unicode = || {
            if !starts(text, body, "\\u{") {
                return None;
            }
            let hex = text[body + 3..]
                .iter()
                .take_while(|c| c.is_ascii_hexdigit())
                .count();
            let end = body + 3 + hex;
            (hex > 0 && text.get(end) == Some(&'}')).then_some(())?;
            close(end + 1)
        };
        let byte = || {
            let hex = text.get(body + 2..body + 4)?;
            (text.get(body + 1) == Some(&'x') && hex.iter().all(char::is_ascii_hexdigit))
                .then_some(())?;
            close(body + 4)
        };
        plain.or_else(unicode).or_else(byte)
    } else if first == '\'' {
        None
    } else {
        close(body + 1)
    }
}

/// One line without its strings, chars and comments: what is left is the
/// code whose braces count.
fn strip(line: &str, lexer: &mut Lexer) -> String {
    let text: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < text.len() {
        if lexer.block > 0 {
            let Some(j) = find(&text, i, "*/") else {
                return out;
            };
            lexer.block -= 1;
            i = j + 2;
            continue;
        }
        if let Some(end) = lexer.string.clone() {
            let mut j = find(&text, i, &end);
            // An escaped quote does not end the string; `\\"` does.
            while let Some(at) = j.filter(|&at| {
                at > 0 && end == "\"" && text[at - 1] == '\\' && !(at >= 2 && text[at - 2] == '\\')
            }) {
                j = find(&text, at + 1, &end);
            }
            let Some(j) = j else {
                return out;
            };
            lexer.string = None;
            i = j + end.chars().count();
            continue;
        }
        if starts(&text, i, "//") {
            break;
        }
        if starts(&text, i, "/*") {
            lexer.block += 1;
            i += 2;
            continue;
        }
        let after_word = i > 0 && (text[i - 1].is_alphanumeric() || text[i - 1] == '_');
        if let Some((len, end)) = raw_string_start(&text, i).filter(|_| !after_word) {
            lexer.string = Some(end);
            i += len;
            continue;
        }
        let c = text[i];
        if c == '"' {
            lexer.string = Some("\"".to_owned());
            i += 1;
            continue;
        }
        if let Some(len) = (c == '\'').then(|| char_literal(&text, i)).flatten() {
            i += len;
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// The name of the function a line starts: `pub`, `pub(...)`, `const`,
/// `async` and `unsafe` may come before `fn`.
fn fn_name(line: &str) -> Option<&str> {
    fn word<'a>(rest: &'a str, word: &str) -> Option<&'a str> {
        let after = rest.strip_prefix(word)?;
        let trimmed = after.trim_start();
        (trimmed.len() < after.len()).then_some(trimmed)
    }
    let mut rest = line.trim_start();
    if let Some(after) = rest.strip_prefix("pub") {
        let after = match after.strip_prefix('(') {
            Some(inner) => inner.find(')').map_or(after, |at| &inner[at + 1..]),
            None => after,
        };
        let trimmed = after.trim_start();
        if trimmed.len() < after.len() {
            rest = trimmed;
        }
    }
    for qualifier in ["const", "async", "unsafe"] {
        rest = word(rest, qualifier).unwrap_or(rest);
    }
    let rest = word(rest, "fn")?;
    let first = rest.chars().next()?;
    if !(first.is_ascii_alphabetic() || first == '_') {
        return None;
    }
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

/// Measures a source text: braces matched outside strings, chars and
/// comments, unit tests left out.
fn shape(text: &str) -> Shape {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut shape = Shape {
        lines: lines.len(),
        functions: Vec::new(),
    };
    let mut lexer = Lexer::default();
    // Open functions: name, first line, depth at the `fn`, body opened.
    let mut open: Vec<(String, usize, i64, bool)> = Vec::new();
    let mut depth: i64 = 0;
    for (n, raw) in lines.iter().enumerate() {
        let no = n + 1;
        if raw.contains("#[cfg(test)]") && depth == 0 {
            shape.lines = no - 1;
            break;
        }
        let name = (lexer.block == 0 && lexer.string.is_none())
            .then(|| fn_name(raw))
            .flatten();
        let code = strip(raw, &mut lexer);
        if let Some(name) = name {
            open.push((name.to_owned(), no, depth, false));
        }
        for c in code.chars() {
            match c {
                '{' => {
                    depth += 1;
                    if let Some(f) = open.last_mut().filter(|f| !f.3 && depth == f.2 + 1) {
                        f.3 = true;
                    }
                }
                '}' => {
                    depth -= 1;
                    if open.last().is_some_and(|f| f.3 && depth == f.2)
                        && let Some((name, start, _, _)) = open.pop()
                    {
                        shape.functions.push((start, name, no - start + 1));
                    }
                }
                ';' if open.last().is_some_and(|f| !f.3 && depth == f.2) => {
                    // A declaration without a body.
                    open.pop();
                }
                _ => {}
            }
        }
    }
    shape
}

/// Files over `max_file` lines and functions over `max_fn` in the sources
/// of `krates`, one line each.
fn too_long(krates: &[&str], max_file: usize, max_fn: usize) -> Vec<String> {
    let mut found = Vec::new();
    for krate in krates {
        for file in sources(krate) {
            let text = fs::read_to_string(&file).unwrap_or_default();
            let shape = shape(&text);
            if shape.lines > max_file {
                found.push(format!("{}: {} lines", file.display(), shape.lines));
            }
            for (at, name, len) in shape.functions {
                if len > max_fn {
                    found.push(format!("{}:{at}: {name}: {len} lines", file.display()));
                }
            }
        }
    }
    found
}

#[test]
fn functions_and_files_stay_small() {
    let found = too_long(&["wikitext", "htmlio", "cli"], 1000, 150);
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
    let found = shape(&text).functions;
    assert_eq!(
        found,
        vec![(1, "long".to_owned(), 162), (164, "short".to_owned(), 2)]
    );
}

#[test]
fn the_length_check_skips_literals_and_comments() {
    let text = r##"//! A module.
pub(crate) async fn one_line() -> u8 { 1 }
trait T {
    fn declared(&self);
}
unsafe fn braces_in_literals() {
    let s = "{ \" {";
    let r = r#"{ "# ;
    let c = ['{', '\'', '\u{7b}', '\x7b'];
    // { in a comment
    /* { in a block */
}
fn after<'a>(x: &'a str) -> &'a str {
    x
}
#[cfg(test)]
mod tests {
    fn not_counted() {}
}
"##;
    let shape = shape(text);
    assert_eq!(shape.lines, 15);
    assert_eq!(
        shape.functions,
        vec![
            (2, "one_line".to_owned(), 1),
            (6, "braces_in_literals".to_owned(), 7),
            (13, "after".to_owned(), 3),
        ]
    );
    // Without unit tests, the text is split at each line feed, so a final
    // one counts as one more (empty) line.
    assert_eq!(self::shape("fn a() {\n}\n").lines, 3);
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

/// The top-level modules of a crate's `src/`: every `.rs` file there but
/// `lib.rs` and `main.rs`, and every folder.
fn top_modules(src: &Path) -> BTreeSet<String> {
    let Ok(entries) = fs::read_dir(src) else {
        return BTreeSet::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.path().is_dir() {
                Some(name)
            } else {
                let stem = name.strip_suffix(".rs")?;
                (stem != "lib" && stem != "main" && stem != "mod").then(|| stem.to_owned())
            }
        })
        .collect()
}

/// The lowercase identifier at the start of `text` (`[a-z_][a-z0-9_]*`).
fn leading_ident(text: &str) -> Option<&str> {
    let end = text
        .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
        .unwrap_or(text.len());
    let ident = &text[..end];
    ident
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        .then_some(ident)
}

/// Whether `text[at..]` starts a word: `at` is 0 or follows a character
/// that cannot be part of an identifier.
fn word_starts(text: &str, at: usize) -> bool {
    text[..at]
        .chars()
        .next_back()
        .is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
}

/// The names a source file reaches at the crate root: the first segment of
/// every `crate::name` path, and every name at the top level of a
/// `use crate::{...}` group (in `crate::{a::{X, y}, b}`, `a` and `b`).
/// When the file's parent module is the crate root (`at_root`: `src/a.rs`,
/// `src/a/mod.rs`), `super::` reads as `crate::`. The unit-test module
/// (from `#[cfg(test)] mod tests` on) and comments are left out: a doc link
/// is not a dependency.
fn crate_names(text: &str, at_root: bool) -> BTreeSet<String> {
    let roots: &[&str] = if at_root {
        &["crate::", "super::"]
    } else {
        &["crate::"]
    };
    names_after(text, roots)
}

/// The names a source file reaches after any of `roots` (path prefixes
/// such as `crate::` or `crate::canon::`): the first segment of each path,
/// and every name at the top level of a group right after a root. The
/// unit-test module and comments are left out, as in [`crate_names`].
fn names_after(text: &str, roots: &[&str]) -> BTreeSet<String> {
    let code = match test_module_start(text) {
        Some(at) => &text[..at],
        None => text,
    };
    let code: String = code
        .split('\n')
        .map(|line| line.find("//").map_or(line, |at| &line[..at]))
        .collect::<Vec<_>>()
        .join("\n");
    let mut names = BTreeSet::new();
    for root in roots {
        for (at, _) in code.match_indices(root) {
            if !word_starts(&code, at) {
                continue;
            }
            let rest = &code[at + root.len()..];
            match rest.strip_prefix('{') {
                Some(group) => names.extend(group_names(group).map(str::to_owned)),
                None => names.extend(leading_ident(rest).map(str::to_owned)),
            }
        }
    }
    names
}

/// The names at the top level of a `{...}` group, `group` starting after
/// its `{`: the name that starts each item, items being split at the commas
/// outside nested groups. None when the group does not close.
fn group_names(group: &str) -> impl Iterator<Item = &str> {
    let mut starts = vec![0];
    let mut depth = 0usize;
    let mut closed = false;
    for (at, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                closed = true;
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => starts.push(at + 1),
            _ => {}
        }
    }
    if !closed {
        starts.clear();
    }
    starts
        .into_iter()
        .filter_map(|at| leading_ident(group[at..].trim_start()))
}

/// Where the unit-test module starts: `#[cfg(test)]`, white space, `mod`,
/// white space, `tests`.
fn test_module_start(text: &str) -> Option<usize> {
    text.match_indices("#[cfg(test)]")
        .map(|(at, _)| at)
        .find(|&at| {
            let rest = text[at + "#[cfg(test)]".len()..].trim_start();
            rest.strip_prefix("mod").is_some_and(|after| {
                let name = after.trim_start();
                name.len() < after.len() && name.starts_with("tests")
            })
        })
}

/// A module graph: for each top-level module, the other top-level modules
/// its files name, each with the first file that does.
type Edges = BTreeMap<String, BTreeMap<String, String>>;

/// The module graph of a crate's `modules` from its `files`: paths
/// relative to `src/` (with `/`), each with its text.
fn module_edges(modules: &BTreeSet<String>, files: &[(String, String)]) -> Edges {
    folder_edges(modules, files, "")
}

/// The graph of the members (`modules`) of one module folder, `module`
/// (`canon`, `ingest::build`; empty for a crate's top level), from its
/// `files` (paths relative to the folder): a member names another through
/// `crate::module::other`, or, from a file whose parent module is the
/// folder (`a.rs`, `b/mod.rs`), through `super::other`.
fn folder_edges(modules: &BTreeSet<String>, files: &[(String, String)], module: &str) -> Edges {
    let prefix = if module.is_empty() {
        "crate::".to_owned()
    } else {
        format!("crate::{module}::")
    };
    let mut edges: Edges = modules
        .iter()
        .map(|m| (m.clone(), BTreeMap::new()))
        .collect();
    for (path, text) in files {
        let first = path.split('/').next().unwrap_or(path);
        let top = first.strip_suffix(".rs").unwrap_or(first);
        let Some(out) = edges.get_mut(top) else {
            continue;
        };
        // `super::` names the folder in `a.rs` and in `a/mod.rs`.
        let at_root = !path.contains('/') || *path == format!("{top}/mod.rs");
        let roots: Vec<&str> = if at_root {
            vec![prefix.as_str(), "super::"]
        } else {
            vec![prefix.as_str()]
        };
        for name in names_after(text, &roots) {
            if name != top && modules.contains(&name) {
                out.entry(name).or_insert_with(|| path.clone());
            }
        }
    }
    edges
}

/// The modules each module reaches, itself included.
fn reach(edges: &Edges, from: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::from([from.to_owned()]);
    let mut todo = vec![from.to_owned()];
    while let Some(m) = todo.pop() {
        for next in edges.get(&m).into_iter().flat_map(BTreeMap::keys) {
            if seen.insert(next.clone()) {
                todo.push(next.clone());
            }
        }
    }
    seen
}

/// The cycles of a module graph: its strongly connected components of more
/// than one module, each sorted, in the order of their first module.
fn cycles(edges: &Edges) -> Vec<Vec<String>> {
    let reached: BTreeMap<&String, BTreeSet<String>> =
        edges.keys().map(|m| (m, reach(edges, m))).collect();
    let mut found: Vec<Vec<String>> = Vec::new();
    for (m, from_m) in &reached {
        if found.iter().any(|c| c.contains(*m)) {
            continue;
        }
        let component: Vec<String> = from_m
            .iter()
            .filter(|other| reached.get(other).is_some_and(|r| r.contains(*m)))
            .cloned()
            .collect();
        if component.len() > 1 {
            found.push(component);
        }
    }
    found
}

/// Each cycle as `a <-> b <-> c`, followed by its edges and the file that
/// makes each.
fn describe_cycles(edges: &Edges) -> Vec<String> {
    cycles(edges)
        .iter()
        .map(|cycle| {
            let mut text = format!("cycle: {}", cycle.join(" <-> "));
            for from in cycle {
                for (to, file) in edges.get(from).into_iter().flatten() {
                    if cycle.contains(to) {
                        text.push_str(&format!("\n  {from} -> {to} ({file})"));
                    }
                }
            }
            text
        })
        .collect()
}

/// The module graph of a crate's sources on disk.
fn crate_module_edges(src: &Path) -> Edges {
    module_edges(&top_modules(src), &read_sources(src))
}

/// The Rust files below `dir`, each as its path relative to `dir` (with
/// `/`) and its text.
fn read_sources(dir: &Path) -> Vec<(String, String)> {
    rust_files(dir)
        .into_iter()
        .filter_map(|file| {
            let rel = file.strip_prefix(dir).ok()?;
            let rel = rel.components().map(|c| c.as_os_str().to_string_lossy());
            let rel = rel.collect::<Vec<_>>().join("/");
            let text = fs::read(&file).ok()?;
            Some((rel, String::from_utf8_lossy(&text).into_owned()))
        })
        .collect()
}

fn modules(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| (*n).to_owned()).collect()
}

fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(p, t)| ((*p).to_owned(), (*t).to_owned()))
        .collect()
}

#[test]
fn the_cycle_check_finds_a_planted_cycle() {
    let mods = modules(&["alpha", "beta", "gamma", "delta"]);
    let planted = files(&[
        ("alpha.rs", "use crate::beta::Thing;\n"),
        (
            "beta/mod.rs",
            "mod inner;\npub(crate) fn f() { crate::gamma::g() }\n",
        ),
        (
            "beta/inner.rs",
            "use crate::{\n    delta,\n    alpha::A,\n};\n",
        ),
        ("gamma.rs", "//! No names here.\n"),
        ("delta.rs", "pub(crate) struct D;\n"),
    ]);
    let edges = module_edges(&mods, &planted);
    assert_eq!(cycles(&edges), vec![vec!["alpha", "beta"]]);
    assert_eq!(
        describe_cycles(&edges),
        vec!["cycle: alpha <-> beta\n  alpha -> beta (alpha.rs)\n  beta -> alpha (beta/inner.rs)"]
    );
}

#[test]
fn the_cycle_check_passes_a_graph_without_one() {
    let mods = modules(&["alpha", "beta", "gamma"]);
    let clean = files(&[
        ("alpha.rs", "use crate::{beta, gamma::G};\n"),
        ("beta.rs", "fn f() { crate::gamma::g() }\n"),
        // Comments, doc links, other crates' paths and unit tests are no
        // dependencies.
        (
            "gamma.rs",
            "//! See [`crate::alpha`].\nfn g() {} // crate::beta\nuse my_crate::alpha;\n\
             #[cfg(test)]\nmod tests {\n    use crate::alpha;\n}\n",
        ),
    ]);
    let edges = module_edges(&mods, &clean);
    assert!(cycles(&edges).is_empty(), "{:?}", describe_cycles(&edges));
    assert_eq!(edges["alpha"].len(), 2);
    assert!(edges["gamma"].is_empty());
}

#[test]
fn the_cycle_check_reads_use_groups_and_paths() {
    let names = crate_names(
        "use crate::{a, b::{c, d}, E};\nuse  crate::{\n  f,\n};\nlet x = crate::g::h;\n$crate::i!();\n",
        false,
    );
    // Every name at the top level of a group counts, not the names in a
    // nested group (`c` and `d` are in `b`). Names in capitals are items,
    // not modules.
    assert_eq!(names, modules(&["a", "b", "f", "g", "i"]));
    // A nested group does not end the group (`b` and `h` count after one),
    // and nothing inside one counts, however deep.
    let nested = crate_names(
        "use crate::{a::{X}, b};\nuse crate::{c::{d::{e, F}, g}, h as k};\n",
        false,
    );
    assert_eq!(nested, modules(&["a", "b", "c", "h"]));
    // A group that never closes names nothing.
    assert!(crate_names("use crate::{a, b", false).is_empty());
}

#[test]
fn the_cycle_check_reads_super_at_the_crate_root() {
    let text = "use super::{a, b::{C, d}};\nfn f() { super::e::f() }\nuse self::super_g::H;\n";
    // In `src/x.rs` or `src/x/mod.rs`, `super` is the crate root.
    assert_eq!(crate_names(text, true), modules(&["a", "b", "e"]));
    // Deeper, `super` is inside the file's own top-level module.
    assert!(crate_names(text, false).is_empty());
    let mods = modules(&["alpha", "beta", "gamma", "delta"]);
    let edges = module_edges(
        &mods,
        &files(&[
            ("alpha.rs", "use super::beta;\n"),
            ("beta/mod.rs", "mod inner;\nuse super::{gamma::G, alpha};\n"),
            ("beta/inner.rs", "use super::delta::D;\n"),
            ("gamma.rs", "pub(crate) struct G;\n"),
            ("delta.rs", "pub(crate) struct D;\n"),
        ]),
    );
    let names = |m: &str| edges[m].keys().cloned().collect::<Vec<_>>();
    assert_eq!(names("alpha"), ["beta"]);
    assert_eq!(names("beta"), ["alpha", "gamma"]);
    assert_eq!(cycles(&edges), vec![vec!["alpha", "beta"]]);
}

#[test]
fn the_cycle_check_reads_the_real_module_graph() {
    let src = src("wikitext");
    let modules = top_modules(&src);
    assert!(
        modules.contains("canon") && modules.contains("model"),
        "{modules:?}"
    );
    assert!(!modules.contains("lib"));
    let edges = crate_module_edges(&src);
    // Every module of the text grammar uses the document model.
    assert!(
        edges.values().filter(|to| to.contains_key("model")).count() > 3,
        "{edges:?}"
    );
}

/// The edges of a module folder that the design holds, each with its
/// reason: (crate, folder, from, to, why). Nothing else may close a circle.
const ALLOWED_EDGES: &[(&str, &str, &str, &str, &str)] = &[
    (
        "wikitext",
        "canon",
        "tables",
        "blocks",
        "a table's cells hold blocks: repairing a cell repairs its blocks",
    ),
    (
        "wikitext",
        "render",
        "tables",
        "blocks",
        "a table's cells hold blocks: writing a cell writes its blocks",
    ),
    (
        "wikitext",
        "render",
        "defs",
        "blocks",
        "a definition holds blocks: writing it writes its blocks",
    ),
];

/// Every module folder of a crate's `src/`, as a module path (`canon`,
/// `ingest::build`), with its directory: each folder below `src/` that
/// holds Rust files (`src/bin` holds binaries, not modules).
fn module_folders(src: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let mut todo = vec![src.to_path_buf()];
    while let Some(dir) = todo.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if !path.is_dir() || path == src.join("bin") {
                continue;
            }
            todo.push(path.clone());
            let has_rust = fs::read_dir(&path)
                .into_iter()
                .flatten()
                .flatten()
                .any(|e| e.path().extension().is_some_and(|x| x == "rs"));
            let Ok(rel) = path.strip_prefix(src) else {
                continue;
            };
            if has_rust {
                let names: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.push((names.join("::"), path.clone()));
            }
        }
    }
    out.sort();
    out
}

/// The graph of one folder's members as its files on disk make it, less
/// the edges `allowed` (`(from, to)`).
fn folder_graph(dir: &Path, module: &str, allowed: &[(&str, &str)]) -> Edges {
    let mut edges = folder_edges(&top_modules(dir), &read_sources(dir), module);
    for (from, to) in allowed {
        if let Some(out) = edges.get_mut(*from) {
            out.remove(*to);
        }
    }
    edges
}

/// The source folders of every crate of the workspace: `crates/*/src` and
/// `xtask/src`.
fn crate_sources() -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = fs::read_dir(root().join("crates"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                e.path().join("src"),
            )
        })
        .filter(|(_, src)| src.is_dir())
        .collect();
    out.push(("xtask".to_owned(), root().join("xtask/src")));
    out.sort();
    out
}

/// The cycles of every crate's top level and of every module folder, each
/// described with the file that makes each edge.
fn workspace_cycles() -> Vec<String> {
    let mut found = Vec::new();
    for (krate, src) in crate_sources() {
        for cycle in describe_cycles(&crate_module_edges(&src)) {
            found.push(format!("{krate}: {cycle}"));
        }
        for (module, dir) in module_folders(&src) {
            let allowed: Vec<(&str, &str)> = ALLOWED_EDGES
                .iter()
                .filter(|(k, m, ..)| *k == krate && *m == module)
                .map(|(_, _, from, to, _)| (*from, *to))
                .collect();
            for cycle in describe_cycles(&folder_graph(&dir, &module, &allowed)) {
                found.push(format!("{krate} {module}/: {cycle}"));
            }
        }
    }
    found
}

#[test]
fn no_crate_and_no_module_folder_has_a_cycle() {
    let found = workspace_cycles();
    assert!(
        found.is_empty(),
        "modules that name each other in a circle (move the shared item to a leaf, \
         or list the edge in ALLOWED_EDGES with its reason):\n{}",
        found.join("\n")
    );
    // The walk reached the folders the design names.
    let folders: Vec<String> = module_folders(&src("wikitext"))
        .into_iter()
        .map(|(m, _)| m)
        .collect();
    assert!(
        folders.iter().any(|m| m == "canon") && folders.iter().any(|m| m == "render"),
        "{folders:?}"
    );
    assert!(
        module_folders(&src("htmlio"))
            .iter()
            .any(|(m, _)| m == "ingest::build")
    );
}

#[test]
fn the_cycle_check_finds_a_planted_file_cycle() {
    // Two files of one folder, each naming the other: through `super::`
    // from one, through the folder's full path from the other.
    let mods = modules(&["blocks", "merge", "reads"]);
    let planted = files(&[
        ("blocks.rs", "use super::merge::Merge;\n"),
        ("merge.rs", "use crate::canon::{reads, blocks::X};\n"),
        ("reads.rs", "fn f() { super::merge::g() }\n"),
    ]);
    let edges = folder_edges(&mods, &planted, "canon");
    assert_eq!(cycles(&edges), vec![vec!["blocks", "merge", "reads"]]);
    // A file deeper down names its own folder with `super::`, not this one.
    let deeper = files(&[
        ("blocks.rs", "use super::merge::Merge;\n"),
        ("merge/inner.rs", "use super::blocks::X;\n"),
    ]);
    let edges = folder_edges(&modules(&["blocks", "merge"]), &deeper, "canon");
    assert!(cycles(&edges).is_empty(), "{:?}", describe_cycles(&edges));
    // An allowed edge breaks the circle it would close, on disk too.
    let dir = tempdir_with(&[
        ("tables.rs", "use super::blocks::render_blocks;\n"),
        ("blocks.rs", "use super::tables::render_table;\n"),
    ]);
    assert_eq!(cycles(&folder_graph(dir.path(), "render", &[])).len(), 1);
    assert!(cycles(&folder_graph(dir.path(), "render", &[("tables", "blocks")])).is_empty());
}

/// A fresh temporary directory holding `files` (removed when dropped).
// A test helper: failing to make the directory fails the test.
#[allow(clippy::expect_used)]
fn tempdir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (name, text) in files {
        let path = dir.path().join(name);
        if let Some(parent) = path.parent() {
            assert!(fs::create_dir_all(parent).is_ok(), "{}", parent.display());
        }
        assert!(fs::write(&path, text).is_ok(), "{}", path.display());
    }
    dir
}

/// Every file and folder of the repository, relative to its root with `/`
/// (a folder with a final `/`), build output and dependencies left out.
fn repository_paths() -> Vec<String> {
    const SKIP: &[&str] = &["target", ".git", "node_modules"];
    let root = root();
    let mut out = Vec::new();
    let mut todo = vec![root.clone()];
    while let Some(dir) = todo.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let Ok(rel) = path.strip_prefix(&root) else {
                continue;
            };
            let rel = rel.components().map(|c| c.as_os_str().to_string_lossy());
            let rel = rel.collect::<Vec<_>>().join("/");
            if path.is_dir() {
                if !SKIP.contains(&name.as_str()) {
                    out.push(format!("{rel}/"));
                    todo.push(path);
                }
            } else {
                out.push(rel);
            }
        }
    }
    out.sort();
    out
}

/// The file and folder names a Markdown text names in code spans: each
/// span without spaces or colons that ends in `/` or in a file extension,
/// or starts with a top-level folder of the repository (`crates/...`).
/// Placeholders (`<crate>`) and paths outside it (`../`) are left out.
fn named_paths(markdown: &str) -> Vec<String> {
    const EXTENSIONS: &[&str] = &[
        ".rs", ".md", ".toml", ".py", ".pyi", ".js", ".css", ".html", ".json", ".png", ".snap",
        ".txt", ".lock",
    ];
    const TOPS: &[&str] = &[
        "crates/",
        "docs/",
        "xtask/",
        "fuzz/",
        "testdata/",
        "examples/",
    ];
    markdown
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| {
            !span.is_empty()
                && !span.contains([' ', ':', '<', '*', '{'])
                && !span.starts_with("../")
                && !span.starts_with('.')
                && (span.ends_with('/')
                    || EXTENSIONS.iter().any(|e| span.ends_with(e))
                    || TOPS.iter().any(|t| span.starts_with(t)))
        })
        .map(str::to_owned)
        .collect()
}

/// Whether `name` is a path of the repository, or the end of one at a
/// `/` (`canon/blocks.rs` names `crates/wikitext/src/canon/blocks.rs`).
fn names_a_path(name: &str, paths: &[String]) -> bool {
    let name = name.trim_end_matches('/');
    paths.iter().any(|p| {
        let p = p.trim_end_matches('/');
        p == name || p.ends_with(&format!("/{name}"))
    })
}

#[test]
fn architecture_names_only_files_that_exist() {
    let text = fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap_or_default();
    let named = named_paths(&text);
    assert!(named.len() > 20, "too few paths found: {named:?}");
    let paths = repository_paths();
    let missing: Vec<&String> = named.iter().filter(|n| !names_a_path(n, &paths)).collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names files that are not there: {missing:?}"
    );
}

#[test]
fn the_path_check_finds_a_file_that_is_gone() {
    let paths = vec![
        "crates/".to_owned(),
        "crates/wikitext/".to_owned(),
        "crates/wikitext/src/canon/".to_owned(),
        "crates/wikitext/src/canon/blocks.rs".to_owned(),
    ];
    let named = named_paths(
        "`canon/blocks.rs` and `canon/` and `crates/wikitext` stay; `canon/gone.rs` went; \
         `wikitext::canon` and `a b.rs` are no paths; `<crate>/x.rs` is a placeholder.",
    );
    assert_eq!(
        named,
        [
            "canon/blocks.rs",
            "canon/",
            "crates/wikitext",
            "canon/gone.rs"
        ]
    );
    let missing: Vec<&String> = named.iter().filter(|n| !names_a_path(n, &paths)).collect();
    assert_eq!(missing, ["canon/gone.rs"]);
    // A name must end at a `/`: `ocks.rs` is not `blocks.rs`.
    assert!(!names_a_path("ocks.rs", &paths));
}

/// Where `text` points at an issue number: the word, in any case and
/// maybe plural, then a number, maybe after `#`; as (line, the line).
fn issue_numbers(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let lower = line.to_ascii_lowercase();
        let hit = lower.match_indices("issue").any(|(at, _)| {
            let after = &lower[at + "issue".len()..];
            let rest = after.strip_prefix('s').unwrap_or(after);
            let rest = rest.trim_start_matches([' ', '#']);
            word_starts(&lower, at) && rest.starts_with(|c: char| c.is_ascii_digit())
        });
        if hit {
            found.push((n + 1, line.trim().to_owned()));
        }
    }
    found
}

#[test]
fn no_comment_or_doc_points_at_an_issue_number() {
    // Sources, docs and scripts; test data is what pages say, not ours.
    const KINDS: &[&str] = &[
        ".rs", ".md", ".toml", ".py", ".pyi", ".js", ".css", ".html", ".yml",
    ];
    let mut found = Vec::new();
    for path in repository_paths() {
        if path.starts_with("testdata/") || !KINDS.iter().any(|k| path.ends_with(k)) {
            continue;
        }
        let Ok(text) = fs::read_to_string(root().join(&path)) else {
            continue;
        };
        for (line, what) in issue_numbers(&text) {
            found.push(format!("{path}:{line}: {what}"));
        }
    }
    assert!(
        found.is_empty(),
        "the repository has no issue tracker to point at; say what the issue said instead:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_issue_check_finds_a_planted_issue_number() {
    let planted = ["// fixed for ", "iss", "ue 31, see also Iss", "ues #7\n"].concat();
    let text = format!("// no number: an issue of taste\n{planted}// tissue 3 is no issue\n");
    let found = issue_numbers(&text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, 2);
}
