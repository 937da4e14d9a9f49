// The move list: moves grouped by round and by phase (in Puerto Rico: by role), in the
// engine's sentences, the current one highlighted, annotations (glyph and comment) inline under their move.

import { t } from "./i18n.js";
import { el } from "./dom.js";

function groupLabel(move, players) {
  if (!move.phase) return t("Setup");
  if (typeof move.actor !== "number" || !move.pick) return move.phase;
  return t("%(who)s: %(phase)s", { who: players[move.actor], phase: move.phase });
}

/** Split moves into rounds, and each round into runs of one phase (a pick opens a new run). */
export function groupMoves(moves, players) {
  const rounds = [];
  let round = null, group = null;
  for (const move of moves) {
    const number = move.round ?? null;
    if (!round || round.number !== number) {
      round = { number, groups: [] };
      rounds.push(round);
      group = null;
    }
    if (!group || move.pick || group.phase !== (move.phase ?? null)) {
      group = { phase: move.phase ?? null, label: groupLabel(move, players), moves: [] };
      round.groups.push(group);
    }
    group.moves.push(move);
  }
  return rounds;
}

/** One chance draw of several events in words: the game's name for it (its adapter's `throw_label`) and what came of
 *  each event (the marks' `throw`, none of which is "0 …"). */
export function throwWords(label, parts) {
  const said = label || t("Chance draw");
  return parts.length ? t("%(label)s: %(parts)s come out", { label: said, parts: parts.join(", ") })
    : t("%(label)s: nothing comes out", { label: said });
}

/** Runs of moves: consecutive moves of one chance draw (marked `throw` by the game's adapter) in one run. */
export function throwsJoined(moves) {
  const runs = [];
  for (const move of moves) {
    const previous = runs[runs.length - 1];
    const sameThrow = move.throw && previous && previous[0].throw && previous[previous.length - 1].seq === move.seq - 1
      && (move.throw_part === undefined || !previous.some((m) => m.throw_part === move.throw_part));
    if (sameThrow) previous.push(move);
    else runs.push([move]);
  }
  return runs;
}

export class MoveList {
  /** The move list in `container`; `onSelect(seq)` when a move is chosen; `throwLabel`: the game's name for a chance
   *  draw shown as one line (its adapter's `throw_label`). */
  constructor(container, onSelect, throwLabel = null) {
    this.container = container;
    this.onSelect = onSelect;
    this.throwLabel = throwLabel;
    this.items = new Map();
    this.current = null;
    this.rounds = []; // the rounds drawn: { section, end } (end: the index in drawnMoves after the round's last move)
    this.drawnMoves = [];
    container.addEventListener("keydown", (event) => this.onKey(event));
  }

  /** Up and Down move the selection through the list and the focus follows it (Home/End stay the page's). */
  onKey(event) {
    if (event.key !== "ArrowUp" && event.key !== "ArrowDown") return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const buttons = [...this.container.querySelectorAll("button.mv")];
    if (!buttons.length) return;
    event.preventDefault();
    const from = buttons.indexOf(document.activeElement.closest ? document.activeElement.closest("button.mv") : null);
    const current = from >= 0 ? from : buttons.indexOf(this.current && this.current.querySelector(".mv"));
    const to = current < 0 ? 0 : Math.max(0, Math.min(buttons.length - 1, current + (event.key === "ArrowDown" ? 1 : -1)));
    const button = buttons[to];
    button.setAttribute("tabindex", "0");
    button.focus({ preventScroll: true });
    this.onSelect(Number(button.dataset.seq));
  }

  /** Build the list. Rounds already drawn from the very same move objects (a timeline extended by new moves keeps
   *  them) stay as they are, all but the last one, which the new moves may continue; only the rest is built anew, so a
   *  page following a long game does not lay out its whole list again at every move. */
  render(moves, players, notesBySeq) {
    this.unhighlight();
    const kept = this.keptRounds(moves);
    const from = kept.length ? kept[kept.length - 1].end : 0;
    if (!from) this.items.clear();
    else for (const seq of [...this.items.keys()]) if (seq >= moves[from].seq) this.items.delete(seq);
    const built = groupMoves(moves.slice(from), players).map((round) => {
      const section = sized(el("section", { class: "round" },
        el("h3", { class: "round-h", text: round.number !== null ? t("Round %(n)s", { n: round.number }) : t("Setup") }),
        round.groups.map((group) => el("div", { class: "phase-group" },
          el("h4", { text: group.label }),
          el("ol", {}, throwsJoined(group.moves).map((run) => run.length === 1
            ? this.item(run[0], notesBySeq.get(run[0].seq) || []) : this.throwItem(run, notesBySeq)))))), round);
      return { section, size: round.groups.reduce((n, group) => n + group.moves.length, 0) };
    });
    let end = from;
    for (const round of built) round.end = end += round.size;
    for (const gone of this.rounds.slice(kept.length)) gone.section.remove();
    if (kept.length) this.container.append(...built.map((round) => round.section));
    else this.container.replaceChildren(...built.map((round) => round.section));
    if (!moves.length) this.container.replaceChildren(el("p", { class: "muted", text: t("No moves yet.") }));
    this.rounds = kept.concat(built);
    this.drawnMoves = moves;
  }

  /** The leading rounds drawn last time that ``moves`` leaves as they were: each of its moves the same object, and
   *  the move after it too (so that the round was complete: another round had begun). */
  keptRounds(moves) {
    const drawn = this.drawnMoves;
    let same = 0;
    while (same < moves.length && same < drawn.length && moves[same] === drawn[same]) same++;
    const kept = [];
    for (const round of this.rounds) {
      if (round.end >= same) break;
      kept.push(round);
    }
    return kept;
  }

  item(move, notes) {
    const button = el("button", { type: "button", class: "mv", tabindex: "-1", dataset: { seq: move.seq },
                                  onclick: () => this.onSelect(move.seq) },
      el("span", { class: "mv-seq", text: String(move.seq) }), el("span", { class: "mv-text", text: move.text }),
      el("span", { class: "mv-glyphs" }));
    const li = el("li", { class: move.actor === "chance" ? "chance" : "" }, button, el("ul", { class: "inline-notes" }));
    this.items.set(move.seq, li);
    this.setNotes(move.seq, notes);
    return li;
  }

  /** One line for the events of one chance draw (Amerigo's tower throw): clicking shows the whole throw. */
  throwItem(run, notesBySeq) {
    const first = run[0].seq, last = run[run.length - 1].seq;
    const parts = run.map((m) => m.throw).filter((thrown) => !/^0 /.test(thrown));
    const button = el("button", { type: "button", class: "mv", tabindex: "-1", dataset: { seq: last },
                                  onclick: () => this.onSelect(last) },
      el("span", { class: "mv-seq", text: `${first}–${last}` }),
      el("span", { class: "mv-text", text: throwWords(this.throwLabel, parts) }),
      el("span", { class: "mv-glyphs" }));
    const li = el("li", { class: "chance throw", dataset: { first, last } }, button, el("ul", { class: "inline-notes" }));
    for (const move of run) this.items.set(move.seq, li);
    this.setNotes(last, run.flatMap((m) => notesBySeq.get(m.seq) || []));
    return li;
  }

  /** Show `notes` under move `seq` (text as text: never markup). */
  setNotes(seq, notes) {
    const li = this.items.get(seq);
    if (!li) return;
    const glyphs = notes.map((n) => n.glyph).filter(Boolean).join(" ");
    li.querySelector(".mv-glyphs").textContent = glyphs;
    li.querySelector(".inline-notes").replaceChildren(...notes.filter((n) => n.text).map((n) =>
      el("li", {}, el("span", { class: "note-author", text: n.author + ": " }), el("span", { class: "note-text", text: n.text }))));
  }

  /** No move highlighted. */
  unhighlight() {
    if (this.current) {
      this.current.classList.remove("current");
      this.current.querySelector(".mv").setAttribute("tabindex", "-1");
      this.current.querySelector(".mv").removeAttribute("aria-current");
    }
    this.current = null;
  }

  /** Highlight move `seq` (none for the starting position) and keep it in view. */
  highlight(seq) {
    this.unhighlight();
    this.current = this.items.get(seq) || null;
    if (!this.current) return;
    this.current.classList.add("current");
    const button = this.current.querySelector(".mv");
    button.setAttribute("tabindex", "0");
    button.setAttribute("aria-current", "step");
    // Scroll in the next frame rather than now: measuring now would force a second layout
    // of the new board. Rounds out of view are laid out only once they scroll in
    // (content-visibility), which can move the item, so check a few frames in a row.
    const item = this.current;
    let frames = 12, calm = 0;
    const settle = () => {
      if (item !== this.current || frames-- === 0) return;
      calm = scrollIntoList(this.container, item) ? 0 : calm + 1;
      if (calm < 3) requestAnimationFrame(settle);
    };
    requestAnimationFrame(settle);
  }
}

// Scroll only the list (scrollIntoView would also scroll the page around the board).
// The sticky round header covers the top of the list, hence the margin.
// Returns true if it had to scroll.
function scrollIntoList(list, item) {
  const box = list.getBoundingClientRect(), at = item.getBoundingClientRect(), margin = 28;
  const before = list.scrollTop;
  if (at.top < box.top + margin) list.scrollTop -= box.top + margin - at.top;
  else if (at.bottom > box.bottom - 8) list.scrollTop += at.bottom - box.bottom + margin;
  return list.scrollTop !== before;
}

// A round's estimated height while layout skips it (content-visibility), so the scroll
// position of the rounds below is about right before they are ever drawn.
function sized(section, round) {
  const moves = round.groups.reduce((n, g) => n + g.moves.length, 0);
  section.style.containIntrinsicSize = `auto ${22 + round.groups.length * 20 + moves * 21}px`;
  return section;
}
