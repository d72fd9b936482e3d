//! The prescan (both rule sets, unbounded too), the sniffing algorithm and
//! decoding: total on any bytes, and consistent with each other.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sniff::{Hints, Prescan, Rules, decode, preprocess, prescan, sniff};

fuzz_target!(|data: &[u8]| {
    let standard = prescan(data);
    if let Some(found) = standard {
        // A declaration the prescan reports starts inside its window.
        assert!(found.offset < sniff::PRESCAN_WINDOW);
        // The unbounded standard prescan finds the same first declaration.
        let wide = Prescan::standard().with_window(usize::MAX).run(data);
        assert_eq!(
            wide.map(|m| (m.encoding, m.offset)),
            Some((found.encoding, found.offset))
        );
    }
    let _ = Prescan::for_rules(Rules::Seed2007).run(data);
    for hints in [
        Hints::default(),
        Hints::default().with_rules(Rules::Seed2007),
        Hints::default().with_autodetect(None),
        Hints::default().with_content_type(data.get(..data.len().min(40)).unwrap_or_default()),
    ] {
        let sniffed = sniff(data, &hints);
        let decoded = decode(data, sniffed.encoding);
        let pre = preprocess(decoded.text);
        assert!(!pre.text.contains('\r'));
        assert!(!pre.text.contains('\0'));
    }
});
