// The move picker: the legal actions at the head of the user's own branch, grouped the
// way a player thinks about them (in Puerto Rico: roles, plantations, buildings they can
// afford with the price, …). Everything shown comes from /legal: the action notation and
// the engine's sentence. Grouping only reads the notation's first word, through the
// game's own table (`picker_groups` from its UI adapter); a word without a group is its own. Once the
// position is analysed, the same buttons are listed by win chance instead (rankPicker, called by analysis.js).
// A turn of many steps with nothing to decide between them (Puerto Rico's mayor) is offered as one form as well
// (forms/): the whole turn is built there and sent as the engine's own steps, in order (playSteps).

import { interval, pct, winText } from "./analysistext.js";
import { api } from "./api.js";
import { el } from "./dom.js";
import { turnFormFor } from "./forms/index.js";
import { t, tn, tParts } from "./i18n.js";

/** The picker's words, in one place. */
const WORDS = {
  loading: t("Loading the legal moves…"),
  nothing: t("Nothing to choose here."),
  toPlay: (name) => tParts("%(player)s to play:", { player: el("strong", { text: name }) }),
  oneByOne: t("Or one step at a time"),
  refused: (step, n, of, message) => {
    const refused = t("Step %(n)s of %(of)s (%(step)s) was refused: %(reason)s.", { n, of, step, reason: message });
    const before = n > 1 ? tn("The step before it was played; the board shows the game as it stands.",
                              "The %(num)d steps before it were played; the board shows the game as it stands.", n - 1)
      : t("Nothing was played; the board shows the game as it stands.");
    return `${refused} ${before}`;
  },
};


function label(text, name) {
  // "Anna builds a harbor for 5 doubloons" → "builds a harbor for 5 doubloons": the player knows who they are.
  return name && text.startsWith(name + " ") ? text.slice(name.length + 1) : text;
}

export class Picker {
  /** `onPlaying()` is called as a move is sent and its answer handed back to `onPlayed(newHead, answer)` (`newHead`
   *  null after a 409): the page notes there where the reader was when they played, which its answer must respect.
   *  `forms` (the game's `turn_forms`), `components`, `stateAt(seq)` and `preview(state)` serve the turn forms: the
   *  form reads the state at the head and has the board drawn as its turn is built (`preview(null)`: as it is). */
  constructor({ branchApi, onPlaying, onPlayed, groups, forms, components, stateAt, preview }) {
    this.branchApi = branchApi;
    this.groups = groups || {};
    this.forms = forms || null;
    this.components = components || {};
    this.stateAt = stateAt;
    this.preview = preview;
    this.onPlaying = onPlaying;
    this.onPlayed = onPlayed;
    this.section = document.getElementById("play-section");
    this.box = document.getElementById("picker");
    this.notice = document.getElementById("play-notice");
    this.seq = null;  // the position whose moves are on offer, once drawn (the analysis decorates them when it arrives)
    this.sending = false;  // a turn's steps are being sent: the picker stays as it is until they all have an answer
    this.shown = 0;  // counts the calls of show(): an answer for an earlier one is dropped
  }

  hide() {
    if (this.sending) return;
    this.shown += 1;  // a show() still waiting for its answer does not draw
    this.section.hidden = true; this.box.replaceChildren(); this.seq = null; delete this.box.dataset.seq;
  }

  /** Offer the legal actions at `seq` (the head) for the seat `actorName` (`seat`). */
  async show(seq, actorName, seat) {
    if (this.sending) return;
    const call = ++this.shown;
    this.seq = null;
    delete this.box.dataset.seq;
    this.section.hidden = false;
    this.box.replaceChildren(el("p", { class: "muted", text: WORDS.loading }));
    let legal;
    try { legal = await api(`${this.branchApi}/legal?at=${seq}`); } catch (error) {
      this.box.replaceChildren(el("p", { class: "error", text: error.message })); return;
    }
    if (legal.seq !== seq || call !== this.shown) return;
    if (!legal.actions.length) { this.box.replaceChildren(el("p", { class: "muted", text: WORDS.nothing })); return; }
    const form = await this.turnForm(legal.actions, seq, seat);
    if (call !== this.shown || this.sending) return;
    const groups = new Map();
    for (const action of legal.actions) {
      const verb = action.action.split(" ")[0];
      const title = this.groups[verb] || verb;
      if (!groups.has(title)) groups.set(title, []);
      groups.get(title).push(action);
    }
    const who = el("p", { class: "picker-who" }, ...WORDS.toPlay(actorName));
    const fieldsets = [...groups].map(([title, actions]) => el("fieldset", { class: "pick-group", dataset: { group: title } },
      el("legend", { text: title }),
      actions.map((a) => el("button", { type: "button", class: "pick", title: a.action, dataset: { action: a.action, group: title },
                                        onclick: () => this.play(a.action, seq) }, label(a.text, actorName)))));
    // With a form, the single steps stay on offer below it (and the analysis ranks them there).
    const steps = form ? [el("details", { class: "pick-steps" }, el("summary", { text: WORDS.oneByOne }), ...fieldsets)] : fieldsets;
    this.box.replaceChildren(who, ...(form ? [form] : []), ...steps,
                             el("div", { id: "picker-status", role: "status", "aria-live": "polite" }));
    this.seq = seq;
    this.box.dataset.seq = String(seq);  // (for the analysis, which ranks the moves whenever its results come in)
  }

  /** The form that plays the whole turn at `seq` for `seat`, when the game has one for these actions; else null. */
  async turnForm(actions, seq, seat) {
    const module = await turnFormFor(this.forms, actions).catch(() => null);
    if (!module || typeof seat !== "number") return null;
    const state = await this.stateAt(seq);
    if (!state) return null;
    return module.buildForm({ state, seat, components: this.components, offered: actions.map((a) => a.action),
                              preview: (shown) => this.preview(shown), submit: (steps) => this.playSteps(steps, seq) });
  }

  /** Send a turn's `steps` ([{action}]) in order from `seq`, each with the seq the previous one left as its
   *  expected seq. A step refused midway stops the rest; the page says which, what was played before it, and shows
   *  the game as it stands (the answer handed on is null, as after a 409: the page loads what is there). */
  async playSteps(steps, seq) {
    this.sending = true;
    this.say(null);
    for (const button of this.box.querySelectorAll("button")) button.disabled = true;
    const playing = this.onPlaying();
    let at = seq, sent = 0, refusal = null;
    for (const step of steps) {
      try {
        at = (await api(`${this.branchApi}/actions`, { method: "POST", body: { action: step.action, expected_seq: at } })).seq;
        sent += 1;
      } catch (error) {
        refusal = WORDS.refused(step.action, sent + 1, steps.length, error.message);
        break;
      }
    }
    this.sending = false;
    this.say(refusal);
    document.body.dataset.stepsSent = `${sent}/${steps.length}`;
    await this.onPlayed(refusal ? null : at, playing);
  }

  /** The last turn's refusal above the board (it outlives the picker, which may close with the turn); null clears it. */
  say(text) {
    if (!this.notice) return;
    this.notice.textContent = text || "";
    this.notice.hidden = !text;
  }

  async play(action, seq) {
    for (const button of this.box.querySelectorAll("button")) button.disabled = true;
    this.say(null);
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
  best.prepend(el("span", { class: "pick-best-tag", text: t("best") }));
  const place = (b) => rank.has(b.dataset.action) ? rank.get(b.dataset.action) : ranked.length + Number(b.dataset.order);
  const ranking = el("fieldset", { class: "pick-group pick-ranked" }, el("legend", { text: t("By the engine's win chance") }),
    [...buttons].sort((a, b) => place(a) - place(b)));
  for (const group of container.querySelectorAll("fieldset.pick-group:not(.pick-ranked)")) group.hidden = true;
  const first = container.querySelector("fieldset.pick-group");
  if (first) first.before(ranking); else container.append(ranking);
  ranking.after(odds(offered));
}

/** A move's win chance on its button, and with its interval and sample in its title. */
function showChance(button, option) {
  button.append(el("span", { class: "pick-win", text: ` · ${pct(option.win)}` }));
  button.title = option.n ? t("%(move)s: %(chance)s, %(n)s rollouts", { move: button.dataset.action, chance: winText(option.win, option.ci), n: option.n })
    : t("%(move)s: %(chance)s", { move: button.dataset.action, chance: winText(option.win, option.ci) });
}

/** The disclosure that lists the offered moves' chances with their intervals (opens by tap as well as by click). */
function odds(offered) {
  return el("details", { class: "pick-odds" },
    el("summary", { text: offered.some((o) => interval(o.ci)) ? t("Win chances with their intervals") : t("Win chances") }),
    el("ol", {}, offered.map((o) => el("li", {}, el("span", { text: o.text || o.action }), `: ${winText(o.win, o.ci)}`,
      o.n ? el("span", { class: "muted", text: t(" (%(n)s rollouts)", { n: o.n }) }) : null))));
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
