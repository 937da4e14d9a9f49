// Board renderers by name (the page data names the one the game uses).

import * as generic from "./generic.js";
import * as puertoRico from "./puerto_rico.js";

const RENDERERS = { generic, puerto_rico: puertoRico };

/** The renderer module for `name` (the generic table when there is none). */
export function rendererFor(name) {
  return RENDERERS[name] || generic;
}
