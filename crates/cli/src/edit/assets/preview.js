// pagetext edit: the preview frame, updated in place.
//
// Each check gives the whole page's XHTML, which app.js parses and makes
// safe (references made absolute, the page's own policy added: see
// `showPreview`). Loading that as the frame's new `srcdoc` parses and lays
// out the whole page again: on a page of 2 MB of text that holds the
// editor's thread for half a second or more, and the preview jumps back to
// its top. So when the frame already shows a preview with the same head,
// only the body's top-level blocks that differ are replaced, and the
// others keep their nodes (their `data-line` marks updated, for scroll.js).
//
// This is possible because the frame is of the editor's origin (sandbox
// `allow-same-origin`), and safe because it still runs no script: its
// sandbox has no `allow-scripts` and its policy (`script-src 'none'`),
// fixed when the frame's document was loaded, stays for every node put
// in later; the nodes come from the same safe document a reload would
// show. A new head (title, stylesheets), or a frame that has not finished
// loading, gets a full reload.
"use strict";

(() => {
  const frame = document.getElementById("preview");

  // Whether element `a` (in the frame) and `b` (new) are the same but for
  // their `data-line` marks, whose new values are collected in `marks`.
  function same(a, b, marks) {
    if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
    if (a.nodeType !== Node.ELEMENT_NODE) return a.nodeValue === b.nodeValue;
    const names = b.getAttributeNames();
    if (a.attributes.length !== names.length) return false;
    for (const name of names) {
      if (name === "data-line") {
        if (!a.hasAttribute(name)) return false;
        const line = b.getAttribute(name);
        if (a.getAttribute(name) !== line) marks.push([a, line]);
      } else if (a.getAttribute(name) !== b.getAttribute(name)) {
        return false;
      }
    }
    let x = a.firstChild;
    let y = b.firstChild;
    while (x && y) {
      if (!same(x, y, marks)) return false;
      x = x.nextSibling;
      y = y.nextSibling;
    }
    return x === null && y === null;
  }

  function reload(doc) {
    frame.srcdoc = `<!DOCTYPE html>\n${doc.documentElement.outerHTML}`;
  }

  // Puts `doc` (a parsed, safe preview) into the frame: in place when it
  // can, else by a reload. Returns how: "patched" or "reloaded".
  function show(doc) {
    let shown = null;
    try { shown = frame.contentDocument; } catch (_) { shown = null; }
    // Only into a preview of ours, whose head (and so policy) is the new
    // one's: never into a frame that is empty, still loading, or elsewhere.
    if (!shown || !shown.head || !shown.body || shown.readyState !== "complete"
        || shown.head.outerHTML !== doc.head.outerHTML) {
      reload(doc);
      return "reloaded";
    }
    const old = Array.from(shown.body.childNodes);
    const neu = Array.from(doc.body.childNodes);
    // The blocks before the first change are the same, marks included.
    let start = 0;
    while (start < old.length && start < neu.length && old[start].isEqualNode(neu[start])) start++;
    // The blocks after the last change are the same but for their marks,
    // which shift when lines were added or removed above them.
    const marks = [];
    let end = 0;
    while (end < old.length - start && end < neu.length - start) {
      const found = [];
      if (!same(old[old.length - 1 - end], neu[neu.length - 1 - end], found)) break;
      marks.push(...found);
      end++;
    }
    const before = end > 0 ? old[old.length - end] : null;
    for (const node of old.slice(start, old.length - end)) node.remove();
    for (const node of neu.slice(start, neu.length - end)) {
      shown.body.insertBefore(shown.adoptNode(node), before);
    }
    for (const [element, line] of marks) element.setAttribute("data-line", line);
    frame.dispatchEvent(new Event("pagetext-patched"));
    return "patched";
  }

  window.pagetextPreview = { show };
})();
