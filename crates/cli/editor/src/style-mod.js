// style-mod (CodeMirror's style injection) with one change: its rules go
// into a constructed style sheet adopted by the document, never into a
// <style> element. The editor's Content-Security-Policy allows style sheets
// only from the editor's own origin, so a <style> element would be refused;
// a constructed sheet is not markup and is not refused. build.mjs points
// every `import "style-mod"` here.

import { StyleModule as Base } from "../node_modules/style-mod/src/style-mod.js";

const sheets = new WeakMap();

export class StyleModule extends Base {
  // Mounts `modules` in order, as style-mod's own StyleSet does for
  // shadow roots: a module already there keeps its place unless the order
  // asks for it earlier.
  static mount(root, modules) {
    const doc = root.ownerDocument || root;
    let set = sheets.get(root);
    if (!set) {
      set = { sheet: new doc.defaultView.CSSStyleSheet(), modules: [] };
      sheets.set(root, set);
    }
    if (!Array.isArray(modules)) modules = [modules];
    let pos = 0;
    let j = 0;
    for (const mod of modules) {
      let index = set.modules.indexOf(mod);
      if (index < j && index > -1) {
        set.modules.splice(index, 1);
        j--;
        index = -1;
      }
      if (index === -1) {
        set.modules.splice(j++, 0, mod);
        for (const rule of mod.rules) set.sheet.insertRule(rule, pos++);
      } else {
        while (j < index) pos += set.modules[j++].rules.length;
        pos += mod.rules.length;
        j++;
      }
    }
    if (!root.adoptedStyleSheets.includes(set.sheet)) {
      root.adoptedStyleSheets = [set.sheet, ...root.adoptedStyleSheets];
    }
  }
}
