// A readable table of any state, for games that have no board renderer yet.

import { el, redraw } from "../dom.js";

function cell(value) {
  if (value === null || value === undefined) return el("span", { class: "muted", text: "—" });
  if (Array.isArray(value)) return value.map((v) => typeof v === "object" ? JSON.stringify(v) : String(v)).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Draw `state` as a definition table into `container`. */
export function renderBoard(container, state) {
  const rows = Object.entries(state || {}).map(([key, value]) =>
    el("tr", {}, el("th", { scope: "row", text: key.replaceAll("_", " ") }), el("td", {}, cell(value))));
  redraw(container, el("table", { class: "generic-state", translate: "no" }, el("tbody", {}, rows)));
}
