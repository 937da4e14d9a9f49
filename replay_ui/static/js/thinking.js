// "The engine is thinking" at a table (issue 46 item 4): while an engine seat's job searches its move, every open page
// of the table says so, with about how long its level takes here (the mean of its measured moves) and how long it has
// run; the line goes when the move arrives (the head moves past the position it thinks about) or says that the job
// failed (and that it is tried again). What the engine does comes from the seats stream (seats.js followSeats).

import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

/** The line's words, in one place (each a whole sentence, for the catalog). */
const LEVELS = { easy: t("easy"), normal: t("normal"), strong: t("strong") };
const WORDS = {
  thinking: (args) => args.about
    ? t("The engine is thinking for %(name)s (%(level)s) (about %(about)s s; %(sofar)s s so far)", args)
    : t("The engine is thinking for %(name)s (%(level)s) (%(sofar)s s so far)", args),
  failed: (status, name) => {
    const stopped = status.reason === "worker_stopped";
    if (name === undefined) {  // it failed before its search, reading the very things that name its seat
      return status.retried ? t("The engine's move failed; it is tried again.")
        : t("The engine's move failed; it will be tried again later.");
    }
    if (status.retried) {
      return stopped ? t("The engine's move for %(name)s stopped: the worker running it stopped; it is tried again.", { name })
        : t("The engine's move for %(name)s failed; it is tried again.", { name });
    }
    return stopped ? t("The engine's move for %(name)s stopped: the worker running it stopped; it will be tried again later.", { name })
      : t("The engine's move for %(name)s failed; it will be tried again later.", { name });
  },
};

/** The line under the turn banner that says what the engine seat to move is doing. */
export class EngineLine {
  constructor(players) {
    this.players = players;
    this.box = $("engine-status");
    this.status = null;
    this.head = null;
    this.received = 0;
    this.timer = null;
  }

  /** What the engine does now (`status`: the seats route's `engine`, null for nothing), as of position `head`. */
  take(status) {
    this.status = status || null;
    this.received = performance.now();
    this.draw();
  }

  /** The page's head moved: a status of the move after an earlier position is over. */
  atHead(head) {
    this.head = head;
    this.draw();
  }

  draw() {
    clearInterval(this.timer);
    this.timer = null;
    const status = this.status;
    const shown = status && this.box && (this.head === null || status.seq === this.head);
    if (this.box) this.box.hidden = !shown;
    if (!shown) {
      if (this.box) this.box.textContent = "";
      delete document.body.dataset.engine;
      return;
    }
    document.body.dataset.engine = status.state;
    this.box.classList.toggle("error", status.state === "failed");
    if (status.state === "thinking") {
      this.tick();
      this.timer = setInterval(() => this.tick(), 1000);
    } else {
      this.box.textContent = WORDS.failed(status, status.seat === null ? undefined : this.players[status.seat]);
    }
  }

  tick() {
    const status = this.status;
    const sofar = Math.round(status.elapsed + (performance.now() - this.received) / 1000);
    this.box.textContent = WORDS.thinking({ name: this.players[status.seat], level: LEVELS[status.level] || status.level,
                                            about: status.about, sofar });
  }
}
