// pagetext edit's text editor: CodeMirror 6 set up for pagetext's text
// format. app.js (hand-written, not bundled) creates it through
// `window.PagetextEditor.create`; everything else about the page (tree,
// preview, saving) stays in app.js.

import { Annotation, EditorState, EditorSelection, Compartment } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  highlightSpecialChars, drawSelection, rectangularSelection, crosshairCursor,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab, undo, redo, undoDepth, redoDepth } from "@codemirror/commands";
import { searchKeymap, highlightSelectionMatches, search } from "@codemirror/search";
import { lintGutter, lintKeymap, setDiagnostics, forEachDiagnostic } from "@codemirror/lint";
import { syntaxHighlighting, HighlightStyle, bracketMatching } from "@codemirror/language";
import { tags } from "@lezer/highlight";
import { pagetextLanguage } from "./mode.js";

// Classes, not inline styles: app.css colours them.
const highlight = HighlightStyle.define([
  { tag: tags.keyword, class: "pt-header" },
  { tag: tags.string, class: "pt-value" },
  { tag: tags.comment, class: "pt-ignored" },
  { tag: tags.invalid, class: "pt-invalid" },
  { tag: tags.heading, class: "pt-heading" },
  { tag: tags.processingInstruction, class: "pt-markup" },
  { tag: tags.contentSeparator, class: "pt-rule" },
  { tag: tags.list, class: "pt-bullet" },
  { tag: tags.quote, class: "pt-quote" },
  { tag: tags.definition(tags.variableName), class: "pt-term" },
  { tag: tags.punctuation, class: "pt-markup" },
  { tag: tags.separator, class: "pt-bar" },
  { tag: tags.emphasis, class: "pt-emphasis" },
  { tag: tags.strong, class: "pt-strong" },
  { tag: tags.monospace, class: "pt-code" },
  { tag: tags.url, class: "pt-url" },
  { tag: tags.link, class: "pt-link" },
  { tag: tags.labelName, class: "pt-anchor" },
  { tag: tags.escape, class: "pt-escape" },
]);

// Changes that are not the person's typing (the server's text).
const quiet = Annotation.define();

// Layout and type; the colours of the markup are app.css's (pt-*).
const theme = EditorView.theme({
  "&": { height: "100%", fontSize: "13px", backgroundColor: "#fff" },
  "&.cm-focused": { outline: "none" },
  ".cm-scroller": { fontFamily: 'ui-monospace, "DejaVu Sans Mono", monospace', lineHeight: "20px" },
  ".cm-gutters": { backgroundColor: "#f0f0ee", color: "#888", borderRight: "0" },
});

const severities = { error: "error", warning: "warning", note: "info", info: "info", hint: "hint" };

// The server counts columns in characters (1-based); CodeMirror in UTF-16
// units from the line's start.
function offsetIn(line, column) {
  if (!column || column <= 1) return line.from;
  let units = 0;
  let chars = 0;
  for (const ch of line.text) {
    if (chars >= column - 1) break;
    units += ch.length;
    chars++;
  }
  return line.from + units;
}

// pagetext's diagnostics as CodeMirror's: a whole line when there is no
// column, the columns' range when there is one, else the rest of the line.
function toLint(doc, list) {
  const out = [];
  for (const d of list) {
    if (!d.line || d.line > doc.lines) continue;
    const line = doc.line(d.line);
    let from = d.column ? offsetIn(line, d.column) : line.from;
    let to = d.end_column ? offsetIn(line, d.end_column) : line.to;
    if (to < from) to = from;
    if (from === to && line.to > line.from) {
      if (from < line.to) to = from + 1; else from = Math.max(line.from, to - 1);
    }
    out.push({
      from, to,
      severity: severities[d.severity] || "warning",
      source: d.code,
      message: d.message,
    });
  }
  return out;
}

// Only the middle that differs: the cursor, scroll position and undo
// history survive a replacement by a text that is mostly the same.
function minimalChange(old, next) {
  let start = 0;
  const max = Math.min(old.length, next.length);
  while (start < max && old.charCodeAt(start) === next.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && old.charCodeAt(old.length - 1 - end) === next.charCodeAt(next.length - 1 - end)) end++;
  return { from: start, to: old.length - end, insert: next.slice(start, next.length - end) };
}

function create(parent, options = {}) {
  const editable = new Compartment();
  const onChange = options.onChange || (() => {});
  const extensions = () => [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    history(),
    drawSelection(),
    EditorState.allowMultipleSelections.of(true),
    rectangularSelection(),
    crosshairCursor(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    bracketMatching(),
    search({ top: true }),
    pagetextLanguage,
    syntaxHighlighting(highlight),
    lintGutter(),
    theme,
    // Long lines (a graphic's data URL, a paragraph on one line) wrap at
    // the editor's edge instead of scrolling it sideways.
    EditorView.lineWrapping,
    editable.of([EditorView.editable.of(false), EditorState.readOnly.of(true)]),
    EditorView.contentAttributes.of({ "aria-label": "The page as text", spellcheck: "false" }),
    keymap.of([
      ...defaultKeymap, ...historyKeymap, ...searchKeymap, ...lintKeymap, indentWithTab,
    ]),
    EditorView.updateListener.of((update) => {
      if (update.docChanged && !update.transactions.every((t) => t.annotation(quiet))) onChange();
    }),
  ];
  const view = new EditorView({ parent, state: EditorState.create({ doc: "", extensions: extensions() }) });

  const api = {
    view,
    /** The text. */
    text: () => view.state.doc.toString(),
    /** A new page: a fresh state, with a history of its own. */
    load(text) {
      view.setState(EditorState.create({ doc: text, extensions: extensions() }));
      view.dispatch({ effects: editable.reconfigure([]) });
      view.scrollDOM.scrollTop = 0;
    },
    /** The same page, another text (the server's, after a save or a
     * conflict): a change, so that undo can go back past it. */
    replace(text) {
      const old = view.state.doc.toString();
      if (old === text) return;
      view.dispatch({ changes: minimalChange(old, text), annotations: quiet.of(true), userEvent: "input.replace" });
    },
    /** The server's diagnostics for the current text. */
    setDiagnostics(list) {
      view.dispatch(setDiagnostics(view.state, toLint(view.state.doc, list)));
    },
    /** The lines that have lint marks, for tests and the gutter. */
    diagnosticLines() {
      const lines = [];
      forEachDiagnostic(view.state, (d, from) => lines.push(view.state.doc.lineAt(from).number));
      return lines;
    },
    /** Cursor to `line`:`column` (1-based, characters), scrolled into view. */
    goTo(line, column = 1) {
      const doc = view.state.doc;
      const at = offsetIn(doc.line(Math.max(1, Math.min(line, doc.lines))), column);
      view.dispatch({ selection: EditorSelection.cursor(at), effects: EditorView.scrollIntoView(at, { y: "center" }) });
      view.focus();
    },
    /** The text scrolled so that fractional `line` (1-based: 3.5 is half
     * way into line 3) is at the top edge. CodeMirror measures the lines
     * it scrolls to before it scrolls, so this is exact where heights were
     * only estimated (lines that wrap); a fraction of a wrapped line picks
     * the row that holds that part of its characters. */
    scrollToLine(line) {
      const doc = view.state.doc;
      const whole = Math.min(Math.max(1, Math.floor(line)), doc.lines);
      const at = doc.line(whole);
      const part = Math.min(Math.max(line - whole, 0), 1);
      const pos = at.from + Math.floor((at.to - at.from) * part);
      view.dispatch({ effects: EditorView.scrollIntoView(pos, { y: "start", yMargin: 0 }) });
    },
    /** Selects characters `from`..`to` (counted in UTF-16 units). */
    select(from, to = from) {
      view.dispatch({ selection: EditorSelection.range(from, to), scrollIntoView: true });
      view.focus();
    },
    focus: () => view.focus(),
    undo: () => undo(view),
    redo: () => redo(view),
    undoDepth: () => undoDepth(view.state),
    redoDepth: () => redoDepth(view.state),
  };
  return api;
}


window.PagetextEditor = { create };
