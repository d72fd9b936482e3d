//! Determining the character encoding of an HTML document, decoding it, and
//! preprocessing the input stream (HTML5 draft of October 2007, §8.2.2, with
//! the later standard's refinements as the default).
//!
//! This crate owns bytes-to-text: byte order marks, transport-layer charsets,
//! the `<meta>` prescan, autodetection (chardetng), decoding (encoding_rs) and
//! the decision to take when the parser meets a `<meta>` that disagrees. It
//! does not parse HTML beyond the prescan and knows nothing of the document
//! model. Encodings are encoding_rs's interned statics (`&'static Encoding`),
//! so labels resolve by the Encoding Standard: `ISO-8859-1` is windows-1252
//! as the seed requires, and CESU-8, UTF-7, BOCU-1, SCSU and UTF-32 do not
//! exist, so they are never returned.
//!
//! # How the pieces fit
//!
//! - [`sniff`] takes the bytes and [`Hints`] (what the caller knows: a
//!   `Content-Type`, a user choice, a likely encoding, autodetection settings,
//!   a default) and returns [`Sniffed`]: the encoding, a [`Confidence`] and the
//!   [`Source`] that says which step decided (printable in plain words).
//! - [`decode`] turns the bytes into text with that encoding; [`preprocess`]
//!   (or [`Decoded::preprocess`]) applies the seed's CR/LF and NUL rules and
//!   counts what it replaced.
//! - [`prescan`] / [`Prescan`] is step 4 on its own; [`extract_encoding_from_meta_content`]
//!   reads `charset=` out of a `Content-Type` value.
//! - While parsing, for each `<meta>` the parser meets,
//!   [`meta_declared_encoding`] says what it declares and
//!   [`change_the_encoding`] says whether to keep the encoding, switch decoders
//!   on the fly, or decode again from the start ([`EncodingChange`]).
//!
//! # Example
//!
//! ```
//! use sniff::{Confidence, Hints, decode, sniff};
//!
//! let bytes = b"<!DOCTYPE html>\r\n<meta charset=\"ISO-8859-2\">\r\n<p>Za\xbf\xf3\xb3\xe6 g\xea\xb6l\xb1 ja\xbc\xf1</p>";
//! let sniffed = sniff(bytes, &Hints::default());
//! assert_eq!(sniffed.encoding, encoding_rs::ISO_8859_2);
//! assert_eq!(sniffed.confidence, Confidence::Tentative);
//! assert_eq!(sniffed.to_string(), "ISO-8859-2 (tentative): <meta charset> at byte 17");
//!
//! let decoded = decode(bytes, sniffed.encoding);
//! assert!(!decoded.had_errors);
//! let input = decoded.preprocess();
//! assert_eq!(input.replaced.crlf, 2);
//! assert!(input.text.ends_with("\n<p>Zażółć gęślą jaźń</p>"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Spec mapping
//!
//! | Spec concept (seed 001 §8.2.2 / later standard) | API |
//! |---|---|
//! | encoding sniffing algorithm (§8.2.2.1) | [`sniff`] with [`Hints`] |
//! | confidence: *tentative*, *certain* | [`Confidence`] |
//! | user override (later step 1) | [`Hints::user_override`] |
//! | transport layer charset (seed step 1, later step 3) | [`Hints::transport`], [`Hints::with_content_type`] |
//! | waiting for more bytes (step 2) | the caller passes what it has |
//! | BOM table (seed step 3; later: Encoding Standard "decode") | [`Source::Bom`] |
//! | prescan, the "two step" algorithm (seed step 4, later "prescan a byte stream") | [`prescan`], [`Prescan`], [`PRESCAN_WINDOW`] |
//! | get an attribute | inside [`Prescan::run`] |
//! | prescan step 2, UTF-16 XML declarations (living standard) | [`utf16_xml_declaration`], [`Source::XmlDeclaration`] |
//! | get an XML encoding (living standard, after the `<meta>` loop) | [`get_an_xml_encoding`], [`XmlEncoding`] |
//! | algorithm for extracting an encoding from a Content-Type / `meta` element | [`extract_encoding_from_meta_content`] |
//! | get an encoding (Encoding Standard) | [`Encoding::for_label`] |
//! | likely encoding (seed step 5, later step 6) | [`Hints::likely`] |
//! | autodetection (seed step 6, later step 7) | [`Hints::autodetect`], [`Autodetect`] (chardetng) |
//! | default encoding (seed step 7, later step 8) | the `default` field of [`Hints`], [`Hints::with_default`] |
//! | a "user-specified default" in place of the optional autodetection (later steps 7-8) | [`Hints::user_default`], [`Source::UserDefault`] |
//! | an XML document: its declaration, else UTF-8 (XML 1.0 §4.3.3, Appendix F) | [`Hints::xml`], [`Source::XmlDefault`] |
//! | character encoding requirements (§8.2.2.2) | encoding_rs's set of encodings |
//! | preprocessing the input stream (§8.2.2.3): decode, U+FFFD, one BOM | [`decode`], [`Decoded`] |
//! | preprocessing: NUL, CR LF, lone CR | [`preprocess`], [`Preprocessed`], [`Replacements`] |
//! | `<meta>` "in head" rule that invokes the change (later standard) | [`meta_declared_encoding`] |
//! | changing the encoding while parsing (§8.2.2.4) | [`change_the_encoding`], [`EncodingChange`] |
//!
//! # Later standard (default) versus the seed ([`Rules::Seed2007`])
//!
//! Where the later standard changed an algorithm the seed spells out, the
//! later one is the default ([`Rules::Standard`]) and the seed's is kept:
//!
//! - **Step order.** Later: a BOM overrides everything, even the transport
//!   layer and a user override. Seed: the transport layer comes first, then
//!   the BOM. The later standard also starts with a user override (certain);
//!   the seed has none, and this crate honours it first under both rules.
//! - **Prescan window.** Later: the first [`PRESCAN_WINDOW`] (1024) bytes.
//!   Seed: no fixed limit ([`Prescan::seed2007`] is unbounded; set a window
//!   with [`Hints::prescan_window`]).
//! - **`http-equiv` pragma.** Later: `content="...charset=..."` counts only
//!   with `http-equiv="Content-Type"` on the same `<meta>`, a `charset`
//!   attribute wins over `content`, and a repeated attribute is ignored.
//!   Seed: the first `charset` or `content` attribute that names an encoding
//!   wins, alone.
//! - **Substitutions.** Later: a UTF-16 label found by the prescan means
//!   UTF-8 and `x-user-defined` means windows-1252. Seed: returned as found.
//!   When changing the encoding, both read UTF-16 as UTF-8; only the later
//!   standard keeps a UTF-16 encoding in use and maps `x-user-defined`.
//! - **The XML declaration.** The living standard (since 2021, whatwg/html
//!   pull request 1752; not in HTML 5.2 either) has the prescan answer
//!   UTF-16LE or UTF-16BE when the bytes start with `<?x` in UTF-16, and,
//!   when the `<meta>` loop finds nothing, read `<?xml ... encoding="...">`
//!   at the very start ("get an XML encoding", a UTF-16 label read as
//!   UTF-8). [`Rules::Standard`] does both ([`Source::XmlDeclaration`],
//!   tentative); the seed has neither. The declaration is read to its first
//!   `>` even past the prescan's 1024 bytes, as browsers read it (the
//!   web-platform-tests `html/syntax/xmldecl` cases
//!   `kilobyte-plus-one-*.htm`).
//! - **Spaces.** The seed counts VT (0x0B) as a space; the later standard
//!   does not. `<meta` must be followed by a space in the seed, by a space or
//!   `/` later.
//! - **`<` inside tags.** The seed's "get an attribute" stops at `<` (and the
//!   tag skipper starts over there); the later standard treats `<` as an
//!   ordinary byte.
//! - **Quotes.** Later: the position moves past a closing quote. Seed: it
//!   stays on it, so `a="x"charset=y` reads a second attribute `"charset`.
//! - **Extracting `charset=`.** Later: a `charset` not followed by `=` does
//!   not end the search. Seed (the 2007 drafts' text, which seed 001 only
//!   names): it returns nothing there.
//!
//! Obvious typos in the seed, fixed under both rules:
//!
//! - "Get an attribute" step 11 appends the first byte of an unquoted value
//!   without advancing, so step 12 would append it twice (`uutf-8`); we
//!   advance, as the later standard does.
//! - The `<meta` branch ends with "return to step 1", which would jump to the
//!   next space anywhere in the document; we return to step 2 (get the next
//!   attribute), as the later standard does.
//!
//! # How much chardetng reads
//!
//! chardetng runs every byte through 27 candidate models: once non-ASCII
//! text starts it reads about 5 to 15 MB/s here, so feeding it whole
//! documents costs more than parsing them. (The ASCII run before the first
//! non-ASCII byte is skipped at memory speed, and an all-ASCII document is
//! never given to it: every candidate reads ASCII alike, the default applies.
//! The one 7-bit candidate, ISO-2022-JP, is the exception: bytes that hold
//! its escape sequences, ESC `$` or ESC `(`, go to the detector from the
//! first of them, with ISO-2022-JP allowed, and skip the UTF-8 shortcut
//! below. Without such a sequence ISO-2022-JP is never guessed.)
//!
//! When UTF-8 may be guessed ([`Utf8Guess::Allow`]) and the bytes chardetng
//! would examine are valid UTF-8, chardetng's answer would be UTF-8, so it is
//! not run at all: validating UTF-8 costs a fraction of a millisecond where
//! the detector costs several.
//!
//! `examples/chardet_stability.rs` measures, for growing N, the guess after
//! N bytes past the first non-ASCII byte against the guess on the whole
//! input. On 22 inputs (man pages in Japanese, Korean, Russian, Polish,
//! Czech, Hungarian, German, French, Spanish and Turkish wrapped in real page
//! markup and encoded in their legacy encodings; a 1.4 MB Wikipedia page in
//! UTF-8 and in windows-1252; Debian documentation pages in windows-1252;
//! html5lib's Big5 text; the html5lib Yahoo! JAPAN head):
//!
//! - dense text (CJK, Cyrillic, Central European, any UTF-8) gets its final
//!   guess from the first 64 bytes on;
//! - Western pages with sparse non-ASCII are the hard case. The Wikipedia
//!   page was guessed windows-1250 at +4 and +8 KiB and settled from +16 KiB
//!   (72 non-ASCII bytes read); the Debian Python policy (82 non-ASCII bytes
//!   in 88 KB, mostly `¶`) was guessed ISO-8859-2 up to +16 KiB and settled
//!   from +32 KiB (18 non-ASCII bytes read).
//!
//! So what the detector needs is non-ASCII evidence, and when there is
//! little of it, distance. By default ([`Autodetect::default`]) it reads
//! 4 KiB chunks and stops after [`AUTODETECT_ENOUGH_NON_ASCII`] (256)
//! non-ASCII bytes, 3.5 times the most any input needed, or
//! [`AUTODETECT_MAX_BYTES`] (64 KiB) past the first non-ASCII byte, twice the
//! farthest, whichever comes first. With these settings `sniff` gave the
//! whole-input guess on all 22 inputs, in 0.2 to 1.1 ms for the dense legacy
//! pages (3 to 12 ms whole) and at most about 14 ms for the sparse ones (a
//! 550 KB page took 111 ms whole). A prefix can only mislead the UTF-8 test
//! when every non-ASCII byte of a legacy page in it happens to form valid
//! UTF-8, which needs very few of them.
//!
//! # Panics
//!
//! Nothing here panics on any input: every function is total over all byte
//! strings and hints, takes time linear in the bytes it reads, and never
//! recurses. A panic would be a bug.
//!
//! # Features
//!
//! - `serde`: `Serialize` for [`Sniffed`] (the encoding as its WHATWG name,
//!   e.g. `{"encoding":"EUC-JP","confidence":"tentative","source":{"kind":"meta",
//!   "offset":112,"declaration":"charset"}}`), [`Source`],
//!   [`Confidence`], [`Rules`], [`MetaDeclaration`], [`KeepReason`] and
//!   [`Replacements`].

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod change;
mod decode;
mod meta;
mod prescan;
mod sniffing;
mod xmldecl;

pub use encoding_rs::Encoding;

pub use change::{EncodingChange, KeepReason, change_the_encoding};
pub use decode::{Decoded, Preprocessed, Replacements, decode, preprocess};
pub use meta::{extract_encoding_from_meta_content, meta_declared_encoding};
pub use prescan::{MetaCharset, MetaDeclaration, PRESCAN_WINDOW, Prescan, prescan};
pub use sniffing::{
    AUTODETECT_ENOUGH_NON_ASCII, AUTODETECT_MAX_BYTES, Autodetect, Confidence, Hints, Rules,
    Sniffed, Source, Utf8Guess, sniff,
};
pub use xmldecl::{XmlEncoding, get_an_xml_encoding, utf16_xml_declaration};

/// Serialises an encoding as its WHATWG name.
#[cfg(feature = "serde")]
fn serde_name<S: serde::Serializer>(
    encoding: &&'static Encoding,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(encoding.name())
}

/// Serialises an optional encoding as its WHATWG name or `null`.
#[cfg(feature = "serde")]
fn serde_optional_name<S: serde::Serializer>(
    encoding: &Option<&'static Encoding>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match encoding {
        Some(encoding) => serializer.serialize_str(encoding.name()),
        None => serializer.serialize_none(),
    }
}
