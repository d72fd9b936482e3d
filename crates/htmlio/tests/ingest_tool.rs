//! Manual tools for working on ingestion, ignored by default (run them with
//! `cargo test -p pagetext-htmlio --test ingest_tool -- --ignored --nocapture NAME`):
//!
//! - `show`: the text, diagnostics and summary for `INGEST_FILE`;
//! - `parse_tree`: the tree `wikitext::parse` makes of `PARSE_TEXT`;
//! - `fixpoint_diff`: where text -> XHTML -> text differs for `INGEST_FILE`;
//! - `tally_errors`: the writer's complaints over every page under
//!   `INGEST_DIR`, and the pages that are not fixpoints;
//! - `xhtml_out`: the XHTML of `INGEST_FILE`'s text, into `INGEST_OUT`.

#[test]
#[ignore = "manual tool"]
fn show() {
    let Ok(path) = std::env::var("INGEST_FILE") else {
        return;
    };
    let bytes = std::fs::read(path).unwrap();
    let out = htmlio::ingest::ingest(&bytes, &htmlio::ingest::Options::default());
    let written = htmlio::ingest::write(out.document.clone());
    println!("----- text\n{}-----", written.text);
    for d in &out.diagnostics {
        println!("{d}");
    }
    for d in &written.diagnostics {
        println!("write: {d}");
    }
    println!("encoding: {}", out.encoding);
    print!("{}", out.summary);
}

/// Prints the tree `wikitext::parse` makes of the text in `PARSE_TEXT`.
#[test]
#[ignore = "manual tool"]
fn parse_tree() {
    let Ok(text) = std::env::var("PARSE_TEXT") else {
        return;
    };
    let parsed = wikitext::parse(&text);
    println!("{}", wikitext::dump::tree(&parsed.document));
    let written = wikitext::write(&parsed.document);
    println!("----- written\n{}-----", written.text);
}

/// For the file in `INGEST_FILE`: the first lines where text -> XHTML ->
/// text differs from the first text.
#[test]
#[ignore = "manual tool"]
fn fixpoint_diff() {
    let Ok(path) = std::env::var("INGEST_FILE") else {
        return;
    };
    let bytes = std::fs::read(path).unwrap();
    let opts = htmlio::ingest::Options::default();
    let first = htmlio::ingest::ingest(&bytes, &opts);
    let t1 = htmlio::ingest::write(first.document.clone()).text;
    let d2 = wikitext::parse(&t1).document;
    let x2 = htmlio::emit::xhtml(&d2);
    let d3 = htmlio::ingest::ingest_str(&x2.text, &opts);
    let t2 = htmlio::ingest::write(d3.document.clone()).text;
    let a: Vec<&str> = t1.lines().collect();
    let b: Vec<&str> = t2.lines().collect();
    let mut shown = 0;
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (
            a.get(i).copied().unwrap_or("<none>"),
            b.get(i).copied().unwrap_or("<none>"),
        );
        if x != y {
            println!("line {}:\n  t1: {x:?}\n  t2: {y:?}", i + 1);
            shown += 1;
            if shown > 6 {
                break;
            }
        }
    }
    if shown > 0 {
        let d2_again = wikitext::dump::tree(&d2);
        let d3_tree = wikitext::dump::tree(&d3.document);
        let da: Vec<&str> = d2_again.lines().collect();
        let db: Vec<&str> = d3_tree.lines().collect();
        for i in 0..da.len().max(db.len()) {
            let (x, y) = (
                da.get(i).copied().unwrap_or(""),
                db.get(i).copied().unwrap_or(""),
            );
            if x.split(" @").next() != y.split(" @").next() {
                println!("tree line {}:\n  d2: {x}\n  d3: {y}", i + 1);
                for l in da.iter().skip(i.saturating_sub(4)).take(8) {
                    println!("    d2| {l}");
                }
                for l in db.iter().skip(i.saturating_sub(4)).take(8) {
                    println!("    d3| {l}");
                }
                break;
            }
        }
    }
}

/// Tallies the writer's error messages (their first words) over every page
/// under `INGEST_DIR`, with one example file each.
#[test]
#[ignore = "manual tool"]
fn tally_errors() {
    let Ok(dir) = std::env::var("INGEST_DIR") else {
        return;
    };
    let mut stack = vec![std::path::PathBuf::from(dir)];
    let mut tally: std::collections::BTreeMap<String, (usize, String)> = Default::default();
    let mut nofix = 0;
    let mut nofix_a = 0;
    let mut nofix_b = 0;
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let ft = e.file_type().unwrap();
            if ft.is_dir() {
                stack.push(p);
                continue;
            }
            let name = p.to_string_lossy().to_string();
            if !ft.is_file() || !(name.ends_with(".html") || name.ends_with(".htm")) {
                continue;
            }
            let bytes = std::fs::read(&p).unwrap();
            let opts = htmlio::ingest::Options::default();
            let first = htmlio::ingest::ingest(&bytes, &opts);
            let w = htmlio::ingest::write(first.document.clone());
            for d in w
                .diagnostics
                .iter()
                .filter(|d| d.severity <= wikitext::Severity::Warning)
            {
                let key: String = d
                    .message
                    .split(['"', '`'])
                    .step_by(2)
                    .collect::<Vec<_>>()
                    .join("…")
                    .chars()
                    .take(70)
                    .collect();
                let key = format!("{}[{}] {key}", d.severity, d.code);
                let entry = tally
                    .entry(key)
                    .or_insert((0, format!("{name}:{}", d.span.line)));
                entry.0 += 1;
            }
            let d2 = wikitext::parse(&w.text).document;
            let x2 = htmlio::emit::xhtml(&d2);
            let d3 = htmlio::ingest::ingest_str(&x2.text, &opts);
            if htmlio::ingest::write(d3.document.clone()).text != w.text {
                nofix += 1;
                if d3.document == d2 {
                    nofix_b += 1;
                    if nofix_b <= 100 {
                        let t2 = htmlio::ingest::write(d3.document.clone()).text;
                        let la: Vec<&str> = w.text.lines().collect();
                        let lb: Vec<&str> = t2.lines().collect();
                        for i in 0..la.len().max(lb.len()) {
                            let (x, y) = (
                                la.get(i).copied().unwrap_or(""),
                                lb.get(i).copied().unwrap_or(""),
                            );
                            if x != y {
                                println!("B {name} line {}", i + 1);
                                for l in la.iter().skip(i.saturating_sub(1)).take(2) {
                                    println!("    t1| {l}");
                                }
                                for l in lb.iter().skip(i.saturating_sub(1)).take(2) {
                                    println!("    t2| {l}");
                                }
                                break;
                            }
                        }
                    }
                }
                if d3.document != d2 {
                    nofix_a += 1;
                    if nofix_a <= 100 {
                        let ta = wikitext::dump::tree(&d2);
                        let tb = wikitext::dump::tree(&d3.document);
                        let la: Vec<&str> = ta.lines().collect();
                        let lb: Vec<&str> = tb.lines().collect();
                        for i in 0..la.len().max(lb.len()) {
                            let (x, y) = (
                                la.get(i).copied().unwrap_or(""),
                                lb.get(i).copied().unwrap_or(""),
                            );
                            if x.split(" @").next() != y.split(" @").next() {
                                println!("A {name} tree line {i}");
                                for l in la.iter().skip(i.saturating_sub(5)).take(8) {
                                    println!("    d2| {l}");
                                }
                                for l in lb.iter().skip(i.saturating_sub(5)).take(8) {
                                    println!("    d3| {l}");
                                }
                                break;
                            }
                        }
                    }
                }
            }
        }
    }
    let mut rows: Vec<_> = tally.into_iter().collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.1.0));
    for (k, (n, ex)) in rows.iter().take(40) {
        println!("{n:6} {k}\n         e.g. {ex}");
    }
    println!("not fixpoints: {nofix}, of which ingest(emit(d2)) != d2: {nofix_a}");
}

/// Writes the XHTML of text -> XHTML for `INGEST_FILE` to `INGEST_OUT`.
#[test]
#[ignore = "manual tool"]
fn xhtml_out() {
    let (Ok(path), Ok(out)) = (std::env::var("INGEST_FILE"), std::env::var("INGEST_OUT")) else {
        return;
    };
    let bytes = std::fs::read(path).unwrap();
    let first = htmlio::ingest::ingest(&bytes, &htmlio::ingest::Options::default());
    let t1 = htmlio::ingest::write(first.document.clone()).text;
    let d2 = wikitext::parse(&t1).document;
    let x = htmlio::emit::xhtml(&d2);
    std::fs::write(out, x.bytes).unwrap();
    for d in &x.diagnostics {
        println!("emit: {d}");
    }
}
