// The board in words: a text alternative for screen readers and for anyone who cannot tell the
// pieces apart by sight. It is read from the drawn board itself — every area with a heading (a
// player's sheet, the ships, the bank, …) becomes a list of what its pieces' titles say, and each
// map becomes a list of its pieces — so it always says what the board shows, in every game, with no
// rule here. It is rebuilt after each drawing while its disclosure is open (and when opened).

import { t } from "./i18n.js";
import { el } from "./dom.js";

/** Areas of `board`: elements holding a heading (h3/h4), and maps (an svg with a name). */
function areasOf(board) {
  const areas = [];
  for (const heading of board.querySelectorAll("h3")) {
    const holder = heading.parentElement && heading.parentElement.tagName === "HEADER" ? heading.parentElement.parentElement : heading.parentElement;
    if (holder && !areas.some((a) => a.node === holder)) areas.push({ node: holder, name: holder.getAttribute("aria-label") || heading.textContent.trim() });
  }
  for (const map of board.querySelectorAll("svg[role=img][aria-label]")) areas.push({ node: map, name: map.getAttribute("aria-label") });
  return areas;
}

/** What the pieces in `area` say (their titles), without those of areas nested in it; repeats counted. */
function itemsOf(area, areas) {
  const inner = areas.filter((a) => a.node !== area.node && area.node.contains(a.node)).map((a) => a.node);
  const said = [];
  for (const node of area.node.querySelectorAll("[title], title, [aria-label][role=img]")) {
    if (inner.some((a) => a.contains(node))) continue;
    const text = (node.tagName.toLowerCase() === "title" ? node.textContent : node.getAttribute("aria-label") || node.getAttribute("title") || "").trim();
    if (text) said.push(text);
  }
  const counted = new Map();
  for (const text of said) counted.set(text, (counted.get(text) || 0) + 1);
  return [...counted].map(([text, n]) => (n > 1 ? `${text} (×${n})` : text));
}

export class BoardText {
  constructor(board, details, body) {
    this.board = board;
    this.details = details;
    this.body = body;
    if (details) details.addEventListener("toggle", () => this.update());
  }

  /** Rebuild the text from the board as drawn now (only while someone has the text open). */
  update() {
    if (!this.details || !this.details.open) return;
    const areas = areasOf(this.board);
    this.body.replaceChildren(...areas.map((area) => {
      const items = itemsOf(area, areas);
      return el("section", { class: "board-text-area" }, el("h3", { text: area.name }),
        items.length ? el("ul", {}, items.map((text) => el("li", { text }))) : el("p", { class: "muted", text: t("nothing here") }));
    }));
    this.body.dataset.seq = this.board.dataset.seq || "";
  }
}
