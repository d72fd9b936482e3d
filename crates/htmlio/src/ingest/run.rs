//! Inline runs under construction: the text of one paragraph, text block,
//! heading, term or preformatted line, with the inline elements still open.
//!
//! White space (seed 000 "Inline Elements" rule 2, and the block grammar's
//! reading of leading spaces and of three spaces in a row) is handled here:
//! white space between words is held back as *pending* until the next word
//! arrives, and only then written, outside any inline element that closed
//! or is about to open. So an inline element never starts or ends with white
//! space, a run never starts or ends with it, and no line starts with it.
//! Pending white space that contains a line feed becomes a line division
//! (a paragraph keeps its source lines); a run of it that holds three
//! spaces in a row becomes one space; anything else is kept as written, so
//! that text written by pagetext reads back unchanged.

use std::mem;

use wikitext::{Inline, Pos};

/// The inline element an open container will become.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    Em,
    Strong,
    Code,
    Sup,
    Sub,
    Link {
        url: Option<String>,
        fragment: Option<String>,
    },
}

/// An inline element still open in a run.
#[derive(Debug)]
pub(crate) struct Open {
    /// Which formatting entry of the builder it stands for.
    pub(crate) serial: u32,
    pub(crate) kind: Kind,
    pub(crate) children: Vec<Inline>,
    pos: Pos,
}

/// How a run treats line divisions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Paragraphs: line feeds and `<br>` are line divisions; two `<br>` in
    /// a row end the paragraph.
    Flow,
    /// Bare text blocks (in items, definitions, blockquotes, cells): as
    /// [`Mode::Flow`], and an empty line ends the block too (two text blocks
    /// in a row are written with an empty line between them).
    Bare,
    /// A heading is one line: line divisions become spaces, and the white
    /// space inside a line is kept as it is (headings are not read for the
    /// three-space pattern).
    Heading,
    /// A term may span lines, but none but the last may end like a sentence
    /// (seed 000): after `.`, `!`, `?` or `:` a division becomes a space.
    Term,
}

/// What the pending white space amounts to when a word arrives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Pending {
    Nothing,
    Space(String),
    Break,
    /// One `<br>`: a forced line break (`#Extend break`), and a line
    /// division after it when the source had a line feed there.
    HardBreak {
        feed: bool,
    },
    /// Two or more `<br>`: the block ends here (in [`Mode::Flow`]).
    Split,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Brk {
    #[default]
    None,
    /// A line feed in the source.
    Soft,
    /// Two or more line feeds with only white space between them.
    Blank,
    /// `<br>` elements, and whether a line feed of the source came after
    /// them.
    Hard(u32, bool),
}

/// A run of inlines under construction.
#[derive(Debug)]
pub(crate) struct Run {
    root: Vec<Inline>,
    pub(crate) open: Vec<Open>,
    ws: String,
    /// How many separate pieces of white space make up `ws`.
    ws_pieces: u32,
    brk: Brk,
    last_char: Option<char>,
    /// Where the run's first content came from.
    pub(crate) pos: Pos,
    /// Anchor names of links that closed without content (`<a
    /// name="x">&nbsp;</a>`): the builder puts them on the next word.
    orphans: Vec<String>,
}

/// Seed 000 "Definition list" (the rule is wikitext's): whether a term line
/// ending in this character ends a sentence.
fn ends_sentence(c: Option<char>) -> bool {
    c.is_some_and(|c| wikitext::grammar::ends_sentence(c.encode_utf8(&mut [0u8; 4])))
}

impl Run {
    pub(crate) fn new() -> Run {
        Run {
            root: Vec::new(),
            open: Vec::new(),
            ws: String::new(),
            ws_pieces: 0,
            orphans: Vec::new(),
            brk: Brk::None,
            last_char: None,
            pos: Pos::UNKNOWN,
        }
    }

    fn push_plain(&mut self, text: &str, pos: Pos) {
        self.last_char = text.chars().next_back();
        let target = self.target();
        if let Some(Inline::Text { text: last, .. }) = target.last_mut() {
            last.push_str(text);
        } else {
            // Text nodes are built word by word: room for a few words
            // saves the first few doublings.
            let mut owned = String::with_capacity(text.len().max(32));
            owned.push_str(text);
            target.push(Inline::Text { text: owned, pos });
        }
    }

    /// Whether nothing has been written (pending white space aside).
    pub(crate) fn is_empty(&self) -> bool {
        self.root.is_empty() && self.open.is_empty()
    }

    fn target(&mut self) -> &mut Vec<Inline> {
        match self.open.last_mut() {
            Some(open) => &mut open.children,
            None => &mut self.root,
        }
    }

    /// Adds white space (no other characters) to the pending white space.
    pub(crate) fn pending_ws(&mut self, ws: &str) {
        self.pending_run(ws, false);
    }

    /// White space inside an element that opens no block (a link, a
    /// span): an empty line there is the layout of the page's tags, a line
    /// feed at most.
    pub(crate) fn pending_inline_ws(&mut self, ws: &str) {
        self.pending_run(ws, true);
    }

    fn pending_run(&mut self, ws: &str, inline: bool) {
        let feeds = ws.bytes().filter(|&b| b == b'\n').count();
        let feeds = if inline { feeds.min(1) } else { feeds };
        if feeds > 0 {
            // An empty line is two line feeds in one run of white space:
            // line feeds on both sides of an element's tag (`<svg/>` and
            // `<span>` on lines of their own) are the page's layout.
            self.brk = match self.brk {
                Brk::None | Brk::Soft if feeds == 1 => Brk::Soft,
                Brk::None | Brk::Soft | Brk::Blank => Brk::Blank,
                Brk::Hard(n, _) => Brk::Hard(n, true),
            };
        } else if self.ws.len() < 64 {
            self.ws.push_str(ws);
            self.ws_pieces = self.ws_pieces.saturating_add(1);
        }
    }

    /// A `<br>`.
    pub(crate) fn pending_br(&mut self) {
        self.brk = match self.brk {
            Brk::None | Brk::Soft | Brk::Blank => Brk::Hard(1, false),
            Brk::Hard(n, _) => Brk::Hard(n.saturating_add(1), false),
        };
    }

    /// Forgets pending white space.
    pub(crate) fn clear_pending(&mut self) {
        self.ws.clear();
        self.ws_pieces = 0;
        self.brk = Brk::None;
    }

    /// What the pending white space becomes now that a word follows; it is
    /// cleared. Leading white space of a run is dropped.
    pub(crate) fn take_pending(&mut self, mode: Mode) -> Pending {
        let brk = mem::take(&mut self.brk);
        let ws = mem::take(&mut self.ws);
        // White space gathered from both sides of an element edge is HTML's
        // layout, never text written by pagetext (which puts no white space
        // at the edges of elements): one space.
        let pieces = mem::take(&mut self.ws_pieces);
        let ws = if pieces > 1 { " ".to_owned() } else { ws };
        if self.is_empty() {
            return Pending::Nothing;
        }
        let space = || Pending::Space(" ".to_owned());
        // A form feed is HTML white space but not the text format's: it is a
        // space, and counts as one before the three-spaces rule below.
        let ws = if ws.contains('\u{c}') {
            ws.replace('\u{c}', " ")
        } else {
            ws
        };
        match (brk, mode) {
            (Brk::None, _) if ws.is_empty() => Pending::Nothing,
            (Brk::None, Mode::Heading) => Pending::Space(ws),
            (Brk::None, _) => Pending::Space(ws),
            (Brk::Hard(n, _), Mode::Flow | Mode::Bare) if n >= 2 => Pending::Split,
            // A `<br>` stands on its line: a heading keeps it. The source's
            // line feed after it keeps the text's lines where the page's
            // are, but in a heading (one line) and after a term's line
            // that ends a sentence (which would end the term).
            (Brk::Hard(_, _), Mode::Heading) => Pending::HardBreak { feed: false },
            (Brk::Hard(_, feed), Mode::Term) => Pending::HardBreak {
                feed: feed && !ends_sentence(self.last_char),
            },
            (Brk::Hard(_, feed), _) => Pending::HardBreak { feed },
            (_, Mode::Heading) => space(),
            (_, Mode::Term) if ends_sentence(self.last_char) => space(),
            (Brk::Blank, Mode::Bare) => Pending::Split,
            _ => Pending::Break,
        }
    }

    /// Appends text (no line feed) to the innermost open element.
    pub(crate) fn text(&mut self, text: &str, pos: Pos) {
        if text.is_empty() {
            return;
        }
        if self.is_empty() {
            self.pos = pos;
        }
        self.push_plain(text, pos);
    }

    /// Appends a finished inline (an anchor around a word).
    pub(crate) fn inline(&mut self, inline: Inline, last_char: Option<char>) {
        if self.is_empty() {
            self.pos = inline.pos();
        }
        let _ = last_char;
        self.target().push(inline);
        // The element's closing delimiter (`]`, `_`, `*`, `'`, `>`) is what
        // comes before what follows (markup touching a letter is spaced
        // apart by wikitext::canon, rule 3).
        self.last_char = Some(']');
    }

    /// Appends a line division, trimming white space before it.
    pub(crate) fn line_break(&mut self, pos: Pos) {
        let target = self.target();
        trim_end(target);
        if !target.is_empty() {
            target.push(Inline::LineBreak { pos });
        }
        self.last_char = Some('\n');
    }

    /// Appends a forced line break (`<br>`), trimming white space before
    /// it, and a line division after it when `feed`.
    pub(crate) fn hard_break(&mut self, pos: Pos, feed: bool) {
        let target = self.target();
        trim_end(target);
        target.push(Inline::HardBreak { pos });
        if feed {
            target.push(Inline::LineBreak { pos });
        }
        self.last_char = Some('\n');
    }

    /// Opens an inline element (its content follows).
    pub(crate) fn open(&mut self, serial: u32, kind: Kind, pos: Pos) {
        if self.is_empty() {
            self.pos = pos;
        }
        self.open.push(Open {
            serial,
            kind,
            children: Vec::new(),
            pos,
        });
        // Inside, the opening delimiter is what comes before.
        self.last_char = Some('[');
    }

    /// Whether an open element of the run is a link.
    pub(crate) fn in_link(&self) -> bool {
        self.open
            .iter()
            .any(|o| matches!(o.kind, Kind::Link { .. }))
    }

    /// The fragment of the open link, when nothing has been written inside
    /// it yet (elements opened inside it are empty too).
    pub(crate) fn fresh_link(&mut self) -> Option<&mut Option<String>> {
        let at = self
            .open
            .iter()
            .position(|o| matches!(o.kind, Kind::Link { .. }))?;
        if self.open.get(at..)?.iter().any(|o| !o.children.is_empty()) {
            return None;
        }
        match &mut self.open.get_mut(at)?.kind {
            Kind::Link { fragment, .. } => Some(fragment),
            _ => None,
        }
    }

    /// Closes the innermost open element.
    pub(crate) fn close_top(&mut self, in_pre: bool) {
        let Some(open) = self.open.pop() else { return };
        let Open {
            kind,
            mut children,
            pos,
            ..
        } = open;
        // Rule 2: white space at either edge moves outside the element.
        let lead = take_leading_ws(&mut children);
        let trail = take_trailing_ws(&mut children);
        let inline = if children.is_empty() {
            // An anchor without text waits for the next word, so that an
            // anchor on an empty element stays on the nearest text.
            if let Kind::Link {
                fragment: Some(name),
                ..
            } = kind
            {
                self.orphans.push(name);
            }
            None
        } else {
            Some(match kind {
                Kind::Em => Inline::Emphasis {
                    content: children,
                    pos,
                },
                Kind::Strong => Inline::Strong {
                    content: children,
                    pos,
                },
                Kind::Code => Inline::Code {
                    content: children,
                    pos,
                },
                Kind::Sup => Inline::Superscript {
                    content: children,
                    pos,
                },
                Kind::Sub => Inline::Subscript {
                    content: children,
                    pos,
                },
                Kind::Link { url, fragment } => link_or_email(url, fragment, children, pos, in_pre),
            })
        };
        let has_trail = trail.is_some();
        let pushed = inline.is_some();
        let target = self.target();
        for piece in [lead, inline.map(Piece::Node), trail].into_iter().flatten() {
            match piece {
                Piece::Ws(ws) => {
                    if let Some(Inline::Text { text, .. }) = target.last_mut() {
                        text.push_str(&ws);
                    } else {
                        target.push(Inline::Text { text: ws, pos });
                    }
                }
                Piece::Node(node) => target.push(node),
            }
        }
        if has_trail {
            self.last_char = Some(' ');
        } else if pushed {
            self.last_char = Some(']');
        }
    }

    /// The anchor names of links that closed without content since the
    /// last call.
    pub(crate) fn take_orphans(&mut self) -> Vec<String> {
        mem::take(&mut self.orphans)
    }

    /// Closes every open element.
    pub(crate) fn close_all(&mut self, in_pre: bool) {
        while !self.open.is_empty() {
            self.close_top(in_pre);
        }
    }

    /// Finishes the run: closes everything, trims white space at the end,
    /// and hands over the inlines and where they started.
    pub(crate) fn finish(&mut self, in_pre: bool) -> (Vec<Inline>, Pos) {
        self.close_all(in_pre);
        self.clear_pending();
        self.last_char = None;
        let mut root = mem::take(&mut self.root);
        if !in_pre {
            trim_end(&mut root);
        }
        (root, mem::replace(&mut self.pos, Pos::UNKNOWN))
    }
}

enum Piece {
    Ws(String),
    Node(Inline),
}

/// A link, or an e-mail address when it is `mailto:` a bare address that
/// is also its text (seed 000: `<localpart@domain>`, not in preformatted
/// text).
fn link_or_email(
    url: Option<String>,
    fragment: Option<String>,
    children: Vec<Inline>,
    pos: Pos,
    in_pre: bool,
) -> Inline {
    if !in_pre
        && fragment.is_none()
        && let Some(u) = &url
        && let Some(address) = super::url::mailto_address(u)
        && let [Inline::Text { text, .. }] = children.as_slice()
        && text == address
    {
        return Inline::Email {
            address: address.to_owned(),
            pos,
        };
    }
    Inline::Link {
        url,
        fragment,
        content: children,
        pos,
    }
}

/// Removes white space (any Unicode white space) and line divisions at the
/// start of `run`, returning the white space removed.
fn take_leading_ws(run: &mut Vec<Inline>) -> Option<Piece> {
    let mut out = String::new();
    loop {
        match run.first_mut() {
            Some(Inline::LineBreak { .. } | Inline::HardBreak { .. }) => {
                run.remove(0);
            }
            Some(Inline::Text { text, .. }) => {
                let keep = text.trim_start();
                if keep.len() == text.len() {
                    break;
                }
                let cut = text.len() - keep.len();
                out.push_str(text.get(..cut).unwrap_or(""));
                if keep.is_empty() {
                    run.remove(0);
                } else {
                    text.replace_range(..cut, "");
                    break;
                }
            }
            _ => break,
        }
    }
    (!out.is_empty()).then_some(Piece::Ws(out))
}

/// Removes white space and line divisions at the end of `run`, returning the
/// white space removed.
fn take_trailing_ws(run: &mut Vec<Inline>) -> Option<Piece> {
    let mut out = String::new();
    loop {
        match run.last_mut() {
            Some(Inline::LineBreak { .. } | Inline::HardBreak { .. }) => {
                run.pop();
            }
            Some(Inline::Text { text, .. }) => {
                let keep = text.trim_end().len();
                if keep == text.len() {
                    break;
                }
                out.insert_str(0, text.get(keep..).unwrap_or(""));
                if keep == 0 {
                    run.pop();
                } else {
                    text.truncate(keep);
                    break;
                }
            }
            _ => break,
        }
    }
    (!out.is_empty()).then_some(Piece::Ws(out))
}

/// Trims white space and line divisions at the end of a finished run (the
/// text format drops trailing white space of every line).
pub(crate) fn trim_end(run: &mut Vec<Inline>) {
    let _ = take_trailing_ws(run);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Inline {
        Inline::text(s)
    }

    #[test]
    fn white_space_moves_out_of_elements() {
        let mut run = Run::new();
        run.text("a", Pos::UNKNOWN);
        run.open(1, Kind::Em, Pos::UNKNOWN);
        run.text("\u{a0}b\u{a0}", Pos::UNKNOWN);
        run.close_top(false);
        let (inlines, _) = run.finish(false);
        assert_eq!(inlines, vec![t("a\u{a0}"), Inline::emphasis(vec![t("b")])]);
    }

    #[test]
    fn pending_white_space() {
        let mut run = Run::new();
        run.pending_ws("  ");
        assert_eq!(run.take_pending(Mode::Flow), Pending::Nothing, "leading");
        run.text("a", Pos::UNKNOWN);
        run.pending_ws("  ");
        assert_eq!(run.take_pending(Mode::Flow), Pending::Space("  ".into()));
        run.pending_ws(" ");
        run.pending_ws("  ");
        assert_eq!(
            run.take_pending(Mode::Flow),
            Pending::Space(" ".into()),
            "three in a row"
        );
        run.pending_ws(" \n ");
        assert_eq!(run.take_pending(Mode::Flow), Pending::Break);
        run.pending_br();
        run.pending_ws("\n");
        assert_eq!(
            run.take_pending(Mode::Bare),
            Pending::HardBreak { feed: true }
        );
        run.pending_br();
        run.pending_ws("\n");
        run.pending_br();
        assert_eq!(run.take_pending(Mode::Flow), Pending::Split);
        run.pending_br();
        assert_eq!(
            run.take_pending(Mode::Heading),
            Pending::HardBreak { feed: false }
        );
        run.pending_ws("\n");
        assert_eq!(run.take_pending(Mode::Heading), Pending::Space(" ".into()));
        run.text("end.", Pos::UNKNOWN);
        run.pending_ws("\n");
        assert_eq!(run.take_pending(Mode::Term), Pending::Space(" ".into()));
    }

    #[test]
    fn mailto_with_its_address_as_text_is_an_email() {
        let mut run = Run::new();
        run.open(
            1,
            Kind::Link {
                url: Some("mailto:a@b.cd".into()),
                fragment: None,
            },
            Pos::UNKNOWN,
        );
        run.text("a@b.cd", Pos::UNKNOWN);
        let (inlines, _) = run.finish(false);
        assert_eq!(inlines, vec![Inline::email("a@b.cd")]);
        let mut run = Run::new();
        run.open(
            1,
            Kind::Link {
                url: Some("mailto:a@b.cd".into()),
                fragment: None,
            },
            Pos::UNKNOWN,
        );
        run.text("write", Pos::UNKNOWN);
        let (inlines, _) = run.finish(false);
        assert_eq!(
            inlines,
            vec![Inline::link(
                Some("mailto:a@b.cd".into()),
                None,
                vec![t("write")]
            )]
        );
    }
}
