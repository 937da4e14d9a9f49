// ludolog's bookmarklet: run on a Board Game Arena page, it hands that table's log to ludolog.
//
// The bookmark holds only a loader (see /import/bga) that adds this file as a <script> with its
// sha384 integrity, so the browser runs it only if it is exactly the version the bookmark was made for.
// It runs inside BGA's page, so it keeps to itself: one function that leaves no global name behind,
// catches every error, and says what happened in a box on the page that goes away by itself.
//
// Where the log comes from, by the kind of page:
//   a replay or game page: the page's own `g_gamelogs` (the log BGA's page already holds);
//   the game review page (/gamereview?table=ID): the review's text (its "Move N :" lines);
//   any other page with ?table=ID: BGA's archive endpoint, asked from this page with the player's own
//   BGA session (the answer goes nowhere but into the message to ludolog's tab).
// Then it opens ludolog's receiving page in a new tab, waits for that tab to say "ready" (a message
// carrying no data) and posts the log to it, addressed to ludolog's origin exactly. No cookie or token
// of either site goes to the other; ludolog stores nothing until the user presses Import there.
// If there is no log to hand over, the tab is closed again: asked from here, and told to close itself.
(function () {
  "use strict";

  var READY = "ludolog-bga-ready";
  var LOG = "ludolog-bga-log";
  var CLOSE = "ludolog-bga-close";
  var PROTOCOL = 1;
  var WAIT_FOR_TAB_MS = 60000;
  var NOTICE_MS = 10000;
  var TABLE_ID = /^[0-9]{1,19}$/;
  var MOVE_HEADER = /(^|\n)\s*Move\s+[0-9]+\s*:/i;

  // Captured at once: document.currentScript is only set while this file first runs.
  var self = document.currentScript;
  var notice = null;
  var noticeTimer = null;

  // ---- the box on BGA's page ----------------------------------------------------------------------
  function hideNotice() {
    if (noticeTimer !== null) clearTimeout(noticeTimer);
    noticeTimer = null;
    if (notice && notice.parentNode) notice.parentNode.removeChild(notice);
    notice = null;
  }

  function say(text) {
    hideNotice();
    var box = document.createElement("div");
    box.setAttribute("role", "alert");
    box.setAttribute("data-ludolog-bookmarklet", "");
    box.style.cssText = "position:fixed;top:16px;right:16px;z-index:2147483647;max-width:28em;padding:12px 36px 12px 14px;" +
      "background:#fff;color:#111;border:2px solid #1d4ed8;border-radius:6px;box-shadow:0 4px 16px rgba(0,0,0,.3);" +
      "font:15px/1.4 system-ui,sans-serif;text-align:left";
    box.textContent = "ludolog: " + text;
    var close = document.createElement("button");
    close.type = "button";
    close.textContent = "\u00d7";
    close.setAttribute("aria-label", "Close");
    close.style.cssText = "position:absolute;top:4px;right:6px;border:0;background:none;color:#111;font-size:20px;cursor:pointer";
    close.addEventListener("click", hideNotice);
    box.appendChild(close);
    (document.body || document.documentElement).appendChild(box);
    notice = box;
    noticeTimer = setTimeout(hideNotice, NOTICE_MS);
  }

  // ---- which page this is, and its log ------------------------------------------------------------
  function tableOfPage() {
    var table = new URLSearchParams(location.search).get("table");
    return table && TABLE_ID.test(table) ? table : null;
  }

  function gameOfPage() {
    var ui = window.gameui;
    return ui && typeof ui.game_name === "string" ? ui.game_name : null;
  }

  function reviewText() {
    if (location.pathname.replace(/\/+$/, "") !== "/gamereview") return null;
    var box = document.getElementById("gamelogs") || document.body;
    var text = box ? box.innerText : "";
    return MOVE_HEADER.test(text) ? text : null;
  }

  // "replay", "review", "archive", or null on a page that holds no table's log.
  function pageKind() {
    var logs = window.g_gamelogs;
    if (logs !== null && typeof logs === "object") return "replay";
    if (reviewText() !== null) return "review";
    if (tableOfPage() !== null) return "archive";
    return null;
  }

  // g_gamelogs as the page holds it ({"data": {"data": [packets]}}, which ludolog reads as it is), with the
  // game's name from BGA's page object when the log does not state it.
  function replayLog() {
    var logs = window.g_gamelogs;
    var doc = Array.isArray(logs) ? { data: { data: logs } } : Object.assign({}, logs);
    var game = gameOfPage();
    if (game && !doc.game_name) doc.game_name = game;
    return JSON.stringify(doc);
  }

  function refusal(doc) {
    var why = doc && typeof doc.error === "string" && doc.error ? " (BGA says: " + doc.error + ")" : "";
    return new Error("Board Game Arena did not give this table's log" + why +
                     ". Sign in to BGA in this browser; only a table you may see can be read.");
  }

  function archiveLog(table) {
    var url = "/archive/archive/logs.html?table=" + table + "&translated=true";
    return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) throw new Error("Board Game Arena answered " + response.status + " for this table's log.");
        return response.text();
      })
      .then(function (text) {
        var doc = null;
        try { doc = JSON.parse(text); } catch (notJson) { throw refusal(null); }
        if (!doc || (doc.status !== 1 && doc.status !== "1")) throw refusal(doc);
        return text;
      });
  }

  function readLog(kind) {
    if (kind === "replay") return Promise.resolve(replayLog());
    if (kind === "review") return Promise.resolve(reviewText());
    return archiveLog(tableOfPage());
  }

  // ---- handing it to ludolog's tab ----------------------------------------------------------------
  // Resolves once the tab `win`, on ludolog's origin, says it is ready; the listener goes with it.
  function tabReady(win, ludolog) {
    return new Promise(function (resolve, reject) {
      var timer = null;
      function onMessage(event) {
        if (event.source !== win || event.origin !== ludolog || !event.data || event.data.type !== READY) return;
        window.removeEventListener("message", onMessage);
        clearTimeout(timer);
        resolve();
      }
      timer = setTimeout(function () {
        window.removeEventListener("message", onMessage);
        reject(new Error("ludolog's tab did not answer. Was it closed? Click the bookmarklet again."));
      }, WAIT_FOR_TAB_MS);
      window.addEventListener("message", onMessage);
    });
  }

  function handOver(kind, ludolog) {
    var win = window.open(ludolog + "/import/bga/receive", "_blank");
    if (!win) {
      say("the browser blocked the new tab: allow pop-ups from this site, then click the bookmarklet again.");
      return;
    }
    say("reading the log of this table…");
    var ready = tabReady(win, ludolog);
    Promise.all([readLog(kind), ready])
      .then(function (got) {
        win.postMessage({ type: LOG, protocol: PROTOCOL, kind: kind, table: tableOfPage(), log: got[0] }, ludolog);
        say("the log is in ludolog's new tab: check it there and press Import.");
      })
      .catch(function (error) {
        closeTab(win);
        // A tab still loading may outlast the tries, or take a close() asked mid-way through its first navigation
        // for done while it stays open (seen on a busy machine). Once it says it is ready it is told to close itself.
        ready.then(function () { win.postMessage({ type: CLOSE }, ludolog); closeTab(win); },
                   function () { closeTab(win); });
        say(error && error.message ? error.message : String(error));
      });
  }

  // Close the tab opened for nothing. A tab still on its way to its first page can let one close() pass unheeded
  // (seen on a busy machine, where its first page took more than the tries), so it is asked again every quarter
  // second until it is gone, for 20 s at most, and again once it says it is ready (handOver).
  function closeTab(win) {
    var tries = 0;
    (function close() {
      if (win.closed) return;
      win.close();
      tries += 1;
      if (tries < 80) setTimeout(close, 250);
    })();
  }

  function run() {
    var ludolog = self && self.src ? new URL(self.src).origin : null;
    if (!ludolog) {
      say("the bookmarklet could not tell where ludolog is. Drag it to your bookmarks again from ludolog's page.");
      return;
    }
    var kind = pageKind();
    if (kind === null) {
      say("this page holds no game log. Open a finished table's replay, its game review (Review game) or a " +
          "page whose address has ?table=…, then click the bookmarklet again.");
      return;
    }
    handOver(kind, ludolog);
  }

  try {
    run();
  } catch (error) {
    try { say("something went wrong: " + (error && error.message ? error.message : String(error))); } catch (ignored) { /* nothing more to do */ }
  }
})();
