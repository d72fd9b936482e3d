//! Benchmarks of the prescan, of sniffing with autodetection, and of
//! `decode` against plain encoding_rs decoding of the same bytes.
//!
//! `cargo bench -p pagetext-sniff --bench sniff -- --warm-up-time 1 --measurement-time 3`
//!
//! The inputs are built here from a few sentences in several languages,
//! encoded with encoding_rs, inside ordinary page markup, so the benchmark
//! needs no files.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use encoding_rs::{Encoding, SHIFT_JIS, UTF_8, WINDOWS_1251, WINDOWS_1252};
use sniff::{Hints, Prescan, decode, prescan, sniff};

const HEAD: &str = "<!DOCTYPE html>\n<html lang=en>\n<head>\n\
<link rel=stylesheet href=\"/static/site.css\" type=\"text/css\">\n\
<script src=\"/static/jquery.js\"></script>\n<script src=\"/static/app.js\" defer></script>\n\
<!-- analytics: do not remove -->\n<meta name=viewport content=\"width=device-width, initial-scale=1\">\n\
<meta name=description content=\"A page of text used to measure how fast bytes become text.\">\n\
<link rel=icon href=/favicon.ico>\n<title>Benchmark page</title>\n";

const TEXT: [&str; 4] = [
    "Falsches Üben von Xylophonmusik quält jeden größeren Zwerg; voilà, ça coûte cher. ",
    "Съешь же ещё этих мягких французских булок, да выпей чаю. ",
    "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。",
    "The quick brown fox jumps over the lazy dog, again and again.\r\n",
];

/// A page of about `size` bytes whose text is `text`, in `encoding`, with
/// or without a `<meta charset>` right after the head's other markup.
fn page(encoding: &'static Encoding, text: &str, size: usize, meta: bool) -> Vec<u8> {
    let mut html = String::from(HEAD);
    if meta {
        html.push_str(&format!("<meta charset={}>\n", encoding.name()));
    }
    html.push_str("</head>\n<body>\n");
    while html.len() < size {
        html.push_str("<p class=para>");
        for _ in 0..4 {
            html.push_str(text);
        }
        html.push_str("</p>\n");
    }
    html.push_str("</body></html>\n");
    encoding.encode(&html).0.into_owned()
}

fn bench_prescan(c: &mut Criterion) {
    let mut group = c.benchmark_group("prescan");
    // The whole window scanned, no declaration (the common worst case).
    let none = page(WINDOWS_1252, TEXT[3], 4096, false);
    // A declaration after 600 bytes of head.
    let late = page(WINDOWS_1252, TEXT[0], 4096, true);
    group.throughput(Throughput::Bytes(1024));
    group.bench_function("window-without-meta", |b| {
        b.iter(|| prescan(black_box(&none)))
    });
    group.bench_function("meta-after-head", |b| b.iter(|| prescan(black_box(&late))));
    group.finish();

    // pathological_*: hostile inputs with an unbounded window; time must
    // grow linearly with the size.
    let mut group = c.benchmark_group("pathological_prescan");
    let unbounded = Prescan::standard().with_window(usize::MAX);
    for size in [16 * 1024, 64 * 1024, 256 * 1024] {
        let attributes: Vec<u8> = b"<meta "
            .iter()
            .copied()
            .chain(b"charset ".iter().copied().cycle().take(size))
            .collect();
        let lts: Vec<u8> = b"<a".iter().copied().cycle().take(size).collect();
        let dashes: Vec<u8> = b"<!--"
            .iter()
            .copied()
            .chain(std::iter::repeat_n(b'-', size))
            .collect();
        group.throughput(Throughput::Bytes(size as u64));
        for (name, input) in [
            ("attributes", &attributes),
            ("tags", &lts),
            ("comment", &dashes),
        ] {
            group.bench_with_input(BenchmarkId::new(name, size), input, |b, input| {
                b.iter(|| unbounded.run(black_box(input)))
            });
        }
    }
    group.finish();
}

fn bench_sniff(c: &mut Criterion) {
    let mut group = c.benchmark_group("sniff");
    let declared = page(SHIFT_JIS, TEXT[2], 200_000, true);
    let undeclared = page(SHIFT_JIS, TEXT[2], 200_000, false);
    let western = page(WINDOWS_1252, TEXT[0], 200_000, false);
    group.throughput(Throughput::Bytes(200_000));
    let hints = Hints::default();
    group.bench_function("meta", |b| b.iter(|| sniff(black_box(&declared), &hints)));
    group.bench_function("autodetect-shift_jis", |b| {
        b.iter(|| sniff(black_box(&undeclared), &hints))
    });
    group.bench_function("autodetect-windows-1252", |b| {
        b.iter(|| sniff(black_box(&western), &hints))
    });
    group.finish();
}

fn bench_decode(c: &mut Criterion) {
    let mut group = c.benchmark_group("decode");
    let inputs = [
        ("utf-8", UTF_8, TEXT.concat()),
        ("windows-1252", WINDOWS_1252, TEXT[0].to_owned() + TEXT[3]),
        ("windows-1251", WINDOWS_1251, TEXT[1].to_owned() + TEXT[3]),
        ("shift_jis", SHIFT_JIS, TEXT[2].to_owned() + TEXT[3]),
    ];
    for (name, encoding, text) in inputs {
        let bytes = page(encoding, &text, 256 * 1024, true);
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_with_input(BenchmarkId::new("encoding_rs", name), &bytes, |b, bytes| {
            b.iter(|| encoding.decode_with_bom_removal(black_box(bytes)))
        });
        group.bench_with_input(BenchmarkId::new("sniff", name), &bytes, |b, bytes| {
            b.iter(|| decode(black_box(bytes), encoding))
        });
        group.bench_with_input(
            BenchmarkId::new("sniff+preprocess", name),
            &bytes,
            |b, bytes| b.iter(|| decode(black_box(bytes), encoding).preprocess()),
        );
    }
    group.finish();
}

criterion_group!(benches, bench_prescan, bench_sniff, bench_decode);
criterion_main!(benches);
