//! Text: text nodes split into words and white space, and `<br>` line
//! divisions.

use wikitext::{Inline, Severity};

use super::frames::FrameKind;
use super::{Builder, at};
use crate::ingest::diag::Code;
use crate::ingest::run::{Mode, Pending};
use crate::ingest::sink::{Element, NONE, NodeId};

/// Whether text holds the source of an HTML tag (`<` then a letter, `/`
/// or `!`): in `<noscript>`, what a script would have written with
/// `document.write`, escaped so that a browser without scripting shows
/// it as text; in `<textarea>` (whose content HTML reads as text), an
/// embed code to copy or a template a script fills in, not prose.
/// A tag broken by a space after its `<` (`< img src=...>`, which a
/// browser shows as text) counts when a `>` closes it.
fn shows_markup(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().any(|(i, &b)| {
        if b != b'<' {
            return false;
        }
        let rest = &bytes[i + 1..];
        let spaces = rest.iter().take_while(|&&c| c == b' ').count();
        match rest.get(spaces) {
            Some(&n) if n.is_ascii_alphabetic() || n == b'/' || n == b'!' => {
                spaces == 0 || rest[spaces..].contains(&b'>')
            }
            _ => false,
        }
    })
}

/// Whether a `select` is a drop-down, which shows one option: no
/// `multiple`, and a `size` that is absent or at most 1 (HTML's rules for
/// non-negative integers; a value that is not one counts as absent).
fn is_drop_down(select: &Element) -> bool {
    if &*select.name.local != "select" || select.attr("multiple").is_some() {
        return false;
    }
    select
        .attr("size")
        .and_then(|s| microsyntax::parse_non_negative_integer(s).ok())
        .is_none_or(|n| n <= 1)
}

/// Whether a character is white space for HTML (ASCII white space).
fn is_html_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

impl Builder<'_> {
    /// The start of an `option` or `optgroup` (a choice of a list box);
    /// whether its content is read. A drop-down (a `select` without
    /// `multiple` whose `size` is at most 1) shows one option, the first
    /// that is `selected` or else its first: that option's text alone is
    /// kept, as a reader sees it. A list box shows its choices: each is
    /// kept, after a ` / ` when a choice of the same box came before it,
    /// and a group's `label`. The box itself is gone.
    pub(super) fn choice(&mut self, id: NodeId, e: &Element, line: u32) -> bool {
        // The box: the parent, or the group's parent for a choice in a group
        // (two steps at most, so hostile nesting costs nothing).
        let parent = self.arena.node(id).map_or(NONE, |n| n.parent);
        let owner = match self.arena.element(parent) {
            Some(p) if &*p.name.local == "optgroup" => {
                self.arena.node(parent).map_or(NONE, |n| n.parent)
            }
            _ => parent,
        };
        if self.arena.element(owner).is_some_and(is_drop_down) {
            if &*e.name.local == "optgroup" {
                return true;
            }
            if self.shown_choice.0 != owner {
                self.shown_choice = (owner, self.shown_option(owner));
            }
            return self.shown_choice.1 == id;
        }
        if !self.choice_seen {
            self.choice_seen = true;
            self.report(
                Code::ChoicesAsText,
                Severity::Info,
                line,
                "the choices of a list box kept as text, the control left out",
            );
        }
        if owner != NONE && self.last_choice_owner == owner {
            self.text(" / ", line);
        }
        self.last_choice_owner = owner;
        if let Some(label) = e.attr("label").filter(|_| &*e.name.local == "optgroup") {
            self.text(label, line);
        }
        true
    }

    /// The option a drop-down `select` shows: its first `selected` option
    /// (in a group or not), else its first option; one walk of its
    /// children and its groups' children.
    fn shown_option(&self, select: NodeId) -> NodeId {
        let next = |id: NodeId| self.arena.node(id).map_or(NONE, |n| n.next);
        let mut first = NONE;
        let mut child = self.arena.node(select).map_or(NONE, |n| n.first_child);
        // The group being walked: groups do not nest.
        let mut group = NONE;
        loop {
            if child == NONE {
                // The end of a group goes on after it; the end of the box
                // ends the walk.
                if group == NONE {
                    return first;
                }
                child = next(group);
                group = NONE;
                continue;
            }
            match self.arena.element(child).map(|el| (&*el.name.local, el)) {
                Some(("option", el)) if el.attr("selected").is_some() => return child,
                Some(("option", _)) if first == NONE => first = child,
                Some(("optgroup", _)) if group == NONE => {
                    group = child;
                    child = self.arena.node(child).map_or(NONE, |n| n.first_child);
                    continue;
                }
                _ => {}
            }
            child = next(child);
        }
    }

    /// A text node.
    pub(super) fn text(&mut self, text: &str, line: u32) {
        if self.noscript > 0 && shows_markup(text) {
            self.report(
                Code::NoscriptMarkup,
                Severity::Info,
                line,
                "text inside <noscript> that is the source of HTML tags left out: a browser without scripting would show the tags themselves",
            );
            return;
        }
        if self.textarea > 0 && shows_markup(text) {
            self.report(
                Code::TextareaMarkup,
                Severity::Info,
                line,
                "text inside <textarea> that is the source of HTML tags left out: it is code to copy or a template, not the page's prose",
            );
            return;
        }
        if self.top_kind().is_some_and(FrameKind::is_pre) {
            self.pre_text(text, line);
            return;
        }
        let bytes = text.as_bytes();
        if bytes.iter().all(|&b| is_html_ws(b)) {
            if let Some(top) = self.frames.last_mut()
                && top.kind.takes_content()
            {
                if self.inline_parent {
                    top.run.pending_inline_ws(text);
                } else {
                    top.run.pending_ws(text);
                }
            }
            return;
        }
        self.prepare_content();
        // Split into words and white space; single spaces between words need
        // no special handling and stay inside the pieces.
        let mut line = line;
        let mut start = 0;
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes.get(i).copied().unwrap_or(b'x');
            if !is_html_ws(b) {
                i += 1;
                continue;
            }
            let mut j = i;
            while bytes.get(j).is_some_and(|&b| is_html_ws(b)) {
                j += 1;
            }
            let simple = b == b' ' && j == i + 1 && i > start && j < bytes.len();
            if simple {
                i = j;
                continue;
            }
            if i > start {
                self.word(text.get(start..i).unwrap_or(""), line);
            }
            let ws = text.get(i..j).unwrap_or("");
            if let Some(top) = self.frames.last_mut() {
                if self.inline_parent {
                    top.run.pending_inline_ws(ws);
                } else {
                    top.run.pending_ws(ws);
                }
            }
            line = line.saturating_add(u32::try_from(ws.matches('\n').count()).unwrap_or(0));
            start = j;
            i = j;
        }
        if start < bytes.len() {
            self.word(text.get(start..).unwrap_or(""), line);
        }
    }

    /// Text that is not from a text node (alt text, quotation marks): white
    /// space in it is normalised the same way.
    pub(super) fn inline_text(&mut self, text: &str, line: u32) {
        self.text(text, line);
    }

    /// A piece of text without white space at its edges.
    fn word(&mut self, piece: &str, line: u32) {
        let pos = at(line);
        self.before_content(line);
        let mut rest = piece;
        if !self.pending_anchors.is_empty() {
            rest = self.place_anchors(rest, line);
        }
        if let Some(top) = self.frames.last_mut() {
            top.run.text(rest, pos);
        }
    }

    /// An inline element that arrives whole (an image), placed as a word
    /// is: in a frame that takes content, as a word's frame is made ready
    /// (an image directly inside a list goes into its previous item).
    pub(super) fn inline_node(&mut self, node: Inline, line: u32) {
        self.prepare_content();
        self.before_content(line);
        if let Some(top) = self.frames.last_mut() {
            top.run.inline(node, None);
        }
    }

    /// What comes before a word or an inline element: the elements that
    /// closed are closed, the white space before it is written, and the
    /// elements around it are opened.
    fn before_content(&mut self, line: u32) {
        let pos = at(line);
        self.sync_close();
        let Some(top) = self.frames.last_mut() else {
            return;
        };
        let mode = match top.kind.mode() {
            Mode::Flow if top.para == 0 && !matches!(top.kind, FrameKind::Root) => Mode::Bare,
            mode => mode,
        };
        match top.run.take_pending(mode) {
            Pending::Nothing => {}
            Pending::Space(ws) => top.run.text(&ws, pos),
            Pending::Break => top.run.line_break(pos),
            Pending::HardBreak { feed } => top.run.hard_break(pos, feed),
            Pending::Split => {
                self.flush();
                if let Some(top) = self.frames.last_mut() {
                    top.split_text = true;
                }
            }
        }
        self.sync_open(line);
    }

    /// `<br>`.
    pub(super) fn line_break(&mut self, line: u32) {
        match self.top_kind() {
            Some(FrameKind::Pre { .. }) => self.pre_newline(),
            Some(k) if k.takes_content() => {
                if let Some(top) = self.frames.last_mut() {
                    top.run.pending_br();
                }
            }
            _ => {}
        }
        let _ = line;
    }
}

#[cfg(test)]
mod tests {
    fn text(html: &str) -> String {
        crate::to_text(html.as_bytes(), &Default::default()).text
    }

    #[test]
    fn line_feeds_on_both_sides_of_a_tag_are_no_empty_line() {
        // A share button's icon and label on lines of their own stay one
        // link in one item; an empty line in one run of white space still
        // parts two text blocks of an item (seed interpretation 1).
        assert_eq!(
            text(
                "<ul><li><a href=\"#y\"><img src=i.png alt=\"\">\n  <span>\n    Share\n  </span></a></li></ul><p id=y>y</p>"
            ),
            "#Extend image\n\n  * [#y||![i.png||]\n    Share]\n\n[|y|]\n"
        );
        assert_eq!(
            text(
                "<ul><li><a href=\"#y\"><img src=i.png alt=\"\">\n\t\n\t<span>Menu</span></a></li></ul><p id=y>y</p>"
            ),
            "#Extend image\n\n  * [#y||![i.png||]\n    Menu]\n\n[|y|]\n"
        );
        assert_eq!(text("<ul><li>a\n\nb</li></ul>"), "\n  * a\n\n    b\n");
    }

    #[test]
    fn what_the_page_does_not_show_is_left_out() {
        // An icon link to `#!` or an empty mail form shows no text (its id
        // stays, on the next word); one with a title shows the title, and
        // one to a place in the page gets its fragment's words as its text.
        assert_eq!(
            text(concat!(
                "<p><a href=\"#!\" id=s><i></i></a> x <a href=\"mailto:?subject=Hi\"><i></i></a>",
                " y <a href=\"#s\" title=Up></a> <a href=\"#s\"></a>"
            )),
            "\n[|s|x] y [#s||Up] [#s||s]\n"
        );
        // A tracking pixel for readers without scripts, and one whose tag
        // a space broke (a browser without scripts shows its source; one
        // that runs them shows no `<noscript>` at all).
        assert_eq!(
            text("<p>a<noscript><img src=p.gif alt=\"*\" width=1 height=1></noscript>"),
            "\na\n"
        );
        assert_eq!(
            text("<p>a<noscript>< img alt=\"x\" src=\"p.gif?a=1\"></noscript> b"),
            "\na b\n"
        );
        // What a page says to readers without scripts, with its link.
        assert_eq!(
            text(concat!(
                "<p>a <noscript>Please enable JavaScript to view the ",
                "<a href=\"https://disqus.com/?ref_noscript\">comments.</a></noscript>b"
            )),
            "\na b\n"
        );
        // Wikipedia's hidden MathML copy beside the formula's image.
        assert_eq!(
            text(
                "<p><span style=\"display: none\"><math><annotation encoding=\"application/x-tex\">a_{i}</annotation></math></span><img src=f.svg alt=\"a_{i}\">"
            ),
            "#Extend image\n\n![f.svg||a_{i}]\n"
        );
    }

    #[test]
    fn a_script_in_preformatted_text_is_plain_text_with_a_warning() {
        let page = crate::to_text(
            b"<pre>E = mc<sup>2</sup>, H<sub>2</sub>O</pre>",
            &Default::default(),
        );
        assert_eq!(page.text, "\n  E = mc2, H2O\n");
        let lost: Vec<_> = page
            .diagnostics()
            .filter(|d| d.code() == "presentation-lost")
            .map(|d| d.severity())
            .collect();
        assert_eq!(lost, [wikitext::Severity::Warning; 2]);
    }

    #[test]
    fn a_text_area_keeps_its_words_but_not_the_code_it_holds() {
        // An embed code to copy is the source of tags, not prose.
        assert_eq!(
            text(concat!(
                "<p>Embed: <textarea><iframe src='v/1'>No frames. ",
                "<a href=\"v\">Watch</a>.</iframe></textarea> done"
            )),
            "\nEmbed: done\n"
        );
        // Words a page shows in a text area stay.
        assert_eq!(
            text("<p>Note: <textarea>Write here</textarea>"),
            "\nNote: Write here\n"
        );
    }

    #[test]
    fn an_object_with_an_image_for_other_readers_is_that_image() {
        assert_eq!(
            text(
                "<a href=\"/\"><object type=\"image/svg+xml\" data=\"logo.svg\"><img src=\"logo.png\" alt=Logo></object></a>"
            ),
            "#Extend image\n\n[/||![logo.png||Logo]]\n"
        );
        // Without one, an object is a link to what it embeds.
        assert_eq!(
            text("<p><object data=\"m.swf\" title=Movie>Flash</object>"),
            "\n[m.swf||Movie]\n"
        );
    }

    #[test]
    fn images_directly_inside_a_list_go_into_its_previous_item() {
        // A `<div>` or `<span>` right inside a `<ul>` is invalid, common,
        // and shown by browsers: its images are kept as its text is.
        let page = "<ul><li>one</li><div><a href=\"/a\"><img src=\"a.png\" alt=\"A\"></a></div>\
                    <span><img src=\"b.png\" alt=\"B\"></span><li>two</li></ul>";
        assert_eq!(
            text(page),
            "#Extend image\n\n  * one\n    [/a||![a.png||A]]\n    ![b.png||B]\n  * two\n"
        );
    }

    #[test]
    fn a_drop_down_shows_its_chosen_option_and_a_list_box_its_choices() {
        let months =
            "<option>Select Month</option><option>May 2012</option><option>April 2012</option>";
        assert_eq!(
            text(&format!("<p>Archives: <select>{months}</select>")),
            "\nArchives: Select Month\n"
        );
        // The first `selected` option, in a group or not; a group's label
        // is not shown by a drop-down.
        let chosen = "<select size=1><optgroup label=G><option>a<option selected>b</optgroup><option selected>c</select>";
        assert_eq!(text(&format!("<p>x {chosen} y")), "\nx b y\n");
        // An empty group is passed over.
        assert_eq!(
            text("<p><select><optgroup label=G></optgroup><option>a<option selected>b</select>"),
            "\nb\n"
        );
        // A list box shows its choices.
        assert_eq!(
            text("<p><select multiple><option>a<option>b</select>"),
            "\na / b\n"
        );
        assert_eq!(
            text("<p><select size=\" 3 \"><option>a<option>b</select>"),
            "\na / b\n"
        );
        // A size that is not a number is none.
        assert_eq!(
            text("<p><select size=x><option>a<option>b</select>"),
            "\na\n"
        );
    }

    #[test]
    fn a_huge_drop_down_keeps_its_first_option() {
        let options: String = (0..100_000).map(|i| format!("<option>o{i}")).collect();
        assert_eq!(text(&format!("<p><select>{options}</select>")), "\no0\n");
    }
}
