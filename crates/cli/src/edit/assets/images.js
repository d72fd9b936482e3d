// pagetext edit: the image picker. The site's image files with thumbnails
// (served under /TOKEN/site/PATH, as the preview's images are); the person
// picks one and gives its alternative text; the server spells the image in
// the text format (wikitext's writer, relative to the page's folder:
// `POST api/image`) and this script inserts it at the cursor, with the
// header line `#Extend image` when the page lacks it, as one change that
// undo takes back whole.
//
// It uses what app.js declares at the top level (`page`, `api`, `el`,
// `say`, `editor`, `sitePrefix`, `$`): classic scripts share one global
// scope, and app.js runs first.
"use strict";

(() => {
  const pick = {
    open: $("image"), panel: $("image-panel"), form: $("image-form"), filter: $("image-filter"),
    summary: $("image-summary"), list: $("image-list"), alt: $("image-alt"),
    error: $("image-error"), insert: $("image-insert"),
  };
  // The site's images (paths below DIR), and the one chosen.
  let images = [];
  let chosen = null;
  // How many thumbnails are shown at once (the filter narrows the rest).
  const SHOWN = 300;

  const siteUrl = (path) => sitePrefix + path.split("/").map(encodeURIComponent).join("/");

  async function showPicker() {
    if (!page.path) { say("open a page first, then insert an image into it", "error"); return; }
    chosen = null;
    pick.insert.disabled = true;
    pick.alt.value = "";
    pick.error.textContent = "";
    pick.filter.value = "";
    pick.summary.textContent = "listing the site's images…";
    pick.list.replaceChildren();
    pick.panel.hidden = false;
    pick.filter.focus();
    const { ok, body } = await api("api/images");
    if (!ok) { pick.summary.textContent = body.error; return; }
    images = body.images;
    showList();
    if (body.truncated) pick.summary.textContent += " (the site has more: not every image is listed)";
  }

  function showList() {
    const q = pick.filter.value.trim().toLowerCase();
    const matching = images.filter((p) => p.toLowerCase().includes(q));
    const n = matching.length;
    pick.summary.textContent = images.length
      ? `${n} image${n === 1 ? "" : "s"}${q ? " match" : " in the site"}${n > SHOWN ? `, the first ${SHOWN} shown: type to narrow` : ""}.`
      : "The site has no image files (png, jpg, gif, webp, svg, avif…).";
    pick.list.replaceChildren(...matching.slice(0, SHOWN).map((path) => {
      const thumb = el("img", { src: siteUrl(path), alt: "", loading: "lazy", decoding: "async" });
      const button = el("button", { type: "button", title: path, "data-path": path }, thumb, el("span", {}, path));
      if (path === chosen) button.classList.add("chosen");
      button.addEventListener("click", () => choose(path));
      button.addEventListener("dblclick", () => { choose(path); insertImage(); });
      return el("li", {}, button);
    }));
  }

  function choose(path) {
    chosen = path;
    for (const b of pick.list.querySelectorAll("button[data-path]")) {
      b.classList.toggle("chosen", b.dataset.path === path);
    }
    pick.insert.disabled = false;
    pick.alt.focus();
  }

  // The page's header as the parser reads it: the lines up to the first
  // empty one (bounded: a header is a few lines).
  function headerLines(doc) {
    const lines = [];
    for (let n = 1; n <= doc.lines && lines.length < 1000; n++) {
      const text = doc.line(n).text;
      if (text.trim() === "") break;
      lines.push(text);
    }
    return lines;
  }

  async function insertImage() {
    if (!chosen || !page.path) return;
    const view = editor.view;
    const { state } = view;
    const range = state.selection.main;
    const header = headerLines(state.doc);
    const asked = {
      page: page.path, image: chosen, alt: pick.alt.value.trim(),
      header: header.join("\n"), next: state.sliceDoc(range.to, range.to + 1),
    };
    pick.error.textContent = "spelling the image…";
    const { ok, body } = await api("api/image", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(asked),
    });
    if (!ok) { pick.error.textContent = body.error; return; }
    if (editor.view.state !== state) {
      // Typed meanwhile (or another page opened): the positions are stale.
      pick.error.textContent = "the text changed meanwhile: insert again";
      return;
    }
    const changes = [{ from: range.from, to: range.to, insert: body.markup }];
    let cursor = range.from + body.markup.length;
    if (body.declare) {
      // At the end of the header: before its empty line (a text without a
      // header starts with one).
      const at = header.length < state.doc.lines ? state.doc.line(header.length + 1).from : 0;
      const line = `${body.declare}\n`;
      changes.unshift({ from: at, insert: line });
      if (at <= range.from) cursor += line.length;
    }
    view.dispatch({ changes, selection: { anchor: cursor }, scrollIntoView: true, userEvent: "input.image" });
    pick.panel.hidden = true;
    const notes = body.notes.map((d) => d.message);
    say(`inserted ${body.src}${body.declare ? ` (and ${body.declare} in the header)` : ""}${notes.length ? `: ${notes.join("; ")}` : ""}`, "ok");
    view.focus();
  }

  pick.open.addEventListener("click", () => showPicker());
  pick.filter.addEventListener("input", () => showList());
  pick.form.addEventListener("submit", (e) => { e.preventDefault(); insertImage(); });
  $("image-cancel").addEventListener("click", () => { pick.panel.hidden = true; editor.view.focus(); });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") pick.panel.hidden = true; });
})();
