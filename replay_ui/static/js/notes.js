// Annotations on the current move: list, add, edit, delete, undo. Comments are shown with
// textContent only, so "<script>" or "<img onerror>" in a comment stays inert text.

import { api } from "./api.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";

export class Notes {
  constructor({ gid, bid, user, onChange }) {
    this.url = `/api/games/${encodeURIComponent(gid)}/annotations`;
    this.bid = bid;
    this.user = user;
    this.onChange = onChange;
    this.bySeq = new Map();
    this.seq = null;
    this.editing = null;
    this.list = document.getElementById("notes-list");
    this.undoBox = document.getElementById("notes-undo");
    this.form = document.getElementById("note-form");
    this.glyph = document.getElementById("note-glyph");
    this.text = document.getElementById("note-text");
    this.save = document.getElementById("note-save");
    this.cancel = document.getElementById("note-cancel");
    if (this.form) {
      this.form.addEventListener("submit", (e) => { e.preventDefault(); this.submit(); });
      this.cancel.addEventListener("click", () => this.stopEditing());
    }
  }

  /** Fetch the annotations on this branch's moves, those made on its ancestors before each fork included. */
  async load() {
    const body = await api(`${this.url}?branch=${encodeURIComponent(this.bid)}&inherited=true`);
    this.bySeq.clear();
    for (const note of body.annotations) this.put(note);
  }

  put(note) {
    const list = (this.bySeq.get(note.seq) || []).filter((n) => n.id !== note.id);
    if (!note.deleted) list.push(note);
    list.sort((a, b) => a.created - b.created);
    this.bySeq.set(note.seq, list);
  }

  /** Show the panel for move `seq` (the starting position has no move to comment on). */
  show(seq) {
    this.seq = seq;
    this.stopEditing();
    const notes = this.bySeq.get(seq) || [];
    document.getElementById("notes-move").textContent = seq > 1 ? t("move %(n)s", { n: seq }) : t("the start");
    this.list.replaceChildren(...notes.map((n) => this.item(n)));
    if (!notes.length) this.list.append(el("li", { class: "muted", text: t("No comments on this move.") }));
    if (this.form) this.form.hidden = false;
  }

  item(note) {
    const mine = this.user && note.author === this.user;
    return el("li", { class: "note", dataset: { id: note.id } },
      note.glyph ? el("span", { class: "glyph", text: note.glyph }) : null,
      el("span", { class: "note-text", text: note.text }),
      el("span", { class: "note-author", text: ` — ${note.author}` }),
      mine ? el("span", { class: "note-actions" },
        el("button", { type: "button", class: "link", text: t("Edit"), "aria-label": t("Edit this comment"),
                       onclick: () => this.startEditing(note) }),
        el("button", { type: "button", class: "link", text: t("Delete"), "aria-label": t("Delete this comment"),
                       onclick: () => this.remove(note) })) : null);
  }

  startEditing(note) {
    this.editing = note;
    this.text.value = note.text;
    this.glyph.value = note.glyph || "";
    this.save.textContent = t("Save changes");
    this.cancel.hidden = false;
    this.text.focus();
  }

  stopEditing() {
    this.editing = null;
    if (!this.form) return;
    this.text.value = "";
    this.glyph.value = "";
    this.save.textContent = t("Add comment");
    this.cancel.hidden = true;
  }

  async submit() {
    const text = this.text.value, glyph = this.glyph.value || null;
    try {
      let note;
      if (this.editing) {
        note = await api(`${this.url}/${encodeURIComponent(this.editing.id)}`, { method: "PATCH",
          body: { text, glyph, expected_version: this.editing.version } });
        this.offerUndo(note, t("Comment edited."));
      } else {
        note = await api(this.url, { method: "POST", body: { branch: this.bid, seq: this.seq, text, glyph } });
      }
      this.changed(note);
    } catch (error) {
      this.message(error.message);
    }
  }

  async remove(note) {
    try {
      const gone = await api(`${this.url}/${encodeURIComponent(note.id)}?expected_version=${note.version}`, { method: "DELETE" });
      this.changed(gone);
      this.offerUndo(gone, t("Comment deleted."));
    } catch (error) {
      this.message(error.message);
    }
  }

  async undo(note) {
    try {
      const back = await api(`${this.url}/${encodeURIComponent(note.id)}/undo`, { method: "POST", body: {} });
      this.undoBox.replaceChildren();
      this.changed(back);
    } catch (error) {
      this.message(error.message);
    }
  }

  changed(note) {
    this.put(note);
    this.show(this.seq);
    this.onChange(note.seq, this.bySeq.get(note.seq) || []);
  }

  offerUndo(note, text) {
    this.undoBox.replaceChildren(el("span", { text: text + " " }),
      el("button", { type: "button", class: "link", id: "note-undo", text: t("Undo"), onclick: () => this.undo(note) }));
  }

  message(text) {
    this.undoBox.replaceChildren(el("span", { class: "error", text }));
  }
}
