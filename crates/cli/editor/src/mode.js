// A line-oriented highlighting mode for pagetext's text format
// (docs/format.md): header lines, headings, rules, lists, blockquotes,
// definition terms, table rows, and inline markup (emphasis, strong, sample
// text, links and anchors, e-mail addresses, images, escapes, forced breaks
// `<br>`, superscripts `^{..}` and subscripts `~{..}`). It follows
// the format's rules where a line alone decides; where the reading depends
// on blocks around the line (preformatted text, compact items) it does not
// guess. The server's diagnostics say what the page really means.

import { StreamLanguage } from "@codemirror/language";

const alnum = /[\p{L}\p{N}]/u;
const space = /\s/u;
// URL and fragment hold no white space and none of {}[|]<>".
const linkStart = /^\[([^\s{}[|\]<>"]*)\|([^\s{}[|\]<>"]*)\|/u;
const address = /^<[\p{L}\p{N}._-]+@[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)+>/u;
const heading = /^(={1,6}) (\S|\S.*\S) \1$/u;
const rule = /^([-=*+~_#^])\1{3,}$/;
const bullet = /^([ \t]+)([*+-]|[0-9]+[.)]|[a-z]+[.)]|[A-Z]+[.)])([ \t]+)(?=\S)/;
// With `#Extend open`, a bullet alone on its line opens a container.
const bareBullet = /^([ \t]+)([*+-]|[0-9]+[.)]|[a-z]+[.)]|[A-Z]+[.)])$/;
const quote = /^([ \t]+)> /;
const escapable = "\\_*'[]|<>!=-+~#^.):  ";

function startState() {
  return {
    header: true, first: true, escape: false, open: false, image: false, table: false,
    breaks: false, subsup: false, line: null, inline: [],
  };
}

function copyState(s) {
  return { ...s, inline: s.inline.map((x) => ({ ...x })) };
}

// The header: `#Word rest`, the word case-insensitive.
function headerLine(stream, state) {
  if (stream.sol()) {
    const word = stream.match(/^#[^\s]*/);
    if (!word) { stream.skipToEnd(); return "comment"; }
    const name = word[0].toLowerCase();
    const rest = stream.string.slice(stream.pos).trim().toLowerCase().split(/\s+/);
    if (name === "#escape" && rest.length === 1 && rest[0] === "\\") state.escape = true;
    if (name === "#extend") {
      if (rest.includes("open")) state.open = true;
      if (rest.includes("image")) state.image = true;
      if (rest.includes("table")) state.table = true;
      if (rest.includes("break")) state.breaks = true;
      if (rest.includes("subsup")) state.subsup = true;
    }
    const known = ["#title", "#lang", "#escape", "#extend"].includes(name)
      || name.startsWith("#meta:") || name.startsWith("#link:");
    return known ? "keyword" : "invalid";
  }
  stream.skipToEnd();
  return "string";
}

// The kind of a body line, decided at its start.
function bodyLineStart(stream, state) {
  const text = stream.string;
  state.line = null;
  state.inline = [];
  if (heading.test(text)) {
    const m = heading.exec(text);
    // The title runs up to the space before the closing run.
    state.line = { kind: "heading", level: m[1].length, end: text.length - m[1].length - 1 };
    stream.match(/^=+ /);
    return "processingInstruction";
  }
  if (rule.test(text) && !(state.table && text.startsWith("|"))) {
    stream.skipToEnd();
    return "contentSeparator";
  }
  if (state.table && /^\|.*\|$/.test(text) && text.length >= 2) state.line = { kind: "row" };
  else if (state.table && text.startsWith("|+ ")) { stream.match("|+"); state.line = { kind: "caption" }; return "processingInstruction"; }
  let m = bullet.exec(text) || (state.open ? bareBullet.exec(text) : null);
  if (m) { stream.match(m[1]); stream.match(m[2]); return "list"; }
  m = quote.exec(text);
  if (m) { stream.match(m[1]); stream.match(">"); return "quote"; }
  if (!/^[ \t]/.test(text) && /::$/.test(text) && !state.line) {
    state.line = { kind: "term", end: text.length - 2 };
  }
  return null;
}

// Markup that may start at the stream's position: returns the token of its
// opening and pushes what its content is, up to where.
function inlineStart(stream, state) {
  const text = stream.string;
  const at = stream.pos;
  const c = text[at];
  const before = at === 0 ? " " : text[at - 1];
  // Markup inside markup ends before the outer one does.
  const outer = state.inline[state.inline.length - 1];
  const limit = outer ? outer.end : state.line && state.line.end !== undefined ? state.line.end : text.length;
  if (state.escape && c === "\\" && at + 1 < text.length && escapable.includes(text[at + 1])) {
    stream.pos += 2;
    return "escape";
  }
  if (c === "!" && state.image) {
    const m = linkStart.exec(text.slice(at + 1));
    if (m && m[1] && !m[2]) {
      const end = closeBracket(text, at + 1);
      if (end !== -1 && end < limit) {
        stream.pos = at + 1 + m[0].length;
        state.inline.push({ kind: "image", end, size: true });
        return "url";
      }
    }
  }
  if (c === "[") {
    const m = linkStart.exec(text.slice(at));
    if (m && (m[1] || m[2])) {
      const end = closeBracket(text, at);
      if (end !== -1 && end < limit) {
        stream.pos = at + m[0].length;
        state.inline.push({ kind: m[1] ? "link" : "anchor", end });
        return m[1] ? "url" : "labelName";
      }
    }
  }
  if (c === "<") {
    const m = address.exec(text.slice(at));
    if (m) { stream.pos = at + m[0].length; return "url"; }
    // `#Extend break`: a forced line break.
    if (state.breaks && text.startsWith("<br>", at)) { stream.pos = at + 4; return "processingInstruction"; }
  }
  // `#Extend subsup`: `^{..}` and `~{..}`, up to the balancing `}`.
  if ((c === "^" || c === "~") && state.subsup && text[at + 1] === "{") {
    const end = closeBrace(text, at + 1);
    if (end !== -1 && end < limit) {
      stream.pos = at + 2;
      state.inline.push({ kind: "script", end });
      return "processingInstruction";
    }
  }
  if ((c === "_" || c === "*" || c === "'") && !alnum.test(before)) {
    const next = text[at + 1];
    if (next !== undefined && !space.test(next)) {
      // The first valid end: not after white space, not before a letter or digit.
      for (let i = at + 2; i < limit; i++) {
        if (text[i] !== c || space.test(text[i - 1])) continue;
        const after = text[i + 1];
        if (after !== undefined && alnum.test(after)) continue;
        stream.pos = at + 1;
        state.inline.push({ kind: c === "_" ? "emphasis" : c === "*" ? "strong" : "monospace", end: i });
        return "processingInstruction";
      }
    }
  }
  return null;
}

// The `}` that balances the `{` at `open`, or -1.
function closeBrace(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

// The `]` that balances the `[` at `open`, or -1.
function closeBracket(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "[") depth++;
    else if (text[i] === "]" && --depth === 0) return i;
  }
  return -1;
}

// The styles of the markup the position is inside.
function styles(state) {
  const out = [];
  if (state.line && state.line.kind === "heading") out.push(`heading${state.line.level}`);
  if (state.line && state.line.kind === "term") out.push("variableName.definition");
  for (const x of state.inline) {
    if (x.kind === "link" || x.kind === "image") out.push("link");
    else if (x.kind === "anchor") out.push("labelName");
    else if (x.kind !== "script") out.push(x.kind);
  }
  return out.join(" ") || null;
}

function token(stream, state) {
  if (stream.sol()) {
    if (state.first) {
      state.first = false;
      // A document whose first line is not a header line has no header
      // (pagetext warns); one that starts with an empty line has none.
      if (!stream.string.startsWith("#")) state.header = false;
    }
    if (state.header) return headerLine(stream, state);
    const kind = bodyLineStart(stream, state);
    if (kind) return kind;
  } else if (state.header) {
    return headerLine(stream, state);
  }
  const text = stream.string;
  // Ends of what is open, innermost first.
  const top = state.inline[state.inline.length - 1];
  if (top && stream.pos === top.end) {
    state.inline.pop();
    stream.pos++;
    if (top.size) {
      const size = /^\{[^}]*\}/.exec(text.slice(stream.pos));
      if (size) stream.pos += size[0].length;
    }
    return top.kind === "link" || top.kind === "image" ? "url" : top.kind === "anchor" ? "labelName" : "processingInstruction";
  }
  if (state.line && state.line.kind === "heading" && !top && stream.pos >= state.line.end) {
    stream.skipToEnd();
    return "processingInstruction";
  }
  if (state.line && state.line.kind === "term" && !top && stream.pos >= state.line.end) {
    stream.skipToEnd();
    return "punctuation";
  }
  if (state.line && (state.line.kind === "row") && text[stream.pos] === "|") {
    stream.pos++;
    if (text[stream.pos] === "=") { stream.pos++; return "separator strong"; }
    return "separator";
  }
  const open = inlineStart(stream, state);
  if (open) return open;
  // Plain text up to the next character that may matter.
  stream.pos++;
  while (!stream.eol()) {
    const c = text[stream.pos];
    if ("\\![<_*'|^~".includes(c)) break;
    if (top && stream.pos >= top.end) break;
    if (state.line && state.line.kind === "heading" && stream.pos >= state.line.end) break;
    if (state.line && state.line.kind === "term" && stream.pos >= state.line.end) break;
    stream.pos++;
  }
  // Never run past the end of open markup.
  if (top && stream.pos > top.end) stream.pos = top.end;
  return styles(state);
}

function blankLine(state) {
  if (state.first) state.first = false;
  state.header = false;
  state.line = null;
  state.inline = [];
}

export const pagetextLanguage = StreamLanguage.define({
  name: "pagetext",
  startState,
  copyState,
  token,
  blankLine,
  languageData: {},
});
