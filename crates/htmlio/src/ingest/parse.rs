//! Driving html5ever: tokenizer and tree builder over decoded text, into the
//! arena of [`super::sink`], watching for the encoding declarations the
//! tree builder reports.
//!
//! html5ever's own driver (`parse_document(..).one(..)`) ignores the tree
//! builder's "change the encoding" signal; here the tokenizer is fed
//! directly, so that each signal can be answered (seed 001 §8.2.2.4, later
//! standard "in head", `meta` start tag, steps 1 and 2).

use std::cell::Cell;

use encoding_rs::Encoding;
use html5ever::TokenizerResult;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts, TreeSink};

use super::sink::{Arena, Handle, Keep, Sink};
use super::tags::droppable_when_deep;

/// How many elements may be open before the start tags of plain containers
/// are ignored. Browsers cap the depth of the tree too (WebKit at 512); the
/// tree builder's scope checks walk the stack of open elements, so without a
/// cap a page of 100,000 nested `div`s costs 100,000² steps. The model
/// flattens far shallower structure anyway ([`wikitext::MAX_DEPTH`]).
pub(crate) const MAX_OPEN: u32 = 1024;

/// The tree builder behind a gate that drops the start tags of plain
/// containers while the tree is [`MAX_OPEN`] deep; their end tags are then
/// ignored by the tree builder as stray ones, and their content stays.
struct Gate {
    builder: TreeBuilder<Handle, Sink>,
    dropped: Cell<usize>,
    first_dropped_line: Cell<u64>,
}

impl TokenSink for Gate {
    type Handle = Handle;

    fn process_token(&self, token: Token, line_number: u64) -> TokenSinkResult<Handle> {
        if let Token::TagToken(tag) = &token
            && tag.kind == TagKind::StartTag
            && self.builder.sink.open_depth() >= MAX_OPEN
            && droppable_when_deep(&tag.name)
        {
            if self.dropped.get() == 0 {
                self.first_dropped_line.set(line_number);
            }
            self.dropped.set(self.dropped.get().saturating_add(1));
            return TokenSinkResult::Continue;
        }
        self.builder.process_token(token, line_number)
    }

    fn end(&self) {
        self.builder.end();
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.builder
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

/// What the caller says about an encoding a `<meta>` declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OnMeta {
    /// Go on parsing; later declarations no longer matter (the confidence is
    /// now certain).
    Settled,
    /// Stop: the document must be decoded again.
    Stop,
}

/// Whether a parse listens to the encoding declarations of `<meta>`s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Declarations {
    /// The encoding is tentative: each `<meta>` that declares one goes to
    /// the caller.
    Watch,
    /// The encoding is certain (or the input is text already): they are
    /// ignored.
    Ignore,
}

/// How much text is handed to the tokenizer at a time.
const CHUNK: usize = 64 * 1024;

/// The largest `n <= at` that is a character boundary of `s`.
fn floor_boundary(s: &str, at: usize) -> usize {
    let mut i = at.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Parses `text` into an arena. While `declarations` are watched, every
/// `<meta>` the tree builder inserts that declares an encoding (by sniff's reading of its
/// attributes, see [`sniff::meta_declared_encoding`]) is given to `on_meta`
/// with the element's line; [`OnMeta::Stop`] abandons the parse (`None`).
pub(crate) fn parse(
    text: &str,
    keep: impl Into<Keep>,
    mut declarations: Declarations,
    on_meta: &mut dyn FnMut(&'static Encoding, u32) -> OnMeta,
) -> Option<Arena> {
    let builder = TreeBuilder::new(
        Sink::for_text(keep.into(), text.len()),
        TreeBuilderOpts {
            // The output has no scripts, so the page is read as a browser
            // without scripting reads it: <noscript> content is markup, not
            // raw text.
            scripting_enabled: false,
            drop_doctype: true,
            ..TreeBuilderOpts::default()
        },
    );
    let gate = Gate {
        builder,
        dropped: Cell::new(0),
        first_dropped_line: Cell::new(0),
    };
    // The text is already decoded, and decoding removed the one leading BOM
    // the spec removes (seed 001 §8.2.2.3). html5ever's `discard_bom` would
    // drop a U+FEFF at the start of every chunk we feed, deleting real
    // characters at 64 KiB boundaries, so it stays off.
    let tokenizer = Tokenizer::new(
        gate,
        TokenizerOpts {
            discard_bom: false,
            ..TokenizerOpts::default()
        },
    );
    let input = BufferQueue::default();
    let mut rest = text;
    while !rest.is_empty() {
        let mut cut = floor_boundary(rest, CHUNK);
        if cut == 0 {
            cut = rest.len();
        }
        let (chunk, tail) = rest.split_at(cut);
        rest = tail;
        input.push_back(StrTendril::from_slice(chunk));
        loop {
            match tokenizer.feed(&input) {
                TokenizerResult::Done => break,
                // Scripting is off: scripts are never run.
                TokenizerResult::Script(_) => {}
                TokenizerResult::EncodingIndicator(_label) => {
                    if declarations == Declarations::Ignore {
                        continue;
                    }
                    // The label html5ever passes is the `charset` value even
                    // when it names no encoding, in which case the standard
                    // goes on to `http-equiv`: read the element instead.
                    let Some((attrs, line)) = tokenizer.sink.builder.sink.last_meta() else {
                        continue;
                    };
                    let declared = sniff::meta_declared_encoding(
                        attrs.iter().map(|(n, v)| (n.as_bytes(), v.as_bytes())),
                    );
                    if let Some(encoding) = declared {
                        match on_meta(encoding, line) {
                            OnMeta::Settled => declarations = Declarations::Ignore,
                            OnMeta::Stop => return None,
                        }
                    }
                }
            }
        }
    }
    tokenizer.end();
    let gate = tokenizer.sink;
    let mut arena = gate.builder.sink.finish();
    arena.too_deep = (
        gate.dropped.get(),
        u32::try_from(gate.first_dropped_line.get()).unwrap_or(u32::MAX),
    );
    Some(arena)
}
