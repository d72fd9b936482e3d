//! Throughput of `parse` and `write` on the seed's sample document repeated
//! to about 1 MB, plus `pathological_*` groups whose input grows tenfold to
//! show that time stays linear.
//!
//! Keep runs short:
//! `cargo bench -p pagetext-wikitext --bench wikitext -- --warm-up-time 1 --measurement-time 2`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// The body of the seed's sample (after its header) repeated to `bytes`.
fn sample(bytes: usize) -> String {
    let sample = include_str!("../../../testdata/wikitext/seed/sample.txt");
    let body = sample.split_once("\n\n").map_or(sample, |(_, b)| b);
    let mut text = String::from("\n");
    while text.len() < bytes {
        text.push_str(body);
        text.push('\n');
    }
    text
}

fn documents(c: &mut Criterion) {
    let text = sample(1 << 20);
    let doc = wikitext::parse(&text).document;
    let mut group = c.benchmark_group("sample_1mb");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(10);
    group.bench_function("parse", |b| {
        b.iter(|| black_box(wikitext::parse(black_box(&text))))
    });
    group.bench_function("write", |b| {
        b.iter(|| black_box(wikitext::write(black_box(&doc))))
    });
    group.finish();
}

/// A named input of about `n` bytes.
type Maker = (&'static str, fn(usize) -> String);

fn pathological(c: &mut Criterion) {
    let cases: [Maker; 4] = [
        ("pathological_underscores", |n| {
            format!("\na {} b\n", "_".repeat(n))
        }),
        ("pathological_starts_without_ends", |n| {
            format!("\n{}\n", "_a ".repeat(n / 3))
        }),
        ("pathological_brackets", |n| {
            format!("\n{}x{}\n", "[u||".repeat(n / 5), "]".repeat(n / 5))
        }),
        ("pathological_compact_levels", |n| {
            format!("\n{}y\n", "x   ".repeat(n / 4))
        }),
    ];
    for (name, make) in cases {
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        for n in [10_000usize, 100_000, 1_000_000] {
            let text = make(n);
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(BenchmarkId::new("parse", n), &text, |b, text| {
                b.iter(|| black_box(wikitext::parse(black_box(text))));
            });
        }
        group.finish();
    }
}

criterion_group!(benches, documents, pathological);
criterion_main!(benches);
