//! The language a page is written in, found from its text (not from what
//! the page declares): [`detect_language`].
//!
//! The detector is whatlang's trigram model over a sample of the page's
//! prose:
//!
//! 1. The runs of text in document order, without preformatted text (code
//!    and program output are not the page's language).
//! 2. Menus, buttons and footers are short runs in every language and often
//!    in English on a translated site, so only runs of at least [`PROSE`]
//!    letters are read, up to [`SAMPLE`] bytes. A page with too little
//!    prose for that falls back to all its runs and its title.
//! 3. A page that mixes writing systems (Japanese prose around English
//!    commands and names) is told by the one that carries more of its
//!    text. A Han, kana or Hangul character carries about what a word of a
//!    Latin-script language does, so it counts as [`DENSE_WEIGHT`] letters;
//!    when the letters of other scripts outweigh the Latin letters, the
//!    Latin letters are left out of the sample, else the detector, which
//!    picks the script with the most characters, would call the page
//!    English. The scripts are weighed over the page's prose (up to
//!    [`WEIGHED`] letters of it), the languages only over the sample.
//!
//! The detector's cost is bounded by the sample; gathering it reads the
//! page's prose once, and no more than [`WEIGHED`] letters of it once the
//! sample is full.

use wikitext::{Document, Inline, plain_text, prose_runs};

/// A run with this many letters (weighted as [`DENSE_WEIGHT`] says) counts
/// as prose.
pub const PROSE: usize = 40;

/// What a Han, kana or Hangul character counts for, in letters of a
/// Latin-script language.
pub const DENSE_WEIGHT: usize = 3;

/// The most text the detector reads, in bytes.
pub const SAMPLE: usize = 4096;

/// How many letters of a long page's prose are weighed to tell its
/// script: enough to see past a top that is in another one.
pub const WEIGHED: usize = 8 * SAMPLE;

/// Below this many letters of prose (weighted), the sample takes every run
/// (headings, list items, table cells) and the title too.
const ENOUGH_PROSE: usize = 400;

/// A detected language.
#[derive(Debug, Clone, PartialEq)]
pub struct Detected {
    /// The language as a BCP 47 primary subtag: the two-letter ISO 639-1
    /// code where the language has one (`en`, `fr`, `zh` for Mandarin,
    /// `fa` for Persian), else its three-letter ISO 639-3 code.
    pub code: String,
    /// The detector's confidence, from 0 to 1.
    pub confidence: f64,
    /// Whether the detector itself deems the guess reliable (enough text,
    /// and the best language well ahead of the second).
    pub reliable: bool,
}

/// The language of `doc`'s text, or `None` when it has no text a language
/// can be told from (no letters, or only a few).
///
/// ```
/// let page = htmlio::ingest::ingest(
///     "<p>Le projet de loi a été largement approuvé par les députés, \
///      et le texte sera désormais examiné par le Sénat.</p>".as_bytes(),
///     &htmlio::ingest::Options::default(),
/// );
/// let lang = htmlio::lang::detect_language(&page.document).map(|d| d.code);
/// assert_eq!(lang.as_deref(), Some("fr"));
/// ```
pub fn detect_language(doc: &Document) -> Option<Detected> {
    let sample = sample(doc);
    let info = whatlang::detect(&sample)?;
    Some(Detected {
        code: primary_subtag(info.lang().code()),
        confidence: info.confidence(),
        reliable: info.is_reliable(),
    })
}

/// The letters of a text by writing system: Latin, and the dense scripts
/// (weighted), and the rest (Cyrillic, Greek, Arabic, Devanagari...).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Letters {
    latin: usize,
    dense: usize,
    other: usize,
}

impl Letters {
    fn of(text: &str) -> Letters {
        let mut n = Letters::default();
        let bytes = text.as_bytes();
        if bytes.is_ascii() {
            n.latin = bytes.iter().filter(|b| b.is_ascii_alphabetic()).count();
            return n;
        }
        for c in text.chars().filter(|c| c.is_alphabetic()) {
            if is_latin(c) {
                n.latin += 1;
            } else if is_dense(c) {
                n.dense += DENSE_WEIGHT;
            } else {
                n.other += 1;
            }
        }
        n
    }

    /// The letters of a run's text ([`plain_text`]'s, without making it).
    fn of_run(run: &[Inline]) -> Letters {
        let mut n = Letters::default();
        let mut stack = vec![run];
        while let Some(run) = stack.pop() {
            for node in run {
                match node {
                    Inline::Text { text, .. } => n.add(Letters::of(text)),
                    Inline::Email { address, .. } => n.add(Letters::of(address)),
                    other => {
                        if let Some(children) = other.children() {
                            stack.push(children);
                        }
                    }
                }
            }
        }
        n
    }

    fn total(self) -> usize {
        self.latin + self.dense + self.other
    }

    fn add(&mut self, more: Letters) {
        self.latin += more.latin;
        self.dense += more.dense;
        self.other += more.other;
    }
}

/// Latin script: ASCII letters and the Latin blocks up to Latin Extended-B,
/// and Latin Extended Additional (Vietnamese).
fn is_latin(c: char) -> bool {
    matches!(c, 'A'..='Z' | 'a'..='z' | '\u{c0}'..='\u{24f}' | '\u{1e00}'..='\u{1eff}')
}

/// Han, kana and Hangul: one character for about a word.
fn is_dense(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30ff}'      // hiragana, katakana
        | '\u{3400}'..='\u{4dbf}'    // CJK extension A
        | '\u{4e00}'..='\u{9fff}'    // CJK unified ideographs
        | '\u{f900}'..='\u{faff}'    // CJK compatibility ideographs
        | '\u{ac00}'..='\u{d7af}'    // Hangul syllables
        | '\u{1100}'..='\u{11ff}'    // Hangul jamo
        | '\u{3130}'..='\u{318f}'    // Hangul compatibility jamo
        | '\u{ff66}'..='\u{ff9f}'    // half-width katakana
    )
}

/// The text the detector reads (see the module docs).
fn sample(doc: &Document) -> String {
    let mut prose = String::new();
    // The letters of the sample, and of the whole page's prose.
    let (mut sampled, mut page) = (Letters::default(), Letters::default());
    for run in prose_runs(&doc.body) {
        let n = Letters::of_run(run);
        page.add(n);
        if n.total() >= PROSE && prose.len() < SAMPLE {
            push_within(&mut prose, &plain_text(run));
            sampled.add(n);
        }
        if prose.len() >= SAMPLE && page.total() >= WEIGHED {
            break;
        }
    }
    if sampled.total() < ENOUGH_PROSE {
        prose.clear();
        if let Some(title) = &doc.meta.title {
            push_within(&mut prose, title);
            page.add(Letters::of(title));
        }
        for text in prose_runs(&doc.body).map(plain_text) {
            if prose.len() >= SAMPLE {
                break;
            }
            push_within(&mut prose, &text);
        }
    }
    // Step 3, judged over the whole page: a page mostly in another script
    // is told by that script.
    if page.dense + page.other > page.latin {
        prose.retain(|c| !is_latin(c));
    }
    prose
}

/// Appends `text` and a separating line feed to `out`, cut so that `out`
/// stays within [`SAMPLE`] bytes (at a character boundary).
fn push_within(out: &mut String, text: &str) {
    let room = SAMPLE.saturating_sub(out.len());
    let mut cut = room.min(text.len());
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    out.push_str(text.get(..cut).unwrap_or_default());
    out.push('\n');
}

/// The BCP 47 primary language subtag of an ISO 639-3 code: its ISO 639-1
/// code where there is one. Mandarin and Iranian Persian, which whatlang
/// names by their individual codes, take their macrolanguage's two letters,
/// as BCP 47 writes them (`zh`, `fa`).
fn primary_subtag(iso639_3: &str) -> String {
    match iso639_3 {
        "cmn" => "zh".to_owned(),
        "pes" => "fa".to_owned(),
        code => isolang::Language::from_639_3(code)
            .and_then(|l| l.to_639_1())
            .unwrap_or(code)
            .to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detect(html: &str) -> Option<Detected> {
        let page = crate::ingest::ingest(html.as_bytes(), &crate::ingest::Options::default());
        detect_language(&page.document)
    }

    fn code(html: &str) -> Option<String> {
        detect(html).map(|d| d.code)
    }

    #[test]
    fn prose_in_several_languages_and_scripts() {
        let cases = [
            (
                "en",
                "<p>The quick brown fox jumps over the lazy dog, and then it runs \
                 back into the forest where nobody can see it any more.</p>",
            ),
            (
                "de",
                "<p>Die Bundesregierung hat am Mittwoch beschlossen, dass die neuen \
                 Regeln für alle Unternehmen ab dem nächsten Jahr gelten sollen.</p>",
            ),
            (
                "es",
                "<p>El gobierno anunció ayer que las nuevas medidas entrarán en vigor \
                 el próximo mes en todas las comunidades del país.</p>",
            ),
            (
                "ru",
                "<p>Правительство объявило вчера, что новые меры вступят в силу в \
                 следующем месяце во всех регионах страны.</p>",
            ),
            (
                "ja",
                "<p>政府は昨日、新しい措置が来月から全国のすべての地域で施行されると発表しました。\
                 詳しい内容は後日公表される予定です。</p>",
            ),
            (
                "zh",
                "<p>政府昨天宣布，新的措施将于下个月在全国所有地区生效。具体内容将在以后公布。\
                 我们会继续关注这个问题的进展情况。</p>",
            ),
        ];
        for (expected, html) in cases {
            assert_eq!(code(html).as_deref(), Some(expected), "{html}");
        }
    }

    #[test]
    fn prose_outweighs_short_runs_in_another_language() {
        // A French article under an English menu: the menu's runs are short.
        let mut html = String::from("<ul>");
        for item in ["Home", "News", "Sport", "Weather", "Contact us", "Sign in"] {
            html.push_str(&format!("<li><a href=/x>{item}</a></li>"));
        }
        html.push_str(
            "</ul><p>Le projet de loi a été largement approuvé par les députés, et le \
             texte sera désormais examiné par le Sénat, puis par le Conseil \
             constitutionnel, avant d'entrer en vigueur.</p>",
        );
        assert_eq!(code(&html).as_deref(), Some("fr"));
    }

    #[test]
    fn a_page_mostly_in_a_dense_script_is_told_by_it() {
        // Japanese prose among longer English names and commands: fewer
        // characters than the Latin letters, but more of the text.
        let mut html = String::new();
        for _ in 0..6 {
            html.push_str(
                "<p>Run apt-get update, then apt-get upgrade, as root user.</p>\
                 <p>このファイルを編集して、新しいリポジトリを追加します。</p>",
            );
        }
        assert_eq!(code(&html).as_deref(), Some("ja"));
    }

    #[test]
    fn preformatted_text_is_not_the_pages_language() {
        let mut html = String::from(
            "<p>Die Bundesregierung hat am Mittwoch beschlossen, dass die neuen Regeln \
             für alle Unternehmen ab dem nächsten Jahr gelten sollen.</p><pre>",
        );
        for _ in 0..40 {
            html.push_str("the quick brown fox jumps over the lazy dog and runs away\n");
        }
        html.push_str("</pre>");
        assert_eq!(code(&html).as_deref(), Some("de"));
    }

    #[test]
    fn short_pages_use_every_run() {
        let html = "<h1>Über uns</h1><ul><li>Wir sind ein kleines Team aus Berlin</li>\
                    <li>Unsere Arbeit ist für alle Menschen gedacht</li></ul>";
        assert_eq!(code(html).as_deref(), Some("de"));
    }

    #[test]
    fn no_letters_no_language() {
        assert_eq!(detect("<p>12 345 — 678</p>"), None);
        assert_eq!(detect(""), None);
    }

    #[test]
    fn confidence_is_a_share() {
        let d = detect(
            "<p>The quick brown fox jumps over the lazy dog, and then it runs back \
             into the forest where nobody can see it any more.</p>",
        );
        let d = d.expect("a language");
        assert!((0.0..=1.0).contains(&d.confidence), "{}", d.confidence);
    }

    #[test]
    fn codes_are_bcp47_primary_subtags() {
        assert_eq!(primary_subtag("eng"), "en");
        assert_eq!(primary_subtag("cmn"), "zh");
        assert_eq!(primary_subtag("pes"), "fa");
        assert_eq!(primary_subtag("nob"), "nb");
        assert_eq!(primary_subtag("ukr"), "uk");
    }

    #[test]
    fn the_sample_is_bounded_and_cut_at_a_character_boundary() {
        let long = "é".repeat(5000);
        let mut out = String::new();
        push_within(&mut out, &long);
        assert!(out.len() <= SAMPLE + 1);
        push_within(&mut out, "more");
        assert_eq!(out.len(), SAMPLE + 2);
    }
}
