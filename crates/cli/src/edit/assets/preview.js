// pagetext edit: the preview frame, updated in place.
//
// The server sends the preview in parts (`api/render` with `blocks`): the
// head, each top-level block of the body as markup with its text line
// apart, and the tail (htmlio's `emit::preview_parts`). A block's markup
// does not change when lines are added or taken away above it: its own
// line travels beside it, and its nested blocks' lines are counted from it
// (`data-offset`). So after an edit this script compares the new blocks
// with those the frame shows, as strings, and only the blocks that differ
// are parsed (by app.js, which makes them safe as it does a whole preview)
// and put in place of the old ones; the others keep their nodes, and get
// their new line when it moved. Parsing and laying out the whole page again
// would hold the editor's thread for a long time on a page of 2 MB of text
// (and send the preview back to its top).
//
// This is possible because the frame is of the editor's origin (sandbox
// `allow-same-origin`), and safe because it still runs no script: its
// sandbox has no `allow-scripts` and its policy (`script-src 'none'`),
// fixed when the frame's document was loaded, stays for every node put
// in later; the nodes are made safe exactly as a reload's would be. A new
// head (title, stylesheets), a frame that has not finished loading, or a
// body whose nodes do not line up with the blocks gets a full reload.
"use strict";

(() => {
  const frame = document.getElementById("preview");
  // What the frame shows: the head's markup, each block's markup and line,
  // and (once read from the loaded frame) each block's nodes.
  let shown = { head: null, keys: null, lines: null, groups: null, doc: null };

  // The nodes of `body` cut into `count` blocks: each block's nodes end
  // with its element; blank text after the last element belongs to it.
  // `null` when the nodes do not line up with `count` blocks.
  function group(body, count) {
    const groups = [];
    let current = [];
    for (const node of body.childNodes) {
      current.push(node);
      if (node.nodeType === Node.ELEMENT_NODE) { groups.push(current); current = []; }
    }
    if (current.length) {
      const blank = current.every((n) => n.nodeType === Node.TEXT_NODE && !n.nodeValue.trim());
      if (blank && groups.length) groups[groups.length - 1].push(...current);
      else groups.push(current);
    }
    return groups.length === count ? groups : null;
  }

  // The element that carries a block's line: its last node, when an element.
  const carrier = (nodes) => {
    const last = nodes[nodes.length - 1];
    return last && last.nodeType === Node.ELEMENT_NODE ? last : null;
  };

  function mark(nodes, line) {
    const element = carrier(nodes);
    if (!element) return;
    if (line === null) element.removeAttribute("data-line");
    else element.setAttribute("data-line", String(line));
  }

  // The whole document of a preview in parts, as one string.
  function whole(parts) {
    return parts.head + parts.blocks.map((b) => b[1]).join("") + parts.tail;
  }

  // A full reload with `doc` (a parsed, safe preview of `parts`, or of a
  // whole XHTML string when `parts` is null).
  function show(doc, parts) {
    const groups = parts ? group(doc.body, parts.blocks.length) : null;
    if (groups) parts.blocks.forEach((b, i) => mark(groups[i], b[0]));
    shown = groups
      ? { head: parts.head, keys: parts.blocks.map((b) => b[1]), lines: parts.blocks.map((b) => b[0]), groups: null, doc: null }
      : { head: null, keys: null, lines: null, groups: null, doc: null };
    frame.srcdoc = `<!DOCTYPE html>\n${doc.documentElement.outerHTML}`;
    return "reloaded";
  }

  // What an in-place update of the frame to `parts` needs: the range of
  // blocks that differ and the markup of the new ones; `null` when only a
  // reload will do.
  function plan(parts) {
    let doc = null;
    try { doc = frame.contentDocument; } catch (_) { doc = null; }
    if (!shown.keys || shown.head !== parts.head || !doc || !doc.body || doc.readyState !== "complete") return null;
    if (shown.doc !== doc) {
      shown.groups = group(doc.body, shown.keys.length);
      shown.doc = doc;
    }
    if (!shown.groups) return null;
    const old = shown.keys;
    const neu = parts.blocks;
    let start = 0;
    while (start < old.length && start < neu.length && old[start] === neu[start][1]) start++;
    let end = 0;
    while (end < old.length - start && end < neu.length - start
      && old[old.length - 1 - end] === neu[neu.length - 1 - end][1]) end++;
    const html = neu.slice(start, neu.length - end).map((b) => b[1]).join("");
    return { parts, start, oldEnd: old.length - end, newEnd: neu.length - end, html };
  }

  // Puts the new blocks (`fresh`: a parsed, safe document holding the
  // markup of `p.html`) in place. Returns false, changing nothing, when
  // the frame moved on or the new nodes do not line up with the blocks.
  function apply(p, fresh) {
    let doc = null;
    try { doc = frame.contentDocument; } catch (_) { doc = null; }
    if (!doc || shown.doc !== doc) return false;
    const added = group(fresh.body, p.newEnd - p.start);
    if (!added) return false;
    const groups = shown.groups;
    const next = groups[p.oldEnd];
    const before = next ? next[0] : null;
    for (const nodes of groups.slice(p.start, p.oldEnd)) for (const node of nodes) node.remove();
    const adopted = added.map((nodes) => nodes.map((node) => doc.adoptNode(node)));
    for (const nodes of adopted) for (const node of nodes) doc.body.insertBefore(node, before);
    shown.groups = [...groups.slice(0, p.start), ...adopted, ...groups.slice(p.oldEnd)];
    const lines = p.parts.blocks.map((b) => b[0]);
    // Old lines, aligned with the new blocks (undefined for new ones).
    const was = [...shown.lines.slice(0, p.start), ...new Array(p.newEnd - p.start), ...shown.lines.slice(p.oldEnd)];
    lines.forEach((line, i) => { if (was[i] !== line) mark(shown.groups[i], line); });
    shown.keys = p.parts.blocks.map((b) => b[1]);
    shown.lines = lines;
    frame.dispatchEvent(new Event("pagetext-patched"));
    return true;
  }

  window.pagetextPreview = { show, plan, apply, whole };
})();
