//! `pagetext to-text --warc` on WARC files the tests build:
//! plain and gzip (one member per record), a page whose charset is only in
//! the HTTP header, records that are not HTML responses, a truncated file,
//! a corrupt member, a 20 MB record, and order kept under `-j`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// One WARC record of `kind` for `uri` holding `block`.
fn record(kind: &str, uri: &str, block: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {uri}\r\nWARC-Date: 2024-05-06T07:08:09Z\r\n\
         WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000000>\r\n\
         Content-Type: application/http; msgtype={kind}\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

/// An HTTP response record with `content_type` and `body`.
fn response(uri: &str, content_type: &str, body: &[u8]) -> Vec<u8> {
    let mut block = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    block.extend_from_slice(body);
    record("response", uri, &block)
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pagetext"))
        .args(["to-text", "--warc"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn json_lines(out: &Output) -> Vec<Value> {
    parse_json_lines(&out.stdout)
}

/// Each line of `bytes` parsed as JSON.
fn parse_json_lines(bytes: &[u8]) -> Vec<Value> {
    std::str::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `pagetext to-text --warc [extra] -o OUT WARC`.
fn crawl_to_file(extra: &[&str], out: &std::path::Path, warc: &std::path::Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pagetext"))
        .args(["to-text", "--warc"])
        .args(extra)
        .arg("-o")
        .arg(out)
        .arg(warc)
        .output()
        .unwrap()
}

/// The project's own test pages and legacy-charset pages, as responses.
fn crawl() -> (Vec<Vec<u8>>, usize) {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/cli");
    let mut records = vec![
        record("warcinfo", "", b"software: test\r\n"),
        record(
            "request",
            "http://example.com/",
            b"GET / HTTP/1.1\r\nHost: example.com\r\n\r\n",
        ),
    ];
    let mut pages = 0;
    let mut names: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    names.sort();
    for path in names {
        let body = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        records.push(response(
            &format!("http://example.com/{name}"),
            "text/html",
            &body,
        ));
        pages += 1;
    }
    // The charset is only in the HTTP header.
    records.push(response(
        "http://example.ru/news/page.html",
        "text/html; charset=koi8-r",
        b"<html lang=\"ru\"><title>\xf0\xd2\xc9\xd7\xc5\xd4</title><p>\xf0\xd2\xc9\xd7\xc5\xd4, <a href=\"../other.html\">\xcd\xc9\xd2</a>!</p></html>",
    ));
    records.push(response(
        "http://example.jp/",
        "text/html",
        b"<meta charset=\"shift_jis\"><title>\x93\xfa\x96\x7b</title><p>\x93\xfa\x96\x7b\x8c\xea</p>",
    ));
    pages += 2;
    records.push(response(
        "http://example.com/logo.png",
        "image/png",
        b"\x89PNG\r\n\x1a\n",
    ));
    // An HTTP/2 response, stored dechunked under its chunked header.
    records.push(record(
        "response",
        "https://example.org/h2",
        b"HTTP/2 200\r\ncontent-type: text/html\r\ntransfer-encoding: chunked\r\n\r\n<title>Two</title><p>Stored as it came.</p>",
    ));
    pages += 1;
    // A DNS lookup (Heritrix writes them as responses).
    let lookup = b"20240506070809\nexample.com.\t300\tIN\tA\t192.0.2.1\n";
    let mut dns = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: dns:example.com\r\n\
         Content-Type: text/dns\r\nContent-Length: {}\r\n\r\n",
        lookup.len()
    )
    .into_bytes();
    dns.extend_from_slice(lookup);
    dns.extend_from_slice(b"\r\n\r\n");
    records.push(dns);
    (records, pages)
}

#[test]
fn each_line_says_the_detected_language_next_to_the_declared_one() {
    let pages = [
        (
            "http://example.fr/",
            "<html lang=en><p>Le projet de loi a été largement approuvé par les députés, et le \
             texte sera désormais examiné par le Sénat, puis par le Conseil constitutionnel.",
        ),
        (
            "http://example.de/",
            "<p>Die Bundesregierung hat am Mittwoch beschlossen, dass die neuen Regeln für alle \
             Unternehmen ab dem nächsten Jahr gelten sollen.",
        ),
        ("http://example.com/numbers", "<p>12 345 678"),
    ];
    let warc: Vec<u8> = pages
        .iter()
        .flat_map(|(uri, body)| response(uri, "text/html; charset=utf-8", body.as_bytes()))
        .collect();
    let out = run(&[], &warc);
    assert!(out.status.success());
    let lines = json_lines(&out);
    let got: Vec<_> = lines
        .iter()
        .map(|l| {
            (
                l["lang"].as_str(),
                l["detected_lang"].as_str(),
                l["detected_lang_confidence"].as_f64().is_some(),
            )
        })
        .collect();
    // The declared language is kept as the page says it, even when wrong.
    assert_eq!(
        got,
        [
            (Some("en"), Some("fr"), true),
            (None, Some("de"), true),
            (None, None, false)
        ]
    );
    let confidence = lines[0]["detected_lang_confidence"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&confidence), "{confidence}");
}

#[test]
fn plain_and_gzip_warcs_give_one_line_per_html_response() {
    let (records, pages) = crawl();
    let plain: Vec<u8> = records.concat();
    let gzipped: Vec<u8> = records.iter().flat_map(|r| gzip(r)).collect();
    let a = run(&[], &plain);
    let b = run(&["-"], &gzipped);
    assert!(a.status.success() && b.status.success());
    assert_eq!(a.stdout, b.stdout, "plain and gzip agree");
    let lines = json_lines(&a);
    assert_eq!(lines.len(), pages);
    let stderr = String::from_utf8_lossy(&a.stderr);
    assert!(
        stderr.contains(&format!("{pages} pages as JSON lines, 4 records skipped (1 not HTML, 1 not HTTP, 1 request, 1 warcinfo), 0 unreadable")),
        "{stderr}"
    );
    for line in &lines {
        for field in [
            "url",
            "date",
            "encoding",
            "encoding_source",
            "title",
            "lang",
            "detected_lang",
            "detected_lang_confidence",
            "text",
            "warnings",
            "errors",
        ] {
            assert!(line.get(field).is_some(), "{field} in {line}");
        }
        assert_eq!(line["date"], "2024-05-06T07:08:09Z");
    }
    let ru = lines
        .iter()
        .find(|l| l["url"] == "http://example.ru/news/page.html")
        .unwrap();
    assert_eq!(
        (ru["encoding"].as_str(), ru["encoding_source"].as_str()),
        (Some("KOI8-R"), Some("transport"))
    );
    assert_eq!(
        (ru["title"].as_str(), ru["lang"].as_str()),
        (Some("Привет"), Some("ru"))
    );
    // The record's URL is the page's address: the relative link resolves.
    assert!(
        ru["text"]
            .as_str()
            .unwrap()
            .contains("Привет, [http://example.ru/other.html||мир]!"),
        "{}",
        ru["text"]
    );
    let h2 = lines
        .iter()
        .find(|l| l["url"] == "https://example.org/h2")
        .unwrap();
    assert_eq!(h2["text"], "#Title Two\n\nStored as it came.\n");
    let jp = lines
        .iter()
        .find(|l| l["url"] == "http://example.jp/")
        .unwrap();
    assert_eq!(
        (jp["encoding"].as_str(), jp["encoding_source"].as_str()),
        (Some("Shift_JIS"), Some("meta-confirmed"))
    );
    assert!(jp["text"].as_str().unwrap().contains("日本語"));
}

#[test]
fn bad_records_are_reported_with_their_offsets_and_the_run_goes_on() {
    let first = response("http://a.example/", "text/html", b"<p>first</p>");
    let second = response("http://b.example/", "text/html", b"<p>second</p>");
    let third = response(
        "http://c.example/",
        "text/html",
        b"<p>third, a longer page</p>",
    );
    // A corrupt gzip member between two good ones.
    let mut file = gzip(&first);
    let corrupt_at = file.len();
    let mut bad = gzip(&second);
    let middle = bad.len() / 2;
    bad[middle] ^= 0x55;
    bad[middle + 1] ^= 0x55;
    file.extend(bad);
    file.extend(gzip(&third));
    let out = run(&[], &file);
    assert!(out.status.success());
    let lines = json_lines(&out);
    let urls: Vec<&str> = lines.iter().map(|l| l["url"].as_str().unwrap()).collect();
    assert_eq!(urls, ["http://a.example/", "http://c.example/"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "record at offset {corrupt_at}: a corrupt gzip member"
        )),
        "{stderr}"
    );
    // A member is checked when its end is read: what it held before that
    // is decompressed garbage, reported at the member's offset too.
    assert!(
        stderr.contains("2 pages as JSON lines, 0 records skipped"),
        "{stderr}"
    );
    assert!(
        stderr
            .lines()
            .filter(|l| l.contains("record at offset"))
            .all(|l| l.contains(&format!("offset {corrupt_at}:"))),
        "{stderr}"
    );
    // A truncated plain file: the pages before the cut, then the report.
    let mut file = [first.clone(), second.clone()].concat();
    let cut_at = file.len();
    file.extend(&third);
    file.truncate(file.len() - 12);
    let out = run(&[], &file);
    assert!(out.status.success());
    assert_eq!(json_lines(&out).len(), 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("record at offset {cut_at}: a truncated record")),
        "{stderr}"
    );
    // A truncated gzip file.
    let mut file: Vec<u8> = [&first, &second].iter().flat_map(|r| gzip(r)).collect();
    let third_at = file.len();
    file.extend(gzip(&third));
    file.truncate(third_at + 20);
    let out = run(&[], &file);
    assert_eq!(json_lines(&out).len(), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains(&format!(
        "record at offset {third_at}: a truncated gzip member"
    )));
    // Garbage between records.
    let file = [
        first.clone(),
        b"this is not a record\r\n".to_vec(),
        third.clone(),
    ]
    .concat();
    let out = run(&[], &file);
    assert_eq!(json_lines(&out).len(), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("not the start of a WARC record"));
}

#[test]
fn a_directory_is_refused_not_read_forever() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pagetext"))
        .args(["to-text", "--warc"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is a directory"), "{stderr}");
    assert!(stderr.lines().count() < 5, "{stderr}");
}

#[test]
fn a_twenty_megabyte_record_is_converted() {
    let mut body = b"<html><title>Big</title><body>".to_vec();
    let mut n = 0;
    while body.len() < 20 * 1024 * 1024 {
        body.extend_from_slice(format!("<p>Paragraph {n} of a big page.</p>\n").as_bytes());
        n += 1;
    }
    let file = gzip(&response(
        "http://big.example/",
        "text/html; charset=utf-8",
        &body,
    ));
    let out = run(&[], &file);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1);
    let text = lines[0]["text"].as_str().unwrap();
    assert!(text.contains(&format!("Paragraph {} of a big page.", n - 1)));
}

#[test]
fn order_is_kept_with_many_workers_and_the_output_file_is_written() {
    let file: Vec<u8> = (0..120)
        .flat_map(|i| {
            let page = format!("<title>Page {i}</title><p>{}</p>", "word ".repeat(i * 7));
            gzip(&response(
                &format!("http://example.com/{i}"),
                "text/html",
                page.as_bytes(),
            ))
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("crawl.warc.gz");
    std::fs::write(&warc, &file).unwrap();
    let out_path = dir.path().join("out.jsonl");
    let out = crawl_to_file(&["-j", "4"], &out_path, &warc);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written = std::fs::read_to_string(&out_path).unwrap();
    let titles: Vec<String> = written
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["title"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    let expected: Vec<String> = (0..120).map(|i| format!("Page {i}")).collect();
    assert_eq!(titles, expected);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(" pages/s per core on 4 workers)"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The same run on one worker, and with the default, one per core.
    let one = crawl_to_file(&["-j", "1"], &out_path, &warc);
    assert!(
        String::from_utf8_lossy(&one.stderr).contains(" pages/s per core on 1 worker)"),
        "{}",
        String::from_utf8_lossy(&one.stderr)
    );
    assert_eq!(std::fs::read_to_string(&out_path).unwrap(), written);
    let default = crawl_to_file(&[], &out_path, &warc);
    let cores = std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().unwrap().get());
    let workers = format!(
        " pages/s per core on {cores} worker{})",
        if cores == 1 { "" } else { "s" }
    );
    assert!(
        String::from_utf8_lossy(&default.stderr).contains(&workers),
        "{}",
        String::from_utf8_lossy(&default.stderr)
    );
    assert_eq!(std::fs::read_to_string(&out_path).unwrap(), written);
    // Written atomically, as every output is: nothing else is left beside
    // it, and a run that cannot read its input still replaces it whole.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["crawl.warc.gz", "out.jsonl"]);
    let out = crawl_to_file(&[], &out_path, &dir.path().join("missing.warc"));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read(&out_path).unwrap(), b"");
}

#[test]
fn a_killed_crawls_temporary_file_is_removed_by_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("crawl.warc");
    std::fs::write(
        &warc,
        response("http://example.com/", "text/html", b"<p>x</p>"),
    )
    .unwrap();
    // What a run killed while writing `-o` leaves beside it.
    let leftover = dir.path().join(".pagetext-AbC123dEf456GhIj.tmp");
    std::fs::write(&leftover, b"{\"half\":").unwrap();
    let out_path = dir.path().join("out.jsonl");
    let out = crawl_to_file(&[], &out_path, &warc);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!leftover.exists());
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("removed 1 leftover temporary file from an interrupted run"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        parse_json_lines(&std::fs::read(&out_path).unwrap()).len(),
        1
    );
}

/// An article between a navigation bar and a footer.
fn article_page() -> Vec<u8> {
    let mut page = String::from(
        "<title>News</title><body><nav><a href=/>Home</a> <a href=/world>World</a></nav><article><h1>Rain at last</h1>",
    );
    for n in 0..4 {
        page.push_str(&format!(
            "<p>Paragraph {n}: the rain came in the night, after weeks of drought, and the \
             farmers, who had waited for it since spring, went out to see the fields.</p>"
        ));
    }
    page.push_str("</article><footer><p>Copyright 2024, The Daily Example, all rights reserved, and more.</p></footer>");
    page.into_bytes()
}

#[test]
fn main_content_lines_carry_what_was_dropped() {
    let (mut records, pages) = crawl();
    records.push(response(
        "http://example.com/rain.html",
        "text/html; charset=utf-8",
        &article_page(),
    ));
    let warc: Vec<u8> = records.concat();
    let whole = run(&[], &warc);
    let main = run(&["--main-content"], &warc);
    assert!(whole.status.success() && main.status.success());
    let (whole, main_lines) = (json_lines(&whole), json_lines(&main));
    assert_eq!(main_lines.len(), pages + 1);
    // Without the option the lines have no main_content, as before.
    assert!(whole.iter().all(|l| l.get("main_content").is_none()));
    let rain = main_lines
        .iter()
        .find(|l| l["url"] == "http://example.com/rain.html")
        .unwrap();
    let text = rain["text"].as_str().unwrap();
    assert!(text.starts_with("#Title News\n"), "{text}");
    assert!(text.contains("= Rain at last =") && text.contains("Paragraph 3: the rain"));
    assert!(
        !text.contains("Home") && !text.contains("Copyright"),
        "{text}"
    );
    let report = &rain["main_content"];
    assert_eq!(report["element"], "article");
    assert_eq!(report["dropped"], 2);
    assert_eq!(
        report["dropped_kinds"],
        serde_json::json!({"footer": 1, "nav": 1})
    );
    assert!(report["kept_chars"].as_u64() > report["dropped_chars"].as_u64());
    for line in &main_lines {
        assert!(line["main_content"]["dropped"].is_u64(), "{line}");
    }
    let stderr = String::from_utf8_lossy(&main.stderr);
    assert!(stderr.contains("main content: "), "{stderr}");
    assert!(stderr.contains("boilerplate part"), "{stderr}");
}

/// An HTTP response record of `status` (`404 Not Found`).
fn response_with_status(uri: &str, status: &str, body: &[u8]) -> Vec<u8> {
    let mut block = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    block.extend_from_slice(body);
    record("response", uri, &block)
}

/// Each line says its response's HTTP status and media type, `--status`
/// chooses which are converted, and a line separator in a page's text is
/// escaped (JSON-lines readers split raw U+2028 as a line end).
#[test]
fn lines_carry_the_status_and_status_chooses() {
    let warc = [
        response_with_status(
            "http://a.example/",
            "200 OK",
            b"<title>A</title><p>Here\xe2\x80\xa8there",
        ),
        response_with_status(
            "http://a.example/gone",
            "404 Not Found",
            b"<title>Gone</title><p>No such page",
        ),
    ]
    .concat();
    let all = run(&[], &warc);
    assert!(
        all.status.success(),
        "{}",
        String::from_utf8_lossy(&all.stderr)
    );
    let raw = String::from_utf8(all.stdout.clone()).unwrap();
    assert!(!raw.contains('\u{2028}'), "{raw}");
    assert!(raw.contains("\\u2028"), "{raw}");
    let lines = json_lines(&all);
    let statuses: Vec<_> = lines
        .iter()
        .map(|l| {
            (
                l["url"].clone(),
                l["status"].clone(),
                l["media_type"].clone(),
            )
        })
        .collect();
    assert_eq!(
        statuses,
        [
            (
                Value::from("http://a.example/"),
                Value::from(200),
                Value::from("text/html")
            ),
            (
                Value::from("http://a.example/gone"),
                Value::from(404),
                Value::from("text/html")
            ),
        ]
    );
    assert!(
        lines[0]["text"]
            .as_str()
            .unwrap()
            .contains("Here\u{2028}there")
    );
    // Only the 2xx responses; the others are counted as skipped by status.
    let ok = run(&["--status", "2xx"], &warc);
    assert!(ok.status.success());
    let kept = json_lines(&ok);
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0]["status"], 200);
    assert!(
        String::from_utf8_lossy(&ok.stderr).contains("1 status 404"),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    // `--format plain`: each line's text without markup.
    let plain = json_lines(&run(&["--format", "plain", "--status", "404"], &warc));
    assert_eq!(plain[0]["text"], "No such page\n");
    let bad = run(&["--status", "abc"], &warc);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--status abc"));
}

/// A file that is not a WARC file is an error, with what to do instead.
#[test]
fn a_file_that_is_no_warc_is_an_error() {
    let page = run(
        &[],
        b"<!DOCTYPE html><title>A page</title><p>Not a crawl.\n",
    );
    assert_eq!(
        page.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&page.stderr)
    );
    let stderr = String::from_utf8_lossy(&page.stderr);
    assert!(stderr.contains("not a WARC file"), "{stderr}");
    assert!(page.stdout.is_empty());
    // An empty input holds no record either.
    assert_eq!(run(&[], b"").status.code(), Some(1));
}
