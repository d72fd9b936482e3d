//! A tokenizer pass with spans: the page's decoded text cut into tags,
//! comments, doctypes and text, each with the range of the text it was
//! read from. html5ever reports lines, not offsets; this pass follows the
//! same tokenizer states (seed 001 §8.2.4: data, tag open, end tag open,
//! tag name, the attribute states, markup declaration open, comments,
//! bogus comments, RCDATA, RAWTEXT, PLAINTEXT and CDATA sections in foreign
//! content) only as far as where each token starts and ends, which is all
//! that writing onto the page needs. It never fails and reads each byte a
//! bounded number of times.

use memchr::{memchr, memmem};

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A start tag; `self_closing` when it ends with `/>`.
    Start {
        /// Whether the tag ends with `/>`.
        self_closing: bool,
    },
    /// An end tag.
    End,
    /// Text: character data, or the content of a raw text element.
    Text(TextKind),
    /// A comment, a bogus comment or a `<?...>` processing instruction.
    Comment,
    /// A DOCTYPE.
    Doctype,
}

/// What kind of text a text token holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TextKind {
    /// Character data, with character references.
    Data,
    /// The content of `title` or `textarea`: character references, no tags.
    Rcdata,
    /// The content of `script`, `style` and the other raw text elements:
    /// nothing a reader sees.
    Raw,
    /// A CDATA section in SVG or MathML.
    Cdata,
}

/// One token: its kind, its tag name (ASCII lowercase; empty but for tags)
/// and its range in the decoded text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    /// What it is.
    pub(crate) kind: Kind,
    /// The tag name, lowercased; empty for other tokens.
    pub(crate) name: String,
    /// Where it starts (the `<` of markup).
    pub(crate) start: usize,
    /// Where it ends (after the `>` of markup).
    pub(crate) end: usize,
}

/// Elements whose content is read as RAWTEXT, RCDATA or PLAINTEXT in HTML
/// content (seed 001 §8.2.5, "generic raw text/RCDATA element parsing
/// algorithm"). `noscript` is markup: ingestion parses with scripting off.
fn raw_kind(name: &str) -> Option<TextKind> {
    match name {
        "script" | "style" | "xmp" | "iframe" | "noembed" | "noframes" | "plaintext" => {
            Some(TextKind::Raw)
        }
        "title" | "textarea" => Some(TextKind::Rcdata),
        _ => None,
    }
}

/// Cuts `text` into tokens, in order; together they cover it exactly.
pub(crate) fn scan(text: &str) -> Vec<Token> {
    let mut s = Scanner {
        text,
        bytes: text.as_bytes(),
        out: Vec::with_capacity(text.len() / 16),
        foreign: 0,
    };
    s.run();
    s.out
}

struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    out: Vec<Token>,
    /// How many `svg` or `math` elements are open (foreign content: no raw
    /// text elements, CDATA sections allowed).
    foreign: usize,
}

impl Scanner<'_> {
    fn run(&mut self) {
        let mut pos = 0;
        while pos < self.bytes.len() {
            let Some(lt) = memchr(b'<', self.bytes.get(pos..).unwrap_or_default()).map(|i| pos + i)
            else {
                self.text_token(pos, self.bytes.len(), TextKind::Data);
                break;
            };
            self.text_token(pos, lt, TextKind::Data);
            pos = self.markup(lt);
        }
    }

    /// Pushes text, joined to the text before it when that is the same kind.
    fn text_token(&mut self, start: usize, end: usize, kind: TextKind) {
        if start >= end {
            return;
        }
        if let Some(last) = self.out.last_mut()
            && last.kind == Kind::Text(kind)
            && last.end == start
        {
            last.end = end;
            return;
        }
        self.push(Kind::Text(kind), String::new(), start, end);
    }

    fn push(&mut self, kind: Kind, name: String, start: usize, end: usize) {
        self.out.push(Token {
            kind,
            name,
            start,
            end,
        });
    }

    fn at(&self, i: usize) -> u8 {
        self.bytes.get(i).copied().unwrap_or(0)
    }

    fn starts_with_ci(&self, at: usize, what: &[u8]) -> bool {
        self.bytes
            .get(at..at + what.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(what))
    }

    /// Where the first `needle` at or after `from` ends, or the end.
    fn after(&self, from: usize, needle: &[u8]) -> usize {
        let hay = self.bytes.get(from..).unwrap_or_default();
        memmem::find(hay, needle).map_or(self.bytes.len(), |i| from + i + needle.len())
    }

    /// The markup at `lt` (a `<`); returns where scanning goes on (§8.2.4.8
    /// tag open state).
    fn markup(&mut self, lt: usize) -> usize {
        let next = self.at(lt + 1);
        if next.is_ascii_alphabetic() {
            return self.tag(lt, false);
        }
        match next {
            b'/' => {
                let c = self.at(lt + 2);
                if c.is_ascii_alphabetic() {
                    self.tag(lt, true)
                } else if c == b'>' {
                    // `</>` is dropped (§8.2.4.9).
                    self.push(Kind::Comment, String::new(), lt, lt + 3);
                    lt + 3
                } else if lt + 2 >= self.bytes.len() {
                    self.text_token(lt, self.bytes.len(), TextKind::Data);
                    self.bytes.len()
                } else {
                    self.bogus_comment(lt)
                }
            }
            b'!' => self.declaration(lt),
            b'?' => self.bogus_comment(lt),
            _ => {
                self.text_token(lt, lt + 1, TextKind::Data);
                lt + 1
            }
        }
    }

    /// A bogus comment: up to the next `>` (§8.2.4.42).
    fn bogus_comment(&mut self, lt: usize) -> usize {
        let end = self.after(lt + 1, b">");
        self.push(Kind::Comment, String::new(), lt, end);
        end
    }

    /// `<!`: a comment, a DOCTYPE, a CDATA section or a bogus comment
    /// (§8.2.4.43 markup declaration open state).
    fn declaration(&mut self, lt: usize) -> usize {
        if self.bytes.get(lt + 2..lt + 4) == Some(b"--") {
            let body = lt + 4;
            // `<!-->` and `<!--->` end at once (comment start states).
            let end = if self.at(body) == b'>' {
                body + 1
            } else if self.bytes.get(body..body + 2) == Some(b"->") {
                body + 2
            } else {
                let close = self.after(body, b"-->");
                let bang = self.after(body, b"--!>");
                close.min(bang)
            };
            self.push(Kind::Comment, String::new(), lt, end);
            return end;
        }
        if self.starts_with_ci(lt + 2, b"doctype") {
            let end = self.after(lt + 2, b">");
            self.push(Kind::Doctype, String::new(), lt, end);
            return end;
        }
        if self.foreign > 0 && self.bytes.get(lt + 2..lt + 9) == Some(b"[CDATA[") {
            let end = self.after(lt + 9, b"]]>");
            self.push(Kind::Text(TextKind::Cdata), String::new(), lt, end);
            return end;
        }
        self.bogus_comment(lt)
    }

    /// A start or end tag from `lt`: its name, then its attributes, to the
    /// `>` that is not inside a quoted value (§8.2.4.10 to §8.2.4.20).
    fn tag(&mut self, lt: usize, end_tag: bool) -> usize {
        let name_from = lt + if end_tag { 2 } else { 1 };
        let mut i = name_from;
        while i < self.bytes.len()
            && !matches!(
                self.at(i),
                b'\t' | b'\n' | b'\x0C' | b'\r' | b' ' | b'/' | b'>'
            )
        {
            i += 1;
        }
        let name = self
            .text
            .get(name_from..i)
            .unwrap_or_default()
            .to_ascii_lowercase();
        let Some((end, self_closing)) = self.attributes(i) else {
            // EOF in a tag: the tag is dropped (§8.2.4.10).
            self.push(Kind::Comment, String::new(), lt, self.bytes.len());
            return self.bytes.len();
        };
        let kind = if end_tag {
            Kind::End
        } else {
            Kind::Start { self_closing }
        };
        self.foreign_depth(&name, kind);
        self.push(kind, name.clone(), lt, end);
        // `<script/>` opens a script all the same: the slash means nothing
        // on an HTML element that is not void (§8.2.4.43).
        let opens = !end_tag && self.foreign == 0;
        match raw_kind(&name).filter(|_| opens) {
            Some(raw) => self.raw_text(end, &name, raw),
            None => end,
        }
    }

    /// Keeps count of the open `svg` and `math` elements.
    fn foreign_depth(&mut self, name: &str, kind: Kind) {
        if name != "svg" && name != "math" {
            return;
        }
        match kind {
            Kind::Start {
                self_closing: false,
            } => self.foreign += 1,
            Kind::End => self.foreign = self.foreign.saturating_sub(1),
            _ => {}
        }
    }

    /// The attributes from `i` to the tag's `>`: where the tag ends and
    /// whether it is self-closing; `None` at the end of the input.
    fn attributes(&self, i: usize) -> Option<(usize, bool)> {
        walk_attributes(self.bytes, i, &mut |_| {})
    }

    /// The content of a raw text or RCDATA element, up to its end tag
    /// (`</name` then white space, `/` or `>`), which is left for the
    /// scanner; PLAINTEXT runs to the end.
    fn raw_text(&mut self, from: usize, name: &str, kind: TextKind) -> usize {
        if name == "plaintext" {
            self.text_token(from, self.bytes.len(), kind);
            return self.bytes.len();
        }
        let mut at = from;
        let close = loop {
            let Some(lt) = memmem::find(self.bytes.get(at..).unwrap_or_default(), b"</") else {
                break self.bytes.len();
            };
            let lt = at + lt;
            if self.starts_with_ci(lt + 2, name.as_bytes())
                && matches!(
                    self.at(lt + 2 + name.len()),
                    b'\t' | b'\n' | b'\x0C' | b'\r' | b' ' | b'/' | b'>'
                )
            {
                break lt;
            }
            at = lt + 2;
        };
        self.text_token(from, close, kind);
        close
    }
}

/// One attribute of a start tag, as ranges of the tag's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Attribute {
    /// Where the white space before it starts: removing `lead..end`
    /// removes the attribute cleanly.
    pub(crate) lead: usize,
    /// Its name.
    pub(crate) name: std::ops::Range<usize>,
    /// Its value as written, quotes included; `None` without `=`.
    pub(crate) value: Option<std::ops::Range<usize>>,
    /// Where it ends.
    pub(crate) end: usize,
}

/// The attributes of the start tag `tag` (its text, from `<` to `>`), in
/// order, with their ranges in it.
pub(crate) fn attributes_of(tag: &str) -> Vec<Attribute> {
    let bytes = tag.as_bytes();
    let name_end = bytes
        .iter()
        .position(|b| matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ' | b'/' | b'>'))
        .unwrap_or(bytes.len());
    let mut out = Vec::new();
    walk_attributes(bytes, name_end, &mut |a| out.push(a));
    out
}

fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

/// The attribute states (§8.2.4.34 to §8.2.4.40) from `i` to the tag's
/// `>`: each attribute given to `found`; where the tag ends and whether it
/// is self-closing, or `None` at the end of the input.
fn walk_attributes(
    bytes: &[u8],
    mut i: usize,
    found: &mut dyn FnMut(Attribute),
) -> Option<(usize, bool)> {
    loop {
        // Before attribute name: white space and stray slashes.
        let lead = i;
        let mut slash = false;
        loop {
            match *bytes.get(i)? {
                b if is_space(b) => slash = false,
                b'/' => slash = true,
                b'>' => return Some((i + 1, slash)),
                _ => break,
            }
            i += 1;
        }
        // Attribute name (its first character may be `=`).
        let name_start = i;
        i += 1;
        while !matches!(*bytes.get(i)?, b'/' | b'>' | b'=') && !is_space(*bytes.get(i)?) {
            i += 1;
        }
        let name = name_start..i;
        while is_space(*bytes.get(i)?) {
            i += 1;
        }
        if *bytes.get(i)? != b'=' {
            found(Attribute {
                lead,
                end: name.end,
                name,
                value: None,
            });
            continue;
        }
        i += 1;
        while is_space(*bytes.get(i)?) {
            i += 1;
        }
        let value_start = i;
        match *bytes.get(i)? {
            q @ (b'"' | b'\'') => {
                let close = memchr(q, bytes.get(i + 1..)?)?;
                i += close + 2;
            }
            b'>' => {
                found(Attribute {
                    lead,
                    end: i,
                    name,
                    value: Some(i..i),
                });
                return Some((i + 1, false));
            }
            _ => {
                while *bytes.get(i)? != b'>' && !is_space(*bytes.get(i)?) {
                    i += 1;
                }
            }
        }
        found(Attribute {
            lead,
            end: i,
            name,
            value: Some(value_start..i),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(String, &str)> {
        scan(text)
            .into_iter()
            .map(|t| {
                let what = match t.kind {
                    Kind::Start { self_closing: true } => format!("<{}/>", t.name),
                    Kind::Start { .. } => format!("<{}>", t.name),
                    Kind::End => format!("</{}>", t.name),
                    Kind::Text(k) => format!("{k:?}"),
                    Kind::Comment => "comment".to_owned(),
                    Kind::Doctype => "doctype".to_owned(),
                };
                (what, &text[t.start..t.end])
            })
            .collect()
    }

    #[test]
    fn tokens_cover_the_text_with_their_spans() {
        let page = "<!DOCTYPE html><P class=\"a>b\" id=x>Hi &amp; 1 < 2<br/><!-- c -->\n</p>";
        let got = kinds(page);
        assert_eq!(
            got.iter()
                .map(|(k, s)| (k.as_str(), *s))
                .collect::<Vec<_>>(),
            [
                ("doctype", "<!DOCTYPE html>"),
                ("<p>", "<P class=\"a>b\" id=x>"),
                ("Data", "Hi &amp; 1 < 2"),
                ("<br/>", "<br/>"),
                ("comment", "<!-- c -->"),
                ("Data", "\n"),
                ("</p>", "</p>"),
            ]
        );
        let joined: String = got.iter().map(|(_, s)| *s).collect();
        assert_eq!(joined, page);
    }

    #[test]
    fn a_start_tag_s_attributes_with_their_spans() {
        let tag = "<html lang=\"en\" xml:lang='en' dir=ltr hidden data-x=\"a>b\">";
        let got: Vec<(&str, Option<&str>)> = attributes_of(tag)
            .iter()
            .map(|a| (&tag[a.name.clone()], a.value.clone().map(|v| &tag[v])))
            .collect();
        assert_eq!(
            got,
            [
                ("lang", Some("\"en\"")),
                ("xml:lang", Some("'en'")),
                ("dir", Some("ltr")),
                ("hidden", None),
                ("data-x", Some("\"a>b\"")),
            ]
        );
        assert_eq!(
            &tag[attributes_of(tag)[1].lead..attributes_of(tag)[1].end],
            " xml:lang='en'"
        );
    }

    #[test]
    fn raw_text_runs_to_its_own_end_tag() {
        let got = kinds("<script>if (a</b) x = '</scripty>';</SCRIPT ><title>a<b>&lt;</title>");
        assert_eq!(got[1], ("Raw".to_owned(), "if (a</b) x = '</scripty>';"));
        assert_eq!(got[2].0, "</script>");
        assert_eq!(got[4], ("Rcdata".to_owned(), "a<b>&lt;"));
    }

    #[test]
    fn odd_markup_is_what_the_tokenizer_makes_of_it() {
        let got =
            kinds("a<!-->b<?xml x?>c</>d</ x>e<svg><![CDATA[<p>]]></svg><![CDATA[f]]><a href='");
        let names: Vec<&str> = got.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            names,
            [
                "Data", "comment", "Data", "comment", "Data", "comment", "Data", "comment", "Data",
                "<svg>", "Cdata", "</svg>", "comment", "comment"
            ]
        );
        assert_eq!(got.last().map(|g| g.1), Some("<a href='"));
    }
}
