//! The page's bytes as text, with the way back: which byte of the page each
//! place of the decoded text came from, and how new text is put in the
//! page's own encoding.
//!
//! The page is decoded in pieces cut just before each `<` (0x3C, or the
//! UTF-16 unit U+003C). In every ASCII-compatible encoding but ISO-2022-JP a
//! `<` byte is never part of a multi-byte character, so a piece decodes
//! alone exactly as inside the whole stream, and the start of each piece is
//! a place where text and bytes are known to line up. Inside a piece, a
//! place is found by the length its prefix has in the encoding. Markup is
//! cut only at tag boundaries and word ends, so that is all the precision
//! needed. ISO-2022-JP is decoded as one stateful stream; its places inside
//! a piece are approximate (see `Pieces::stateful`).

use encoding_rs::{CoderResult, DecoderResult, Encoding, ISO_2022_JP, UTF_8, UTF_16BE, UTF_16LE};

/// The page decoded, and the map from places of the text to its bytes.
pub(crate) struct Decoded {
    /// The decoded text (U+0000 kept as it is, malformed bytes as U+FFFD).
    pub(crate) text: String,
    /// The encoding the page was read in.
    pub(crate) encoding: &'static Encoding,
    /// Where each piece starts: (offset in `text`, offset in the page).
    starts: Vec<(usize, usize)>,
    /// The length of the byte order mark (`starts` counts it too).
    bom: usize,
}

impl Decoded {
    /// Decodes `page` in `encoding`, keeping the map back to its bytes.
    pub(crate) fn new(page: &[u8], encoding: &'static Encoding) -> Decoded {
        let bom = bom_len(page, encoding);
        let body = page.get(bom..).unwrap_or_default();
        let mut text = String::with_capacity(body.len() + body.len() / 8);
        let mut starts = Vec::new();
        if encoding == ISO_2022_JP {
            decode_stateful(body, encoding, bom, &mut text, &mut starts);
        } else {
            let mut from = 0;
            for cut in piece_cuts(body, encoding).chain(std::iter::once(body.len())) {
                if cut <= from && cut != body.len() {
                    continue;
                }
                let piece = body.get(from..cut).unwrap_or_default();
                starts.push((text.len(), bom + from));
                let (decoded, malformed) = encoding.decode_without_bom_handling(piece);
                if malformed {
                    decode_marking_errors(piece, encoding, bom + from, &mut text, &mut starts);
                } else {
                    text.push_str(&decoded);
                }
                from = cut;
            }
        }
        Decoded {
            text,
            encoding,
            starts,
            bom,
        }
    }

    /// The page's byte offset of `at`, a char boundary of [`Decoded::text`].
    pub(crate) fn byte_at(&self, at: usize) -> usize {
        let i = self.starts.partition_point(|&(s, _)| s <= at);
        let Some(&(text_start, byte_start)) = i.checked_sub(1).and_then(|i| self.starts.get(i))
        else {
            return self.bom;
        };
        let prefix = self.text.get(text_start..at).unwrap_or_default();
        byte_start + encoded_len(prefix, self.encoding)
    }

    /// `s` in the page's encoding, characters it lacks as decimal character
    /// references (the Encoding Standard's "html" error mode). With
    /// `ascii`, every character past ASCII is a reference: a page whose
    /// encoding nothing declares is read in a guess, and new bytes past
    /// ASCII could make the next guess another one.
    pub(crate) fn encode(&self, s: &str, ascii: bool) -> Vec<u8> {
        if ascii && !s.is_ascii() {
            let mut out = String::with_capacity(s.len() + 16);
            for c in s.chars() {
                if c.is_ascii() {
                    out.push(c);
                } else {
                    out.push_str(&format!("&#{};", u32::from(c)));
                }
            }
            return encode(&out, self.encoding);
        }
        encode(s, self.encoding)
    }
}

/// `s` in `encoding`, characters it lacks as decimal character references;
/// UTF-16 written as UTF-16 (encoding_rs would write UTF-8).
pub(crate) fn encode(s: &str, encoding: &'static Encoding) -> Vec<u8> {
    if encoding == UTF_16LE {
        return s.encode_utf16().flat_map(u16::to_le_bytes).collect();
    }
    if encoding == UTF_16BE {
        return s.encode_utf16().flat_map(u16::to_be_bytes).collect();
    }
    encoding.encode(s).0.into_owned()
}

/// The length `s` has in `encoding` (as the page wrote it, for text decoded
/// from valid bytes).
fn encoded_len(s: &str, encoding: &'static Encoding) -> usize {
    if encoding == UTF_16LE || encoding == UTF_16BE {
        return 2 * s.encode_utf16().count();
    }
    if encoding == UTF_8 || s.is_ascii() {
        return s.len();
    }
    if encoding.is_single_byte() {
        return s.chars().count();
    }
    encoding.encode(s).0.len()
}

/// The length of the page's byte order mark, when it names `encoding`.
fn bom_len(page: &[u8], encoding: &'static Encoding) -> usize {
    match Encoding::for_bom(page) {
        Some((bom, len)) if bom == encoding => len,
        _ => 0,
    }
}

/// Where the pieces are cut: before each `<` of the page, in its encoding.
fn piece_cuts<'a>(
    body: &'a [u8],
    encoding: &'static Encoding,
) -> Box<dyn Iterator<Item = usize> + 'a> {
    if encoding == UTF_16LE {
        Box::new(
            body.chunks_exact(2)
                .enumerate()
                .filter(|(_, u)| *u == [0x3C, 0])
                .map(|(i, _)| 2 * i),
        )
    } else if encoding == UTF_16BE {
        Box::new(
            body.chunks_exact(2)
                .enumerate()
                .filter(|(_, u)| *u == [0, 0x3C])
                .map(|(i, _)| 2 * i),
        )
    } else {
        Box::new(memchr::memchr_iter(b'<', body))
    }
}

/// A piece with malformed bytes: each U+FFFD stands for bytes of another
/// length, so a new piece starts after each one.
fn decode_marking_errors(
    piece: &[u8],
    encoding: &'static Encoding,
    at: usize,
    text: &mut String,
    starts: &mut Vec<(usize, usize)>,
) {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut read = 0;
    loop {
        let input = piece.get(read..).unwrap_or_default();
        let need = decoder
            .max_utf8_buffer_length_without_replacement(input.len())
            .unwrap_or(input.len() * 3 + 16);
        text.reserve(need.max(16));
        let (result, n) = decoder.decode_to_string_without_replacement(input, text, true);
        read += n;
        match result {
            DecoderResult::InputEmpty => break,
            DecoderResult::OutputFull => {}
            DecoderResult::Malformed(..) => {
                text.push('\u{FFFD}');
                starts.push((text.len(), at + read));
            }
        }
    }
}

/// ISO-2022-JP: one decoder over the whole stream, fed piece by piece, so
/// that its state carries over; a piece starts where the decoder had
/// written everything before it.
fn decode_stateful(
    body: &[u8],
    encoding: &'static Encoding,
    bom: usize,
    text: &mut String,
    starts: &mut Vec<(usize, usize)>,
) {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut from = 0;
    let cuts: Vec<usize> = memchr::memchr_iter(b'<', body).collect();
    for cut in cuts.into_iter().chain(std::iter::once(body.len())) {
        if cut < from || (cut == from && cut != body.len()) {
            continue;
        }
        let piece = body.get(from..cut).unwrap_or_default();
        let last = cut == body.len();
        starts.push((text.len(), bom + from));
        let mut input = piece;
        loop {
            let need = decoder
                .max_utf8_buffer_length_without_replacement(input.len())
                .unwrap_or(input.len() * 3 + 16);
            text.reserve(need.max(16));
            let (result, read, _) = decoder.decode_to_string(input, text, last);
            input = input.get(read..).unwrap_or_default();
            match result {
                CoderResult::InputEmpty => break,
                CoderResult::OutputFull => continue,
            }
        }
        from = cut;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{SHIFT_JIS, WINDOWS_1252};

    #[test]
    fn places_map_back_to_bytes_in_each_kind_of_encoding() {
        // windows-1252: é is one byte, two in the text.
        let d = Decoded::new(b"<p>caf\xe9 <b>ok</b>", WINDOWS_1252);
        assert_eq!(d.text, "<p>café <b>ok</b>");
        let b = d.text.find("<b>").unwrap();
        assert_eq!(d.byte_at(b), 8);
        assert_eq!(d.byte_at(d.text.find(' ').unwrap()), 7);
        // Shift_JIS: two bytes a character, three in the text.
        let page = SHIFT_JIS.encode("<p>日本語 <i>x</i>").0.into_owned();
        let d = Decoded::new(&page, SHIFT_JIS);
        assert_eq!(d.byte_at(d.text.find(' ').unwrap()), 9);
        assert_eq!(d.byte_at(d.text.find("<i>").unwrap()), 10);
        // UTF-8 with a BOM.
        let d = Decoded::new("\u{feff}<p>é<b>".as_bytes(), UTF_8);
        assert_eq!(d.text, "<p>é<b>");
        assert_eq!(d.byte_at(d.text.find("<b>").unwrap()), 3 + 5);
        // UTF-16LE.
        let page: Vec<u8> = "<p>ab<i>"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let d = Decoded::new(&page, UTF_16LE);
        assert_eq!(d.text, "<p>ab<i>");
        assert_eq!(d.byte_at(5), 10);
        assert_eq!(d.byte_at(4), 8, "inside a piece, two bytes a unit");
        assert_eq!(encode("a", UTF_16LE), vec![b'a', 0]);
        // Malformed bytes: each U+FFFD is as long as the bytes it replaced.
        let d = Decoded::new(b"<p>\x93quotes\x94 \xe9t\xe9 x", UTF_8);
        assert_eq!(d.text, "<p>\u{FFFD}quotes\u{FFFD} \u{FFFD}t\u{FFFD} x");
        assert_eq!(d.byte_at(d.text.find('q').unwrap()), 4);
        assert_eq!(d.byte_at(d.text.rfind(' ').unwrap()), 15);
    }

    #[test]
    fn new_text_keeps_the_encoding_and_references_what_it_lacks() {
        assert_eq!(encode("é→", WINDOWS_1252), b"\xe9&#8594;".to_vec());
        let page = ISO_2022_JP.encode("<p>日本</p><p>x").0.into_owned();
        let d = Decoded::new(&page, ISO_2022_JP);
        assert_eq!(d.text, "<p>日本</p><p>x");
        assert_eq!(d.byte_at(d.text.rfind("<p>").unwrap()), page.len() - 4);
    }
}
