//! A manual measurement, ignored by default: for each file named in
//! `INGEST_FILES` (separated by `:`), the time of html5ever's bare parse
//! into markup5ever_rcdom, of `ingest`, and of `ingest` + `wikitext::write`,
//! and the ratios. Run it in release mode:
//! `INGEST_FILES=a.html:b.html cargo test --release -p pagetext-htmlio --test ingest_perf -- --ignored --nocapture`

use std::time::{Duration, Instant};

use html5ever::tendril::TendrilSink;

fn best_of(n: usize, mut f: impl FnMut()) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..n {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed());
    }
    best
}

#[test]
#[ignore = "manual measurement"]
fn measure() {
    let Ok(list) = std::env::var("INGEST_FILES") else {
        return;
    };
    // `INGEST_ONLY=rcdom` or `INGEST_ONLY=ingest` runs just that once (to
    // measure the peak memory of each with /usr/bin/time).
    if let Ok(only) = std::env::var("INGEST_ONLY") {
        for path in list.split(':').filter(|p| !p.is_empty()) {
            let bytes = std::fs::read(path).unwrap();
            if only == "rcdom" {
                let text = String::from_utf8_lossy(&bytes);
                let dom = html5ever::parse_document(
                    markup5ever_rcdom::RcDom::default(),
                    Default::default(),
                )
                .one(text.as_ref());
                std::hint::black_box(dom);
            } else if only == "ingest" {
                let out = htmlio::ingest::ingest(&bytes, &htmlio::ingest::Options::default());
                std::hint::black_box(out);
            } else {
                let out = htmlio::ingest::ingest(&bytes, &htmlio::ingest::Options::default());
                std::hint::black_box(htmlio::ingest::write(out.document.clone()));
            }
        }
        return;
    }
    let reps = std::env::var("INGEST_REPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    for path in list.split(':').filter(|p| !p.is_empty()) {
        let bytes = std::fs::read(path).unwrap();
        let skip_peer = std::env::var("INGEST_NO_PEER").is_ok();
        let rcdom = if skip_peer {
            Duration::from_nanos(1)
        } else {
            best_of(reps, || {
                let text = String::from_utf8_lossy(&bytes);
                let dom = html5ever::parse_document(
                    markup5ever_rcdom::RcDom::default(),
                    Default::default(),
                )
                .one(text.as_ref());
                std::hint::black_box(dom);
            })
        };
        let opts = htmlio::ingest::Options::default();
        let ingest = best_of(reps, || {
            std::hint::black_box(htmlio::ingest::ingest(&bytes, &opts));
        });
        let to_text = best_of(reps, || {
            let out = htmlio::ingest::ingest(&bytes, &opts);
            std::hint::black_box(htmlio::ingest::write(out.document.clone()));
        });
        let mb = bytes.len() as f64 / 1e6;
        println!(
            "{path}: {:.2} MB  rcdom {:.1} ms ({:.1} MB/s)  ingest {:.1} ms (x{:.2})  ingest+write {:.1} ms (x{:.2})",
            mb,
            rcdom.as_secs_f64() * 1e3,
            mb / rcdom.as_secs_f64(),
            ingest.as_secs_f64() * 1e3,
            ingest.as_secs_f64() / rcdom.as_secs_f64(),
            to_text.as_secs_f64() * 1e3,
            to_text.as_secs_f64() / rcdom.as_secs_f64(),
        );
    }
}
