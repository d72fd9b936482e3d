//! Inline runs the format can hold (seed 000 "Inline Elements", rules 1
//! to 5): white space moved out of markup, empty elements dropped, line
//! divisions and runs of spaces normalised, link values encoded, depth
//! bounded. Runs that need nothing (most of them) are kept as they are.

use crate::diag::{Code, Severity};
use crate::model::{Inline, Pos};
use crate::scan::has_three_spaces;
use crate::walk::plain_text;

use super::clean::{Within, marked_up_and_clean, one_line, plain_and_clean};
use super::values::{braces_balance, encode_enders, link_values, spelled};
use super::{Ctx, Fixer, MAX_INLINE_DEPTH, Role, Silent, Touching};

fn bounded_run(run: &[Inline], depth: usize) -> Vec<Inline> {
    if depth > MAX_INLINE_DEPTH {
        let mut out = Vec::new();
        crate::model::push_text(&mut out, &plain_text(run), Pos::UNKNOWN);
        return out;
    }
    run.iter()
        .map(|node| match node.without_children() {
            Some(mut copy) => {
                if let (Some(children), Some(content)) = (node.children(), copy.children_mut()) {
                    *content = bounded_run(children, depth + 1);
                }
                copy
            }
            None => node.clone(),
        })
        .collect()
}

/// A flat form of an inline run, easy to normalise.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Ev {
    Open(Open),
    Close,
    Text(String),
    /// A line division.
    Break,
    /// A forced line break (`#Extend break`): content, as an address is.
    HardBreak,
    Email(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Open {
    Emphasis(Pos),
    Strong(Pos),
    Code(Pos),
    Superscript(Pos),
    Subscript(Pos),
    Link {
        url: Option<String>,
        fragment: Option<String>,
        pos: Pos,
    },
    Image {
        src: String,
        title: Option<String>,
        width: Option<u32>,
        height: Option<u32>,
        pos: Pos,
    },
}

/// Turns a run into events ([`Flatten::run`]), reporting what the text
/// cannot hold as it goes.
struct Flatten<'f> {
    ctx: Ctx,
    /// The block the run belongs to, for messages.
    block: Pos,
    out: Vec<Ev>,
    fixer: &'f mut Fixer,
}

impl Flatten<'_> {
    /// The events of `run`, whose elements are `depth` levels down and
    /// `within` what. Recursion is bounded by [`MAX_INLINE_DEPTH`]: deeper
    /// content is written as its text.
    fn run(&mut self, run: &[Inline], depth: usize, within: Within) {
        for node in run {
            match node {
                Inline::Text { text, .. } => self.text(text),
                Inline::LineBreak { .. } => self.out.push(Ev::Break),
                Inline::HardBreak { pos } => self.hard_break(*pos),
                Inline::Superscript { content, pos } | Inline::Subscript { content, pos } => {
                    self.script(node, content, *pos, depth, within);
                }
                Inline::Email { address, .. } => self.email(address, within),
                Inline::Emphasis { content, pos }
                | Inline::Strong { content, pos }
                | Inline::Code { content, pos } => {
                    self.marked(node, content, *pos, depth, within);
                }
                Inline::Link {
                    url,
                    fragment,
                    content,
                    pos,
                } => {
                    let url = url.as_deref().filter(|u| !u.is_empty());
                    let fragment = fragment.as_deref().filter(|f| !f.is_empty());
                    self.link((url, fragment), content, *pos, depth, within);
                }
                Inline::Image { .. } => self.image(node, depth, within),
            }
        }
    }

    /// What is kept of `run` when its element cannot be written: its
    /// content one level down, or, at the depth bound, its plain text on
    /// one line.
    fn kept_text(&mut self, run: &[Inline], depth: usize, within: Within) {
        if depth >= MAX_INLINE_DEPTH {
            self.out
                .push(Ev::Text(plain_text(run).replace(['\n', '\r'], " ")));
        } else {
            self.run(run, depth + 1, within);
        }
    }

    /// Text: LF, CR and CRLF end lines in the text format, so each is a
    /// line division.
    fn text(&mut self, text: &str) {
        let mut first = true;
        for piece in crate::lines::line_pieces(text) {
            if !first {
                self.fixer.report(
                    Code::WhitespaceNormalized,
                    Severity::Info,
                    "a line feed inside text was taken as a line division",
                    self.block,
                );
                self.out.push(Ev::Break);
            }
            first = false;
            if !piece.is_empty() {
                self.out.push(Ev::Text(piece.to_owned()));
            }
        }
    }

    /// An e-mail address, kept as its text where the format cannot mark
    /// it up.
    fn email(&mut self, address: &str, within: Within) {
        if self.ctx == Ctx::Pre || within != Within::Run {
            self.fixer.report(
                Code::NotRoundTrip,
                Severity::Warning,
                "an e-mail address cannot be marked up in preformatted text or link text; its text was kept",
                self.block,
            );
            self.out.push(Ev::Text(address.to_owned()));
        } else if !crate::grammar::is_email_address(address) {
            self.fixer.report(
                Code::NotRoundTrip,
                Severity::Warning,
                format!("`{address}` is not an address the format can mark up; its text was kept"),
                self.block,
            );
            self.out.push(Ev::Text(address.to_owned()));
        } else {
            self.out.push(Ev::Email(address.to_owned()));
        }
    }

    /// Emphasis, strong emphasis or code (`node`), whose content is
    /// `content`.
    fn marked(
        &mut self,
        node: &Inline,
        content: &[Inline],
        pos: Pos,
        depth: usize,
        within: Within,
    ) {
        if depth >= MAX_INLINE_DEPTH {
            self.fixer.report(
                Code::NotRoundTrip,
                Severity::Error,
                format!("inline markup nests deeper than {MAX_INLINE_DEPTH} levels; the inner text was kept without markup"),
                self.block,
            );
            self.kept_text(content, depth, within);
            return;
        }
        let (open, delimiter) = match node {
            Inline::Emphasis { .. } => (Open::Emphasis(pos), b'_'),
            Inline::Strong { .. } => (Open::Strong(pos), b'*'),
            _ if self.ctx == Ctx::Pre => {
                self.fixer.report(
                    Code::WhitespaceNormalized,
                    Severity::Info,
                    "sample text (code) inside preformatted text is implied; the markup was dropped",
                    self.block,
                );
                self.run(content, depth + 1, within);
                return;
            }
            _ => (Open::Code(pos), b'\''),
        };
        self.out.push(Ev::Open(open));
        self.fixer.enclosing.push(delimiter);
        self.run(content, depth + 1, within);
        self.fixer.enclosing.pop();
        self.out.push(Ev::Close);
    }

    /// A forced break (`#Extend break`); a line division where the text
    /// cannot hold one (pure seed text; in preformatted text, which keeps
    /// its lines, a space).
    fn hard_break(&mut self, pos: Pos) {
        let why = if !self.fixer.breaks() {
            Some("pure seed text cannot hold a forced line break")
        } else if self.ctx == Ctx::Pre {
            Some("preformatted text holds its line ends, not forced breaks")
        } else {
            None
        };
        if let Some(why) = why {
            self.fixer.report(
                Code::UnrepresentableMarkup,
                Severity::Warning,
                format!("{why}; it became a line division, which a browser shows as a space"),
                pos,
            );
        }
        self.out.push(if why.is_none() {
            Ev::HardBreak
        } else {
            Ev::Break
        });
    }

    /// A superscript or subscript (`node`, `#Extend subsup`) whose content
    /// is `content`; its content alone where the text cannot hold it (pure
    /// seed text, preformatted text, text whose braces do not balance).
    fn script(
        &mut self,
        node: &Inline,
        content: &[Inline],
        pos: Pos,
        depth: usize,
        within: Within,
    ) {
        let why = if !self.fixer.subsup() {
            Some("pure seed text cannot hold a superscript or subscript")
        } else if self.ctx == Ctx::Pre {
            Some(
                "preformatted text cannot hold a superscript or subscript (XHTML 1.0 allows none in `<pre>`)",
            )
        } else if depth >= MAX_INLINE_DEPTH {
            Some("inline markup nests too deep for a superscript or subscript")
        } else if !braces_balance(&spelled(content)) {
            Some("a superscript or subscript whose text has unbalanced braces cannot be written")
        } else {
            None
        };
        if let Some(why) = why {
            self.fixer.report(
                Code::UnrepresentableMarkup,
                Severity::Warning,
                format!("{why}; its text was kept"),
                pos,
            );
            self.kept_text(content, depth, within);
            return;
        }
        let open = if matches!(node, Inline::Superscript { .. }) {
            Open::Superscript(pos)
        } else {
            Open::Subscript(pos)
        };
        self.out.push(Ev::Open(open));
        self.run(content, depth + 1, within);
        self.out.push(Ev::Close);
    }

    /// A link with its (non-empty) URL and fragment; its text is kept
    /// alone where it cannot be written.
    fn link(
        &mut self,
        (url, fragment): (Option<&str>, Option<&str>),
        content: &[Inline],
        pos: Pos,
        depth: usize,
        within: Within,
    ) {
        let in_link = within != Within::Run;
        if in_link || depth >= MAX_INLINE_DEPTH || (url.is_none() && fragment.is_none()) {
            let why = if in_link {
                "a link inside link text cannot be written; its text was kept"
            } else if url.is_none() && fragment.is_none() {
                "a link with neither URL nor fragment cannot be written; its text was kept"
            } else {
                "links nest too deep; the text was kept"
            };
            self.fixer
                .report(Code::UnrepresentableLink, Severity::Error, why, pos);
            self.kept_text(content, depth, within);
            return;
        }
        let (url, fragment) = link_values(url, fragment, pos, self.fixer);
        self.out.push(Ev::Open(Open::Link { url, fragment, pos }));
        let inner = if within == Within::Alt {
            Within::Alt
        } else {
            Within::LinkText
        };
        self.run(content, depth + 1, inner);
        self.out.push(Ev::Close);
    }

    /// [`Flatten::run`] for an image: its source encoded as a link's URL, its title
    /// on one line, its alternative text as a link text. Where the text cannot
    /// hold an image (pure seed text, preformatted text, another image's
    /// alternative text, no source, too deep), its alternative text is kept.
    fn image(&mut self, node: &Inline, depth: usize, within: Within) {
        let Inline::Image {
            src,
            alt,
            title,
            width,
            height,
            pos,
        } = node
        else {
            return;
        };
        let why = if !self.fixer.images() {
            Some("pure seed text cannot hold an image")
        } else if self.ctx == Ctx::Pre {
            Some("preformatted text cannot hold an image")
        } else if within == Within::Alt {
            Some("an image inside an image's alternative text cannot be written")
        } else if src.is_empty() {
            Some("an image without a source cannot be written")
        } else if depth >= MAX_INLINE_DEPTH {
            Some("inline markup nests too deep for an image")
        } else {
            None
        };
        if let Some(why) = why {
            let kept = if alt.is_empty() {
                "; it had no alternative text"
            } else {
                "; its alternative text was kept"
            };
            self.fixer.report(
                Code::UnrepresentableImage,
                Severity::Warning,
                format!("{why}{kept}"),
                *pos,
            );
            self.kept_text(alt, depth, within);
            return;
        }
        let encoded = encode_enders(
            &crate::grammar::encode_link_value(src),
            &self.fixer.enclosing,
        );
        if encoded != src.as_str() {
            self.fixer.report(
                Code::UnrepresentableLink,
                Severity::Info,
                format!("characters the format does not allow in an image source were percent-encoded: `{encoded}`"),
                *pos,
            );
        }
        let title = title.as_deref().map(|t| {
            let one = one_line(t);
            if one != t {
                self.fixer.report(
                    Code::WhitespaceNormalized,
                    Severity::Info,
                    "white space in an image's title was normalised (a title has one line)",
                    *pos,
                );
            }
            one
        });
        self.out.push(Ev::Open(Open::Image {
            src: encoded,
            title,
            width: *width,
            height: *height,
            pos: *pos,
        }));
        self.run(alt, depth + 1, Within::Alt);
        self.out.push(Ev::Close);
    }
}

/// Splits a text event into leading white space, the rest, and trailing
/// white space.
fn split_ws(t: &str) -> (&str, &str, &str) {
    let start = t.len() - t.trim_start().len();
    let end = t.trim_end().len().max(start);
    (
        t.get(..start).unwrap_or(""),
        t.get(start..end).unwrap_or(""),
        t.get(end..).unwrap_or(""),
    )
}

/// Seed 000 rules 1 and 2: white space (and line divisions) at the edges of
/// an element's content move outside it; elements left empty are dropped
/// (links get their URL or fragment as text, as the parser would).
fn bubble(events: Vec<Ev>, block: Pos, fixer: &mut Fixer) -> Vec<Ev> {
    let mut bubble = Bubble::default();
    for ev in events {
        match ev {
            Ev::Text(t) => bubble.text(&t),
            Ev::Break => {
                if !bubble.pending_opens.is_empty() {
                    bubble.moved = true;
                }
                bubble.pending_ws.push(Ev::Break);
            }
            Ev::HardBreak => {
                bubble.content();
                bubble.out.push(Ev::HardBreak);
            }
            Ev::Email(a) => {
                bubble.content();
                bubble.out.push(Ev::Email(a));
            }
            Ev::Open(o) => {
                bubble.pending_opens.push(o);
                bubble.open_stack.push(true);
            }
            Ev::Close => bubble.close(fixer),
        }
    }
    let Bubble {
        mut out,
        mut pending_ws,
        moved,
        dropped,
        ..
    } = bubble;
    out.append(&mut pending_ws);
    if moved {
        fixer.report(
            Code::WhitespaceNormalized,
            Severity::Info,
            "white space at the edge of emphasis, code or a link was moved outside it",
            block,
        );
    }
    if dropped {
        fixer.report(
            Code::EmptyElementDropped,
            Severity::Info,
            "emphasis or code without content was dropped",
            block,
        );
    }
    out
}

/// The state of [`bubble`].
#[derive(Default)]
struct Bubble {
    out: Vec<Ev>,
    /// White space waiting to be placed: before the next content, or after
    /// the closes that come first.
    pending_ws: Vec<Ev>,
    /// Opens not yet followed by content.
    pending_opens: Vec<Open>,
    /// For each open element (emitted or pending): whether it is pending.
    open_stack: Vec<bool>,
    /// White space was moved out of an element.
    moved: bool,
    /// An empty element was dropped.
    dropped: bool,
}

impl Bubble {
    /// Content comes: the white space and the opens waiting before it are
    /// written, and no open element is pending any more.
    fn content(&mut self) {
        self.out.append(&mut self.pending_ws);
        for o in self.pending_opens.drain(..) {
            self.out.push(Ev::Open(o));
        }
        for p in self.open_stack.iter_mut() {
            *p = false;
        }
    }

    /// Text: its leading white space waits, the rest is content, and its
    /// trailing white space waits after it.
    fn text(&mut self, t: &str) {
        let (lead, mid, trail) = split_ws(t);
        if !lead.is_empty() {
            if !self.pending_opens.is_empty() {
                self.moved = true;
            }
            self.pending_ws.push(Ev::Text(lead.to_owned()));
        }
        if !mid.is_empty() {
            self.content();
            self.out.push(Ev::Text(mid.to_owned()));
            if !trail.is_empty() {
                self.pending_ws.push(Ev::Text(trail.to_owned()));
            }
        }
    }

    /// An element ends: written when it had content; when it had none, an
    /// image stays (a decoration), a link shows its URL or fragment, and
    /// anything else is dropped.
    fn close(&mut self, fixer: &mut Fixer) {
        let was_pending = self.open_stack.pop().unwrap_or(false);
        if !was_pending {
            if self
                .pending_ws
                .iter()
                .any(|e| !matches!(e, Ev::Text(t) if t.is_empty()))
            {
                self.moved = true;
            }
            self.out.push(Ev::Close);
            return;
        }
        match self.pending_opens.pop() {
            Some(o @ Open::Image { .. }) => {
                self.content();
                self.out.push(Ev::Open(o));
                self.out.push(Ev::Close);
            }
            Some(Open::Link { url, fragment, pos }) => {
                let shown = url.clone().or_else(|| fragment.clone()).unwrap_or_default();
                self.content();
                self.out.push(Ev::Open(Open::Link { url, fragment, pos }));
                self.out.push(Ev::Text(shown));
                self.out.push(Ev::Close);
                fixer.report(
                    Code::EmptyElementDropped,
                    Severity::Info,
                    "an empty link text was replaced by the link's URL or fragment, as the parser does",
                    pos,
                );
            }
            Some(_) => self.dropped = true,
            None => {}
        }
    }
}

/// Merges adjacent text events.
fn merge_text(events: Vec<Ev>) -> Vec<Ev> {
    let mut out: Vec<Ev> = Vec::with_capacity(events.len());
    for ev in events {
        match (out.last_mut(), ev) {
            (Some(Ev::Text(last)), Ev::Text(t)) => last.push_str(&t),
            (_, Ev::Text(t)) if t.is_empty() => {}
            (_, ev) => out.push(ev),
        }
    }
    out
}

/// White space at the start and end of lines, empty lines, and runs of three
/// or more spaces (which would read as a compact definition item).
fn normalize_lines(events: Vec<Ev>, ctx: Ctx, block: Pos, fixer: &mut Fixer) -> Vec<Ev> {
    let mut events = merge_text(events);
    let mut changed = false;
    // Runs of three spaces collapsed (a repair a policy may keep silent).
    let mut runs = false;
    // For each event: whether the next text, address or line division after
    // it is a line division or nothing (then a text here ends its line).
    let mut ends_line = vec![true; events.len()];
    let mut next_is_break = true;
    for (i, ev) in events.iter().enumerate().rev() {
        if let Some(slot) = ends_line.get_mut(i) {
            *slot = next_is_break;
        }
        match ev {
            Ev::Break => next_is_break = true,
            // An image is content on its line, as text is.
            Ev::Text(_) | Ev::Email(_) | Ev::HardBreak | Ev::Open(Open::Image { .. }) => {
                next_is_break = false;
            }
            Ev::Open(_) | Ev::Close => {}
        }
    }
    let mut at_line_start = true;
    for (i, ev) in events.iter_mut().enumerate() {
        match ev {
            Ev::Break => at_line_start = true,
            Ev::Email(_) | Ev::HardBreak | Ev::Open(Open::Image { .. }) => at_line_start = false,
            Ev::Open(_) | Ev::Close => {}
            Ev::Text(t) => {
                let mut s = t.as_str();
                if at_line_start && ctx == Ctx::Kept {
                    // An escape keeps a space there, not a tab.
                    s = s.trim_start_matches('\t');
                } else if at_line_start && ctx == Ctx::KeptHeading {
                    // Nor other white space at the start of a title.
                    s = s.trim_start_matches(|c: char| c.is_whitespace() && c != ' ');
                } else if at_line_start && ctx != Ctx::Pre {
                    s = s.trim_start_matches([' ', '\t']);
                }
                if ends_line.get(i).copied().unwrap_or(true) {
                    s = s.trim_end();
                }
                let mut fixed = s.to_owned();
                if fixed != *t {
                    changed = true;
                }
                if ctx == Ctx::Flow && has_three_spaces(&fixed) {
                    fixed = collapse_spaces(&fixed);
                    runs = true;
                }
                if !fixed.is_empty() {
                    at_line_start = false;
                }
                if fixed != *t {
                    *t = fixed;
                }
            }
        }
    }
    // Line divisions: none at the edges, never two in a row (an empty line
    // would end the paragraph); headings have one line.
    let mut out: Vec<Ev> = Vec::with_capacity(events.len());
    // The last text, address or line division: `Some(true)` for a division.
    let mut last_was_break: Option<bool> = None;
    for ev in merge_text(events) {
        match &ev {
            Ev::Break => {
                if ctx.is_heading() {
                    changed = true;
                    out.push(Ev::Text(" ".to_owned()));
                    last_was_break = Some(false);
                    continue;
                }
                if last_was_break != Some(false) {
                    changed = true;
                    continue;
                }
                last_was_break = Some(true);
            }
            Ev::Text(_) | Ev::Email(_) | Ev::HardBreak | Ev::Open(Open::Image { .. }) => {
                last_was_break = Some(false);
            }
            Ev::Open(_) | Ev::Close => {}
        }
        out.push(ev);
    }
    // A trailing line division.
    while let Some(pos) = out.iter().rposition(|e| {
        matches!(
            e,
            Ev::Text(_) | Ev::Email(_) | Ev::HardBreak | Ev::Break | Ev::Open(Open::Image { .. })
        )
    }) {
        if out.get(pos) == Some(&Ev::Break) {
            out.remove(pos);
            changed = true;
        } else {
            break;
        }
    }
    let message = match ctx {
        Ctx::Pre => "white space at the end of a line of preformatted text was removed",
        Ctx::Heading | Ctx::KeptHeading => {
            "white space in a heading was normalised (a heading has one line)"
        }
        Ctx::Flow | Ctx::DeepFlow | Ctx::Kept => {
            "white space was normalised (at line edges, empty lines, runs of three spaces)"
        }
    };
    if changed {
        fixer.report(Code::WhitespaceNormalized, Severity::Info, message, block);
    } else if runs {
        fixer.report_unless(
            Silent::SPACE_RUNS,
            Code::WhitespaceNormalized,
            Severity::Info,
            message,
            block,
        );
    }
    merge_text(out)
}

/// Runs of three or more spaces become one space.
fn collapse_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut spaces = 0usize;
    let flush = |out: &mut String, spaces: usize| {
        if spaces >= 3 {
            out.push(' ');
        } else {
            for _ in 0..spaces {
                out.push(' ');
            }
        }
    };
    for c in s.chars() {
        if c == ' ' {
            spaces += 1;
        } else {
            flush(&mut out, spaces);
            spaces = 0;
            out.push(c);
        }
    }
    flush(&mut out, spaces);
    out
}

/// Rebuilds inlines from events (the events are balanced).
fn rebuild(events: Vec<Ev>) -> Vec<Inline> {
    // Inline markup nests at most MAX_INLINE_DEPTH deep.
    let mut stack: Vec<(Option<Open>, Vec<Inline>)> = Vec::with_capacity(MAX_INLINE_DEPTH + 2);
    stack.push((None, Vec::new()));
    for ev in events {
        match ev {
            Ev::Text(t) => {
                if let Some((_, run)) = stack.last_mut() {
                    crate::model::push_text(run, &t, Pos::UNKNOWN);
                }
            }
            Ev::Break => {
                if let Some((_, run)) = stack.last_mut() {
                    run.push(Inline::line_break());
                }
            }
            Ev::HardBreak => {
                if let Some((_, run)) = stack.last_mut() {
                    run.push(Inline::hard_break());
                }
            }
            Ev::Email(a) => {
                if let Some((_, run)) = stack.last_mut() {
                    run.push(Inline::email(a));
                }
            }
            Ev::Open(o) => stack.push((Some(o), Vec::new())),
            Ev::Close => {
                if stack.len() > 1
                    && let Some((Some(open), content)) = stack.pop()
                {
                    let node = match open {
                        Open::Emphasis(pos) => Inline::Emphasis { content, pos },
                        Open::Strong(pos) => Inline::Strong { content, pos },
                        Open::Code(pos) => Inline::Code { content, pos },
                        Open::Superscript(pos) => Inline::Superscript { content, pos },
                        Open::Subscript(pos) => Inline::Subscript { content, pos },
                        Open::Link { url, fragment, pos } => Inline::Link {
                            url,
                            fragment,
                            content,
                            pos,
                        },
                        Open::Image {
                            src,
                            title,
                            width,
                            height,
                            pos,
                        } => Inline::Image {
                            src,
                            alt: content,
                            title,
                            width,
                            height,
                            pos,
                        },
                    };
                    if let Some((_, run)) = stack.last_mut() {
                        run.push(node);
                    }
                }
            }
        }
    }
    // Unbalanced opens cannot happen; fold them in anyway.
    while stack.len() > 1 {
        if let Some((_, content)) = stack.pop()
            && let Some((_, run)) = stack.last_mut()
        {
            run.extend(content);
        }
    }
    stack.pop().map(|(_, run)| run).unwrap_or_default()
}

/// The inline run of a block, as the format can hold it: repaired where
/// that is harmless, then, where the run could read back as something else
/// (literal markup characters, markup touching a letter), replaced by what
/// its text reads as, with an error.
pub(super) fn canon_inlines(
    run: Vec<Inline>,
    ctx: Ctx,
    role: Role,
    block: Pos,
    fixer: &mut Fixer,
) -> Vec<Inline> {
    let run = if plain_and_clean(&run, ctx) || marked_up_and_clean(&run, ctx, fixer.images()) {
        run
    } else {
        let repaired = repair_inlines_fully(&run, ctx, block, fixer);
        super::copy::dismantle_inlines(run);
        repaired
    };
    let mut run = run;
    if fixer.policy.touching == Touching::SpaceApart && ctx == Ctx::Pre {
        // No space may go into preformatted text: the markup takes in the
        // rest of the word it touches instead.
        let widened = super::touching::widen(&mut run, 0);
        if widened > 0 {
            fixer.report(
                Code::MarkupWidened,
                Severity::Info,
                format!(
                    "inline markup that touched a letter or digit in preformatted text took in the rest of the word \
                     {widened} time{} (no space may go in there, and the text format needs a space or punctuation \
                     beside markup)",
                    if widened == 1 { "" } else { "s" }
                ),
                block,
            );
        }
    } else if fixer.policy.touching == Touching::SpaceApart {
        let spaces = super::touching::space_apart(&mut run, 0);
        if spaces > 0 {
            fixer.report(
                Code::SpaceAdded,
                Severity::Info,
                format!(
                    "{spaces} space{} put in where inline markup touched a letter or digit (the text format needs a \
                     space or punctuation there)",
                    if spaces == 1 { "" } else { "s" }
                ),
                block,
            );
        }
    }
    let merged = merge_same_kind(&mut run, 0);
    if merged > 0 {
        fixer.report(
            Code::ModelNormalized,
            Severity::Info,
            "adjacent elements of one kind were made one (the text format cannot tell them apart)",
            block,
        );
    }
    if fixer.escapes() {
        // The renderer spells the run, with escapes where they are needed,
        // and marks a run that reads back differently all the same; the
        // writer then has that part of the text read again (`write.rs`).
        return run;
    }
    super::reads::as_read(run, ctx, role, block, fixer)
}

/// Emphasis, strong emphasis or sample text right next to an element of
/// the same kind becomes one element with both contents: `_a__b_` cannot
/// be read as two, and in HTML `<b>a</b><b>b</b>` shows as `<b>ab</b>`.
/// Returns how many were merged. Recursion is bounded by
/// [`MAX_INLINE_DEPTH`].
fn merge_same_kind(run: &mut Vec<Inline>, depth: usize) -> usize {
    let same = |a: &Inline, b: &Inline| {
        matches!(
            (a, b),
            (Inline::Emphasis { .. }, Inline::Emphasis { .. })
                | (Inline::Strong { .. }, Inline::Strong { .. })
                | (Inline::Code { .. }, Inline::Code { .. })
        )
    };
    let mut merged = 0;
    if run.windows(2).any(|w| matches!(w, [a, b] if same(a, b))) {
        let mut out: Vec<Inline> = Vec::with_capacity(run.len());
        for node in std::mem::take(run) {
            match out.last_mut() {
                Some(last) if same(last, &node) => {
                    let from = match node {
                        Inline::Emphasis { content, .. }
                        | Inline::Strong { content, .. }
                        | Inline::Code { content, .. } => content,
                        _ => Vec::new(),
                    };
                    if let Some(into) = last.children_mut() {
                        for child in from {
                            match child {
                                Inline::Text { text, pos } => {
                                    crate::model::push_text(into, &text, pos)
                                }
                                other => into.push(other),
                            }
                        }
                    }
                    merged += 1;
                }
                _ => out.push(node),
            }
        }
        *run = out;
    }
    if depth < MAX_INLINE_DEPTH {
        for node in run.iter_mut() {
            if let Some(children) = node.children_mut() {
                merged += merge_same_kind(children, depth + 1);
            }
        }
    }
    merged
}

/// One line of preformatted text, as [`canon_inlines`] does it.
pub(super) fn canon_pre_line(line: Vec<Inline>, block: Pos, fixer: &mut Fixer) -> Vec<Inline> {
    canon_inlines(line, Ctx::Pre, Role::PreLine, block, fixer)
}

/// The event pipeline: flatten, move white space out of markup, normalise
/// lines, rebuild.
fn repair_inlines_fully(run: &[Inline], ctx: Ctx, block: Pos, fixer: &mut Fixer) -> Vec<Inline> {
    let reported = fixer.reports;
    let mut flat = Flatten {
        ctx,
        block,
        out: Vec::new(),
        fixer,
    };
    flat.run(run, 0, Within::Run);
    let events = bubble(flat.out, block, fixer);
    let events = normalize_lines(events, ctx, block, fixer);
    let rebuilt = rebuild(events);
    // The cheap test first: the comparison copies the run.
    if fixer.reports == reported && rebuilt != bounded_run(run, 0) {
        // Nothing above was reported, yet the run changed: it broke the
        // model's own invariants (empty or adjacent text nodes).
        fixer.report(
            Code::ModelNormalized,
            Severity::Info,
            "empty or adjacent text pieces were merged",
            block,
        );
    }
    rebuilt
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::clean::has_line_end;
    use proptest::prelude::*;

    fn new_fixer() -> Fixer {
        Fixer::new(super::super::Policy::default())
    }

    proptest! {
        #[test]
        fn byte_searches_agree_with_str_searches(text in "[ a\n\r\t\u{e9}]{0,24}") {
            prop_assert_eq!(has_three_spaces(&text), text.contains("   "));
            prop_assert_eq!(has_line_end(&text), text.contains(['\n', '\r']));
        }
    }

    fn text() -> impl Strategy<Value = Inline> {
        proptest::collection::vec(
            prop_oneof![
                4 => Just("a"),
                2 => Just(" "),
                1 => Just("\t"),
                1 => Just("\n"),
                1 => Just("\u{a0}"),
                1 => Just("_"),
                1 => Just("x.y"),
            ],
            0..6,
        )
        .prop_map(|pieces| Inline::text(pieces.concat()))
    }

    fn value() -> impl Strategy<Value = Option<String>> {
        prop_oneof![
            Just(None),
            Just(Some(String::new())),
            Just(Some("http://example.org/a".to_owned())),
            Just(Some("a b".to_owned())),
            Just(Some("x|y".to_owned())),
        ]
    }

    fn run() -> impl Strategy<Value = Vec<Inline>> {
        let leaf = prop_oneof![
            6 => text(),
            2 => Just(Inline::line_break()),
            1 => prop_oneof![Just("a@b.example"), Just("a@"), Just("x y@b.example")]
                .prop_map(Inline::email),
        ];
        let node = leaf.prop_recursive(4, 32, 4, |inner| {
            let content = proptest::collection::vec(inner, 0..4);
            prop_oneof![
                content.clone().prop_map(Inline::emphasis),
                content.clone().prop_map(Inline::strong),
                content.clone().prop_map(Inline::code),
                (value(), value(), content.clone()).prop_map(|(u, f, c)| Inline::link(u, f, c)),
                (
                    value(),
                    content,
                    prop::option::of(Just("a \"t\"\n".to_owned())),
                    prop::option::of(0u32..3)
                )
                    .prop_map(|(src, alt, title, width)| Inline::Image {
                        src: src.unwrap_or_default(),
                        alt,
                        title,
                        width,
                        height: None,
                        pos: Pos::UNKNOWN,
                    }),
            ]
        });
        proptest::collection::vec(node, 0..6)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, .. ProptestConfig::default() })]

        /// The shortcut is only taken where the full repair changes nothing.
        #[test]
        fn a_clean_run_is_one_the_full_repair_keeps(run in run()) {
            for ctx in [
                Ctx::Flow,
                Ctx::DeepFlow,
                Ctx::Kept,
                Ctx::Heading,
                Ctx::KeptHeading,
                Ctx::Pre,
            ] {
                if marked_up_and_clean(&run, ctx, true) {
                    let mut fixer = new_fixer();
                    let full = repair_inlines_fully(&run, ctx, Pos::UNKNOWN, &mut fixer);
                    prop_assert_eq!(&full, &run, "{:?}", ctx);
                    prop_assert_eq!(fixer.reports, 0, "{:?}: {:?}", ctx, fixer.diags);
                }
            }
        }
    }

    /// The generator reaches the shortcut with markup, not only plain runs.
    #[test]
    fn marked_up_runs_can_be_clean() {
        let run = vec![
            Inline::text("see "),
            Inline::link(
                Some("http://example.org/".to_owned()),
                None,
                vec![Inline::emphasis(vec![Inline::text("this")])],
            ),
            Inline::text(" and"),
            Inline::line_break(),
            Inline::strong(vec![Inline::text("that")]),
        ];
        assert!(marked_up_and_clean(&run, Ctx::Flow, true));
        assert!(!marked_up_and_clean(&run, Ctx::Heading, true));
        let edge = vec![Inline::emphasis(vec![Inline::text(" x")])];
        assert!(!marked_up_and_clean(&edge, Ctx::Flow, true));
    }
}
