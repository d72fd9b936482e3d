//! The prescan: looking for a `<meta>` encoding declaration in the first bytes
//! of a document without parsing it.
//!
//! Spec: seed 001 §8.2.2.1 step 4 (the "two step" algorithm and "get an
//! attribute"); later standard: "prescan a byte stream to determine its
//! encoding" and "get an attribute" (HTML 5.2 §8.2.2.2). The two differ in a
//! handful of places; [`Rules`] picks one, and every difference is marked
//! `// Seed:` / `// Later standard:` where the code branches.
//!
//! The scanner is a loop over a byte position. Every branch moves the position
//! forward (the seed's "move back one byte" only ever undoes the byte just
//! consumed), so the work is linear in the window. Attribute names and values
//! are kept in two reused buffers; only three names matter, so the later
//! standard's "attribute list" is three flags.

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252, X_USER_DEFINED};

use crate::Rules;
use crate::meta::extract_encoding_from_meta_content;

/// How many bytes the later standard's prescan looks at: "the first 1024 bytes".
pub const PRESCAN_WINDOW: usize = 1024;

/// Which attribute of a `<meta>` element declared the encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum MetaDeclaration {
    /// `<meta charset="...">`.
    Charset,
    /// `<meta content="...; charset=...">`, which the later standard honours
    /// only together with `http-equiv="Content-Type"` (the pragma); the seed
    /// honours `content` alone.
    Pragma,
}

/// What the prescan found: the `<meta>` that declares the encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetaCharset {
    /// The encoding to use. Under [`Rules::Standard`] a UTF-16 declaration
    /// is already turned into UTF-8 and `x-user-defined` into windows-1252.
    pub encoding: &'static Encoding,
    /// The encoding the label names, before those two substitutions.
    pub declared: &'static Encoding,
    /// Byte offset of the `<` that opens the `<meta` tag.
    pub offset: usize,
    /// Which attribute carried the label.
    pub declaration: MetaDeclaration,
}

/// A configured prescan: which rules and how many bytes.
///
/// ```
/// use sniff::{Prescan, MetaDeclaration};
///
/// let found = Prescan::standard().run(b"<!DOCTYPE html><meta charset=euc-jp>").unwrap();
/// assert_eq!(found.encoding, encoding_rs::EUC_JP);
/// assert_eq!(found.offset, 15);
/// assert_eq!(found.declaration, MetaDeclaration::Charset);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Prescan {
    /// Which version of the algorithm runs.
    pub rules: Rules,
    /// Bytes past this many are never looked at; a declaration that does not
    /// end inside the window is not found.
    pub window: usize,
}

impl Default for Prescan {
    fn default() -> Self {
        Prescan::standard()
    }
}

impl Prescan {
    /// The later standard's prescan over [`PRESCAN_WINDOW`] bytes: the default.
    pub const fn standard() -> Self {
        Prescan {
            rules: Rules::Standard,
            window: PRESCAN_WINDOW,
        }
    }

    /// The seed's 2007 prescan. The seed sets no byte limit (it lets the user
    /// agent stop when scanning further "would not be efficient"), so the
    /// window is unbounded; set [`window`](Self::window) to bound it.
    pub const fn seed2007() -> Self {
        Prescan {
            rules: Rules::Seed2007,
            window: usize::MAX,
        }
    }

    /// The same prescan with another window.
    #[must_use]
    pub const fn with_window(self, window: usize) -> Self {
        Prescan { window, ..self }
    }

    /// The prescan for `rules` with that version's own window
    /// ([`PRESCAN_WINDOW`] for the later standard, unbounded for the seed).
    pub const fn for_rules(rules: Rules) -> Self {
        match rules {
            Rules::Standard => Prescan::standard(),
            Rules::Seed2007 => Prescan::seed2007(),
        }
    }

    /// Runs the prescan on the start of `bytes`. `None` means the algorithm
    /// aborted unsuccessfully: no usable declaration ends inside the window.
    pub fn run(&self, bytes: &[u8]) -> Option<MetaCharset> {
        let end = bytes.len().min(self.window);
        let mut scanner = Scanner {
            bytes: bytes.get(..end).unwrap_or(bytes),
            pos: 0,
            rules: self.rules,
            name: Vec::new(),
            value: Vec::new(),
        };
        scanner.run()
    }
}

/// The later standard's prescan of the first 1024 bytes: shorthand for
/// `Prescan::standard().run(bytes)`.
///
/// ```
/// let found = sniff::prescan(b"<meta http-equiv=content-type content='text/html; charset=koi8-r'>");
/// assert_eq!(found.map(|m| m.encoding), Some(encoding_rs::KOI8_R));
/// ```
pub fn prescan(bytes: &[u8]) -> Option<MetaCharset> {
    Prescan::standard().run(bytes)
}

/// The position ran past the last byte available (or past the window):
/// the whole prescan aborts unsuccessfully.
struct OutOfBytes;

type Step<T> = Result<T, OutOfBytes>;

/// What the main loop does after one examination of the byte at `pos`.
enum Flow {
    /// Go on with the "next byte" step.
    NextByte,
    /// Seed only: examine the byte at `pos` again without moving.
    Again,
    /// A declaration was found: the prescan returns it.
    Found(MetaCharset),
}

/// The later standard's `charset` variable of the `<meta>` branch.
enum Charset {
    Null,
    Failure,
    Found(&'static Encoding, MetaDeclaration),
}

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
    rules: Rules,
    /// The attribute name of the last "get an attribute", lowercased.
    name: Vec<u8>,
    /// The attribute value of the last "get an attribute", lowercased.
    value: Vec<u8>,
}

impl Scanner<'_> {
    fn at(&self) -> Step<u8> {
        self.bytes.get(self.pos).copied().ok_or(OutOfBytes)
    }

    fn rest(&self) -> &[u8] {
        self.bytes.get(self.pos..).unwrap_or(&[])
    }

    /// The space characters of each version: the seed counts VT (0x0B), the
    /// later standard does not.
    fn is_space(&self, b: u8) -> bool {
        match self.rules {
            Rules::Standard => matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' '),
            Rules::Seed2007 => matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' '),
        }
    }

    fn run(&mut self) -> Option<MetaCharset> {
        loop {
            match self.examine() {
                Ok(Flow::Found(found)) => return Some(found),
                Ok(Flow::Again) => {}
                Ok(Flow::NextByte) => {
                    // Step "Next byte": move to the next byte and loop. Only
                    // a `<` starts anything `examine` acts on; every other
                    // byte is passed over, so go straight to the next `<`.
                    self.pos += 1;
                    match self.rest().iter().position(|&b| b == b'<') {
                        Some(skip) => self.pos += skip,
                        None => return None,
                    }
                }
                Err(OutOfBytes) => return None,
            }
            if self.pos >= self.bytes.len() {
                // Ran out of bytes: abort unsuccessfully.
                return None;
            }
        }
    }

    /// Seed step 4 substep 1 / later standard step 2 ("Loop"): look at what
    /// starts at `pos`.
    fn examine(&mut self) -> Step<Flow> {
        let rest = self.rest();
        if rest.starts_with(b"<!--") {
            // Comment: go to the `>` of the first `-->` after the `<`; its
            // dashes may be those of `<!--` itself.
            let dashes = find(rest.get(2..).unwrap_or(&[]), b"-->").ok_or(OutOfBytes)?;
            self.pos += 2 + dashes + 2;
            return Ok(Flow::NextByte);
        }
        if self.is_meta_start(rest) {
            return self.meta();
        }
        let tag = match rest {
            [b'<', b'/', c, ..] | [b'<', c, ..] => c.is_ascii_alphabetic(),
            _ => false,
        };
        if tag {
            return self.other_tag();
        }
        if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            // Go to the first `>` after the `<`.
            let gt = rest
                .iter()
                .skip(1)
                .position(|&b| b == b'>')
                .ok_or(OutOfBytes)?;
            self.pos += 1 + gt;
            return Ok(Flow::NextByte);
        }
        // Any other byte: do nothing with it.
        Ok(Flow::NextByte)
    }

    /// `<meta` followed by a space (seed: TAB, LF, VT, FF, CR, space) or by a
    /// space or `/` (later standard: TAB, LF, FF, CR, space, `/`).
    fn is_meta_start(&self, rest: &[u8]) -> bool {
        match rest {
            [b'<', m, e, t, a, next, ..] => {
                m.eq_ignore_ascii_case(&b'm')
                    && e.eq_ignore_ascii_case(&b'e')
                    && t.eq_ignore_ascii_case(&b't')
                    && a.eq_ignore_ascii_case(&b'a')
                    && match self.rules {
                        Rules::Standard => self.is_space(*next) || *next == b'/',
                        Rules::Seed2007 => self.is_space(*next),
                    }
            }
            _ => false,
        }
    }

    fn meta(&mut self) -> Step<Flow> {
        let offset = self.pos;
        // Step 1: go to the space (or slash) after `<meta`.
        self.pos += 5;
        match self.rules {
            Rules::Standard => self.meta_standard(offset),
            Rules::Seed2007 => self.meta_seed(offset),
        }
    }

    /// Later standard, `<meta` branch, steps 2 to 16.
    fn meta_standard(&mut self, offset: usize) -> Step<Flow> {
        // Steps 2-5. The attribute list only matters for the three names
        // below, so it is kept as three flags.
        let (mut seen_http_equiv, mut seen_content, mut seen_charset) = (false, false, false);
        let mut got_pragma = false;
        let mut need_pragma: Option<bool> = None;
        let mut charset = Charset::Null;
        // Step 6 ("Attributes"): get an attribute; none means "Processing".
        while self.get_attribute()? {
            // Steps 7-9: a repeated name is skipped, the first one counts.
            match self.name.as_slice() {
                b"http-equiv" if !seen_http_equiv => {
                    seen_http_equiv = true;
                    if self.value == b"content-type" {
                        got_pragma = true;
                    }
                }
                b"content" if !seen_content => {
                    seen_content = true;
                    if let Some(found) = extract_encoding_from_meta_content(&self.value, self.rules)
                        && matches!(charset, Charset::Null)
                    {
                        charset = Charset::Found(found, MetaDeclaration::Pragma);
                        need_pragma = Some(true);
                    }
                }
                b"charset" if !seen_charset => {
                    seen_charset = true;
                    charset = match Encoding::for_label(&self.value) {
                        Some(found) => Charset::Found(found, MetaDeclaration::Charset),
                        None => Charset::Failure,
                    };
                    need_pragma = Some(false);
                }
                _ => {}
            }
            // Step 10: back to "Attributes".
        }
        // Steps 11-13 ("Processing"): nothing usable means "Next byte".
        let Charset::Found(declared, declaration) = charset else {
            return Ok(Flow::NextByte);
        };
        match need_pragma {
            None => return Ok(Flow::NextByte),
            Some(true) if !got_pragma => return Ok(Flow::NextByte),
            Some(_) => {}
        }
        // Steps 14-15: UTF-16 means UTF-8, x-user-defined means windows-1252.
        let encoding = if is_utf16(declared) {
            UTF_8
        } else if declared == X_USER_DEFINED {
            WINDOWS_1252
        } else {
            declared
        };
        // Step 16: return it.
        Ok(Flow::Found(MetaCharset {
            encoding,
            declared,
            offset,
            declaration,
        }))
    }

    /// Seed, `<meta` branch, substeps 2 to 4.
    fn meta_seed(&mut self, offset: usize) -> Step<Flow> {
        // Substep 2: get an attribute; none means "move to the next byte".
        // Interpretation: substep 4 says "return to step 1", which would skip
        // to the next space anywhere in the document; we return to substep 2
        // (get the next attribute), which is what the later standard says.
        while self.get_attribute()? {
            // Substep 3: examine the name.
            let found = match self.name.as_slice() {
                b"charset" => {
                    Encoding::for_label(&self.value).map(|e| (e, MetaDeclaration::Charset))
                }
                b"content" => extract_encoding_from_meta_content(&self.value, self.rules)
                    .map(|e| (e, MetaDeclaration::Pragma)),
                _ => None,
            };
            if let Some((encoding, declaration)) = found {
                // A supported encoding: return it as it is (the seed has no
                // UTF-16 or x-user-defined substitution here).
                return Ok(Flow::Found(MetaCharset {
                    encoding,
                    declared: encoding,
                    offset,
                    declaration,
                }));
            }
        }
        Ok(Flow::NextByte)
    }

    /// A start or end tag other than `<meta`: skip its name, then its
    /// attributes (so that a `>` inside a quoted value does not end it).
    fn other_tag(&mut self) -> Step<Flow> {
        // Substep 1: go to the next space or `>` (seed: or `<`).
        let rules = self.rules;
        let stop = |b: u8| match rules {
            Rules::Standard => matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' ' | b'>'),
            Rules::Seed2007 => {
                matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ' | b'>' | b'<')
            }
        };
        let next = self
            .rest()
            .iter()
            .skip(1)
            .position(|&b| stop(b))
            .ok_or(OutOfBytes)?;
        self.pos += 1 + next;
        // Seed substep 2: at a `<`, start over at that byte.
        if self.rules == Rules::Seed2007 && self.at()? == b'<' {
            return Ok(Flow::Again);
        }
        // Seed substep 3 / later standard substep 2: get attributes until
        // there are no more, then go on with the next byte.
        while self.get_attribute()? {}
        Ok(Flow::NextByte)
    }

    /// "Get an attribute". `Ok(true)` means one was found, with its name and
    /// value in `self.name` and `self.value`; `Ok(false)` means there isn't
    /// one. Step numbers are the later standard's; the seed's are one higher
    /// from its step 2 on (the seed has an extra step 2 for `<`).
    fn get_attribute(&mut self) -> Step<bool> {
        let seed = self.rules == Rules::Seed2007;
        // Step 1: skip spaces and slashes.
        let mut b = self.at()?;
        while self.is_space(b) || b == b'/' {
            self.pos += 1;
            b = self.at()?;
        }
        // Seed step 2: at a `<`, move back one byte; there isn't one.
        if seed && b == b'<' {
            self.pos = self.pos.saturating_sub(1);
            return Ok(false);
        }
        // Step 2: at a `>`, there isn't one.
        if b == b'>' {
            return Ok(false);
        }
        // Step 3: an attribute starts here.
        self.name.clear();
        self.value.clear();
        // Steps 4-5: the name.
        loop {
            let b = self.at()?;
            match b {
                b'=' if !self.name.is_empty() => {
                    self.pos += 1;
                    return self.attribute_value();
                }
                _ if self.is_space(b) => break,
                b'/' | b'>' => return Ok(true),
                b'<' if seed => return Ok(true),
                _ => self.name.push(b.to_ascii_lowercase()),
            }
            self.pos += 1;
        }
        // Step 6 ("Spaces"): skip spaces.
        while self.is_space(self.at()?) {
            self.pos += 1;
        }
        // Step 7: no `=`: the value is empty. The seed also moves back one
        // byte (onto the last space skipped).
        if self.at()? != b'=' {
            if seed {
                self.pos = self.pos.saturating_sub(1);
            }
            return Ok(true);
        }
        // Step 8: past the `=`.
        self.pos += 1;
        self.attribute_value()
    }

    /// Steps 9 to 12 of "get an attribute": the value.
    fn attribute_value(&mut self) -> Step<bool> {
        let seed = self.rules == Rules::Seed2007;
        // Step 9 ("Value"): skip spaces.
        let mut b = self.at()?;
        while self.is_space(b) {
            self.pos += 1;
            b = self.at()?;
        }
        // Step 10: the first byte of the value.
        match b {
            b'"' | b'\'' => {
                let quote = b;
                loop {
                    // "Quote loop".
                    self.pos += 1;
                    let c = self.at()?;
                    if c == quote {
                        // The later standard moves past the closing quote;
                        // the seed stays on it.
                        if !seed {
                            self.pos += 1;
                        }
                        return Ok(true);
                    }
                    self.value.push(c.to_ascii_lowercase());
                }
            }
            b'>' => return Ok(true),
            b'<' if seed => return Ok(true),
            _ => {
                self.value.push(b.to_ascii_lowercase());
                // Seed typo: its step 11 does not advance here, so step 12
                // would append the same byte a second time; we advance as the
                // later standard does.
                self.pos += 1;
            }
        }
        // Steps 11-12: the rest of an unquoted value.
        loop {
            let c = self.at()?;
            if self.is_space(c) || c == b'>' || (seed && c == b'<') {
                return Ok(true);
            }
            self.value.push(c.to_ascii_lowercase());
            self.pos += 1;
        }
    }
}

/// The first occurrence of `needle` in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Whether `encoding` is one of the two UTF-16 encodings.
pub(crate) fn is_utf16(encoding: &'static Encoding) -> bool {
    encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE
}

#[cfg(test)]
mod tests {
    use encoding_rs::{
        BIG5, EUC_KR, KOI8_R, REPLACEMENT, SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252,
        X_USER_DEFINED,
    };

    use super::*;

    /// What the prescan returns, as (encoding, offset, declaration).
    type Expect = Option<(&'static Encoding, usize, MetaDeclaration)>;

    #[track_caller]
    fn check_with(prescan: Prescan, input: &[u8], expect: Expect) {
        let got = prescan
            .run(input)
            .map(|m| (m.encoding, m.offset, m.declaration));
        assert_eq!(got, expect, "input {:?}", String::from_utf8_lossy(input));
    }

    /// The later standard's prescan.
    #[track_caller]
    fn check(input: &[u8], expect: Expect) {
        check_with(Prescan::standard(), input, expect);
    }

    /// The seed's prescan.
    #[track_caller]
    fn check_seed(input: &[u8], expect: Expect) {
        check_with(Prescan::seed2007(), input, expect);
    }

    use MetaDeclaration::{Charset, Pragma};

    // --- The markup the prescan skips (seed step 4, substep 1) ---

    #[test]
    fn comments_are_skipped_to_the_first_dash_dash_gt() {
        check(
            b"<!-- <meta charset=koi8-r> --><meta charset=utf-8>",
            Some((UTF_8, 30, Charset)),
        );
        // A `--` inside the comment without `>` does not end it.
        check(
            b"<!-- -- <meta charset=koi8-r> --><meta charset=big5>",
            Some((BIG5, 33, Charset)),
        );
        // The two dashes may be those of `<!--` itself.
        check(b"<!--><meta charset=utf-8>", Some((UTF_8, 5, Charset)));
        check(b"<!---><meta charset=utf-8>", Some((UTF_8, 6, Charset)));
        // An unterminated comment runs out of bytes: abort.
        check(b"<!-- <meta charset=utf-8>", None);
        check_seed(b"<!-- <meta charset=utf-8>", None);
    }

    #[test]
    fn bang_slash_and_question_mark_markup_is_skipped_to_the_first_gt() {
        check(b"<!<meta charset=utf-8>", None);
        check(b"</<meta charset=utf-8>", None);
        check(b"<?<meta charset=utf-8>", None);
        check(
            b"<!DOCTYPE html><meta charset=utf-8>",
            Some((UTF_8, 15, Charset)),
        );
        check(
            b"<?xml version='1.0'?><meta charset=utf-8>",
            Some((UTF_8, 21, Charset)),
        );
        check(b"</#><meta charset=utf-8>", Some((UTF_8, 4, Charset)));
        // No `>` at all: out of bytes.
        check(b"<!DOCTYPE", None);
        check_seed(b"<?<meta charset=utf-8>", None);
    }

    #[test]
    fn other_tags_are_skipped_with_their_attributes() {
        // A `>` inside a quoted attribute value does not end the tag...
        check(
            b"<p title=\"a>b\"><meta charset=utf-8>",
            Some((UTF_8, 15, Charset)),
        );
        // ...so a `<meta` inside one is not seen.
        check(
            b"<p title=\"<meta charset=koi8-r>\"><meta charset=utf-8>",
            Some((UTF_8, 33, Charset)),
        );
        // End tags too.
        check(
            b"</p title='<meta charset=koi8-r>'><meta charset=utf-8>",
            Some((UTF_8, 34, Charset)),
        );
        // `</meta` is an end tag, not a `<meta`.
        check(b"</meta charset=utf-8>", None);
        // A tag name runs to a space or `>`.
        check(b"<html><meta charset=utf-8>", Some((UTF_8, 6, Charset)));
        // A tag that never ends: out of bytes.
        check(b"<html lang=", None);
    }

    #[test]
    fn any_other_byte_is_passed_over() {
        check(b"x<meta charset=utf-8>", Some((UTF_8, 1, Charset)));
        check(b"<3 <meta charset=utf-8>", Some((UTF_8, 3, Charset)));
        check(b"\xff\xfe<meta charset=utf-8>", Some((UTF_8, 2, Charset)));
        check(b"", None);
        check(b"<", None);
        check(b"hello", None);
    }

    // --- `<meta` and its attributes ---

    #[test]
    fn meta_must_be_followed_by_a_space_or_slash() {
        check(b"<META CHARSET=UTF-8>", Some((UTF_8, 0, Charset)));
        check(b"<meta\ncharset=utf-8>", Some((UTF_8, 0, Charset)));
        check(b"<meta/charset=utf-8>", Some((UTF_8, 0, Charset)));
        check(b"<metacharset=utf-8>", None);
        check(b"<meta>", None);
        // VT is not a space in the later standard: `<meta\x0b` is another tag.
        check(b"<meta\x0bcharset=utf-8>", None);
        // The seed: a space, VT included, and no slash.
        check_seed(b"<meta\x0bcharset=utf-8>", Some((UTF_8, 0, Charset)));
        check_seed(b"<meta/charset=utf-8>", None);
    }

    #[test]
    fn get_an_attribute_step_1_skips_spaces_and_slashes() {
        check(b"<meta // \t charset=utf-8>", Some((UTF_8, 0, Charset)));
    }

    #[test]
    fn get_an_attribute_step_2_gt_means_no_attribute() {
        check(b"<meta ><meta charset=utf-8>", Some((UTF_8, 7, Charset)));
    }

    #[test]
    fn get_an_attribute_name_branches() {
        // `=` after a non-empty name starts the value.
        check(b"<meta charset=koi8-r>", Some((KOI8_R, 0, Charset)));
        // An `=` first is part of the name.
        check(b"<meta =charset=utf-8>", None);
        // Upper case is lowered.
        check(b"<meta ChArSeT=utf-8>", Some((UTF_8, 0, Charset)));
        // `/` and `>` end the name with an empty value: an empty label fails.
        check(b"<meta charset/=utf-8>", None);
        check(b"<meta charset>", None);
        // Other bytes, non-ASCII included, are part of the name.
        check(b"<meta \xe9charset=utf-8>", None);
    }

    #[test]
    fn get_an_attribute_spaces_before_the_equals_sign() {
        check(b"<meta charset \n = utf-8>", Some((UTF_8, 0, Charset)));
        // No `=` after the spaces: the value is empty, the next byte starts
        // the next attribute.
        check(b"<meta charset utf-8>", None);
        check(b"<meta x charset=utf-8>", Some((UTF_8, 0, Charset)));
    }

    #[test]
    fn get_an_attribute_value_branches() {
        // Spaces after `=` are skipped.
        check(b"<meta charset=  \tutf-8>", Some((UTF_8, 0, Charset)));
        // Double and single quotes; a `>` inside quotes is part of the value.
        check(
            b"<meta charset=\"shift_jis\">",
            Some((SHIFT_JIS, 0, Charset)),
        );
        check(b"<meta charset='SHIFT_JIS'>", Some((SHIFT_JIS, 0, Charset)));
        check(b"<meta charset=\"utf-8>\">", None);
        // Labels may carry spaces around them ("get an encoding" trims).
        check(b"<meta charset=\"\nutf-8 \">", Some((UTF_8, 0, Charset)));
        // A value that starts with `>` is empty.
        check(
            b"<meta charset=><meta charset=utf-8>",
            Some((UTF_8, 15, Charset)),
        );
        // An unquoted value ends at a space or `>`.
        check(b"<meta charset=utf-8 name=x>", Some((UTF_8, 0, Charset)));
        check(b"<meta charset=EUC-KR>", Some((EUC_KR, 0, Charset)));
        // Running out of bytes inside a value aborts the prescan.
        check(b"<meta charset=utf-8", None);
        check(b"<meta charset=\"utf-8", None);
        check(b"<meta charset=", None);
        // The closing quote is passed: the next attribute may follow at once.
        check(b"<meta a=\"x\"charset=utf-8>", Some((UTF_8, 0, Charset)));
    }

    // --- The later standard's attribute list, pragma and substitutions ---

    #[test]
    fn content_needs_the_http_equiv_pragma() {
        let pragma = b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=koi8-r\">";
        check(pragma, Some((KOI8_R, 0, Pragma)));
        let reversed = b"<meta content=\"text/html; charset=koi8-r\" http-equiv=content-type>";
        check(reversed, Some((KOI8_R, 0, Pragma)));
        check(b"<meta content=\"text/html; charset=koi8-r\">", None);
        check(
            b"<meta http-equiv=\"Content-Type \" content=\"charset=koi8-r\">",
            None,
        );
        check(
            b"<meta name=\"Content-Type\" content=\"charset=koi8-r\">",
            None,
        );
        // A content without a usable charset leaves `need pragma` null.
        check(
            b"<meta http-equiv=content-type content=\"text/html\">",
            None,
        );
    }

    #[test]
    fn charset_wins_over_content() {
        let input = b"<meta content=\"charset=koi8-r\" http-equiv=content-type charset=utf-8>";
        check(input, Some((UTF_8, 0, Charset)));
        let input = b"<meta charset=utf-8 http-equiv=content-type content=\"charset=koi8-r\">";
        check(input, Some((UTF_8, 0, Charset)));
        // A bad charset label is a failure that content does not repair.
        let input = b"<meta charset=bogus http-equiv=content-type content=\"charset=koi8-r\">";
        check(input, None);
        // Then the search goes on to the next `<meta`.
        check(
            b"<meta charset=bogus><meta charset=big5>",
            Some((BIG5, 20, Charset)),
        );
    }

    #[test]
    fn repeated_attributes_are_ignored() {
        check(
            b"<meta charset=utf-8 charset=koi8-r>",
            Some((UTF_8, 0, Charset)),
        );
        let input = b"<meta http-equiv=refresh http-equiv=content-type content=\"charset=koi8-r\">";
        check(input, None);
        let input = b"<meta http-equiv=content-type content=x content=\"charset=koi8-r\">";
        check(input, None);
    }

    #[test]
    fn utf16_means_utf8_and_x_user_defined_means_windows_1252() {
        for label in ["utf-16", "UTF-16LE", "utf-16be"] {
            let input = format!("<meta charset={label}>");
            let found = prescan(input.as_bytes()).unwrap();
            assert_eq!(found.encoding, UTF_8);
            assert!(found.declared == UTF_16LE || found.declared == UTF_16BE);
        }
        let found = prescan(b"<meta charset=x-user-defined>").unwrap();
        assert_eq!(
            (found.encoding, found.declared),
            (WINDOWS_1252, X_USER_DEFINED)
        );
        let pragma = b"<meta http-equiv=content-type content='charset=utf-16'>";
        check(pragma, Some((UTF_8, 0, Pragma)));
    }

    #[test]
    fn labels_resolve_by_the_encoding_standard() {
        // ISO-8859-1 is windows-1252.
        check(
            b"<meta charset=iso-8859-1>",
            Some((WINDOWS_1252, 0, Charset)),
        );
        check(b"<meta charset=latin1>", Some((WINDOWS_1252, 0, Charset)));
        // Encodings the seed forbids do not exist.
        for label in ["utf-7", "cesu-8", "bocu-1", "scsu", "utf-32", "UTF-32LE"] {
            let input = format!("<meta charset={label}>");
            check(input.as_bytes(), None);
        }
        // Labels of the replacement encoding give the replacement encoding,
        // whose decoder yields a single U+FFFD (Encoding Standard).
        check(
            b"<meta charset=iso-2022-kr>",
            Some((REPLACEMENT, 0, Charset)),
        );
    }

    #[test]
    fn the_window_is_the_first_1024_bytes() {
        let meta = b"<meta charset=utf-8>";
        // Ends exactly at byte 1024: found.
        let mut input = vec![b' '; PRESCAN_WINDOW - meta.len()];
        input.extend_from_slice(meta);
        check(&input, Some((UTF_8, PRESCAN_WINDOW - meta.len(), Charset)));
        // One byte later: its `>` is past the window.
        input.insert(0, b' ');
        check(&input, None);
        // The seed sets no limit.
        check_seed(
            &input,
            Some((UTF_8, PRESCAN_WINDOW + 1 - meta.len(), Charset)),
        );
        check_with(Prescan::seed2007().with_window(1024), &input, None);
        // A wider window finds it under the later standard's rules too.
        check_with(
            Prescan::standard().with_window(usize::MAX),
            &input,
            Some((UTF_8, 1005, Charset)),
        );
    }

    // --- The seed's own rules, step by step ---

    #[test]
    fn seed_content_alone_is_enough_and_the_first_hit_wins() {
        let input = b"<meta content=\"text/html; charset=koi8-r\">";
        check_seed(input, Some((KOI8_R, 0, Pragma)));
        let input = b"<meta content=\"text/html; charset=koi8-r\" charset=utf-8>";
        check_seed(input, Some((KOI8_R, 0, Pragma)));
        // An unsupported charset is passed over, the next attribute counts.
        let input = b"<meta charset=bogus content=\"charset=big5\">";
        check_seed(input, Some((BIG5, 0, Pragma)));
    }

    #[test]
    fn seed_returns_labels_as_they_are() {
        check_seed(b"<meta charset=utf-16>", Some((UTF_16LE, 0, Charset)));
        check_seed(
            b"<meta charset=x-user-defined>",
            Some((X_USER_DEFINED, 0, Charset)),
        );
    }

    #[test]
    fn seed_get_an_attribute_stops_at_lt() {
        // Step 2: a `<` where an attribute would start: there is none, and the
        // `<` is looked at again by the main loop.
        check_seed(b"<meta <meta charset=utf-8>", Some((UTF_8, 6, Charset)));
        check(b"<meta <meta charset=utf-8>", Some((UTF_8, 0, Charset)));
        // Step 5: a `<` ends a name.
        check_seed(b"<meta foo<meta charset=utf-8>", Some((UTF_8, 9, Charset)));
        check(b"<meta foo<meta charset=utf-8>", Some((UTF_8, 0, Charset)));
        // Step 11: a value that starts with `<` is empty.
        check_seed(
            b"<meta charset=<meta charset=utf-8>",
            Some((UTF_8, 14, Charset)),
        );
        check(b"<meta charset=<meta charset=utf-8>", None);
        // Step 12: a `<` ends an unquoted value.
        check_seed(b"<meta charset=utf-8<p>", Some((UTF_8, 0, Charset)));
        check(b"<meta charset=utf-8<p>", None);
    }

    #[test]
    fn seed_tag_names_stop_at_lt() {
        // `<p<meta`: the seed starts over at the second `<`; the later
        // standard reads `<meta` as part of the tag name.
        check_seed(b"<p<meta charset=utf-8>", Some((UTF_8, 2, Charset)));
        check(b"<p<meta charset=utf-8>", None);
    }

    #[test]
    fn seed_stays_on_the_closing_quote() {
        // The next attribute then starts with the quote: `"charset`.
        check_seed(b"<meta a=\"x\"charset=utf-8>", None);
        check_seed(b"<meta a=\"x\" charset=utf-8>", Some((UTF_8, 0, Charset)));
    }

    #[test]
    fn seed_typo_the_first_value_byte_is_not_doubled() {
        // Read literally, step 11 would make this value `uutf-8`.
        check_seed(b"<meta charset=utf-8>", Some((UTF_8, 0, Charset)));
        check_seed(b"<meta charset=Big5>", Some((BIG5, 0, Charset)));
    }

    #[test]
    fn seed_no_equals_after_spaces_reads_the_next_attribute() {
        // Step 8: after `x` and its spaces, no `=`: back onto the last space,
        // from which the next attribute is read.
        check_seed(b"<meta x  charset=utf-8>", Some((UTF_8, 0, Charset)));
        check_seed(b"<meta x\x0bcharset=utf-8>", Some((UTF_8, 0, Charset)));
    }

    #[test]
    fn seed_the_meta_attribute_loop_reads_every_attribute() {
        // Our reading of "return to step 1": the next attribute, not the next
        // space in the document.
        let input = b"<meta name=a><p charset=utf-8>";
        check_seed(input, None);
        let input = b"<meta name=a charset=utf-8>";
        check_seed(input, Some((UTF_8, 0, Charset)));
    }
}
