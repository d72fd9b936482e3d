// pagetext edit: the editor's page. Plain JavaScript; the text editor is
// CodeMirror 6 with the text format's mode, from editor.js (bundled from
// crates/cli/editor/, loaded before this script), as `window.PagetextEditor`.
//
// Everything the server sends (file names, text, messages) is put into the
// page as text (textContent, value), never as markup. The preview is a
// sandboxed srcdoc frame without scripts; links in it to other pages of the
// site navigate the top window to `#open=PATH`, which this script turns
// into opening that page.
"use strict";

const token = location.pathname.split("/")[1];
const base = `/${token}/`;
const sitePrefix = `${base}site/`;
const client = Math.random().toString(36).slice(2) + Date.now().toString(36);
// The pause after typing before the text is checked and previewed: longer
// for a big text (0.85 s for 2.2 MB), whose check and preview take the
// page's thread for longer, so that they run when the person has stopped.
const CHECK_PAUSE_MS = 300;
const checkPause = () => CHECK_PAUSE_MS + Math.min(700, editor.view.state.doc.length / 4000);

const $ = (id) => document.getElementById(id);
const ui = {
  tree: $("tree"), filter: $("filter"),
  diagnostics: $("diagnostics"), count: $("count"), ingestion: $("ingestion"),
  summary: $("summary"), preview: $("preview"), save: $("save"), status: $("status"),
  current: $("current"), encoding: $("encoding"), notice: $("notice"),
  conflict: $("conflict"), mine: $("mine"), theirs: $("theirs"),
  review: $("review"), reviewPanel: $("review-panel"), reviewPage: $("review-page"),
  reviewStats: $("review-stats"), reviewDiff: $("review-diff"),
  reviewDropsNote: $("review-drops-note"), reviewDrops: $("review-drops"),
  links: $("links"), linksPanel: $("links-panel"), linksSummary: $("links-summary"),
  linksList: $("links-list"),
};

// The open page: path, kind, version, the text as opened or last saved
// (`base`, what "Review and save" compares with), and whether the text has
// changed.
const page = { path: null, kind: null, version: null, original: null, base: "", dirty: false };
// The diagnostics of the latest check of the text.
let lastDiagnostics = [];
let saving = false;
let theirs = null;
let checkTimer = 0;
let checkSeq = 0;
let checking = null;

// The text: CodeMirror, with the diagnostics as lint marks and gutter
// markers. `window.pagetextEditor` is the handle the browser tests use.
const editor = window.PagetextEditor.create($("editor"), { onChange: edited });
window.pagetextEditor = editor;

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) node.append(child);
  return node;
}

function say(message, kind = "") {
  ui.status.textContent = message;
  ui.status.dataset.kind = kind;
}

async function api(path, options = {}) {
  const response = await fetch(base + path, { credentials: "same-origin", ...options });
  let body = null;
  try { body = await response.json(); } catch (_) { body = { error: `${response.status} ${response.statusText}` }; }
  return { ok: response.ok, status: response.status, body };
}

// ---- The site -------------------------------------------------------------

async function listDir(dir, into, offset = 0) {
  const { ok, body } = await api(`api/tree?dir=${encodeURIComponent(dir)}&offset=${offset}`);
  if (!ok) { into.append(el("li", { class: "more" }, body.error)); return; }
  for (const entry of body.entries) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.kind === "dir") {
      const children = el("ul");
      const item = el("li", { class: "dir" });
      const button = el("button", { type: "button", title: path }, entry.name);
      button.addEventListener("click", () => {
        const open = item.classList.toggle("open");
        if (open && !item.dataset.loaded) { item.dataset.loaded = "1"; listDir(path, children); }
        children.hidden = !open;
      });
      item.append(button, children);
      into.append(item);
    } else {
      into.append(pageItem(path, entry.name));
    }
  }
  if (body.more) {
    const next = offset + body.entries.length;
    const more = el("button", { type: "button", class: "more" }, `${body.total - next} more…`);
    const item = el("li", {}, more);
    more.addEventListener("click", () => { item.remove(); listDir(dir, into, next); });
    into.append(item);
  }
}

function pageItem(path, label) {
  const button = el("button", { type: "button", title: path, "data-path": path }, label);
  if (path === page.path) button.classList.add("open");
  button.addEventListener("click", () => openPage(path));
  return el("li", { class: "page" }, button);
}

function showTree() {
  ui.tree.replaceChildren();
  const root = el("ul");
  ui.tree.append(root);
  listDir("", root);
}

let filterTimer = 0;
ui.filter.addEventListener("input", () => {
  clearTimeout(filterTimer);
  filterTimer = setTimeout(async () => {
    const q = ui.filter.value.trim();
    if (!q) { showTree(); return; }
    const { ok, body } = await api(`api/find?q=${encodeURIComponent(q)}`);
    if (q !== ui.filter.value.trim()) return;
    const list = el("ul");
    if (!ok) list.append(el("li", { class: "more" }, body.error));
    else {
      for (const path of body.pages) list.append(pageItem(path, path));
      if (!body.pages.length) list.append(el("li", { class: "more" }, "no page matches"));
      if (body.truncated) list.append(el("li", { class: "more" }, "more match: type more of the name"));
    }
    ui.tree.replaceChildren(list);
  }, 200);
});

// ---- The text -------------------------------------------------------------

function diagnosticItem(d, jump) {
  // Ingestion's lines are the HTML's, not the text's.
  const at = d.line ? (d.column ? `${d.line}:${d.column}` : `${d.line}`) : "";
  const where = at && !jump ? `HTML line ${at}` : at;
  const item = el("li", { class: d.severity, "data-code": d.code },
    el("span", { class: "where" }, where), d.message, el("span", { class: "code" }, d.code));
  if (d.line) {
    item.dataset.line = String(d.line);
    if (jump) item.addEventListener("click", () => goTo(d.line, d.column || 1));
  }
  return item;
}

function goTo(line, column) {
  editor.goTo(line, column);
}

function showDiagnostics(diagnostics) {
  lastDiagnostics = diagnostics;
  editor.setDiagnostics(diagnostics);
  ui.diagnostics.replaceChildren(...diagnostics.map((d) => diagnosticItem(d, true)));
  const serious = diagnostics.filter((d) => d.severity !== "note").length;
  ui.count.textContent = diagnostics.length
    ? `(${serious} warning${serious === 1 ? "" : "s"}, ${diagnostics.length - serious} note${diagnostics.length - serious === 1 ? "" : "s"})`
    : "(none)";
}

// The person changed the text (typing, pasting, undo, replace).
function edited() {
  if (!page.path) return;
  setDirty(true);
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, checkPause());
}

function setDirty(dirty) {
  page.dirty = dirty;
  ui.save.disabled = !page.path;
  ui.review.disabled = !page.path;
  document.title = `${dirty ? "• " : ""}${page.path || "pagetext edit"}`;
}

// Re-check after a pause; a check in flight is cancelled by the next one.
async function check() {
  const seq = ++checkSeq;
  if (checking) checking.abort();
  checking = new AbortController();
  let answer;
  try {
    answer = await api("api/render", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ text: editor.text(), client, seq, blocks: true }),
      signal: checking.signal,
    });
  } catch (e) {
    if (e.name !== "AbortError") say(`check failed: ${e.message}`, "error");
    return;
  }
  if (seq !== checkSeq || answer.body.superseded) return;
  if (!answer.ok) { say(answer.body.error, "error"); return; }
  showDiagnostics(answer.body.diagnostics);
  showPreview(answer.body);
}

// ---- The result -----------------------------------------------------------

function pageUrl() {
  const encoded = page.path.split("/").map(encodeURIComponent).join("/");
  return new URL(sitePrefix + encoded, location.origin);
}

// The XHTML in the sandboxed frame: references made absolute (to the site's
// files), links to the site's pages turned into `#open=` links of the top
// window, and a policy that allows nothing but the site's files.
// preview.js puts it in the frame: after an edit, only the blocks that
// changed are parsed, made safe here the same way, and put in place; a
// whole preview (a new page, a new head) is built in pieces, each followed
// by a pause for the page's other work, and a newer preview stops an older
// one between pieces.
let previewSeq = 0;
const breather = () => new Promise((resolve) => setTimeout(resolve, 0));

// Makes the parsed preview `doc` (a whole one, or new blocks of one) safe
// to show: see above.
function makeSafe(doc) {
  const here = pageUrl();
  const site = location.origin + sitePrefix;
  // A path from the site's root (`/style.css`) is below the site's prefix.
  const resolve = (value) => {
    try {
      const url = new URL(value.startsWith("/") && !value.startsWith("//") ? sitePrefix + value.slice(1) : value, here);
      return url;
    } catch (_) { return null; }
  };
  for (const [selector, attribute] of [["link[href]", "href"], ["img[src]", "src"]]) {
    for (const node of doc.querySelectorAll(selector)) {
      const url = resolve(node.getAttribute(attribute));
      if (url) node.setAttribute(attribute, url.href); else node.removeAttribute(attribute);
    }
  }
  for (const a of doc.querySelectorAll("a[href]")) {
    const href = a.getAttribute("href");
    // Nothing the page says may send the editor's address (and token) away.
    a.setAttribute("rel", "noreferrer noopener");
    if (href.startsWith("#")) continue;
    const url = resolve(href);
    if (!url) { a.removeAttribute("href"); continue; }
    let rel = null;
    if (url.href.startsWith(site) && /\.(html?|xhtml|txt)$/i.test(url.pathname)) {
      try { rel = decodeURIComponent(url.pathname.slice(sitePrefix.length)); } catch (_) { rel = null; }
    }
    if (rel !== null) {
      a.setAttribute("href", `${location.origin}${base}#open=${encodeURIComponent(rel)}`);
      a.setAttribute("target", "_top");
    } else {
      a.setAttribute("href", url.href);
    }
  }
  for (const meta of doc.querySelectorAll("meta[name]")) {
    if (meta.getAttribute("name").toLowerCase() === "referrer") meta.remove();
  }
}

// A page's template made safe for the preview of the page as saved, before
// `makeSafe` and the frame's policy: nothing in it may run, and nothing may
// make the browser connect by itself (resource hints, a refresh, frames),
// whatever the policy says. Every other address is made absolute against
// the page, CSS `url()` and `@import` included, so that the policy judges
// it: only the site's own files below the editor's address load.
function makeTemplateSafe(doc) {
  const here = pageUrl();
  const absolute = (value) => {
    try {
      return new URL(value.startsWith("/") && !value.startsWith("//") ? sitePrefix + value.slice(1) : value, here).href;
    } catch (_) { return "about:invalid"; }
  };
  const css = (text) => text
    .replace(/url\(\s*(['"]?)([^'")]*)\1\s*\)/gi, (_, q, u) => `url("${absolute(u.trim())}")`)
    .replace(/@import\s+(['"])([^'"]*)\1/gi, (_, q, u) => `@import "${absolute(u)}"`);
  for (const node of doc.querySelectorAll("script, base, meta[http-equiv], iframe, frame, frameset, object, embed, applet, portal, template")) node.remove();
  for (const link of doc.querySelectorAll("link")) {
    const rels = (link.getAttribute("rel") || "").toLowerCase().split(/\s+/);
    if (!rels.includes("stylesheet") || rels.some((r) => r !== "stylesheet")) link.remove();
  }
  for (const node of doc.querySelectorAll("*")) {
    for (const { name } of [...node.attributes]) {
      const n = name.toLowerCase();
      if (n.startsWith("on") || n === "ping" || n === "srcset" || n === "imagesrcset" || n === "formaction" || n === "action") node.removeAttribute(name);
    }
    if (node.hasAttribute("style")) node.setAttribute("style", css(node.getAttribute("style")));
    for (const attribute of ["src", "poster", "data", "background"]) {
      if (node.hasAttribute(attribute)) node.setAttribute(attribute, absolute(node.getAttribute(attribute)));
    }
  }
  for (const style of doc.querySelectorAll("style")) style.textContent = css(style.textContent);
}

// The preview of an HTML page as a save writes it, up to this size of text;
// past it the text's own preview, updated block by block, keeps up better.
const PAGE_VIEW_LIMIT = 1000000;

// Whether the preview shows the page as saved (the toggle, for an HTML page
// of a size it can follow).
function pageView() {
  const box = $("page-view");
  const html = page.kind === "html";
  const small = editor.text().length <= PAGE_VIEW_LIMIT;
  box.disabled = !html || !small;
  box.parentElement.title = !small ? "The page is too large to preview as saved at every edit: the preview shows the text's XHTML" : box.parentElement.title;
  return html && small && box.checked;
}

// The policy the preview's document carries (`inline`: the page's own
// inline styles may apply), and no referrer.
function protect(doc, inline) {
  const site = location.origin + sitePrefix;
  const policy = doc.createElement("meta");
  policy.setAttribute("http-equiv", "Content-Security-Policy");
  policy.setAttribute("content",
    `default-src 'none'; script-src 'none'; style-src ${site}${inline ? " 'unsafe-inline'" : ""}; img-src ${site} data:; font-src ${site}; media-src ${site}`);
  const referrer = doc.createElement("meta");
  referrer.setAttribute("name", "referrer");
  referrer.setAttribute("content", "no-referrer");
  doc.head.prepend(policy, referrer);
}

// `answer`: a check's answer, with the preview in parts (`preview`) or
// whole (`xhtml`).
async function showPreview(answer) {
  const seq = ++previewSeq;
  const frame = window.pagetextPreview;
  if (pageView()) {
    const { ok, body } = await api("api/view", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ path: page.path, text: editor.text() }),
    });
    if (seq !== previewSeq) return;
    if (ok) {
      const doc = new DOMParser().parseFromString(body.html, "text/html");
      makeTemplateSafe(doc);
      makeSafe(doc);
      protect(doc, true);
      frame.show(doc, null);
      return;
    }
  }
  const parts = answer.preview || null;
  if (parts) {
    const patch = frame.plan(parts);
    if (patch) {
      const fresh = new DOMParser().parseFromString(
        `<!DOCTYPE html><html><head></head><body>${patch.html}</body></html>`, "text/html");
      makeSafe(fresh);
      if (frame.apply(patch, fresh)) return;
    }
  }
  const doc = new DOMParser().parseFromString(parts ? frame.whole(parts) : answer.xhtml, "text/html");
  await breather();
  if (seq !== previewSeq) return;
  makeSafe(doc);
  await breather();
  if (seq !== previewSeq) return;
  protect(doc, false);
  if (seq === previewSeq) frame.show(doc, parts);
}

// ---- Opening and saving -----------------------------------------------------

// Whether `path` is the open page afterwards.
async function openPage(path) {
  if (saving) { say("wait for the save to finish", "error"); return false; }
  // The page being edited stays as it is: reopening would drop the edits.
  if (page.dirty && path === page.path) return true;
  if (page.dirty && !confirm(`${page.path} has unsaved changes. Open ${path} and drop them?`)) return false;
  say(`opening ${path}…`);
  const { ok, body } = await api(`api/page?path=${encodeURIComponent(path)}`);
  if (!ok) { say(body.error, "error"); return false; }
  Object.assign(page, { path: body.path, kind: body.kind, version: body.version, original: body.original, summary: body.summary || "", base: body.text, savedOnce: false });
  // A new page starts a new undo history.
  editor.load(body.text);
  ui.current.textContent = body.path;
  showOpen(true);
  ui.encoding.textContent = body.encoding ? `read as ${body.encoding}` : "";
  ui.summary.textContent = body.summary || (body.kind === "text" && !body.ingestion.length ? "A text page: nothing lost." : "");
  history.replaceState(null, "", `#open=${encodeURIComponent(body.path)}`);
  ui.ingestion.replaceChildren(...body.ingestion.map((d) => diagnosticItem(d, false)));
  for (const button of ui.tree.querySelectorAll("button[data-path]")) {
    button.classList.toggle("open", button.dataset.path === body.path);
  }
  showFirstSaveNotice();
  setDirty(false);
  showDiagnostics([]);
  say(`opened ${body.path}`);
  await check();
  return true;
}

// The text pane with a page, or (none open) the words that say what to do;
// the commands that need a page wait for one.
function showOpen(open) {
  $("empty").hidden = open;
  $("panes").classList.toggle("blank", !open);
  $("rename").disabled = !open;
  $("image").disabled = !open;
}
showOpen(false);

function showFirstSaveNotice() {
  const original = page.original;
  if (original && !original.exists) {
    ui.notice.textContent = page.kind === "text"
      ? `${page.path} is not plain UTF-8 text: saving writes it as UTF-8. The first save keeps the original as ${original.name}.`
      : `Saving writes your edits onto ${page.path}: what you do not edit keeps its bytes, byte for byte (its template, styles, scripts and charset), and a save with no edit writes nothing. The first save keeps the original as ${original.name}.`;
    ui.notice.hidden = false;
  } else {
    ui.notice.hidden = true;
  }
}

// Saves the text on `version` (the one the editor opened, or after a
// conflict the one it showed): if the file changed again meanwhile, that is
// a new conflict, never an overwrite.
async function save(version = page.version, clean = false) {
  if (!page.path || saving) return;
  const sentPath = page.path;
  const sentText = editor.text();
  saving = true;
  ui.save.disabled = true;
  say(`saving ${sentPath}…`);
  let answer;
  try {
    answer = await api("api/save", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(clean ? { path: sentPath, text: sentText, version, clean } : { path: sentPath, text: sentText, version }),
    });
  } catch (e) {
    answer = { ok: false, status: 0, body: { error: `saving failed: ${e.message}` } };
  } finally {
    saving = false;
    ui.save.disabled = !page.path;
  }
  const { ok, status, body } = answer;
  if (page.path !== sentPath) return;
  if (status === 409 && body.conflict) { showConflict(body.theirs); say(body.error, "error"); return; }
  if (!ok) { say(body.error, "error"); return; }
  page.version = body.version;
  page.base = typeof body.text === "string" ? body.text : sentText;
  page.savedOnce = true;
  // Typed while saving: still unsaved, and kept as typed.
  // The server's text replaces it as a change: undo goes back past it.
  const unchanged = editor.text() === sentText;
  if (unchanged && typeof body.text === "string" && body.text !== sentText) {
    editor.replace(body.text);
    check();
  }
  setDirty(!unchanged);
  const notes = [...body.notices];
  if (body.original) {
    notes.unshift(`The original was kept as ${body.original}.`);
    page.original = { name: body.original, exists: true };
  }
  ui.notice.textContent = notes.join(" ");
  ui.notice.hidden = notes.length === 0;
  say(`saved ${body.path} (${body.encoding})`, "ok");
}

function showConflict(onDisk) {
  theirs = onDisk;
  ui.mine.value = editor.text();
  ui.theirs.value = onDisk.text;
  ui.conflict.hidden = false;
}

$("keep-mine").addEventListener("click", () => { ui.conflict.hidden = true; save(theirs.version); });
$("take-theirs").addEventListener("click", () => {
  ui.conflict.hidden = true;
  // A change, not a new state: undo brings the person's version back.
  editor.replace(theirs.text);
  page.version = theirs.version;
  page.base = theirs.text;
  setDirty(false);
  say("took the version on disk");
  check();
});
$("cancel-conflict").addEventListener("click", () => { ui.conflict.hidden = true; });
ui.save.addEventListener("click", () => save());
ui.review.addEventListener("click", () => review());
$("page-view").addEventListener("change", () => check());
ui.links.addEventListener("click", () => showLinks());
// The format's cheat-sheet, one click (or F1) away.
function showFormat() {
  $("format-panel").hidden = false;
  $("format-close").focus();
}
$("format").addEventListener("click", () => showFormat());
$("format-close").addEventListener("click", () => { $("format-panel").hidden = true; });
document.addEventListener("keydown", (e) => {
  if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "s") {
    e.preventDefault();
    if (e.shiftKey) review(); else save();
  } else if (e.key === "F1") {
    e.preventDefault();
    showFormat();
  } else if (e.key === "Escape") {
    ui.reviewPanel.hidden = true;
    ui.linksPanel.hidden = true;
    $("new-panel").hidden = true;
    $("format-panel").hidden = true;
  }
});
window.addEventListener("beforeunload", (e) => { if (page.dirty) e.preventDefault(); });

// ---- Review and save -------------------------------------------------------

// The edit script from lines `a` to lines `b`: [op, line] with op " ", "-"
// or "+". Common ends are trimmed; the middle is Myers' O((N+M)D) greedy
// diff, given up past `maxD` differences (then all of it is replaced).
function diffLines(a, b, maxD = 4000) {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length, endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) { endA--; endB--; }
  const midA = a.slice(start, endA), midB = b.slice(start, endB);
  const middle = myers(midA, midB, maxD)
    || [...midA.map((l) => ["-", l]), ...midB.map((l) => ["+", l])];
  return [
    ...a.slice(0, start).map((l) => [" ", l]),
    ...middle,
    ...a.slice(endA).map((l) => [" ", l]),
  ];
}

function myers(a, b, maxD) {
  const n = a.length, m = b.length, max = Math.min(n + m, maxD);
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d]: v before step d, for k in [-d-1, d+1].
  const trace = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(off - d - 1, off + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) { x++; y++; }
      v[off + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b);
    }
  }
  return null;
}

function backtrack(trace, a, b) {
  const out = [];
  let x = a.length, y = b.length;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d];
    const at = (k) => vd[k + d + 1];
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK), prevY = prevX - prevK;
    while (x > prevX && y > prevY) { out.push([" ", a[x - 1]]); x--; y--; }
    if (d > 0) {
      if (x === prevX) out.push(["+", b[y - 1]]); else out.push(["-", a[x - 1]]);
    }
    x = prevX; y = prevY;
  }
  return out.reverse();
}

// The diff shown: changed lines with three lines of context each side,
// runs of unchanged lines between them folded.
function showDiff(ops) {
  const CONTEXT = 3;
  const near = new Uint8Array(ops.length);
  ops.forEach(([op], i) => {
    if (op === " ") return;
    for (let j = Math.max(0, i - CONTEXT); j <= Math.min(ops.length - 1, i + CONTEXT); j++) near[j] = 1;
  });
  const rows = [];
  let oldLine = 0, newLine = 0, skipped = 0;
  const flush = () => {
    if (skipped) rows.push(el("div", { class: "skip" }, `… ${skipped} unchanged line${skipped === 1 ? "" : "s"}`));
    skipped = 0;
  };
  ops.forEach(([op, line], i) => {
    if (op !== "+") oldLine++;
    if (op !== "-") newLine++;
    if (!near[i]) { skipped++; return; }
    flush();
    const kind = op === "+" ? "add" : op === "-" ? "del" : "same";
    const number = op === "-" ? oldLine : newLine;
    rows.push(el("div", { class: kind, "data-op": op },
      el("span", { class: "num" }, `${op === " " ? " " : op}${number}`), line));
  });
  flush();
  ui.reviewDiff.replaceChildren(...rows);
}

// "Review and save": what the save writes (the text against the text as
// opened or last saved) and what it drops (the check's warnings), then Save
// or Cancel.
async function review() {
  if (!page.path || saving) return;
  ui.linksPanel.hidden = true;
  // The diagnostics of the text as it is now.
  clearTimeout(checkTimer);
  await check();
  const lines = (text) => (text === "" ? [] : text.replace(/\n$/, "").split("\n"));
  const ops = diffLines(lines(page.base), lines(editor.text()));
  const added = ops.filter(([op]) => op === "+").length;
  const removed = ops.filter(([op]) => op === "-").length;
  ui.reviewPage.textContent = page.path;
  ui.reviewStats.textContent = added || removed
    ? `${added} line${added === 1 ? "" : "s"} added, ${removed} removed, against the text as ${page.savedOnce ? "last saved" : "opened"}.`
    : `No change: the text is as ${page.savedOnce ? "last saved" : "opened"}.`;
  showDiff(ops);
  const drops = lastDiagnostics.filter((d) => d.severity !== "note");
  const notes = [];
  if (page.kind === "html") {
    notes.push(`Saving writes your edits onto ${page.path}: only the parts you edited change, and the rest of the page keeps its bytes; what the warnings below name is not written to the page.`);
    if (page.original && !page.original.exists) {
      notes.push(`The first save keeps the original as ${page.original.name}.`);
    }
  } else if (drops.length) {
    notes.push("The text is saved as it is; what the warnings below name does not reach the page as written.");
  }
  if (!drops.length) notes.push("The check of the text has no warnings: nothing of it is dropped.");
  ui.reviewDropsNote.textContent = notes.join(" ");
  $("review-save-clean").hidden = page.kind !== "html";
  await showPageChanges();
  ui.reviewDrops.replaceChildren(...drops.map((d) => {
    const item = diagnosticItem(d, true);
    item.addEventListener("click", () => { ui.reviewPanel.hidden = true; });
    return item;
  }));
  ui.reviewPanel.hidden = false;
  $("review-save").focus();
}

$("review-save").addEventListener("click", () => { ui.reviewPanel.hidden = true; save(); });
// The seed's save, an explicit choice: the page written again from the
// text alone, its template, classes and scripts gone (with the XHTML 1.0
// Transitional DOCTYPE, so that it renders in standards mode as the
// preview does).
$("review-save-clean").addEventListener("click", () => {
  const kept = page.original && !page.original.exists ? ` The first save keeps the original as ${page.original.name}.` : "";
  const ok = window.confirm(`Write ${page.path} again as clean XHTML from the text alone? Everything the text does not hold is lost from the page: its template, classes, styles and scripts (its DOCTYPE becomes XHTML 1.0 Transitional's).${kept}`);
  if (!ok) return;
  ui.reviewPanel.hidden = true;
  save(page.version, true);
});

// In the review of an HTML page: what the save changes in the page's
// bytes (api/changes), each change at its line with a little of the page
// around it.
async function showPageChanges() {
  const title = $("review-page-title"), stats = $("review-page-stats"), list = $("review-page-changes");
  const shown = page.kind === "html";
  title.hidden = stats.hidden = list.hidden = !shown;
  list.replaceChildren();
  if (!shown) return;
  const { ok, body } = await api("api/changes", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ path: page.path, text: editor.text() }),
  });
  if (!ok) { stats.textContent = body.error; return; }
  const n = body.changes.length;
  stats.textContent = n
    ? `${n} place${n === 1 ? "" : "s"} of the page change; the rest keeps its bytes.${body.notices.length ? " " + body.notices.join(" ") : ""}`
    : "Nothing in the page changes: a save writes nothing.";
  list.replaceChildren(...body.changes.flatMap((c) => [
    el("div", { class: "skip", "data-line": String(c.line) }, `line ${c.line}: …${c.before}`),
    el("div", { class: "del", "data-op": "page-" }, c.removed || "(nothing)"),
    el("div", { class: "add", "data-op": "page+" }, c.added || "(nothing)"),
    el("div", { class: "skip" }, `${c.after}…`),
  ]));
}
$("review-cancel").addEventListener("click", () => { ui.reviewPanel.hidden = true; editor.view.focus(); });

// ---- The link report --------------------------------------------------------

// The site's links to missing pages and anchors (`pagetext check --links`),
// from the pages on disk; a click opens the page at the link's line.
async function showLinks() {
  ui.reviewPanel.hidden = true;
  ui.linksPanel.hidden = false;
  ui.linksSummary.textContent = "checking the site's links…";
  ui.linksList.replaceChildren();
  const { ok, body } = await api("api/links");
  if (!ok) { ui.linksSummary.textContent = body.error; return; }
  const n = body.broken.length;
  ui.linksSummary.textContent =
    `${n} broken link${n === 1 ? "" : "s"} of ${body.checked} within the site, in ${body.pages} page${body.pages === 1 ? "" : "s"} on disk${body.truncated ? " (the site is too big: not every page was read)" : ""}.`;
  ui.linksList.replaceChildren(...body.broken.map((b) => {
    const html = !/\.txt$/i.test(b.page);
    const at = `${b.page}:${html ? "HTML line " : ""}${b.line}${b.column ? `:${b.column}` : ""}`;
    const item = el("li", { class: "warning", "data-page": b.page, "data-line": String(b.line) },
      el("span", { class: "where" }, at), el("span", { class: "url" }, b.url), b.problem);
    item.addEventListener("click", () => openLink(b, html));
    return item;
  }));
}

// Opens the page of a broken link at its line: the text's line for a text
// page; for HTML (whose line is the HTML's) the first line of the text that
// holds the URL.
async function openLink(b, html) {
  ui.linksPanel.hidden = true;
  if (!(await openPage(b.page))) return;
  if (!html) { goTo(b.line, b.column || 1); return; }
  const index = editor.text().split("\n").findIndex((l) => l.includes(b.url));
  goTo(index >= 0 ? index + 1 : 1, 1);
}
$("links-refresh").addEventListener("click", () => showLinks());
$("links-close").addEventListener("click", () => { ui.linksPanel.hidden = true; });

// ---- New pages --------------------------------------------------------------

// A new text or HTML page in a folder of the site (the open page's folder
// unless another is typed), created by the server without replacing
// anything; then the tree is listed again and the new page opened.
const newUi = {
  panel: $("new-panel"), form: $("new-form"), dir: $("new-dir"), name: $("new-name"),
  kind: $("new-kind"), error: $("new-error"),
};
function showNewPage() {
  ui.reviewPanel.hidden = true;
  ui.linksPanel.hidden = true;
  const slash = page.path ? page.path.lastIndexOf("/") : -1;
  newUi.dir.value = slash >= 0 ? page.path.slice(0, slash) : "";
  newUi.name.value = "";
  newUi.error.textContent = "";
  newUi.panel.hidden = false;
  newUi.name.focus();
}
async function createPage() {
  const dir = newUi.dir.value.trim().replace(/^\/+|\/+$/g, "");
  const name = newUi.name.value.trim();
  if (!name) { newUi.error.textContent = "give the page a file name"; return; }
  newUi.error.textContent = "creating…";
  const { ok, body } = await api("api/new", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ dir, name, kind: newUi.kind.value }),
  });
  if (!ok) { newUi.error.textContent = body.error; return; }
  newUi.panel.hidden = true;
  ui.filter.value = "";
  showTree();
  say(`created ${body.path}`);
  await openPage(body.path);
}
ui.newPage = $("new-page");
ui.newPage.addEventListener("click", () => showNewPage());
newUi.form.addEventListener("submit", (e) => { e.preventDefault(); createPage(); });
$("new-cancel").addEventListener("click", () => { newUi.panel.hidden = true; });

// `#open=PATH`: a link clicked in the preview, or an address to keep.
function openFromHash() {
  const match = /^#open=(.*)$/.exec(location.hash);
  if (!match) return;
  try { openPage(decodeURIComponent(match[1])); } catch (_) { say("a link to a page whose name is not valid", "error"); }
}
window.addEventListener("hashchange", openFromHash);

showTree();
openFromHash();
