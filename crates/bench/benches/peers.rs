//! pagetext side by side with its peers, on the same inputs, in one run.
//!
//! `cargo xtask bench` runs this and prints the ratios; by hand:
//! `cargo bench -p pagetext-bench --bench peers` (criterion's filters and
//! options after `--`). Inputs: see the crate docs (`PAGETEXT_BENCH_CORPUS`,
//! `PAGETEXT_BENCH_MAX_BYTES`). Group names are read by the report
//! (`src/bin/bench-report.rs`): keep both in step.

use std::hint::black_box;
use std::time::Duration;

use criterion::{
    BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use pagetext_bench::{
    PATHOLOGICAL, Page, corpus_dir, encoding_rs_decode, fast_html2md_convert, htmd_convert,
    html_to_text, join_texts, load_pages, markdown_to_html, max_bytes, rcdom_parse, repeat_to_size,
    run_pathological, sniff_decode, text_to_xhtml, total_len,
};

/// Everything derived from the pages once, before any measurement.
struct Inputs {
    pages: Vec<Page>,
    /// The pages decoded as UTF-8 (lossily), for htmd and fast_html2md,
    /// which take `&str`.
    pages_str: Vec<String>,
    /// The text form of each page (pagetext's own output).
    texts: Vec<String>,
    /// The Markdown form of each page (htmd's output).
    markdowns: Vec<String>,
}

fn inputs() -> Inputs {
    let dir = corpus_dir();
    let pages = load_pages(&dir, max_bytes());
    eprintln!(
        "bench inputs: {} pages, {} bytes, from {}",
        pages.len(),
        total_len(&pages.iter().map(|p| &p.bytes).collect::<Vec<_>>()),
        dir.display()
    );
    let pages_str: Vec<String> = pages
        .iter()
        .map(|p| String::from_utf8_lossy(&p.bytes).into_owned())
        .collect();
    let texts = pages.iter().map(|p| html_to_text(&p.bytes)).collect();
    let markdowns = pages_str.iter().map(|s| htmd_convert(s)).collect();
    Inputs {
        pages,
        pages_str,
        texts,
        markdowns,
    }
}

fn html_group(c: &mut Criterion, name: &str, html: &[&[u8]], html_str: &[&str], peers: bool) {
    let mut group = c.benchmark_group(name);
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Bytes(total_len(html) as u64));
    group.bench_function("pagetext", |b| {
        b.iter(|| {
            html.iter()
                .map(|p| html_to_text(black_box(p)).len())
                .sum::<usize>()
        })
    });
    if peers {
        group.bench_function("html5ever_rcdom", |b| {
            b.iter(|| {
                html.iter()
                    .map(|p| rcdom_parse(black_box(p)))
                    .sum::<usize>()
            })
        });
        group.bench_function("htmd", |b| {
            b.iter(|| {
                html_str
                    .iter()
                    .map(|p| htmd_convert(black_box(p)).len())
                    .sum::<usize>()
            })
        });
        group.bench_function("fast_html2md", |b| {
            b.iter(|| {
                html_str
                    .iter()
                    .map(|p| fast_html2md_convert(black_box(p)).len())
                    .sum::<usize>()
            })
        });
    }
    group.finish();
}

fn text_group(c: &mut Criterion, name: &str, texts: &[&str], markdowns: &[&str], peers: bool) {
    let mut group = c.benchmark_group(name);
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Bytes(total_len(texts) as u64));
    group.bench_function("pagetext", |b| {
        b.iter(|| {
            texts
                .iter()
                .map(|t| text_to_xhtml(black_box(t)).len())
                .sum::<usize>()
        })
    });
    if peers {
        group.throughput(Throughput::Bytes(total_len(markdowns) as u64));
        group.bench_function("pulldown_cmark", |b| {
            b.iter(|| {
                markdowns
                    .iter()
                    .map(|m| markdown_to_html(black_box(m)).len())
                    .sum::<usize>()
            })
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    let inp = inputs();
    let html: Vec<&[u8]> = inp.pages.iter().map(|p| p.bytes.as_slice()).collect();
    let html_str: Vec<&str> = inp.pages_str.iter().map(String::as_str).collect();
    let texts: Vec<&str> = inp.texts.iter().map(String::as_str).collect();
    let markdowns: Vec<&str> = inp.markdowns.iter().map(String::as_str).collect();

    // The real pages, one by one.
    html_group(c, "html_to_text", &html, &html_str, true);
    text_group(c, "text_to_xhtml", &texts, &markdowns, true);
    {
        let mut group = c.benchmark_group("sniff_decode_corpus");
        group.sampling_mode(SamplingMode::Flat);
        group.throughput(Throughput::Bytes(total_len(&html) as u64));
        group.bench_function("pagetext_sniff_decode", |b| {
            b.iter(|| {
                html.iter()
                    .map(|p| sniff_decode(black_box(p)))
                    .sum::<usize>()
            })
        });
        group.bench_function("encoding_rs", |b| {
            b.iter(|| {
                html.iter()
                    .map(|p| encoding_rs_decode(black_box(p)))
                    .sum::<usize>()
            })
        });
        group.finish();
    }

    // Synthetic large documents: the real ones repeated.
    for (label, size) in [("1MB", 1usize << 20), ("10MB", 10 << 20)] {
        let big_html = repeat_to_size(&html, size, b"\n");
        let big_str = String::from_utf8_lossy(&big_html).into_owned();
        html_group(
            c,
            &format!("html_to_text_{label}"),
            &[&big_html],
            &[&big_str],
            true,
        );
        let big_text = join_texts(&texts, size);
        let md_parts: Vec<&[u8]> = markdowns.iter().map(|m| m.as_bytes()).collect();
        let big_md =
            String::from_utf8_lossy(&repeat_to_size(&md_parts, size, b"\n\n")).into_owned();
        text_group(
            c,
            &format!("text_to_xhtml_{label}"),
            &[&big_text],
            &[&big_md],
            true,
        );
    }

    // Scale: one page of median size, 1x, 10x and 100x.
    let mut by_size: Vec<usize> = (0..html.len()).collect();
    by_size.sort_by_key(|&i| html.get(i).map_or(0, |p| p.len()));
    if let Some(&mid) = by_size.get(by_size.len() / 2) {
        let page = html.get(mid).copied().unwrap_or_default();
        let text = texts.get(mid).copied().unwrap_or_default();
        let mut group = c.benchmark_group("scale_html_to_text");
        group.sampling_mode(SamplingMode::Flat);
        for times in [1usize, 10, 100] {
            let input = repeat_to_size(&[page], page.len() * times, b"\n");
            group.throughput(Throughput::Bytes(input.len() as u64));
            group.bench_with_input(
                BenchmarkId::from_parameter(format!("{times}x")),
                &input,
                |b, i| b.iter(|| html_to_text(black_box(i)).len()),
            );
        }
        group.finish();
        let mut group = c.benchmark_group("scale_text_to_xhtml");
        group.sampling_mode(SamplingMode::Flat);
        for times in [1usize, 10, 100] {
            let input = join_texts(&[text], text.len() * times);
            group.throughput(Throughput::Bytes(input.len() as u64));
            group.bench_with_input(
                BenchmarkId::from_parameter(format!("{times}x")),
                &input,
                |b, i| b.iter(|| text_to_xhtml(black_box(i)).len()),
            );
        }
        group.finish();
    }

    // Pathological inputs at two sizes: time should grow tenfold.
    let mut group = c.benchmark_group("pathological");
    group.sampling_mode(SamplingMode::Flat);
    for p in PATHOLOGICAL {
        for n in [10_000usize, 100_000] {
            let input = (p.build)(n);
            group.throughput(Throughput::Bytes(input.len() as u64));
            group.bench_with_input(BenchmarkId::new(p.name, n), &input, |b, i| {
                b.iter(|| run_pathological(p, black_box(i)))
            });
        }
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2))
        .without_plots()
}

criterion_group! {
    name = peers;
    config = config();
    targets = benches
}
criterion_main!(peers);
