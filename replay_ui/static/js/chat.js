// A table's chat (issue 46): the messages of the table's owner and seated players, live from the chat's stream (the
// last messages on opening, then each one said or deleted). A message is put on the page as text, never as markup:
// what people type is shown as typed. The writer's own messages, and every message for the table's owner, have a
// Delete button.

import { api } from "./api.js";
import { locale, t } from "./i18n.js";
import { openStream } from "./live.js";

const $ = (id) => document.getElementById(id);

/** Every string the card shows (one place), in the page's language. */
const TEXT = {
  delete: () => t("Delete"),
  deleteLabel: (author, time) => t("Delete the message of %(author)s at %(time)s", { author, time }),
  sent: () => t("Sent."),
  deleted: () => t("Message deleted."),
  closed: () => t("You are no longer at this table: its chat is closed to you."),
  tooLong: (most) => t("A message is at most %(most)s characters.", { most }),
};

function clock(seconds) {
  return new Date(seconds * 1000).toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" });
}

class Chat {
  constructor(card, page) {
    this.card = card;
    this.url = `/api/games/${encodeURIComponent(page.gid)}/branches/${encodeURIComponent(page.bid)}/chat`;
    this.user = card.dataset.user;
    this.owner = card.dataset.owner;
    this.list = $("chat-messages");
    this.log = $("chat-log");
    this.status = $("chat-status");
    this.most = 500;
  }

  start() {
    this.stream = openStream(() => `${this.url}/stream`, {
      chat: (message) => this.showAll(JSON.parse(message.data)),
      said: (message) => this.add(JSON.parse(message.data)),
      unsaid: (message) => this.remove(JSON.parse(message.data).id),
      closed: () => { this.stream.close(); this.status.textContent = TEXT.closed(); $("chat-form")?.remove(); },
    });
    $("chat-form")?.addEventListener("submit", (event) => { event.preventDefault(); this.send(); });
    $("chat-text")?.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) { event.preventDefault(); this.send(); }
    });
    this.list.addEventListener("click", (event) => {
      const button = event.target.closest(".chat-delete");
      if (button) this.unsay(button.closest(".chat-message").dataset.id);
    });
  }

  showAll(chat) {
    this.most = chat.max_chars;
    this.list.replaceChildren();
    for (const message of chat.messages) this.add(message);
    this.showEmpty();
  }

  /** One message, once (the stream and the answer to a post may both bring it). */
  add(message) {
    if (this.list.querySelector(`[data-id="${CSS.escape(message.id)}"]`)) return;
    const item = document.createElement("li");
    item.className = "chat-message";
    item.dataset.id = message.id;
    item.dataset.author = message.author;
    const author = document.createElement("strong");
    author.className = "chat-author";
    author.textContent = message.author;
    const time = document.createElement("time");
    time.dateTime = new Date(message.time * 1000).toISOString();
    time.textContent = clock(message.time);
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = message.text;
    item.append(author, " ", time, " ", text);
    if (this.user && (this.user === message.author || this.user === this.owner)) {
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "chat-delete link";
      remove.textContent = TEXT.delete();
      remove.setAttribute("aria-label", TEXT.deleteLabel(message.author, time.textContent));
      item.append(" ", remove);
    }
    const atBottom = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 40;
    this.list.append(item);
    if (atBottom) this.log.scrollTop = this.log.scrollHeight;
    this.showEmpty();
  }

  remove(id) {
    this.list.querySelector(`[data-id="${CSS.escape(id)}"]`)?.remove();
    this.showEmpty();
  }

  showEmpty() {
    $("chat-empty").hidden = this.list.children.length > 0;
  }

  async send() {
    const box = $("chat-text");
    const text = box.value;
    if (!text.trim()) return;
    if (text.length > this.most) { this.status.textContent = TEXT.tooLong(this.most); return; }
    try {
      this.add(await api(this.url, { method: "POST", body: { text } }));
      // only what was sent is cleared: words typed while the post was on its way stay
      if (box.value === text) box.value = "";
      this.status.textContent = TEXT.sent();
    } catch (error) {
      this.status.textContent = error.message;
    }
  }

  async unsay(id) {
    try {
      await api(`${this.url}/${encodeURIComponent(id)}`, { method: "DELETE" });
      this.remove(id);
      this.status.textContent = TEXT.deleted();
      $("chat-text")?.focus();
    } catch (error) {
      this.status.textContent = error.message;
    }
  }
}

/** The chat card of a table's page, if the page has one: follow it and let the reader write. */
export function initChat(page) {
  const card = $("chat-section");
  if (!card) return null;
  const chat = new Chat(card, page);
  chat.start();
  return chat;
}
