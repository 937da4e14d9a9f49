// "The engine is thinking" at a table (issue 46 item 4): while an engine seat's job searches its move, every open page
// of the table says so, with about how long its level takes here (the mean of its measured moves) and how long it has
// run; the line goes when the move arrives (the head moves past the position it thinks about) or says that the job
// failed (and that it is tried again). What the engine does comes from the seats stream (seats.js followSeats).

const $ = (id) => document.getElementById(id);

/** The line's words, in one place. */
const WORDS = {
  thinking: (name, level) => `The engine is thinking for ${name} (${level})`,
  time: (about, sofar) => about ? ` (about ${about} s; ${sofar} s so far)` : ` (${sofar} s so far)`,
  failed: {
    worker_stopped: (name) => `The engine's move for ${name} stopped: the worker running it stopped`,
    error: (name) => `The engine's move for ${name} failed`,
  },
  retried: "; it is tried again.",
  given_up: "; it will be tried again later.",
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
      const said = (WORDS.failed[status.reason] || WORDS.failed.error)(this.players[status.seat]);
      this.box.textContent = said + (status.retried ? WORDS.retried : WORDS.given_up);
    }
  }

  tick() {
    const status = this.status;
    const sofar = Math.round(status.elapsed + (performance.now() - this.received) / 1000);
    this.box.textContent = WORDS.thinking(this.players[status.seat], status.level) + WORDS.time(status.about, sofar);
  }
}
