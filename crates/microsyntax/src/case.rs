//! Case-sensitivity: seed 002 §2.3. Comparison operators and case
//! conversions for strings.
//!
//! The ASCII operators touch only U+0041–U+005A and U+0061–U+007A. The
//! compatibility caseless match is Unicode's definition D146:
//! `NFKD(toCasefold(NFKD(toCasefold(NFD(X)))))` of both strings compared code
//! point for code point, implemented over tables generated from the Unicode
//! Character Database (see `tools/gen_unicode_tables.py`).

use crate::unicode_tables::{
    CANONICAL_DECOMPOSITION, CANONICAL_DECOMPOSITION_POOL, CASE_FOLDING, CASE_FOLDING_POOL,
    COMBINING_CLASS, COMPATIBILITY_DECOMPOSITION, COMPATIBILITY_DECOMPOSITION_POOL,
};

/// The Unicode version of the data behind [`compatibility_caseless_eq`].
pub const UNICODE_VERSION: &str = crate::unicode_tables::UNICODE_VERSION;

/// Spec: seed 002 §2.3 "case-sensitive": exact comparison, code point for
/// code point.
///
/// ```
/// assert!(!microsyntax::eq_case_sensitive("Auto", "auto"));
/// ```
pub fn eq_case_sensitive(a: &str, b: &str) -> bool {
    a == b
}

/// Spec: seed 002 §2.3 "ASCII case-insensitive": exact comparison except
/// that A–Z and a–z match each other. Other letters must match exactly.
///
/// ```
/// assert!(microsyntax::eq_ascii_case_insensitive("CheckBox", "checkbox"));
/// assert!(!microsyntax::eq_ascii_case_insensitive("É", "é"));
/// ```
pub fn eq_ascii_case_insensitive(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// Spec: seed 002 §2.3 "converting a string to uppercase": a–z become A–Z;
/// nothing else changes.
///
/// ```
/// assert_eq!(microsyntax::to_ascii_uppercase("straße"), "STRAßE");
/// ```
pub fn to_ascii_uppercase(s: &str) -> String {
    s.to_ascii_uppercase()
}

/// Spec: seed 002 §2.3 "converting a string to lowercase": A–Z become a–z;
/// nothing else changes.
///
/// ```
/// assert_eq!(microsyntax::to_ascii_lowercase("ÅNGSTRÖM"), "ÅngstrÖm");
/// ```
pub fn to_ascii_lowercase(s: &str) -> String {
    s.to_ascii_lowercase()
}

/// Spec: seed 002 §2.3 "compatibility caseless": the Unicode compatibility
/// caseless match (Unicode §3.13, D146). Both strings are normalized with
/// [`compatibility_caseless_key`] and compared.
///
/// ```
/// use microsyntax::compatibility_caseless_eq;
/// assert!(compatibility_caseless_eq("STRASSE", "straße"));
/// assert!(compatibility_caseless_eq("ﬁle", "FILE")); // U+FB01 LATIN SMALL LIGATURE FI
/// assert!(compatibility_caseless_eq("Å", "a\u{30A}"));
/// assert!(!compatibility_caseless_eq("a", "b"));
/// ```
pub fn compatibility_caseless_eq(a: &str, b: &str) -> bool {
    // A fast path for the common case of ASCII strings.
    if a.is_ascii() && b.is_ascii() {
        return a.eq_ignore_ascii_case(b);
    }
    compatibility_caseless_key(a) == compatibility_caseless_key(b)
}

/// The string two compatibility-caseless-equal strings share:
/// `NFKD(toCasefold(NFKD(toCasefold(NFD(s)))))`, with full case folding.
/// Useful as a map key when many strings are compared.
///
/// ```
/// assert_eq!(microsyntax::compatibility_caseless_key("Ⅻ"), "xii"); // U+216B ROMAN NUMERAL TWELVE
/// ```
pub fn compatibility_caseless_key(s: &str) -> String {
    let mut buffer: Vec<char> = Vec::with_capacity(s.len());
    let mut scratch: Vec<char> = Vec::with_capacity(s.len());
    // NFD(s)
    decompose(s.chars(), Decomposition::Canonical, &mut buffer);
    // NFKD(toCasefold(·)), twice.
    for _ in 0..2 {
        scratch.clear();
        case_fold(&buffer, &mut scratch);
        buffer.clear();
        decompose(
            scratch.iter().copied(),
            Decomposition::Compatibility,
            &mut buffer,
        );
    }
    buffer.into_iter().collect()
}

#[derive(Clone, Copy)]
enum Decomposition {
    Canonical,
    Compatibility,
}

/// Looks `c` up in a `(code point, start, length)` table over `pool`.
fn lookup(table: &[(u32, u32, u8)], pool: &'static str, c: char) -> Option<&'static str> {
    let i = table.binary_search_by_key(&(c as u32), |row| row.0).ok()?;
    let &(_, start, len) = table.get(i)?;
    let start = start as usize;
    pool.get(start..start + len as usize)
}

fn combining_class(c: char) -> u8 {
    let cp = c as u32;
    let i = COMBINING_CLASS.partition_point(|&(_, last, _)| last < cp);
    match COMBINING_CLASS.get(i) {
        Some(&(first, _, class)) if first <= cp => class,
        _ => 0,
    }
}

const HANGUL_S_BASE: u32 = 0xAC00;
const HANGUL_L_BASE: u32 = 0x1100;
const HANGUL_V_BASE: u32 = 0x1161;
const HANGUL_T_BASE: u32 = 0x11A7;
const HANGUL_T_COUNT: u32 = 28;
const HANGUL_N_COUNT: u32 = 21 * HANGUL_T_COUNT;
const HANGUL_S_COUNT: u32 = 19 * HANGUL_N_COUNT;

/// Full decomposition of every character, then the canonical ordering of
/// each run of non-starters (a stable sort by combining class, so hostile
/// runs of marks cost O(n log n)).
fn decompose(chars: impl Iterator<Item = char>, kind: Decomposition, out: &mut Vec<char>) {
    for c in chars {
        let s_index = (c as u32).wrapping_sub(HANGUL_S_BASE);
        if s_index < HANGUL_S_COUNT {
            // Hangul syllables decompose algorithmically (Unicode §3.12).
            let l = HANGUL_L_BASE + s_index / HANGUL_N_COUNT;
            let v = HANGUL_V_BASE + (s_index % HANGUL_N_COUNT) / HANGUL_T_COUNT;
            let t = HANGUL_T_BASE + s_index % HANGUL_T_COUNT;
            out.extend([l, v].into_iter().filter_map(char::from_u32));
            if t != HANGUL_T_BASE {
                out.extend(char::from_u32(t));
            }
            continue;
        }
        let mapped = match kind {
            Decomposition::Canonical => {
                lookup(CANONICAL_DECOMPOSITION, CANONICAL_DECOMPOSITION_POOL, c)
            }
            Decomposition::Compatibility => lookup(
                COMPATIBILITY_DECOMPOSITION,
                COMPATIBILITY_DECOMPOSITION_POOL,
                c,
            ),
        };
        match mapped {
            Some(m) => out.extend(m.chars()),
            None => out.push(c),
        }
    }
    canonical_ordering(out);
}

fn canonical_ordering(chars: &mut [char]) {
    let mut i = 0;
    while i < chars.len() {
        let run = chars
            .get(i..)
            .unwrap_or(&[])
            .iter()
            .take_while(|&&c| combining_class(c) != 0)
            .count();
        if run > 1
            && let Some(slice) = chars.get_mut(i..i + run)
        {
            slice.sort_by_key(|&c| combining_class(c));
        }
        i += run.max(1);
    }
}

fn case_fold(chars: &[char], out: &mut Vec<char>) {
    for &c in chars {
        match lookup(CASE_FOLDING, CASE_FOLDING_POOL, c) {
            Some(m) => out.extend(m.chars()),
            None => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_operators() {
        assert!(eq_ascii_case_insensitive("", ""));
        assert!(eq_ascii_case_insensitive("aBc", "AbC"));
        assert!(!eq_ascii_case_insensitive("a", "aa"));
        assert!(!eq_ascii_case_insensitive("ı", "I")); // dotless i is not ASCII
        assert_eq!(to_ascii_lowercase("ÀBC"), "Àbc");
        assert!(eq_case_sensitive("x", "x"));
    }

    #[test]
    fn compatibility_caseless() {
        // Full case folding: ß folds to "ss".
        assert!(compatibility_caseless_eq("Maße", "MASSE"));
        // Compatibility decomposition: fullwidth letters, superscripts.
        assert!(compatibility_caseless_eq("ＡＢＣ", "abc"));
        assert!(compatibility_caseless_eq("x²", "x2"));
        // Canonical equivalence: precomposed and decomposed forms.
        assert!(compatibility_caseless_eq("É", "e\u{301}"));
        // Hangul syllables against their jamo.
        assert!(compatibility_caseless_eq("한", "\u{1112}\u{1161}\u{11AB}"));
        // U+0345 COMBINING GREEK YPOGEGRAMMENI folds to iota: the reason for
        // the NFD before the first case fold.
        assert!(compatibility_caseless_eq("\u{1FB3}", "\u{3B1}\u{3B9}"));
        // Marks in a different order but of different classes are equal.
        assert!(compatibility_caseless_eq(
            "a\u{323}\u{301}",
            "a\u{301}\u{323}"
        ));
        assert!(!compatibility_caseless_eq("é", "e"));
    }

    #[test]
    fn long_run_of_marks_is_fine() {
        let marks: String = std::iter::repeat_n("\u{301}\u{323}", 50_000).collect();
        let key = compatibility_caseless_key(&marks);
        assert_eq!(key.chars().count(), 100_000);
        assert!(key.starts_with('\u{323}'));
    }

    #[test]
    fn unicode_version_is_recorded() {
        assert!(!UNICODE_VERSION.is_empty());
    }
}
