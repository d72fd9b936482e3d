// pagetext edit: the text and the preview scroll in step, by block.
//
// How: the preview's XHTML marks each block with the line of the text it
// comes from (written by htmlio's emitter only for the preview:
// `EmitOptions::source_lines`; a saved page never carries it): a top-level
// block its line (`data-line`), a nested one its distance from that line
// (`data-offset`; see preview.js). The preview
// frame is sandboxed with `allow-same-origin` but WITHOUT `allow-scripts`:
// nothing in it runs (no script, no handler, no `javascript:` URL, under
// its own CSP `script-src 'none'` too), yet this script, the parent, may
// read its layout and scroll it. So each side's top edge is mapped to a
// position in the text's lines: on the text side by CodeMirror's line
// geometry, on the preview side by the two marked blocks around it, and
// between two blocks by the fraction of the way from one to the next.
//
// Why not something else: a percentage drifts as soon as one side has
// images, tables or long preformatted blocks the other lacks; fragment
// navigation (`#line-N`) reloads a srcdoc frame and goes one way only;
// postMessage needs a script inside the preview, which must never run
// one. Reading the frame's DOM from the parent needs neither.
//
// A checkbox turns it off (remembered in localStorage); off, the preview
// keeps its own scroll position across the reloads that edits cause.
"use strict";

(() => {
  const frame = document.getElementById("preview");
  const toggle = document.getElementById("scroll-sync");
  const KEY = "pagetext.scrollSync";
  const view = window.pagetextEditor.view;
  const scroller = view.scrollDOM;

  // Storage may be refused (a browser's privacy settings): then the
  // choice lasts as long as the page.
  const remembered = () => { try { return localStorage.getItem(KEY); } catch (_) { return null; } };
  const remember = (value) => { try { localStorage.setItem(KEY, value); } catch (_) { /* kept for this page only */ } };
  let on = remembered() !== "off";
  toggle.checked = on;
  toggle.addEventListener("change", () => {
    on = toggle.checked;
    remember(on ? "on" : "off");
    if (on) textToPreview();
  });

  // The blocks of the preview, in document order: [line, element].
  let blocks = [];
  // The preview's last scroll position, kept across reloads when off.
  let previewY = 0;
  // The side this script just scrolled: its next scroll event is ours,
  // not the person's, and is not followed back.
  const ours = { text: false, preview: false };

  const win = () => frame.contentWindow;
  const doc = () => {
    try { return frame.contentDocument; } catch (_) { return null; }
  };

  // The marked blocks of preview document `d`, in document order: a
  // top-level block carries its line (`data-line`), a nested one its
  // distance from its top-level block's line (`data-offset`: see
  // preview.js). Blocks whose line is unknown are left out.
  function marked(d) {
    const out = [];
    for (const e of d.querySelectorAll("[data-line],[data-offset]")) {
      let line = Number(e.getAttribute("data-line") ?? NaN);
      if (!e.hasAttribute("data-line")) {
        let top = e;
        while (top.parentElement && top.parentElement !== d.body) top = top.parentElement;
        line = Number(top.getAttribute("data-line") ?? NaN) + Number(e.getAttribute("data-offset"));
      }
      if (Number.isFinite(line)) out.push([line, e]);
    }
    return out;
  }

  // The top of an element in the preview's document, in pixels.
  const topOf = (element) => element.getBoundingClientRect().top + win().scrollY;

  // The text's top edge as a line number with a fraction (line 3.5: half
  // way down line 3).
  function textLine() {
    const height = scroller.getBoundingClientRect().top - view.documentTop;
    const block = view.lineBlockAtHeight(Math.max(0, height));
    const line = view.state.doc.lineAt(block.from).number;
    const part = block.height > 0 ? (height - block.top) / block.height : 0;
    return line + Math.min(Math.max(part, 0), 1);
  }

  // The text scrolled so that fractional `line` is at its top edge, by
  // the editor (which measures the lines it scrolls to: where long lines
  // wrap, their heights are only estimated until then). The scroll event
  // that follows, a frame or two later, is ours.
  function scrollTextTo(line) {
    const before = scroller.scrollTop;
    ours.text = true;
    window.pagetextEditor.scrollToLine(line);
    requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => {
      if (scroller.scrollTop === before) ours.text = false;
    })));
  }

  function setScroll(side, get, set, target) {
    if (Math.abs(get() - target) < 1) return;
    ours[side] = true;
    set(target);
    // A scroll that moved nothing sends no event: forget it after a frame.
    requestAnimationFrame(() => requestAnimationFrame(() => { ours[side] = false; }));
  }

  // The last block whose line is at most `line` (binary search by line).
  function blockAtLine(line) {
    let lo = 0, hi = blocks.length - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (blocks[mid][0] <= line) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
  }

  // The last block whose top is at most `y` (binary search by position:
  // blocks in document order are laid out top to bottom).
  function blockAtY(y) {
    let lo = 0, hi = blocks.length - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (topOf(blocks[mid][1]) <= y + 1) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
  }

  // The next block after `i` on a later line.
  function nextBlock(i) {
    let j = i + 1;
    while (j < blocks.length && blocks[j][0] <= blocks[i][0]) j++;
    return j < blocks.length ? j : -1;
  }

  // The stretch between the marked block i and the next one (or the end):
  // its first and last lines, and the tops of the two blocks in the preview.
  function span(i) {
    const [fromLine, fromEl] = blocks[i];
    const j = nextBlock(i);
    const [toLine, toY] = j < 0
      ? [view.state.doc.lines + 1, doc().documentElement.scrollHeight]
      : [blocks[j][0], topOf(blocks[j][1])];
    return [fromLine, topOf(fromEl), toLine, toY];
  }

  function textToPreview() {
    const w = win();
    if (!on || !w || !blocks.length) return;
    const line = textLine();
    const end = Math.max(0, doc().documentElement.scrollHeight - w.innerHeight);
    let y;
    const i = blockAtLine(line);
    if (i < 0) {
      y = topOf(blocks[0][1]) * (line - 1) / Math.max(1, blocks[0][0] - 1);
    } else {
      const [fromLine, fromY, toLine, toY] = span(i);
      y = fromY + (toY - fromY) * (line - fromLine) / Math.max(1, toLine - fromLine);
    }
    setScroll("preview", () => w.scrollY, (v) => w.scrollTo(0, v), Math.round(Math.min(Math.max(0, y), end)));
  }

  function previewToText() {
    const w = win();
    if (!on || !w || !blocks.length) return;
    const y = w.scrollY;
    const i = blockAtY(y);
    let line;
    if (i < 0) {
      const firstY = topOf(blocks[0][1]);
      line = 1 + (blocks[0][0] - 1) * (firstY > 0 ? y / firstY : 0);
    } else {
      const [fromLine, fromY, toLine, toY] = span(i);
      const part = toY > fromY ? (y - fromY) / (toY - fromY) : 0;
      line = fromLine + (toLine - fromLine) * Math.min(Math.max(part, 0), 1);
    }
    scrollTextTo(line);
  }

  scroller.addEventListener("scroll", () => {
    if (ours.text) { ours.text = false; return; }
    textToPreview();
  }, { passive: true });

  // A preview updated in place (preview.js): the same document, its
  // blocks and their lines read again, and the text followed.
  frame.addEventListener("pagetext-patched", () => {
    const d = doc();
    if (!d) return;
    blocks = marked(d);
    textToPreview();
  });

  // Every preview loaded is a new document: its blocks read again, its
  // scroll followed, and its position set from the text (or kept, when
  // off).
  frame.addEventListener("load", () => {
    const d = doc();
    const w = win();
    if (!d || !w) { blocks = []; return; }
    blocks = marked(d);
    w.addEventListener("scroll", () => {
      previewY = w.scrollY;
      if (ours.preview) { ours.preview = false; return; }
      previewToText();
    }, { passive: true });
    if (on) textToPreview();
    else if (previewY) setScroll("preview", () => w.scrollY, (v) => w.scrollTo(0, v), previewY);
  });

  // For the browser tests: the line at each side's top edge.
  window.pagetextScroll = {
    textLine,
    previewLine() {
      const w = win();
      if (!w || !blocks.length) return null;
      const i = blockAtY(w.scrollY);
      return i < 0 ? 1 : blocks[i][0];
    },
    enabled: () => on,
  };
})();
