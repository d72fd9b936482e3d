//! Changing the encoding while parsing: what to do when the parser meets a
//! `<meta>` that declares another encoding than the tentative one in use.
//!
//! Spec: seed 001 §8.2.2.4 steps 1 to 4; later standard: HTML 5.2 §8.2.2.4
//! "Changing the encoding while parsing", steps 1 to 6 (it adds "UTF-16 in use
//! stays" and "x-user-defined means windows-1252").

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252, X_USER_DEFINED};

use crate::prescan::is_utf16;
use crate::{Confidence, Rules};

/// Why [`change_the_encoding`] keeps the encoding in use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum KeepReason {
    /// The confidence was already certain: the parser does not change the
    /// encoding at all then.
    AlreadyCertain,
    /// The document is being read as UTF-16; a declaration read through it
    /// can only be wrong (later standard step 1).
    InUseIsUtf16,
    /// The declaration names the encoding in use (after the UTF-16 and
    /// x-user-defined substitutions).
    SameEncoding,
}

/// What the parser must do about an encoding found while parsing. In every
/// case the confidence becomes certain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use = "the parser must act on the decision"]
pub enum EncodingChange {
    /// Go on with the encoding in use.
    Keep(KeepReason),
    /// The bytes decoded so far mean the same in both encodings: switch the
    /// decoder to this encoding for the rest of the input, keep what was parsed.
    SwitchOnTheFly(&'static Encoding),
    /// Throw away what was parsed and decode the whole input again from the
    /// start with this encoding, skipping the sniffing algorithm.
    Reparse(&'static Encoding),
}

impl EncodingChange {
    /// The encoding the parser goes on with, given the one in use.
    pub fn encoding(&self, in_use: &'static Encoding) -> &'static Encoding {
        match *self {
            EncodingChange::Keep(_) => in_use,
            EncodingChange::SwitchOnTheFly(e) | EncodingChange::Reparse(e) => e,
        }
    }
}

/// <https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing>
///
/// The parser, reading with `in_use` at `confidence`, met a `<meta>` that
/// declares `found` (see [`meta_declared_encoding`](crate::meta_declared_encoding)).
/// `converted` is every byte the current decoder has converted so far, from
/// the start of the input. The answer says whether to keep the encoding,
/// switch decoders on the fly, or decode everything again.
///
/// The seed and the later standard agree that UTF-16 found means UTF-8 and
/// that the same encoding is kept; the later standard also keeps a UTF-16
/// encoding in use and reads x-user-defined as windows-1252.
///
/// Switching on the fly (step 3 of the seed, 5 of the later standard) is
/// allowed when the bytes converted so far decode to the same text, without
/// errors, in both encodings: quick when they are ASCII and both encodings
/// are ASCII-compatible, otherwise both decodings are compared.
///
/// ```
/// use encoding_rs::{ISO_8859_2, WINDOWS_1252};
/// use sniff::{Confidence, EncodingChange, Rules, change_the_encoding};
///
/// let head = b"<!DOCTYPE html><title>x</title>";
/// let change = change_the_encoding(WINDOWS_1252, Confidence::Tentative, ISO_8859_2, head, Rules::Standard);
/// assert_eq!(change, EncodingChange::SwitchOnTheFly(ISO_8859_2));
///
/// let head = "<title>Łódź</title>".as_bytes(); // not ASCII: reads differently
/// let change = change_the_encoding(WINDOWS_1252, Confidence::Tentative, ISO_8859_2, head, Rules::Standard);
/// assert_eq!(change, EncodingChange::Reparse(ISO_8859_2));
/// ```
pub fn change_the_encoding(
    in_use: &'static Encoding,
    confidence: Confidence,
    found: &'static Encoding,
    converted: &[u8],
    rules: Rules,
) -> EncodingChange {
    // The parser only runs these steps while the confidence is tentative.
    if confidence == Confidence::Certain {
        return EncodingChange::Keep(KeepReason::AlreadyCertain);
    }
    let standard = rules == Rules::Standard;
    // Later step 1: a UTF-16 encoding in use stays; the declaration is wrong.
    if standard && is_utf16(in_use) {
        return EncodingChange::Keep(KeepReason::InUseIsUtf16);
    }
    // Seed step 1 / later step 2: UTF-16 found means UTF-8.
    let mut found = if is_utf16(found) { UTF_8 } else { found };
    // Later step 3: x-user-defined means windows-1252.
    if standard && found == X_USER_DEFINED {
        found = WINDOWS_1252;
    }
    // Seed step 2 / later step 4: the same encoding: keep it, now certain.
    if found == in_use {
        return EncodingChange::Keep(KeepReason::SameEncoding);
    }
    // Seed step 3 / later step 5: same reading of the bytes so far: switch.
    if same_interpretation(in_use, found, converted) {
        return EncodingChange::SwitchOnTheFly(found);
    }
    // Seed step 4 / later step 6: decode again from the start.
    EncodingChange::Reparse(found)
}

/// Whether `bytes` decode to the same text, with no malformed sequence, in
/// both encodings.
fn same_interpretation(a: &'static Encoding, b: &'static Encoding, bytes: &[u8]) -> bool {
    if a.is_ascii_compatible()
        && b.is_ascii_compatible()
        && Encoding::ascii_valid_up_to(bytes) == bytes.len()
    {
        return true;
    }
    match (
        a.decode_without_bom_handling_and_without_replacement(bytes),
        b.decode_without_bom_handling_and_without_replacement(bytes),
    ) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use encoding_rs::{
        EUC_JP, ISO_2022_JP, ISO_8859_2, REPLACEMENT, SHIFT_JIS, UTF_16BE, UTF_16LE,
    };

    use super::*;
    use EncodingChange::{Keep, Reparse, SwitchOnTheFly};

    const ASCII: &[u8] = b"<!DOCTYPE html><html><head><title>t</title>";

    #[track_caller]
    fn check(
        rules: Rules,
        in_use: &'static Encoding,
        found: &'static Encoding,
        converted: &[u8],
        expect: EncodingChange,
    ) {
        let got = change_the_encoding(in_use, Confidence::Tentative, found, converted, rules);
        assert_eq!(got, expect, "{} -> {}", in_use.name(), found.name());
    }

    #[test]
    fn nothing_changes_once_certain() {
        let got = change_the_encoding(
            WINDOWS_1252,
            Confidence::Certain,
            UTF_8,
            ASCII,
            Rules::Standard,
        );
        assert_eq!(got, Keep(KeepReason::AlreadyCertain));
    }

    #[test]
    fn later_step_1_utf16_in_use_stays() {
        check(
            Rules::Standard,
            UTF_16LE,
            UTF_8,
            ASCII,
            Keep(KeepReason::InUseIsUtf16),
        );
        check(
            Rules::Standard,
            UTF_16BE,
            ISO_8859_2,
            ASCII,
            Keep(KeepReason::InUseIsUtf16),
        );
        // Not in the seed: there, UTF-8 found is another encoding.
        check(Rules::Seed2007, UTF_16LE, UTF_8, b"", SwitchOnTheFly(UTF_8));
        check(Rules::Seed2007, UTF_16LE, UTF_8, b"<\0", Reparse(UTF_8));
    }

    #[test]
    fn utf16_found_means_utf8() {
        for rules in [Rules::Standard, Rules::Seed2007] {
            check(
                rules,
                UTF_8,
                UTF_16LE,
                ASCII,
                Keep(KeepReason::SameEncoding),
            );
            check(rules, WINDOWS_1252, UTF_16BE, ASCII, SwitchOnTheFly(UTF_8));
        }
    }

    #[test]
    fn later_step_3_x_user_defined_means_windows_1252() {
        check(
            Rules::Standard,
            WINDOWS_1252,
            X_USER_DEFINED,
            ASCII,
            Keep(KeepReason::SameEncoding),
        );
        check(
            Rules::Seed2007,
            WINDOWS_1252,
            X_USER_DEFINED,
            ASCII,
            SwitchOnTheFly(X_USER_DEFINED),
        );
    }

    #[test]
    fn the_same_encoding_is_kept() {
        for rules in [Rules::Standard, Rules::Seed2007] {
            check(
                rules,
                SHIFT_JIS,
                SHIFT_JIS,
                b"\x82\xa0",
                Keep(KeepReason::SameEncoding),
            );
        }
    }

    #[test]
    fn same_reading_so_far_switches_on_the_fly() {
        for rules in [Rules::Standard, Rules::Seed2007] {
            check(
                rules,
                WINDOWS_1252,
                ISO_8859_2,
                ASCII,
                SwitchOnTheFly(ISO_8859_2),
            );
            check(rules, WINDOWS_1252, EUC_JP, b"", SwitchOnTheFly(EUC_JP));
            // Non-ASCII bytes that happen to read the same in both.
            check(
                rules,
                WINDOWS_1252,
                ISO_8859_2,
                b"\xe9\xf3",
                SwitchOnTheFly(ISO_8859_2),
            );
            // ISO-2022-JP reads plain ASCII as ASCII too.
            check(
                rules,
                WINDOWS_1252,
                ISO_2022_JP,
                ASCII,
                SwitchOnTheFly(ISO_2022_JP),
            );
        }
    }

    #[test]
    fn different_reading_so_far_means_a_reparse() {
        for rules in [Rules::Standard, Rules::Seed2007] {
            // 0xB1 is U+00B1 in windows-1252, U+0105 in ISO-8859-2.
            check(
                rules,
                WINDOWS_1252,
                ISO_8859_2,
                b"<p>\xb1",
                Reparse(ISO_8859_2),
            );
            // Malformed in the new encoding.
            check(rules, WINDOWS_1252, UTF_8, b"<p>\xe9", Reparse(UTF_8));
            // The replacement encoding reads nothing the same.
            check(
                rules,
                WINDOWS_1252,
                REPLACEMENT,
                ASCII,
                Reparse(REPLACEMENT),
            );
        }
    }

    #[test]
    fn the_decision_names_the_encoding_to_go_on_with() {
        assert_eq!(Keep(KeepReason::SameEncoding).encoding(UTF_8), UTF_8);
        assert_eq!(Reparse(SHIFT_JIS).encoding(UTF_8), SHIFT_JIS);
        assert_eq!(SwitchOnTheFly(EUC_JP).encoding(UTF_8), EUC_JP);
    }
}
