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
const CHECK_PAUSE_MS = 300;

const $ = (id) => document.getElementById(id);
const ui = {
  tree: $("tree"), filter: $("filter"),
  diagnostics: $("diagnostics"), count: $("count"), ingestion: $("ingestion"),
  summary: $("summary"), preview: $("preview"), save: $("save"), status: $("status"),
  current: $("current"), encoding: $("encoding"), notice: $("notice"),
  conflict: $("conflict"), mine: $("mine"), theirs: $("theirs"),
};

// The open page: path, kind, version, and whether the text has changed.
const page = { path: null, kind: null, version: null, original: null, dirty: false };
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
  checkTimer = setTimeout(check, CHECK_PAUSE_MS);
}

function setDirty(dirty) {
  page.dirty = dirty;
  ui.save.disabled = !page.path;
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
      body: JSON.stringify({ text: editor.text(), client, seq }),
      signal: checking.signal,
    });
  } catch (e) {
    if (e.name !== "AbortError") say(`check failed: ${e.message}`, "error");
    return;
  }
  if (seq !== checkSeq || answer.body.superseded) return;
  if (!answer.ok) { say(answer.body.error, "error"); return; }
  showDiagnostics(answer.body.diagnostics);
  showPreview(answer.body.xhtml);
}

// ---- The result -----------------------------------------------------------

function pageUrl() {
  const encoded = page.path.split("/").map(encodeURIComponent).join("/");
  return new URL(sitePrefix + encoded, location.origin);
}

// The XHTML in the sandboxed frame: references made absolute (to the site's
// files), links to the site's pages turned into `#open=` links of the top
// window, and a policy that allows nothing but the site's files.
function showPreview(xhtml) {
  const doc = new DOMParser().parseFromString(xhtml, "text/html");
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
  const policy = doc.createElement("meta");
  policy.setAttribute("http-equiv", "Content-Security-Policy");
  policy.setAttribute("content",
    `default-src 'none'; script-src 'none'; style-src ${site}; img-src ${site} data:; font-src ${site}; media-src ${site}`);
  const referrer = doc.createElement("meta");
  referrer.setAttribute("name", "referrer");
  referrer.setAttribute("content", "no-referrer");
  doc.head.prepend(policy, referrer);
  ui.preview.srcdoc = `<!DOCTYPE html>\n${doc.documentElement.outerHTML}`;
}

// ---- Opening and saving -----------------------------------------------------

async function openPage(path) {
  if (saving) { say("wait for the save to finish", "error"); return; }
  // The page being edited stays as it is: reopening would drop the edits.
  if (page.dirty && path === page.path) return;
  if (page.dirty && !confirm(`${page.path} has unsaved changes. Open ${path} and drop them?`)) return;
  say(`opening ${path}…`);
  const { ok, body } = await api(`api/page?path=${encodeURIComponent(path)}`);
  if (!ok) { say(body.error, "error"); return; }
  Object.assign(page, { path: body.path, kind: body.kind, version: body.version, original: body.original, summary: body.summary || "" });
  // A new page starts a new undo history.
  editor.load(body.text);
  ui.current.textContent = body.path;
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
}

// What a save drops, from the page's own account of its way in: the lines
// of what was lost or changed and of the ballast left out.
function droppedOnSave(summary) {
  const lines = summary.split("\n")
    .filter((l) => l.startsWith("lost or changed:") || l.startsWith("dropped as ballast:"))
    .map((l) => l.trim().replace(/\.$/, ""));
  return lines.length
    ? `It drops what the text does not hold (see "Lost on the way in"): ${lines.join("; ")}.`
    : "Nothing of the page's content is dropped.";
}

function showFirstSaveNotice() {
  const original = page.original;
  if (original && !original.exists) {
    ui.notice.textContent = page.kind === "text"
      ? `${page.path} is not plain UTF-8 text: saving writes it as UTF-8. The first save keeps the original as ${original.name}.`
      : `Saving rewrites ${page.path} as clean XHTML. ${droppedOnSave(page.summary)} The first save keeps the original as ${original.name}.`;
    ui.notice.hidden = false;
  } else {
    ui.notice.hidden = true;
  }
}

// Saves the text on `version` (the one the editor opened, or after a
// conflict the one it showed): if the file changed again meanwhile, that is
// a new conflict, never an overwrite.
async function save(version = page.version) {
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
      body: JSON.stringify({ path: sentPath, text: sentText, version }),
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
  setDirty(false);
  say("took the version on disk");
  check();
});
$("cancel-conflict").addEventListener("click", () => { ui.conflict.hidden = true; });
ui.save.addEventListener("click", () => save());
document.addEventListener("keydown", (e) => {
  if ((e.ctrlKey || e.metaKey) && e.key === "s") { e.preventDefault(); save(); }
});
window.addEventListener("beforeunload", (e) => { if (page.dirty) e.preventDefault(); });

// `#open=PATH`: a link clicked in the preview, or an address to keep.
function openFromHash() {
  const match = /^#open=(.*)$/.exec(location.hash);
  if (!match) return;
  try { openPage(decodeURIComponent(match[1])); } catch (_) { say("a link to a page whose name is not valid", "error"); }
}
window.addEventListener("hashchange", openFromHash);

showTree();
openFromHash();
