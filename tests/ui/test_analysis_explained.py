"""The analysis explains itself in the replay UI (issue 30), in headless Chromium: a legend of the engine's marks with
their thresholds; at the move on screen what was played against what was best, with chances and intervals; the
engine's marks apart from people's glyphs; the win chart's interval bands; a progress bar while the analysis runs and
no more polling once it is done; a visitor told why they cannot ask for one.

The reports come from the real service. A report stored before intervals existed lacks ``ci``, ``win_ci``,
``loss_ci``, ``options`` and ``thresholds``: the page must show it all the same (the tests on the real report check
whichever it is), and :func:`with_intervals` gives the page's own panel those fields, to check how they are shown."""

from __future__ import annotations

import math
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.ui.analysed import (
    DEFAULT_THRESHOLDS,
    GID,
    analysed_game_with_fork,
    analysis_report,
    fresh_pig_game,
    js_import,
    pct,
    ranked,
    run_worker,
)
from tests.ui.conftest import DEMO_PR
from tests.ui.helpers import open_game, sign_up, wait_board
from tests.ui.test_accessibility import _blocking
from tests.ui.test_phone import SMALL_TEXT


def test_the_move_on_screen_says_what_was_played_and_what_was_best(live_server, watched, redis_client, redis_server,
                                                                    artifacts):
    """The legend gives the marks' thresholds; a marked move says what was played and what was best with their
    chances; the engine's mark is boxed and titled as the engine's, a person's glyph on the same move stays plain."""
    analysed_game_with_fork(redis_client, redis_server.url)
    sign_up(watched, live_server, "glossator")
    page = open_game(watched, live_server, seq=1, gid=GID)
    page.wait_for_selector("#analysis-legend .mark-legend")
    report = analysis_report(page, live_server, GID)
    thresholds = report.get("thresholds") or DEFAULT_THRESHOLDS
    for mark, name in (("?!", "inaccuracy"), ("?", "mistake"), ("??", "blunder")):
        item = page.locator(f'#analysis-legend li[data-mark="{mark}"]').inner_text()
        assert item.startswith(f"{mark} {name}: lost at least {math.floor(100 * thresholds[mark] + 0.5)} points"), item
    marked = next(p for p in report["positions"] if p["played"] and p["played"]["mark"])
    move, played, best = marked["seq"] + 1, marked["played"], ranked(marked)[0]
    page.locator(f'#moves .mv[data-seq="{move}"]').click()
    wait_board(page, move)
    played_text = played.get("text") or next((o["text"] for o in ranked(marked) if o["action"] == played["action"]),
                                             page.locator(f'#moves .mv[data-seq="{move}"] .mv-text').inner_text())
    verdict = page.locator("#analysis-verdict").inner_text()
    assert verdict.startswith(f"Move {move}, {('Anna', 'Ben')[marked['actor']]}: played {played_text} "
                              f"(win {pct(played['win'])}"), verdict
    assert f"best was {best['text']} (win {pct(best['win'])}" in verdict, verdict
    assert f"lost {math.floor(100 * played['loss'] + 0.5)} points" in verdict and verdict.endswith(played["mark"])
    page.select_option("#note-glyph", "??")
    page.fill("#note-text", "I would have held")
    page.click("#note-save")
    glyphs = page.locator(f'#moves .mv[data-seq="{move}"] .mv-glyphs')
    page.wait_for_function("sel => document.querySelector(sel).textContent === '??'",
                           arg=f'#moves .mv[data-seq="{move}"] .mv-glyphs')
    engine = page.locator(f'#moves .mv[data-seq="{move}"] .mv-mark')
    assert engine.inner_text() == played["mark"] and engine.get_attribute("title").startswith("The engine's mark: ")
    border = "e => getComputedStyle(e).borderTopStyle"
    assert engine.evaluate(border) == "solid" and glyphs.evaluate(border) == "none"
    assert "\u2699" in engine.evaluate("e => getComputedStyle(e, '::before').content")
    assert page.locator("#win-chart .win-band").count() == (2 if report["positions"][0].get("win_ci") else 0)
    page.locator("#win-section").screenshot(path=str(artifacts / "analysis-verdict-1366.png"))
    page.locator(f'#moves li:has(.mv[data-seq="{move}"])').screenshot(path=str(artifacts / "analysis-marked-move.png"))
    found = _blocking(page, "analysis-1366", artifacts)
    assert page.get_attribute("#win-chart svg", "viewBox") == "0 0 1000 140"
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("() => document.querySelector('#win-chart svg').getAttribute('viewBox') === '0 0 480 140'")
    page.locator("#win-section").screenshot(path=str(artifacts / "analysis-verdict-390.png"))
    page.screenshot(path=str(artifacts / "analysis-page-390.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page scrolls sideways on a phone"
    small = page.evaluate(SMALL_TEXT)
    assert not small, f"text under 12 px on a phone: {small[:8]}"
    found += _blocking(page, "analysis-390", artifacts)
    assert not found, "\n".join(found)
    watched.assert_clean()


def with_intervals(report: dict[str, Any]) -> dict[str, Any]:
    """``report`` with every field a report may lack when stored before intervals existed: ``win_ci`` and ``ci``
    5 points either side, ``options`` (every evaluated move, given worst first: the page must sort them),
    ``loss_ci``, ``played.text`` and other ``thresholds`` than the defaults (so the legend must read them)."""
    def ci(win: float) -> list[float]:
        return [round(max(0.0, win - 0.05), 4), round(min(1.0, win + 0.05), 4)]

    positions = []
    for p in report["positions"]:
        best = [{**b, "ci": ci(b["win"])} for b in p["best"]]
        played = p["played"] and {**p["played"], "text": f"played-{p['played']['action']}",
                                  "ci": ci(p["played"]["win"] or 0.0),
                                  "loss_ci": [round(max(0.0, (p["played"]["loss"] or 0) - 0.03), 4),
                                              round((p["played"]["loss"] or 0) + 0.03, 4)]}
        positions.append({**p, "win_ci": [ci(w) for w in p["win"]], "best": best, "options": best[::-1],
                          "played": played})
    return {**report, "thresholds": {"?!": 0.04, "?": 0.12, "??": 0.25}, "positions": positions}


def test_the_panel_shows_the_intervals_options_and_thresholds_of_a_report(live_server, watched, redis_client,
                                                                          redis_server, artifacts):
    """Given a report with intervals (the real one, with the fields of :func:`with_intervals`), the page's panel
    draws a band per seat, reads the legend's thresholds from it and writes the intervals into the verdict."""
    analysed_game_with_fork(redis_client, redis_server.url)
    page = open_game(watched, live_server, seq=1, gid=GID)
    page.wait_for_selector("#win-chart svg.win-chart")
    report = with_intervals(analysis_report(page, live_server, GID))
    marked = next(p for p in report["positions"] if p["played"] and p["played"]["mark"])
    move = marked["seq"] + 1
    page.evaluate("async ([report, head, seq]) => {" + js_import("analysis.js") + """
        const panel = new m.AnalysisPanel({ gid: "g", bid: "main", user: null, players: ["Anna", "Ben"], onSelect: () => {} });
        panel.head = head;
        panel.data = report;
        panel.bySeq = new Map(report.positions.map((p) => [p.seq, p]));
        panel.seq = seq;
        panel.render();
    }""", [report, page.evaluate("window.ludolog.head"), move])
    assert page.locator("#win-chart polygon.win-band").count() == 2
    assert page.locator('#analysis-legend li[data-mark="?"]').inner_text().startswith("? mistake: lost at least 12 points")
    assert "low end of its loss's interval" in page.locator("#analysis-legend").inner_text()
    played, best = marked["played"], ranked(marked)[0]

    def band(ci: list[float]) -> str:
        return f"[{math.floor(100 * ci[0] + 0.5)}–{math.floor(100 * ci[1] + 0.5)}]"

    verdict = page.locator("#analysis-verdict").inner_text()
    assert f"played {played['text']} (win {pct(played['win'])} {band(played['ci'])})" in verdict, verdict
    assert f"best was {best['text']} (win {pct(best['win'])} {band(best['ci'])})" in verdict, verdict
    assert f"lost {math.floor(100 * played['loss'] + 0.5)} points {band(played['loss_ci'])}" in verdict, verdict
    page.locator("#win-section").screenshot(path=str(artifacts / "analysis-intervals.png"))
    hidden = {"action": None, "text": "Ben keeps a card face down", "hidden": True, "win": None, "ci": None,
              "loss": None, "loss_ci": None, "mark": None}  # another seat's secret move, as a seat's view shows it
    best = {"action": "hold", "text": "Seat 1 holds", "win": 0.4, "ci": [0.35, 0.45], "n": 80}
    said = page.evaluate("async (entry) => {" + js_import("analysistext.js") + " return m.verdictText(entry); }",
                         {"seq": 5, "actor": 1, "played": hidden, "best": [best], "options": [best]})
    assert said == "played Ben keeps a card face down, best was Seat 1 holds (win 40% [35–45])", said
    # A played move the samples cannot tell from a better-looking one is the engine's best: named so, and first.
    tied = {"action": "roll", "text": "Seat 0 rolls", "win": 0.3, "ci": [0.2, 0.4], "n": 60}
    looks_better = {"action": "hold", "text": "Seat 0 holds", "win": 0.33, "ci": [0.23, 0.43], "n": 60}
    entry = {"seq": 5, "actor": 0, "best": [tied, looks_better], "options": [looks_better, tied],
             "played": {**tied, "loss": 0.0, "loss_ci": [0.0, 0.0], "mark": None}}
    said = page.evaluate("async (entry) => {" + js_import("analysistext.js")
                         + " return [m.verdictText(entry), m.rankedOptions(entry).map((o) => o.action)]; }", entry)
    assert said == ["played Seat 0 rolls (win 30% [20–40]), the engine found no better move", ["roll", "hold"]], said
    watched.assert_clean()


def test_the_analysis_shows_its_progress_and_stops_asking_once_done(live_server, watched, redis_client, redis_server):
    """While the analysis runs a progress bar shows how far it is and the page asks again; once it is done the bar
    goes and the page stops asking."""
    fresh_pig_game(redis_client)
    sign_up(watched, live_server, "patient")
    page = open_game(watched, live_server, gid="pig-fresh")
    page.wait_for_function("() => document.getElementById('analysis-status').textContent.startsWith('Not analysed')")
    bar = page.locator("#analysis-progress")
    assert not bar.is_visible()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if "/analysis?" in request.url else None)
    page.select_option("#analysis-budget", "50")
    page.click("#analysis-request")
    page.wait_for_function("() => document.getElementById('analysis-status').textContent.startsWith('Analysing')")
    total = analysis_report(page, live_server, "pig-fresh")["total"]
    assert bar.is_visible() and bar.get_attribute("max") == str(total) and bar.get_attribute("value") == "0"
    run_worker(redis_server.url)
    page.wait_for_function("t => document.getElementById('analysis-status').textContent === `${t} decisions analysed.`",
                           arg=total)
    assert not bar.is_visible()
    polls = len(asked)
    assert polls >= 2, asked  # the first load, and at least the poll that found it done
    page.wait_for_timeout(3 * 1500 + 500)  # three polling periods of the page
    assert len(asked) == polls, asked[polls:]
    watched.assert_clean()


def test_an_anonymous_visitor_is_told_why_they_cannot_ask_for_an_analysis(live_server, watched):
    """No request button for a visitor, but the reason and a way to sign in that comes back to the game."""
    page = open_game(watched, live_server)
    assert page.locator("#analysis-request").count() == 0
    hint = page.locator("#analysis-signin")
    assert hint.is_visible() and hint.inner_text().startswith("Sign in to ask for an analysis: ")
    hint.locator("a").click()
    page.wait_for_selector("#password")
    url = urlsplit(page.url)
    assert url.path == "/signin" and parse_qs(url.query)["next"] == [f"/games/{DEMO_PR}/b/main"]
    watched.assert_clean()
