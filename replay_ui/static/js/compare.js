// The compare page: two branches at the same move, both boards drawn by the game's renderer, the pieces
// that differ highlighted (data-differs="true"), the scores side by side, both score charts overlaid
// (A solid, B dashed), and one stepper for both. The states and the differing fields come from
// GET /api/games/<gid>/compare, which applies the chosen view's hidden-information rules.

import { t, tn } from "./i18n.js";
import { api } from "./api.js";
import { lineKey, markerShape } from "./chart.js";
import { rendererFor } from "./boards/index.js";
import { el, pageData, svg } from "./dom.js";
import { bindShortcutSwitch, onSelectChosen } from "./keys.js";
import { piecesAt } from "./lastmove.js";
import { followBranch } from "./live.js";

const page = pageData();
const $ = (id) => document.getElementById(id);
const enc = encodeURIComponent;
const SIDES = ["a", "b"];
const W = 1000, H = 200, PAD_L = 34, PAD_R = 10, PAD_T = 10, PAD_B = 22;

const app = {
  at: page.at,
  view: new URLSearchParams(location.search).get("view") || page.view || "full",
  board: null,
  timelines: { a: null, b: null },
  token: 0,
  marker: null,
};

function urlFor(at) {
  const query = new URLSearchParams({ a: page.a, b: page.b, at: String(at) });
  if (app.view !== "full") query.set("view", app.view);
  return `/games/${enc(page.gid)}/compare?${query}`;
}

async function loadTimelines() {
  const load = (bid) => api(`/games/${enc(page.gid)}/b/${enc(bid)}/timeline.json?view=${enc(app.view)}`);
  [app.timelines.a, app.timelines.b] = await Promise.all([load(page.a), load(page.b)]);
  drawChart();
}

function scoresTable(side, body, other) {
  const rows = page.players.map((name, seat) => {
    const mine = body.scores ? body.scores[seat] : null, theirs = other.scores ? other.scores[seat] : null;
    const differs = mine !== theirs;
    return el("tr", { class: `p${seat}${differs ? " differs" : ""}`, dataset: differs ? { differs: "true" } : {} },
      el("th", { scope: "row", text: name }), el("td", { text: mine === null || mine === undefined ? "?" : String(mine) }));
  });
  return [el("caption", { class: "sr-only", text: t("scores on branch %(side)s", { side: side.toUpperCase() }) }), el("tbody", {}, rows)];
}

function captionOf(body, timeline) {
  const info = timeline && timeline.positions[app.at - 1];
  const parts = info && info.caption ? [...info.caption] : [];
  if (typeof body.actor === "number") parts.push(t("%(player)s to act", { player: page.players[body.actor] }));
  else if (body.actor === "chance") parts.push(t("chance to draw"));
  else if (body.actor === null) parts.push(t("game over"));
  return parts.join(" · ");
}

function drawSide(side, body, other, differences) {
  const timeline = app.timelines[side];
  const info = timeline ? timeline.positions[app.at - 1] || null : null;
  const container = $(`board-${side}`);
  app.board.renderBoard(container, body.state, { components: page.components, names: page.players, position: info, actor: body.actor });
  container.dataset.seq = String(app.at);
  for (const node of piecesAt(container, differences)) {
    node.dataset.differs = "true";
    node.classList.add("differs");
  }
  $(`caption-${side}`).textContent = captionOf(body, timeline);
  $(`scores-${side}`).replaceChildren(...scoresTable(side, body, other));
  $(`link-${side}`).href = `/games/${enc(page.gid)}/b/${enc(body.branch)}/${app.at}`;
}

/** A state path in words: "players.2.city.14" is "Krisztina › city › 14" (a seat by its player's name). */
function fieldWords(path) {
  const parts = path.split(".");
  if (parts[0] === "players" && /^\d+$/.test(parts[1] || "") && page.players[Number(parts[1])] !== undefined) {
    parts.splice(0, 2, page.players[Number(parts[1])]);
  }
  return parts.join(" › ");
}

/** The fields that differ, listed under the summary (folded: a late game can differ in dozens). */
function listDifferences(differences, truncated) {
  $("compare-fields").hidden = !differences.length;
  $("compare-field-list").replaceChildren(...differences.map((path) => el("li", { title: path, text: fieldWords(path) })),
    ...(truncated ? [el("li", { class: "muted", text: t("and more (the list stops here)") })] : []));
}

async function show(at, { history: mode = "replace" } = {}) {
  at = Math.max(1, Math.min(page.common, Math.round(at)));
  const token = ++app.token;
  const body = await api(`/api/games/${enc(page.gid)}/compare?a=${enc(page.a)}&b=${enc(page.b)}&at=${at}&view=${enc(app.view)}`);
  if (token !== app.token) return;
  app.at = body.at;
  drawSide("a", body.a, body.b, body.differences);
  drawSide("b", body.b, body.a, body.differences);
  const count = body.differences.length;
  $("compare-summary").textContent = count
    ? tn("At move %(at)s: %(count)s field differs", "At move %(at)s: %(count)s fields differ", count,
         { at: app.at, count: `${count}${body.truncated ? "+" : ""}` })
    : t("At move %(at)s: the two positions are the same", { at: app.at });
  $("compare-summary").dataset.differences = String(count);
  listDifferences(body.differences, body.truncated);
  $("scrubber").value = String(app.at);
  $("seq-label").textContent = `${app.at} / ${page.common}`;
  $("scrubber").setAttribute("aria-valuetext", t("move %(n)s of %(total)s", { n: app.at, total: page.common }));
  markChart();
  if (mode !== "none" && location.pathname + location.search !== urlFor(app.at)) {
    if (mode === "push") history.pushState({ at: app.at }, "", urlFor(app.at));
    else history.replaceState({ at: app.at }, "", urlFor(app.at));
  }
  document.body.dataset.drawn = "true";
  document.body.dataset.ready = "true";
}

// ---- both score charts overlaid --------------------------------------------------------------------
function seriesOf(timeline, seat) {
  return timeline ? timeline.positions.map((p) => (p.scores ? p.scores[seat] : null)) : [];
}

function drawChart() {
  const length = Math.max(...SIDES.map((s) => (app.timelines[s] ? app.timelines[s].positions.length : 0)), 2);
  const all = SIDES.flatMap((s) => page.players.flatMap((_, seat) => seriesOf(app.timelines[s], seat)))
    .filter((v) => v !== null && v !== undefined);
  if (!all.length) { $("chart-section").hidden = true; return; }
  const max = Math.max(5, ...all);
  const x = (i) => PAD_L + (i / (length - 1)) * (W - PAD_L - PAD_R);
  const y = (v) => H - PAD_B - (v / max) * (H - PAD_T - PAD_B);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart compare-chart", role: "img",
                             "aria-label": t("Scores of both branches over the game: A solid, B dashed") },
    svg("line", { class: "axis", x1: PAD_L, y1: H - PAD_B, x2: W - PAD_R, y2: H - PAD_B }),
    svg("text", { class: "tick", x: 2, y: PAD_T + 8, text: String(max) }),
    svg("text", { class: "tick", x: 2, y: H - PAD_B, text: "0" }));
  for (const side of SIDES) {
    page.players.forEach((_, seat) => {
      const points = seriesOf(app.timelines[side], seat).map((v, i) => (v === null || v === undefined ? null : `${x(i).toFixed(1)},${y(v).toFixed(1)}`))
        .filter(Boolean);
      if (!points.length) return;
      chart.append(svg("polyline", { class: `series p${seat} side-${side}`, points: points.join(" "), dataset: { side, seat: String(seat) } }));
      // Each line ends in its player's marker shape (as in the legend): players differ without colour too.
      const [ex, ey] = points[points.length - 1].split(",").map(Number);
      chart.append(markerShape(seat, ex, ey, 5, { class: `dot p${seat} side-${side}` }));
    });
  }
  app.marker = svg("line", { class: "marker", y1: PAD_T, y2: H - PAD_B });
  chart.append(app.marker);
  chart.addEventListener("click", (event) => {
    const box = chart.getBoundingClientRect();
    const at = 1 + Math.round(((event.clientX - box.left) / box.width * W - PAD_L) / (W - PAD_L - PAD_R) * (length - 1));
    show(at, { history: "push" });
  });
  app.chartX = x;
  $("chart").replaceChildren(chart, el("ul", { class: "legend" }, page.players.map((name, seat) =>
    el("li", { class: `p${seat}` }, lineKey(seat, { dashed: false }), el("span", { text: name })))));
}

function markChart() {
  if (!app.marker) return;
  const at = app.chartX(app.at - 1).toFixed(1);
  app.marker.setAttribute("x1", at);
  app.marker.setAttribute("x2", at);
}

// ---- controls --------------------------------------------------------------------------------------
let shortcutsOn = () => true;

function onKey(event) {
  if (!shortcutsOn()) return;
  if (event.target.closest && event.target.closest("input:not([type=checkbox]), textarea, select")) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const actions = { ArrowLeft: () => show(app.at - 1), ArrowRight: () => show(app.at + 1),
                    Home: () => show(1, { history: "push" }), End: () => show(page.common, { history: "push" }) };
  if (actions[event.key]) { event.preventDefault(); actions[event.key](); }
}

function bind() {
  $("nav-first").addEventListener("click", () => show(1, { history: "push" }));
  $("nav-prev").addEventListener("click", () => show(app.at - 1));
  $("nav-next").addEventListener("click", () => show(app.at + 1));
  $("nav-last").addEventListener("click", () => show(page.common, { history: "push" }));
  $("scrubber").addEventListener("input", (e) => show(Number(e.target.value)));
  $("view-select").value = app.view;
  onSelectChosen($("view-select"), async (view) => {
    app.view = view;
    await loadTimelines();
    await show(app.at, { history: "push" });
    followBoth();
  });
  shortcutsOn = bindShortcutSwitch();
  document.addEventListener("keydown", onKey);
  window.addEventListener("popstate", () => {
    const at = Number(new URLSearchParams(location.search).get("at")) || page.common;
    show(at, { history: "none" });
  });
}

// ---- live: both branches' streams --------------------------------------------------------------
/** Follow both branches: a new move on either takes in the timelines again, and a reader at the last common move
 *  moves on with it. */
function followBoth() {
  for (const side of SIDES) app.live?.[side]?.close();
  app.live = {};
  for (const side of SIDES) {
    const bid = page[side];
    app.live[side] = followBranch(`/api/games/${enc(page.gid)}/branches/${enc(bid)}`, {
      view: app.view, after: page.heads[bid], onEvents: onLiveEvents,
    });
  }
}

async function onLiveEvents(events) {
  const wasAtEnd = app.at === page.common;
  await loadTimelines();
  page.heads[page.a] = app.timelines.a.head;
  page.heads[page.b] = app.timelines.b.head;
  page.common = Math.min(app.timelines.a.head, app.timelines.b.head);
  $("scrubber").max = String(page.common);
  await show(wasAtEnd ? page.common : app.at);
  document.body.dataset.liveHead = String(events[events.length - 1].seq);
}

async function start() {
  app.board = await rendererFor(page.renderer);
  bind();
  await loadTimelines();
  await show(app.at);
  followBoth();
}

start().catch((error) => {
  $("compare-summary").replaceChildren(el("span", { class: "error", text: t("Could not compare: %(reason)s", { reason: error.message }) }));
});

window.ludolog = { show, get at() { return app.at; } };
