// Puerto Rico's mayor in one form: a player places all their colonists at once. Each empty circle of the player's
// plantations, quarries and buildings is offered (from the state as the page has it; nothing here knows a rule beyond
// what the engine's own legal actions say: colonists go on in board order, slot by slot, as many as each slot's empty
// circles, and every colonist must go on a circle while one is empty, which is the only case where the engine asks).
// The board shows the arrangement as it is built; Confirm hands the picker the engine's existing steps
// (`place <slot>`, one per colonist, in slot order), which it sends in order.

import { el } from "../dom.js";
import { gameTerms, t } from "../i18n.js";

const tg = gameTerms("puerto_rico");
const colonists = (n) => tg.count(n, "component", "colonist");

/** The form's words, in one place: the site's catalog's, with the glossary's colonists, circles and San Juan. */
const WORDS = {
  legend: () => t("Place all your %(colonists)s at once", { colonists: tg.many("component", "colonist") }),
  intro: (n) => t("Put your %(colonists)s on your empty %(circles)s: the board shows them as you go. Confirm places them in board order, one step each.",
                  { colonists: colonists(n), circles: tg.many("component", "circle") }),
  left: (n) => t("%(colonists)s left in %(san_juan)s", { colonists: colonists(n), san_juan: tg("component", "San Juan") }),
  done: () => t("Every %(colonist)s has a %(circle)s.", { colonist: tg("component", "colonist"), circle: tg("component", "circle") }),
  more: (name) => t("One more %(colonist)s on %(name)s", { colonist: tg("component", "colonist"), name }),
  fewer: (name) => t("One %(colonist)s fewer on %(name)s", { colonist: tg("component", "colonist"), name }),
  circles: (placed, free) => t("%(placed)s of %(free)s", { placed, free }),
  confirm: (n) => t("Place %(colonists)s", { colonists: colonists(n) }),
  clear: () => t("Start again"),
  unknown: () => t("The board does not match the moves on offer: reload the page."),
};

/** A slot's word: a plantation of its good or a quarry (tile kinds), else a building. */
function slotWord(C, slot) {
  if (slot >= C.tiles.length) return tg("building", C.buildings[slot - C.tiles.length].name);
  const name = C.tiles[slot];
  return name === "quarry" ? tg("tile", "quarry") : tg("plantation", `${name} plantation`);
}

/** The slots of `player` (0–5: the tile kinds, then 6 + b: building b) with their empty circles, from `first` on. */
function slotsOf(player, C, first) {
  const slots = [];
  player.island.forEach((tiles, kind) => {
    const free = tiles - player.island_workers[kind];
    if (kind >= first && free > 0) slots.push({ slot: kind, name: C.tiles[kind], word: slotWord(C, kind), free });
  });
  player.city.forEach((workers, b) => {
    const slot = C.tiles.length + b, free = workers >= 0 ? C.buildings[b].circles - workers : 0;
    if (slot >= first && free > 0) slots.push({ slot, name: C.buildings[b].name, word: slotWord(C, slot), free });
  });
  return slots;
}

/** `state` with `counts` (slot → colonists) placed on `seat`'s board: what the board shows while the form is built. */
function arranged(state, seat, counts, C) {
  const shown = structuredClone(state);
  const player = shown.players[seat];
  for (const [slot, n] of counts) {
    if (slot < C.tiles.length) player.island_workers[slot] += n;
    else player.city[slot - C.tiles.length] += n;
    player.san_juan -= n;
  }
  return shown;
}

/** The mayor's form for `seat` at `state`: `offered` are the legal actions now (their notations), `preview(state)`
 *  draws the board (null: as it is), `submit(steps)` sends the steps ([{action}], in order). */
export function buildForm({ state, seat, components: C, offered, preview, submit }) {
  const player = state.players[seat];
  const pool = player.san_juan;
  const slots = slotsOf(player, C, state.last_slot || 0);
  const counts = new Map(slots.map((s) => [s.slot, 0]));
  const placed = () => [...counts.values()].reduce((a, b) => a + b, 0);
  const rows = new Map();
  let previewed = false;  // the board shows an arrangement (else it shows the state as it is: nothing to draw again)
  const left = el("p", { class: "turn-form-left", role: "status", "aria-live": "polite" });
  const confirm = el("button", { type: "button", class: "turn-form-confirm", onclick: () => submit(steps()) });
  const error = el("p", { class: "error turn-form-error", hidden: true });

  function steps() {
    return slots.flatMap((s) => Array.from({ length: counts.get(s.slot) }, () => ({ action: C.place_actions[s.slot] })));
  }

  function change(slot, by) {
    const free = slots.find((s) => s.slot === slot).free;
    const now = Math.max(0, Math.min(free, counts.get(slot) + by));
    if (by > 0 && placed() >= pool) return;
    counts.set(slot, now);
    update();
  }

  function update() {
    const n = placed();
    for (const s of slots) {
      const row = rows.get(s.slot);
      row.count.textContent = WORDS.circles(counts.get(s.slot), s.free);
      row.more.disabled = counts.get(s.slot) >= s.free || n >= pool;
      row.fewer.disabled = counts.get(s.slot) === 0;
    }
    left.textContent = n < pool ? WORDS.left(pool - n) : WORDS.done();
    confirm.textContent = WORDS.confirm(pool);
    const first = steps()[0];
    const fits = !first || offered.includes(first.action);
    error.hidden = fits;
    error.textContent = fits ? "" : WORDS.unknown();
    confirm.disabled = n !== pool || !fits;
    if (n || previewed) preview(n ? arranged(state, seat, counts, C) : null);
    previewed = n > 0;
  }

  const list = el("ul", { class: "turn-form-slots" }, slots.map((s) => {
    const row = {
      count: el("output", { class: "turn-form-count" }),
      more: el("button", { type: "button", class: "turn-form-more", "aria-label": WORDS.more(s.word), text: "+",
                           onclick: () => change(s.slot, 1) }),
      fewer: el("button", { type: "button", class: "turn-form-fewer", "aria-label": WORDS.fewer(s.word), text: "−",
                            onclick: () => change(s.slot, -1) }),
    };
    rows.set(s.slot, row);
    return el("li", { class: "turn-form-slot", dataset: { slot: String(s.slot), name: s.name } },
      el("span", { class: "turn-form-name", text: s.word }), row.fewer, row.count, row.more);
  }));
  const clear = el("button", { type: "button", class: "link turn-form-clear", text: WORDS.clear(),
                               onclick: () => { for (const slot of counts.keys()) counts.set(slot, 0); update(); } });
  const form = el("fieldset", { class: "turn-form", dataset: { form: "mayor" } },
    el("legend", { text: WORDS.legend() }), el("p", { class: "hint", text: WORDS.intro(pool) }), list, left, error,
    el("p", { class: "turn-form-actions" }, confirm, " ", clear));
  update();
  return form;
}
