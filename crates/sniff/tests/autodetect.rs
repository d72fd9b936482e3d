//! Step 6 of the sniffing algorithm, autodetection, on real text.

use sniff::{Autodetect, Confidence, Hints, Source, Utf8Guess, decode, sniff};

fn big5() -> &'static [u8] {
    include_bytes!("../../../testdata/sniff/chardet/test_big5.txt")
}

/// html5lib-tests ships this file for its optional chardet fallback, with no
/// expectation file: the encoding is Big5.
#[test]
fn the_html5lib_big5_file_is_detected_as_big5() {
    let bytes = big5();
    let sniffed = sniff(bytes, &Hints::default());
    assert_eq!(sniffed.encoding, encoding_rs::BIG5);
    assert_eq!(sniffed.confidence, Confidence::Tentative);
    assert_eq!(
        sniffed.source,
        Source::Autodetected {
            examined: bytes.len()
        }
    );
    let text = decode(bytes, sniffed.encoding);
    assert!(!text.had_errors);
    assert!(text.text.starts_with("老子《道德經》"));
    assert!(text.text.contains("道可道，非常道。名可名，非常名。"));
}

#[test]
fn big5_is_still_found_with_utf8_denied_and_a_tld() {
    let bytes = big5();
    for tld in [None, Some("tw"), Some("www.example.com.tw"), Some("de")] {
        let settings = Autodetect {
            tld,
            utf8: Utf8Guess::Deny,
            ..Autodetect::default()
        };
        let sniffed = sniff(bytes, &Hints::default().with_autodetect(Some(settings)));
        assert_eq!(sniffed.encoding, encoding_rs::BIG5, "tld {tld:?}");
    }
    // The hint is a real prior: from a .cn host the same bytes, which are
    // also valid GBK, are read as GBK.
    let settings = Autodetect {
        tld: Some("cn"),
        ..Autodetect::default()
    };
    let sniffed = sniff(bytes, &Hints::default().with_autodetect(Some(settings)));
    assert_eq!(sniffed.encoding, encoding_rs::GBK);
}

#[test]
fn without_autodetection_big5_falls_to_the_default() {
    let bytes = big5();
    let sniffed = sniff(bytes, &Hints::default().with_autodetect(None));
    assert_eq!(sniffed.encoding, encoding_rs::WINDOWS_1252);
    assert_eq!(sniffed.source, Source::Default);
}

/// Text in legacy encodings, wrapped in the kind of ASCII markup pages start
/// with, is detected as the encoding it was written in.
#[test]
fn legacy_pages_are_detected() {
    let cases = [
        (
            "Съешь же ещё этих мягких французских булок, да выпей чаю. Широкая электрификация южных губерний даст мощный толчок подъёму сельского хозяйства.",
            "windows-1251",
        ),
        (
            "Съешь же ещё этих мягких французских булок, да выпей чаю. Широкая электрификация южных губерний даст мощный толчок подъёму сельского хозяйства.",
            "KOI8-U",
        ),
        (
            "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。",
            "Shift_JIS",
        ),
        (
            "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。",
            "EUC-JP",
        ),
        (
            "다람쥐 헌 쳇바퀴에 타고파. 키스의 고유조건은 입술끼리 만나야 하고 특별한 기술은 필요치 않다. 한국어 문장입니다.",
            "EUC-KR",
        ),
        (
            "Zażółć gęślą jaźń. Pchnąć w tę łódź jeża lub ośm skrzyń fig. Próbny tekst w języku polskim, który zawiera polskie znaki.",
            "ISO-8859-2",
        ),
        (
            "Falsches Üben von Xylophonmusik quält jeden größeren Zwerg. Die Größe der Übungsräume hängt von der Zahl der Schüler ab.",
            "windows-1252",
        ),
    ];
    for (text, label) in cases {
        let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        let page = format!(
            "<!DOCTYPE html>\n<html><head><title>t</title>\n<link rel=stylesheet href=s.css>\n</head><body>\n<p>{text}</p>\n<p>{text}</p>\n</body></html>\n"
        );
        let (bytes, _, unmappable) = encoding.encode(&page);
        assert!(!unmappable, "{label}");
        let sniffed = sniff(&bytes, &Hints::default());
        assert_eq!(sniffed.encoding, encoding, "{label}");
        assert!(matches!(sniffed.source, Source::Autodetected { .. }));
    }
}
