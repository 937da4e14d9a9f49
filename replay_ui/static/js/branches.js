// The branch tree (every branch with its fork point and owner) and the "fork here" form.

import { api } from "./api.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";

function tree(branches, parent) {
  return branches.filter((b) => (b.parent || null) === parent);
}

export class Branches {
  constructor({ gid, bid, uiRoot, getSeq, user = null }) {
    this.user = user;
    this.gid = gid;
    this.bid = bid;
    this.uiRoot = uiRoot;
    this.getSeq = getSeq;
    this.list = document.getElementById("branch-tree");
    this.branches = [];
    const form = document.getElementById("fork-form");
    if (form) form.addEventListener("submit", (e) => { e.preventDefault(); this.fork(); });
    document.getElementById("takeback-button")?.addEventListener("click", () => this.takeBack());
    document.getElementById("delete-branch-button")?.addEventListener("click", (e) => this.deleteBranch(e.currentTarget));
  }

  /** The current branch's record (after load). */
  get current() { return this.branches.find((b) => b.id === this.bid) || null; }

  async load() {
    const game = await api(`/api/games/${encodeURIComponent(this.gid)}`);
    this.branches = game.branches;
    this.render();
    return game;
  }

  render() {
    const node = (branch) => {
      const children = tree(this.branches, branch.id);
      const here = branch.id === this.bid;
      const owner = branch.owner || t("nobody");
      const luck = branch.chance === "keep" ? t("same luck (draws kept)") : t("new luck (chance redrawn)");
      const where = branch.parent ? t("from %(parent)s at move %(seq)s · %(luck)s", { parent: branch.parent, seq: branch.fork_seq, luck })
        : t("the game as played");
      return el("li", { class: here ? "here" : "", dataset: { branch: branch.id } },
        el("a", { class: "branch-link", href: this.linkTo(branch), "aria-current": here ? "page" : null, translate: "no",
                  dataset: { head: String(branch.head) }, text: branch.name || branch.id }),
        el("span", { class: "muted", text: t(" · %(owner)s · %(where)s · %(moves)s moves", { owner, where, moves: branch.head }) }),
        here ? null : el("a", { class: "compare-link", href: this.compareTo(branch), title: t("both boards side by side at this move"),
                                text: t("compare") }),
        branch.incomplete ? el("span", { class: "badge", text: t("incomplete") }) : null,
        children.length ? el("ul", {}, children.map(node)) : null);
    };
    this.list.replaceChildren(...tree(this.branches, null).map(node));
    this.showOwnActions();
  }

  // ---- the owner's second thoughts: take back (a new line, nothing deleted), delete a leaf fork ----
  showOwnActions() {
    const box = document.getElementById("own-branch"), branch = this.current;
    if (!box || !branch) return;
    const mine = this.user && branch.owner === this.user;
    box.hidden = !mine;
    const leaf = branch.parent && !this.branches.some((b) => b.parent === branch.id);
    document.getElementById("delete-branch-button").hidden = !(mine && leaf);
  }

  async takeBack() {
    const status = document.getElementById("fork-status");
    try {
      const made = await api(`/api/games/${encodeURIComponent(this.gid)}/branches/${encodeURIComponent(this.bid)}/takeback`,
        { method: "POST", body: { decisions: 1 } });
      window.location.assign(`${this.uiRoot}/b/${encodeURIComponent(made.branch)}/${made.seq}`);
    } catch (error) {
      status.replaceChildren(el("span", { class: "error", text: error.message }));
    }
  }

  /** Two clicks: the first asks (on the button itself, no dialog), the second deletes and goes to the parent. */
  async deleteBranch(button) {
    const status = document.getElementById("fork-status"), branch = this.current;
    if (button.dataset.armed !== "true") {
      button.dataset.armed = "true";
      button.textContent = t("Delete it for good? Click again");
      return;
    }
    try {
      await api(`/api/games/${encodeURIComponent(this.gid)}/branches/${encodeURIComponent(this.bid)}`, { method: "DELETE" });
      window.location.assign(`${this.uiRoot}/b/${encodeURIComponent(branch.parent)}/${branch.fork_seq}`);
    } catch (error) {
      status.replaceChildren(el("span", { class: "error", text: error.message }));
    }
  }

  /** The branch's page at the shown move when the branch has it (else at its last move). */
  linkTo(branch) {
    const seq = Math.min(this.getSeq() || branch.head, branch.head);
    return `${this.uiRoot}/b/${encodeURIComponent(branch.id)}/${seq}`;
  }

  /** The compare page: this branch against `branch`, at the shown move (or the last one both have). */
  compareTo(branch) {
    const query = new URLSearchParams({ a: this.bid, b: branch.id, at: String(this.getSeq() || 1) });
    return `${this.uiRoot}/compare?${query}`;
  }

  /** Keep the tree's links at the shown move (called on every step). */
  follow() {
    for (const branch of this.branches) {
      const item = this.list.querySelector(`li[data-branch="${CSS.escape(branch.id)}"]`);
      if (!item) continue;
      item.querySelector(":scope > a.branch-link").href = this.linkTo(branch);
      const compare = item.querySelector(":scope > a.compare-link");
      if (compare) compare.href = this.compareTo(branch);
    }
  }

  async fork() {
    const status = document.getElementById("fork-status");
    const name = document.getElementById("fork-name").value.trim();
    const chance = document.getElementById("fork-chance")?.value || "redraw";
    try {
      const made = await api(`/api/games/${encodeURIComponent(this.gid)}/branches`, { method: "POST",
        body: { from: this.bid, at: this.getSeq(), name, chance } });
      window.location.assign(`${this.uiRoot}/b/${encodeURIComponent(made.branch)}/${made.seq}`);
    } catch (error) {
      status.replaceChildren(el("span", { class: "error", text: error.message }));
    }
  }
}
