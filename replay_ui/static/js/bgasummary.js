// What a BGA log holds, read in the browser: the game (and whether it gets full rules here), the BGA table, the
// players, the number of BGA moves (distinct move numbers of the table's packets) and of steps (the BGA moves with a
// line everyone sees: what a log-only game's replay steps through, as engine/bga/logonly.py groups them). The bookmarklet's receiving tab shows this before its Import button, so the
// log goes to ludolog's server only when the user presses Import.
//
// It reads the envelopes the upload accepts (engine/bga/envelope.py, whose order and rules it follows):
//   {"status": 1, "data": {"logs": [packets], "players": [players]}}   the archive endpoint;
//   {"data": {"data": {"data": [packets]}}}                           what 2021 scrapers saved;
//   {"data": {"data": [packets]}}                                     the replay page's g_gamelogs;
//   [packets]                                                         a bare list;
//   text with "Move N :" lines                                        the game review page, copied.
// A log in none of them is refused here, saying why (summarise throws LogRefused). Inside an envelope it is
// lenient: a packet or player of the wrong shape is skipped here, and the upload's own reader reports it, with
// where and why, after Import. Whether the moves agree with the rules only the import says.

import { t } from "./i18n.js";

// The envelopes the upload accepts, as its error messages name them.
export const EXPECTED_ENVELOPES = [
  '{"status": 1, "data": {"logs": [packets], "players": [players]}}',
  '{"data": {"data": {"data": [packets]}}}',
  '{"data": {"data": [packets]}}',
  "[packets]",
  'plain text with "Move N :" lines',
];

const PUBLIC_CHANNEL = /^\/table\/t([0-9]{1,19})$/;
const PRIVATE_CHANNEL = /^\/player\/p([0-9]{1,19})$/;
const INT_TEXT = /^[+-]?[0-9]+$/;
const GAME_NAME_KEYS = ["game_name", "gamename", "game"];
const OUR_SETUP = "ludologSetup";
const REFLEXION_TOTAL = /"total"\s*:\s*\{([^{}]*)\}/g;

// The text log's marks, as engine/bga/textlog.py reads them.
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;
const MOVE_HEADER = /^\s*Move\s+([0-9]{1,9})\s*:/i;
const COLORS_CHOSEN = /Colors of (.+?) have been chosen/i;
const TABLE_IN_TEXT = /(?:table=|Table #?\s*)([0-9]{3,19})\b/i;
const TIME_ONLY = /^\s*[0-9/.,:\- ]{4,30}(?:\s?[AaPp]\.?[Mm]\.?)?\s*$/;
const FIRST_NAME = /^[^\s,:;.!?()]{2,40}/;
const NOT_NAMES = new Set(["the", "a", "an", "end", "round", "turn", "phase", "game", "move", "all", "everyone", "each",
                           "new", "final", "start", "scoring", "score", "you", "player", "players", "it", "this", "there"]);
const MAX_PLAYERS = 12;

/** A log the upload would refuse, for a reason this module can tell: its message says why. */
export class LogRefused extends Error {
  constructor(message) {
    super(message);
    this.name = "LogRefused";
  }
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function jsonType(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "object" ? "object" : typeof value;
}

// A JSON int, an integral number, or a decimal string, as an integer (a string, exact); else null.
function toInt(value) {
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : null;
  if (typeof value === "string" && INT_TEXT.test(value.trim())) return String(BigInt(value.trim()));
  return null;
}

// A name as a browser shows it: tags dropped (and what script, style and template hold), entities read,
// whitespace collapsed. DOMParser builds an inert document (no script runs, nothing loads): a hostile name is text.
function plainText(html) {
  if (!html.includes("<") && !html.includes("&")) return html.replace(/\s+/g, " ").trim();
  const body = new DOMParser().parseFromString(html, "text/html").body;
  for (const hidden of body.querySelectorAll("script, style, template")) hidden.remove();
  return (body.textContent || "").replace(/\s+/g, " ").trim();
}

// ---- the envelope --------------------------------------------------------------------------------
function unknownEnvelope(doc) {
  const expected = '{"data": {"logs": [...]}}, {"data": {"data": [...]}}, {"data": {"data": {"data": [...]}}}';
  if (!isObject(doc)) {
    return new LogRefused(t("unknown log envelope: found a JSON %(type)s; expected a list of packets or one of %(expected)s",
                            { type: jsonType(doc), expected }));
  }
  const keys = Object.keys(doc).sort().slice(0, 20).join(", ") || "–";
  return new LogRefused(t("unknown log envelope: found a JSON %(type)s with keys %(keys)s; expected a list of packets or one of %(expected)s",
                          { type: jsonType(doc), keys, expected }));
}

function checkStatus(doc) {
  if (!Object.hasOwn(doc, "status") || [1, "1", true].includes(doc.status)) return;
  const status = JSON.stringify(doc.status);
  if (typeof doc.error === "string" && doc.error) {
    throw new LogRefused(t("BGA answered with an error (status %(status)s): '%(error)s', not a game log",
                           { status, error: doc.error.slice(0, 200) }));
  }
  throw new LogRefused(t("BGA answered with an error (status %(status)s), not a game log", { status }));
}

function statedGameName(doc, data) {
  for (const holder of [doc, data]) {
    if (!isObject(holder)) continue;
    for (const key of GAME_NAME_KEYS) {
      const value = holder[key];
      if (typeof value === "string" && value.trim()) return value.trim().slice(0, 100);
    }
  }
  return null;
}

/** { packets, players (the envelope's list or null), gameName } of a decoded document; LogRefused if none fits. */
export function unwrap(doc) {
  if (Array.isArray(doc)) return { packets: doc, players: null, gameName: null };
  if (!isObject(doc)) throw unknownEnvelope(doc);
  checkStatus(doc);
  const data = doc.data;
  const gameName = statedGameName(doc, data);
  if (isObject(data)) {
    if (Object.hasOwn(data, "logs")) {
      if (!Array.isArray(data.logs)) {
        throw new LogRefused(t("field 'data.logs' should be an array of packets, found a JSON %(type)s", { type: jsonType(data.logs) }));
      }
      return { packets: data.logs, players: data.players ?? null, gameName };
    }
    const inner = data.data;
    if (Array.isArray(inner)) return { packets: inner, players: data.players ?? null, gameName };
    if (isObject(inner) && Array.isArray(inner.data)) {
      return { packets: inner.data, players: inner.players ?? data.players ?? null, gameName };
    }
  }
  if (Array.isArray(doc.logs)) return { packets: doc.logs, players: doc.players ?? null, gameName };
  throw unknownEnvelope(doc);
}

// ---- packets -------------------------------------------------------------------------------------
function notesOf(packet) {
  return Array.isArray(packet.data) ? packet.data.filter(isObject) : [];
}

function argsOf(note) {
  return isObject(note.args) ? note.args : {};
}

function* notifications(packets) {
  for (const packet of packets) yield* notesOf(packet);
}

function isOurExport(packets) {
  return packets.length > 0 && notesOf(packets[0]).some((note) => note.type === OUR_SETUP);
}

function tableOf(packets) {
  for (const packet of packets) {
    const match = typeof packet.channel === "string" ? PUBLIC_CHANNEL.exec(packet.channel) : null;
    if (match) return String(BigInt(match[1]));
  }
  return null;
}

// The steps of a log-only replay: packets in packet-id order, a packet with no move id joining the move before it, and
// a move kept when a line on the table (not a player's private channel) has text.
function stepsOf(packets) {
  const ordered = [...packets].sort((a, b) => Number(toInt(a.packet_id) ?? 0) - Number(toInt(b.packet_id) ?? 0));
  const shown = new Set();
  let current = null;
  for (const packet of ordered) {
    const move = toInt(packet.move_id);
    if (move !== null) current = move;
    const isPrivate = typeof packet.channel === "string" && PRIVATE_CHANNEL.test(packet.channel);
    if (!isPrivate && notesOf(packet).some((note) => typeof note.log === "string" && note.log.trim())) shown.add(current);
  }
  return shown.size;
}

function movesOf(packets) {
  const moves = new Set();
  for (const packet of packets) {
    const isPrivate = typeof packet.channel === "string" && PRIVATE_CHANNEL.test(packet.channel);
    const move = toInt(packet.move_id);
    if (!isPrivate && move !== null) moves.add(move);
  }
  return moves.size;
}

// ---- the game -----------------------------------------------------------------------------------
// The game with full rules a log is of, as the upload's detect_game decides: the name the log states (BGA's or
// ours), else our export's setup note, else the first notification that carries a game's mark.
function rulesGame(gameName, packets, games) {
  if (gameName) {
    const key = gameName.trim().toLowerCase();
    const named = games.find((g) => g.bga === key) || games.find((g) => g.game === key.replace(/[ -]/g, "_"));
    if (named) return named;
  }
  for (const note of notifications(packets)) {
    const args = argsOf(note);
    if (note.type === OUR_SETUP && typeof args.game === "string") {
      const ours = games.find((g) => g.game === args.game);
      if (ours) return ours;
    }
    const marked = games.find((g) => g.marks.some((mark) => Object.hasOwn(args, mark)));
    if (marked) return marked;
  }
  return null;
}

// A game without rules here, as people read its BGA name ("tokaido" → "Tokaido").
function logOnlyLabel(name) {
  const words = name.replace(/_/g, " ").trim();
  return words ? words[0].toUpperCase() + words.slice(1) : t("Unknown game");
}

// ---- the players --------------------------------------------------------------------------------
function listedPlayers(raw) {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObject).map((p) => ({ id: toInt(p.id), name: typeof p.name === "string" ? plainText(p.name) : "" }))
    .filter((p) => p.id !== null);
}

function namesInNotes(packets) {
  const names = new Map();
  for (const note of notifications(packets)) {
    const args = argsOf(note);
    const id = toInt(Object.hasOwn(args, "player_id") ? args.player_id : args.playerId);
    if (id === null || typeof args.player_name !== "string" || names.has(id)) continue;
    const name = plainText(args.player_name);
    if (name) names.set(id, name);
  }
  return names;
}

// The player ids in the order BGA lists them in its first state change (its player table order). That order is the
// order of the keys of `reflexion.total` as the text writes them, which a parsed object does not keep (JavaScript
// puts keys that look like integers first, ascending), so it is read from the text: the first such object with the
// same keys.
function seatOrderFromStates(packets, text) {
  for (const note of notifications(packets)) {
    if (note.type !== "gameStateChange") continue;
    const reflexion = argsOf(note).reflexion;
    const total = isObject(reflexion) ? reflexion.total : null;
    if (isObject(total) && Object.keys(total).length) {
      const keys = keysAsWritten(text, Object.keys(total)) || Object.keys(total);
      return keys.map(toInt).filter((id) => id !== null);
    }
  }
  return [];
}

function keysAsWritten(text, keys) {
  const wanted = [...keys].sort().join(",");
  for (const match of text.matchAll(REFLEXION_TOTAL)) {
    const written = [...match[1].matchAll(/"((?:[^"\\]|\\.)*)"\s*:/g)].map((key) => JSON.parse(`"${key[1]}"`));
    if ([...written].sort().join(",") === wanted) return written;
  }
  return null;
}

// The last game-over state's result table (BGA's state 99), as player id → name.
function namesInResult(packets) {
  let result = null;
  for (const note of notifications(packets)) {
    const args = argsOf(note);
    if (note.type === "gameStateChange" && toInt(args.id) === "99") {
      result = isObject(args.args) && Array.isArray(args.args.result) ? args.args.result : null;
    }
  }
  const names = new Map();
  for (const entry of (result || []).filter(isObject)) {
    const id = toInt(Object.hasOwn(entry, "player") ? entry.player : entry.id);
    if (id !== null) names.set(id, typeof entry.name === "string" ? plainText(entry.name) : "");
  }
  return names;
}

// The players in the order the upload lists them: the envelope's list, else BGA's first state change, then anyone
// else the notes or the result name; each by the first name found for them.
function playersOf(rawPlayers, packets, text) {
  const listed = listedPlayers(rawPlayers);
  const noted = namesInNotes(packets);
  const scored = namesInResult(packets);
  const order = listed.length ? listed.map((p) => p.id) : seatOrderFromStates(packets, text);
  for (const id of [...noted.keys(), ...scored.keys()]) if (!order.includes(id)) order.push(id);
  const listedNames = new Map(listed.map((p) => [p.id, p.name]));
  return order.map((id) => listedNames.get(id) || noted.get(id) || scored.get(id) || `player ${id}`);
}

// ---- the text log -------------------------------------------------------------------------------
/** True if `text` has a line that starts a move ("Move 12 : 9:41:07"), as the review page shows them. */
export function looksLikeTextLog(text) {
  return text.split(LINE_BREAK).some((line) => MOVE_HEADER.test(line));
}

function playersOfLines(lines) {
  for (const line of lines) {
    const chosen = COLORS_CHOSEN.exec(line);
    if (!chosen) continue;
    const names = chosen[1].split(/,\s*|\s+and\s+/).map((n) => n.trim()).filter(Boolean);
    if (names.length > 1 && names.length <= MAX_PLAYERS) return names;
  }
  const starts = new Map();
  for (const line of lines) {
    const first = FIRST_NAME.exec(line);
    if (first && !NOT_NAMES.has(first[0].toLowerCase())) starts.set(first[0], (starts.get(first[0]) || 0) + 1);
  }
  const enough = Math.max(3, Math.floor(lines.length / 10));
  return [...starts.entries()].sort((a, b) => b[1] - a[1]).slice(0, MAX_PLAYERS)
    .filter(([, count]) => count >= enough).map(([name]) => name);
}

// The moves are the distinct numbers of the "Move N :" headers; the lines under them name the players. A header
// with no time has it on the next line when copied from the browser: that line is no one's move.
function textSummary(text) {
  const moves = new Set();
  const steps = new Set();
  const lines = [];
  let timeMayFollow = false;
  let current = null;
  for (const line of text.split(LINE_BREAK)) {
    const header = MOVE_HEADER.exec(line);
    if (header) {
      current = String(Number(header[1]));
      moves.add(current);
      timeMayFollow = !line.slice(header[0].length).trim();
    } else if (timeMayFollow && TIME_ONLY.test(line)) {
      timeMayFollow = false;
    } else if (line.trim()) {
      lines.push(line.trim());
      if (current !== null) steps.add(current);
      timeMayFollow = false;
    }
  }
  const table = TABLE_IN_TEXT.exec(text);
  return { game: null, label: null, rules: false, table: table ? table[1] : null, players: playersOfLines(lines),
           moves: moves.size, steps: steps.size, source: "text" };
}

// ---- the whole log ------------------------------------------------------------------------------
function documentSummary(doc, text, games) {
  const { packets, players, gameName } = unwrap(doc);
  if (!packets.length) throw new LogRefused(t("the log holds no packets: expected at least one"));
  const objects = packets.filter(isObject);
  const game = rulesGame(gameName, objects, games);
  const named = game ? game.game : gameName;
  return {
    game: named,
    label: game ? game.label : named ? logOnlyLabel(named) : null,
    rules: game !== null,
    table: isOurExport(objects) ? null : tableOf(objects),
    players: playersOf(players, objects, text),
    moves: movesOf(objects),
    steps: stepsOf(objects),
    source: "json",
  };
}

/**
 * What the log `text` holds: { game, label, rules, table, players, moves, steps, source }: `moves` counts BGA's move
 * numbers, `steps` the moves with a line everyone sees (a log-only game's replay steps through those). `games` are the games with full
 * rules here ({ game, bga, label, marks }, as the page renders them). Throws LogRefused for a log the upload refuses
 * whatever is inside: empty, neither JSON nor a text log, JSON in no known envelope, or BGA's error answer.
 */
export function summarise(text, games) {
  const body = text.replace(/^\ufeff/, "");
  if (!body.trim()) throw new LogRefused(t("the log is empty: expected a BGA log (JSON or log text)"));
  let doc;
  try {
    doc = JSON.parse(body);
  } catch {
    if (looksLikeTextLog(body)) return textSummary(body);
    throw new LogRefused(t("the log is neither JSON nor text with \"Move N :\" lines (as BGA's game review shows them)"));
  }
  return documentSummary(doc, body, games);
}
