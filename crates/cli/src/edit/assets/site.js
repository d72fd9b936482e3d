// pagetext edit: changes across the site. "Find in site" searches every
// page (as the editor opens it), lists each place with a checkbox and the
// replacement's preview, and replaces only the places ticked, each page
// written by the server's one save (a page changed since the search is
// refused, never overwritten). "Rename/move" moves the open page and
// rewrites every link to it, after showing which pages change.
//
// Loaded after app.js, whose globals it uses and nothing else: `api`, `el`,
// `say`, `page`, `openPage` and `showTree`. As in app.js, whatever the
// server sends is put into the page as text, never as markup.
"use strict";

// ---- Find and replace in the site ------------------------------------------

const findUi = {
  open: document.getElementById("find-site"),
  panel: document.getElementById("find-panel"),
  form: document.getElementById("find-form"),
  query: document.getElementById("find-query"),
  replacement: document.getElementById("find-replacement"),
  caseSensitive: document.getElementById("find-case"),
  word: document.getElementById("find-word"),
  summary: document.getElementById("find-summary"),
  results: document.getElementById("find-results"),
  replace: document.getElementById("find-replace"),
  close: document.getElementById("find-close"),
};

// The last search: its options (a replace repeats them) and its pages.
let lastSearch = null;

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function showFind() {
  for (const other of document.querySelectorAll(".conflict")) other.hidden = true;
  findUi.panel.hidden = false;
  findUi.query.focus();
  findUi.query.select();
}

async function searchSite() {
  const options = {
    query: findUi.query.value,
    case: findUi.caseSensitive.checked,
    word: findUi.word.checked,
  };
  if (!options.query) return;
  findUi.summary.textContent = "searching the site…";
  findUi.results.replaceChildren();
  findUi.replace.disabled = true;
  const { ok, body } = await api("api/search", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(options),
  });
  if (!ok) { findUi.summary.textContent = body.error; lastSearch = null; return; }
  lastSearch = { options, pages: body.pages };
  findUi.summary.textContent =
    `${plural(body.found, "place")} in ${plural(body.pages.length, "page")} of the ${body.read} read` +
    (body.truncated ? " (stopped early: too many places or too big a site)" : "") +
    (body.found ? ". Tick the places to replace." : ".");
  findUi.results.replaceChildren(...body.pages.map(pageResults));
  updateFind();
}

// One page's places: a checkbox for the page (all or none) and one per
// place, with the line around it and the replacement shown in place.
function pageResults(p) {
  const all = el("input", { type: "checkbox", checked: true, class: "find-all" });
  const items = p.matches.map((m) => {
    const box = el("input", {
      type: "checkbox", checked: true, class: "find-one",
      "data-line": String(m.line), "data-column": String(m.column),
    });
    const label = el("label", {},
      box,
      el("span", { class: "where" }, `${m.line}:${m.column}`),
      el("span", { class: "line" },
        m.before, el("del", {}, m.found), el("ins", { class: "find-new" }, ""), m.after));
    return el("li", {}, label);
  });
  all.addEventListener("change", () => {
    for (const item of items) item.querySelector("input").checked = all.checked;
    updateFind();
  });
  const section = el("section", { class: "find-page", "data-path": p.path },
    el("h3", {}, el("label", {}, all, ` ${p.path} `, el("span", { class: "count" }, `(${plural(p.matches.length, "place")}${p.kind === "html" ? ", HTML through its text" : ""})`))),
    el("ul", { class: "diagnostics" }, ...items));
  section.addEventListener("change", (e) => { if (e.target.classList.contains("find-one")) updateFind(); });
  return section;
}

// The replacement's preview on every place, and the button's count.
function updateFind() {
  const replacement = findUi.replacement.value;
  for (const ins of findUi.results.querySelectorAll("ins.find-new")) ins.textContent = replacement;
  const chosen = findUi.results.querySelectorAll("input.find-one:checked").length;
  findUi.replace.disabled = !lastSearch || chosen === 0;
  findUi.replace.textContent = chosen ? `Replace ${plural(chosen, "chosen place")}` : "Replace chosen";
}

async function replaceChosen() {
  if (!lastSearch) return;
  const byPath = new Map(lastSearch.pages.map((p) => [p.path, p]));
  const pages = [];
  for (const section of findUi.results.querySelectorAll("section.find-page")) {
    const boxes = section.querySelectorAll("input.find-one:checked");
    if (!boxes.length) continue;
    const p = byPath.get(section.dataset.path);
    pages.push({
      path: p.path,
      version: p.version,
      matches: [...boxes].map((b) => ({ line: Number(b.dataset.line), column: Number(b.dataset.column) })),
    });
  }
  if (pages.some((p) => p.path === page.path) && page.dirty &&
      !confirm(`${page.path} has unsaved changes; the replace writes the page on disk, and your next save will be a conflict. Go on?`)) return;
  findUi.replace.disabled = true;
  findUi.summary.textContent = "replacing…";
  const { ok, body } = await api("api/replace", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...lastSearch.options, replacement: findUi.replacement.value, pages }),
  });
  if (!ok) { findUi.summary.textContent = body.error; updateFind(); return; }
  lastSearch = null;
  const done = body.written.reduce((n, w) => n + w.replaced, 0);
  findUi.summary.textContent =
    `Replaced ${plural(done, "place")} in ${plural(body.written.length, "page")}` +
    (body.refused.length ? `; ${plural(body.refused.length, "page")} not written (below). Search again to see the pages as they are now.` : ".");
  findUi.results.replaceChildren(el("ul", { class: "diagnostics find-outcome" },
    ...body.written.map((w) => el("li", { class: "note", "data-path": w.path },
      el("span", { class: "where" }, w.path), `written: ${plural(w.replaced, "place")} replaced`,
      w.original ? ` (original kept as ${w.original})` : "")),
    ...body.refused.map((r) => el("li", { class: "warning", "data-path": r.path },
      el("span", { class: "where" }, r.path), r.conflict ? `not written, changed on disk: ${r.reason}` : `not written: ${r.reason}`))));
  updateFind();
  say(`replaced ${plural(done, "place")} in ${plural(body.written.length, "page")}`, body.refused.length ? "error" : "ok");
  // The open page, when written and not being edited, is shown as it is now.
  if (body.written.some((w) => w.path === page.path) && !page.dirty) await openPage(page.path);
}

findUi.open.addEventListener("click", () => showFind());
findUi.form.addEventListener("submit", (e) => { e.preventDefault(); searchSite(); });
findUi.replacement.addEventListener("input", () => updateFind());
findUi.replace.addEventListener("click", () => replaceChosen());
findUi.close.addEventListener("click", () => { findUi.panel.hidden = true; });

// ---- Rename or move the open page ------------------------------------------

const renameUi = {
  open: document.getElementById("rename"),
  panel: document.getElementById("rename-panel"),
  form: document.getElementById("rename-form"),
  from: document.getElementById("rename-from"),
  to: document.getElementById("rename-to"),
  summary: document.getElementById("rename-summary"),
  list: document.getElementById("rename-list"),
  apply: document.getElementById("rename-apply"),
  cancel: document.getElementById("rename-cancel"),
};

// The plan shown: the rename it is for.
let renamePlan = null;

function showRename() {
  if (!page.path) { say("open the page to rename first", "error"); return; }
  if (page.dirty) { say(`save ${page.path} before renaming it`, "error"); return; }
  for (const other of document.querySelectorAll(".conflict")) other.hidden = true;
  renamePlan = null;
  renameUi.from.textContent = page.path;
  renameUi.to.value = page.path;
  renameUi.summary.textContent = "Type the page's new path, then look at what changes before renaming.";
  renameUi.list.replaceChildren();
  renameUi.apply.disabled = true;
  renameUi.panel.hidden = false;
  renameUi.to.focus();
}

function renameBody(apply) {
  return {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ from: page.path, to: renameUi.to.value.trim(), apply }),
  };
}

function showRenamed(body, applied) {
  const n = body.relinked.reduce((sum, r) => sum + r.links, 0);
  const verb = applied ? "were" : "will be";
  renameUi.summary.textContent =
    `${body.from} → ${body.to}: ${plural(n, "link")} in ${plural(body.relinked.length, "page")} ${verb} rewritten` +
    (body.made.length ? `; ${plural(body.made.length, "folder")} ${verb} made (${body.made.join(", ")})` : "") +
    (body.original ? `; its original ${applied ? "moved" : "moves"} with it, as ${body.original}` : "") + ".";
  renameUi.list.replaceChildren(...body.relinked.map((r) => el("li", { class: "note", "data-path": r.path },
    el("span", { class: "where" }, r.path), r.path === body.from ? `its own ${plural(r.links, "link")}` : plural(r.links, "link"))));
}

async function planRename() {
  renameUi.apply.disabled = true;
  renameUi.summary.textContent = "reading the site's links…";
  renameUi.list.replaceChildren();
  const { ok, body } = await api("api/rename", renameBody(false));
  if (!ok) { renameUi.summary.textContent = body.error; renamePlan = null; return; }
  renamePlan = { from: body.from, to: body.to };
  showRenamed(body, false);
  renameUi.apply.disabled = false;
}

async function applyRename() {
  if (!renamePlan || renameUi.to.value.trim() !== renamePlan.to || page.path !== renamePlan.from) {
    await planRename();
    return;
  }
  if (page.dirty) { renameUi.summary.textContent = `save ${page.path} first`; return; }
  renameUi.apply.disabled = true;
  renameUi.summary.textContent = "renaming…";
  const { ok, body } = await api("api/rename", renameBody(true));
  if (!ok) { renameUi.summary.textContent = body.error; return; }
  renamePlan = null;
  renameUi.panel.hidden = true;
  showTree();
  await openPage(body.to);
  const n = body.relinked.reduce((sum, r) => sum + r.links, 0);
  say(`moved ${body.from} to ${body.to}; ${plural(n, "link")} rewritten in ${plural(body.relinked.length, "page")}`, "ok");
}

renameUi.open.addEventListener("click", () => showRename());
renameUi.form.addEventListener("submit", (e) => { e.preventDefault(); planRename(); });
renameUi.to.addEventListener("input", () => { renameUi.apply.disabled = true; renamePlan = null; });
renameUi.apply.addEventListener("click", () => applyRename());
renameUi.cancel.addEventListener("click", () => { renameUi.panel.hidden = true; });
