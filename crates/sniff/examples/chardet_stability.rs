//! How many bytes chardetng needs before its guess stops changing.
//!
//! `cargo run --release -p pagetext-sniff --example chardet_stability -- FILE[:LABEL]...`
//!
//! A `FILE:LABEL` input is read as UTF-8 and encoded into the encoding LABEL
//! names first (unmappable characters become numeric character references,
//! as a legacy page would have them); a plain `FILE` is used as it is. For
//! each input the program prints the guess chardetng makes when it is fed
//! the bytes up to N past the first non-ASCII byte, for growing N, next to
//! its guess on the whole input, and the time each takes. This is how the
//! defaults [`sniff::AUTODETECT_MAX_BYTES`] and
//! [`sniff::AUTODETECT_ENOUGH_NON_ASCII`] were chosen (see the crate docs).

use std::time::Instant;

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::Encoding;

const BUDGETS: [usize; 11] = [
    64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536,
];

fn guess(bytes: &[u8], last: bool) -> &'static Encoding {
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    detector.feed(bytes, last);
    detector.guess(None, Utf8Detection::Allow)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for arg in std::env::args().skip(1) {
        let (path, label) = match arg.rsplit_once(':') {
            Some((path, label)) => (path.to_owned(), Some(label.to_owned())),
            None => (arg.clone(), None),
        };
        let raw = std::fs::read(&path)?;
        let bytes = match &label {
            Some(label) => {
                let encoding = Encoding::for_label(label.as_bytes()).ok_or("unknown label")?;
                let text = String::from_utf8_lossy(&raw);
                encoding.encode(&text).0.into_owned()
            }
            None => raw,
        };
        let first = Encoding::ascii_valid_up_to(&bytes);
        let started = Instant::now();
        let whole = guess(&bytes, true);
        let whole_time = started.elapsed();
        let non_ascii = bytes.iter().filter(|&&b| b >= 0x80).count();
        println!(
            "{arg}: {} bytes, first non-ASCII at {first}, {non_ascii} non-ASCII bytes; whole: {} in {:.2?}",
            bytes.len(),
            whole.name(),
            whole_time
        );
        let mut stable_from = None;
        for budget in BUDGETS {
            let end = first.saturating_add(budget).min(bytes.len());
            let started = Instant::now();
            let g = guess(&bytes[..end], end == bytes.len());
            let time = started.elapsed();
            let same = g == whole;
            match (same, stable_from) {
                (true, None) => stable_from = Some(budget),
                (false, _) => stable_from = None,
                _ => {}
            }
            println!(
                "  +{budget:>6}: {:<14} {} {:.2?}",
                g.name(),
                if same { "=" } else { "x" },
                time
            );
            if end == bytes.len() {
                break;
            }
        }
        println!("  stable from +{stable_from:?}");
        // What `sniff` does with its default settings (prescan off, so that
        // only autodetection can answer).
        let hints = sniff::Hints::default().with_prescan_window(Some(0));
        let started = Instant::now();
        let sniffed = sniff::sniff(&bytes, &hints);
        let time = started.elapsed();
        println!(
            "  sniff: {} {} ({}) in {time:.2?}",
            sniffed.encoding.name(),
            if sniffed.encoding == whole { "=" } else { "x" },
            sniffed.source
        );
    }
    Ok(())
}
