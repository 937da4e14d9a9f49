// The move picker: the legal actions at the head of the user's own branch, grouped the
// way a player thinks about them (in Puerto Rico: roles, plantations, buildings they can
// afford with the price, …). Everything shown comes from /legal: the action notation and
// the engine's sentence. Grouping only reads the notation's first word, through the
// game's own table (`picker_groups` from its UI adapter); a word without a group is its own. Once the
// position is analysed, the analysis panel lists the same buttons by win chance instead (analysis.js).

import { api } from "./api.js";
import { el } from "./dom.js";


function label(text, name) {
  // "Anna builds a harbor for 5 doubloons" → "builds a harbor for 5 doubloons": the player knows who they are.
  return name && text.startsWith(name + " ") ? text.slice(name.length + 1) : text;
}

export class Picker {
  constructor({ branchApi, onPlayed, groups }) {
    this.branchApi = branchApi;
    this.groups = groups || {};
    this.onPlayed = onPlayed;
    this.section = document.getElementById("play-section");
    this.box = document.getElementById("picker");
    this.seq = null;  // the position whose moves are on offer, once drawn (the analysis decorates them when it arrives)
  }

  hide() { this.section.hidden = true; this.box.replaceChildren(); this.seq = null; }

  /** Offer the legal actions at `seq` (the head) for the seat `actorName`. */
  async show(seq, actorName) {
    this.seq = null;
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
  }

  async play(action, seq) {
    for (const button of this.box.querySelectorAll("button")) button.disabled = true;
    try {
      const result = await api(`${this.branchApi}/actions`, { method: "POST", body: { action, expected_seq: seq } });
      await this.onPlayed(result.seq);
    } catch (error) {
      const status = this.box.querySelector("#picker-status");
      if (status) status.replaceChildren(el("span", { class: "error", text: error.message }));
      for (const button of this.box.querySelectorAll("button")) button.disabled = false;
      if (error.status === 409) await this.onPlayed(null);
    }
  }
}
