// The move picker: the legal actions at the head of the user's own branch, grouped the
// way a player thinks about them (in Puerto Rico: roles, plantations, buildings they can
// afford with the price, …). Everything shown comes from /legal: the action notation and
// the engine's sentence. Grouping only reads the notation's first word, through the
// game's own table (`picker_groups` from its UI adapter); a word without a group is its own. Once the
// position is analysed, the same buttons are listed by win chance instead (rankPicker, called by analysis.js).

import { interval, pct, winText } from "./analysistext.js";
import { api } from "./api.js";
import { el } from "./dom.js";


function label(text, name) {
  // "Anna builds a harbor for 5 doubloons" → "builds a harbor for 5 doubloons": the player knows who they are.
  return name && text.startsWith(name + " ") ? text.slice(name.length + 1) : text;
}

export class Picker {
  /** `onPlaying()` is called as a move is sent and its answer handed back to `onPlayed(newHead, answer)` (`newHead`
   *  null after a 409): the page notes there where the reader was when they played, which its answer must respect. */
  constructor({ branchApi, onPlaying, onPlayed, groups }) {
    this.branchApi = branchApi;
    this.groups = groups || {};
    this.onPlaying = onPlaying;
    this.onPlayed = onPlayed;
    this.section = document.getElementById("play-section");
    this.box = document.getElementById("picker");
    this.seq = null;  // the position whose moves are on offer, once drawn (the analysis decorates them when it arrives)
  }

  hide() { this.section.hidden = true; this.box.replaceChildren(); this.seq = null; delete this.box.dataset.seq; }

  /** Offer the legal actions at `seq` (the head) for the seat `actorName`. */
  async show(seq, actorName) {
    this.seq = null;
    delete this.box.dataset.seq;
    this.section.hidden = false;
    this.box.replaceChildren(el("p", { class: "muted", text: "Loading the legal moves…" }));
    let legal;
    try { legal = await api(`${this.branchApi}/legal?at=${seq}`); } catch (error) {
      this.box.replaceChildren(el("p", { class: "error", text: error.message })); return;
    }
    if (legal.seq !== seq) return;
    if (!legal.actions.length) { this.box.replaceChildren(el("p", { class: "muted", text: "Nothing to choose here." })); return; }
    const groups = new Map();
    for (const action of legal.actions) {
      const verb = action.action.split(" ")[0];
      const title = this.groups[verb] || verb;
      if (!groups.has(title)) groups.set(title, []);
      groups.get(title).push(action);
    }
    const who = el("p", { class: "picker-who" }, el("strong", { text: actorName }), " to play:");
    const fieldsets = [...groups].map(([title, actions]) => el("fieldset", { class: "pick-group", dataset: { group: title } },
      el("legend", { text: title }),
      actions.map((a) => el("button", { type: "button", class: "pick", title: a.action, dataset: { action: a.action, group: title },
                                        onclick: () => this.play(a.action, seq) }, label(a.text, actorName)))));
    this.box.replaceChildren(who, ...fieldsets, el("div", { id: "picker-status", role: "status", "aria-live": "polite" }));
    this.seq = seq;
    this.box.dataset.seq = String(seq);  // (for the analysis, which ranks the moves whenever its results come in)
  }

  async play(action, seq) {
    for (const button of this.box.querySelectorAll("button")) button.disabled = true;
    const playing = this.onPlaying();
    try {
      const result = await api(`${this.branchApi}/actions`, { method: "POST", body: { action, expected_seq: seq } });
      await this.onPlayed(result.seq, playing);
    } catch (error) {
      const status = this.box.querySelector("#picker-status");
      if (status) status.replaceChildren(el("span", { class: "error", text: error.message }));
      for (const button of this.box.querySelectorAll("button")) button.disabled = false;
      if (error.status === 409) await this.onPlayed(null, playing);
    }
  }
}

/** List the picker's moves in one group by the mover's win chance, given `ranked`, the position's evaluated moves
 *  best first: the best highlighted, each with its chance, its interval in the button's title (hover) and in a
 *  disclosure (tap: a tap on a move plays it). Moves the analysis did not evaluate come last, in their first order.
 *  With nothing ranked, the picker's own groups come back. */
export function rankPicker(container, ranked) {
  for (const old of container.querySelectorAll(".pick-win, .pick-best-tag, .pick-odds")) old.remove();
  const buttons = [...container.querySelectorAll("button.pick")];
  buttons.forEach((button, i) => { if (button.dataset.order === undefined) button.dataset.order = String(i); });
  restoreGroups(container, buttons);
  const rank = new Map(ranked.map((option, i) => [option.action, i]));
  const offered = ranked.filter((option) => buttons.some((b) => b.dataset.action === option.action));
  if (!offered.length) return;
  for (const button of buttons) {
    if (rank.has(button.dataset.action)) showChance(button, ranked[rank.get(button.dataset.action)]);
  }
  const best = buttons.find((b) => b.dataset.action === offered[0].action);
  best.classList.add("pick-best");
  best.prepend(el("span", { class: "pick-best-tag", text: "best" }));
  const place = (b) => rank.has(b.dataset.action) ? rank.get(b.dataset.action) : ranked.length + Number(b.dataset.order);
  const ranking = el("fieldset", { class: "pick-group pick-ranked" }, el("legend", { text: "By the engine's win chance" }),
    [...buttons].sort((a, b) => place(a) - place(b)));
  for (const group of container.querySelectorAll("fieldset.pick-group:not(.pick-ranked)")) group.hidden = true;
  const first = container.querySelector("fieldset.pick-group");
  if (first) first.before(ranking); else container.append(ranking);
  ranking.after(odds(offered));
}

/** A move's win chance on its button, and with its interval and sample in its title. */
function showChance(button, option) {
  button.append(el("span", { class: "pick-win", text: ` · ${pct(option.win)}` }));
  button.title = `${button.dataset.action}: ${winText(option.win, option.ci)}${option.n ? `, ${option.n} rollouts` : ""}`;
}

/** The disclosure that lists the offered moves' chances with their intervals (opens by tap as well as by click). */
function odds(offered) {
  return el("details", { class: "pick-odds" },
    el("summary", { text: offered.some((o) => interval(o.ci)) ? "Win chances with their intervals" : "Win chances" }),
    el("ol", {}, offered.map((o) => el("li", {}, el("span", { text: o.text || o.action }), `: ${winText(o.win, o.ci)}`,
      o.n ? el("span", { class: "muted", text: ` (${o.n} rollouts)` }) : null))));
}

/** Put the picker's buttons back in their own groups, in their first order (undoing a ranking). */
function restoreGroups(container, buttons) {
  const ranked = container.querySelector("fieldset.pick-ranked");
  if (!ranked) return;
  for (const button of buttons) {
    button.classList.remove("pick-best");
    button.title = button.dataset.action;
    const home = container.querySelector(`fieldset.pick-group[data-group="${CSS.escape(button.dataset.group || "")}"]`);
    if (home) home.append(button);
  }
  for (const group of container.querySelectorAll("fieldset.pick-group")) {
    [...group.querySelectorAll("button.pick")].sort((a, b) => Number(a.dataset.order) - Number(b.dataset.order))
      .forEach((b) => group.append(b));
    group.hidden = false;
  }
  ranked.remove();
}
