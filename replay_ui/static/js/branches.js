// The branch tree (every branch with its fork point and owner) and the "fork here" form.

import { api } from "./api.js";
import { el } from "./dom.js";

function tree(branches, parent) {
  return branches.filter((b) => (b.parent || null) === parent);
}

export class Branches {
  constructor({ gid, bid, uiRoot, getSeq }) {
    this.gid = gid;
    this.bid = bid;
    this.uiRoot = uiRoot;
    this.getSeq = getSeq;
    this.list = document.getElementById("branch-tree");
    this.branches = [];
    const form = document.getElementById("fork-form");
    if (form) form.addEventListener("submit", (e) => { e.preventDefault(); this.fork(); });
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
      const where = branch.parent ? `from ${branch.parent} at move ${branch.fork_seq}` : "the game as played";
      return el("li", { class: here ? "here" : "" },
        el("a", { href: `${this.uiRoot}/b/${encodeURIComponent(branch.id)}/${branch.head}`, "aria-current": here ? "page" : null,
                  text: branch.name || branch.id }),
        el("span", { class: "muted", text: ` · ${branch.owner || "nobody"} · ${where} · ${branch.head} moves` }),
        branch.incomplete ? el("span", { class: "badge", text: "incomplete" }) : null,
        children.length ? el("ul", {}, children.map(node)) : null);
    };
    this.list.replaceChildren(...tree(this.branches, null).map(node));
  }

  async fork() {
    const status = document.getElementById("fork-status");
    const name = document.getElementById("fork-name").value.trim();
    try {
      const made = await api(`/api/games/${encodeURIComponent(this.gid)}/branches`, { method: "POST",
        body: { from: this.bid, at: this.getSeq(), name } });
      window.location.assign(`${this.uiRoot}/b/${encodeURIComponent(made.branch)}/${made.seq}`);
    } catch (error) {
      status.replaceChildren(el("span", { class: "error", text: error.message }));
    }
  }
}
