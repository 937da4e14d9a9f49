// Board renderers by name: the page data names the one the game uses (its UI adapter's
// `renderer`), and ./<name>.js is loaded on demand, so adding a game's board edits nothing here.

import * as generic from "./generic.js";

/** The renderer module for `name` (the generic table when there is none or it fails to load). */
export async function rendererFor(name) {
  if (!name || name === "generic" || !/^[a-z][a-z0-9_]*$/.test(name)) return generic;
  try {
    return await import(`./${name}.js`);
  } catch (error) {
    console.warn(`board renderer ${name} failed to load, showing the state as a table`, error);
    return generic;
  }
}
