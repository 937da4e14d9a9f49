"""A second opinion in the analysis panel (issue 30), in headless Chromium: the same analysis asked for under another
seed beside the first, its progress shown like the first's; how the two agree at the move on screen and over the game,
counted from two real reports made by a real worker; the seed kept in the page's URL through a reload and a shared
link; an anonymous visitor shown a second opinion others asked for but told to sign in to ask; a bad seed (in the URL
or typed) said, with nothing asked of the API."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.ui.analysed import GID, analysed_game_with_fork, analysis_report, fresh_pig_game, js_import, run_worker
from tests.ui.helpers import open_game, sign_up, wait_board

MAX_SEED = 2**31 - 1
#: How strong each engine mark is, mildest first.
MARK_RANK = {"?!": 1, "?": 2, "??": 3}


def verdict_best(entry: dict[str, Any]) -> dict[str, Any]:
    """The engine's best move of a position as the verdict names it: the first of ``best``."""
    return entry["best"][0]


def confirms(first: str, second: str | None) -> bool:
    """A second mark confirms the first if it is as strong or stronger, or one step milder (``??`` by ``??`` or ``?``)."""
    return second is not None and MARK_RANK[second] >= MARK_RANK[first] - 1


def expected_agreement(first: dict[str, Any], second: dict[str, Any]) -> str:
    """The panel's agreement line, counted here from the two reports."""
    other = {p["seq"]: p for p in second["positions"]}
    both = [(p, other[p["seq"]]) for p in first["positions"] if p["seq"] in other]
    same = sum(verdict_best(a)["action"] == verdict_best(b)["action"] for a, b in both)
    marked = [(a["played"]["mark"], b["played"] and b["played"]["mark"]) for a, b in both
              if a["played"] and a["played"]["mark"]]
    confirmed = sum(confirms(mark, twin) for mark, twin in marked)
    marks = f"confirms {confirmed} of the first's {len(marked)} mark{'' if len(marked) == 1 else 's'}" if marked else \
        "has no mark of the first's to confirm"
    return f"The second opinion {marks} and names the same best move in {same} of {len(both)} positions."


def expected_move_line(entry: dict[str, Any], move_text: str) -> str:
    """The panel's second-opinion line at the move that left position ``entry``."""
    played = entry["played"]
    mark = f"marked {played['mark']}" if played["mark"] else "not marked"
    return f"second opinion: best {verdict_best(entry)['text']}, played {played.get('text') or move_text} {mark}"


def opinion_status(page: Any) -> str:
    return page.locator("#opinion-status").inner_text()


def test_a_signed_in_user_asks_for_a_second_opinion_and_sees_how_it_agrees(live_server, watched, redis_client,
                                                                           redis_server, artifacts):
    """Asked for under seed 1, the second opinion shows its progress, then how it agrees with the first (counted
    here from the two reports the API gives) at every move and for the game; the URL keeps the seed, so a reload
    shows the same."""
    _, analysed = analysed_game_with_fork(redis_client, redis_server.url)
    sign_up(watched, live_server, "skeptic")
    page = open_game(watched, live_server, seq=1, gid=GID)
    page.wait_for_selector("#win-chart svg.win-chart")
    assert not page.locator("#opinion-line").is_visible() and not page.locator("#opinion-agreement").is_visible()
    assert page.input_value("#opinion-seed") == "1"
    page.click("#opinion-request")
    page.wait_for_function("() => document.getElementById('opinion-status').textContent"
                           ".startsWith('Second opinion (seed 1): analysing… 0 of ')")
    bar = page.locator("#opinion-progress")
    assert bar.is_visible() and bar.get_attribute("max") == str(analysed) and bar.get_attribute("value") == "0"
    assert page.url.endswith(f"/games/{GID}/b/main/1?seed=1")
    run_worker(redis_server.url)
    page.wait_for_function("n => document.getElementById('opinion-status').textContent === "
                           "`Second opinion (seed 1): ${n} decisions analysed.`", arg=analysed)
    assert not bar.is_visible()
    first, second = (analysis_report(page, live_server, GID, seed=seed) for seed in (0, 1))
    assert (first["seed"], second["seed"]) == (0, 1) and second["status"] == "done"
    agreement = expected_agreement(first, second)
    assert page.locator("#opinion-agreement").inner_text() == agreement
    assert page.locator("#win-chart .second-point").count() == analysed
    page.locator("#win-section").screenshot(path=str(artifacts / "analysis-second-opinion.png"))
    judged = [p for p in second["positions"] if p["played"]]
    marked = [p for p in judged if p["played"]["mark"]]
    for entry in [*marked[:1], *[p for p in judged if not p["played"]["mark"]][:1]]:
        move = entry["seq"] + 1
        page.locator(f'#moves .mv[data-seq="{move}"]').click()
        wait_board(page, move)
        move_text = page.locator(f'#moves .mv[data-seq="{move}"] .mv-text').inner_text()
        assert page.locator("#opinion-verdict").inner_text() == expected_move_line(entry, move_text)
    assert page.url.endswith("?seed=1"), page.url
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_function("t => document.getElementById('opinion-agreement').textContent === t", arg=agreement)
    assert page.input_value("#opinion-seed") == "1" and page.url.endswith("?seed=1")
    page.fill("#opinion-seed", "5")
    page.click("#opinion-request")
    page.wait_for_function("() => document.getElementById('opinion-status').textContent"
                           ".startsWith('Second opinion (seed 5): analysing… 0 of ')")
    assert page.url.endswith("?seed=5") and not page.locator("#opinion-agreement").is_visible()
    assert page.locator("#win-chart .second-point").count() == 0, "seed 1's opinion is not shown as seed 5's"
    watched.assert_clean()


def test_an_anonymous_visitor_sees_a_shared_second_opinion_but_is_told_to_sign_in_to_ask(live_server, watched,
                                                                                        redis_client, redis_server):
    """A link with ?seed=1 shows the second opinion someone asked for, with its agreement; a seed no one asked for
    says it is not there and that asking needs an account, and the visitor has no button to ask."""
    _, analysed = analysed_game_with_fork(redis_client, redis_server.url, main_seeds=(0, 1))
    page = watched.page
    page.goto(f"{live_server.url}/games/{GID}/b/main/3?seed=1")
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_function("n => document.getElementById('opinion-status').textContent === "
                           "`Second opinion (seed 1): ${n} decisions analysed.`", arg=analysed)
    first, second = (analysis_report(page, live_server, GID, seed=seed) for seed in (0, 1))
    assert page.locator("#opinion-agreement").inner_text() == expected_agreement(first, second)
    assert page.locator("#opinion-request, #opinion-seed, #analysis-request").count() == 0
    assert "a second opinion too" in page.locator("#analysis-signin").inner_text()
    page.goto(f"{live_server.url}/games/{GID}/b/main/3?seed=2")
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_function("() => document.getElementById('opinion-status').textContent.startsWith("
                           "'Second opinion (seed 2)')")
    assert opinion_status(page) == f"Second opinion (seed 2): not asked for yet (0 of {analysed}); sign in to ask for it."
    assert not page.locator("#opinion-agreement").is_visible() and not page.locator("#opinion-verdict").is_visible()
    page.click("#analysis-signin a")
    page.wait_for_selector("#password")
    assert parse_qs(urlsplit(page.url).query)["next"] == [f"/games/{GID}/b/main/3?seed=2"], "signing in comes back to it"
    watched.assert_clean()


def test_a_bad_seed_is_said_and_nothing_is_asked(live_server, watched, redis_client):
    """Negative, not a whole number, too large, or the first opinion's own: in the URL or typed, the panel says what is
    wrong and asks the API nothing with it; a good seed typed afterwards is asked for and kept in the URL."""
    fresh_pig_game(redis_client)
    sign_up(watched, live_server, "typo")
    page = watched.page
    asked: list[str] = []
    page.on("request", lambda r: asked.append(f"{r.method} {r.url}") if "/analysis" in r.url and (
        "seed=" in r.url or r.method == "POST") else None)
    expected = f"(a seed is an integer from 0 to {MAX_SEED})"
    bad = {"-1": f"the seed -1 is negative {expected}", "abc": f'the seed "abc" is not a whole number {expected}',
           "1.5": f'the seed "1.5" is not a whole number {expected}',
           str(MAX_SEED + 1): f"the seed {MAX_SEED + 1} is too large {expected}",
           "0": "seed 0 is the first opinion's: a second opinion needs another"}
    for seed, reason in bad.items():
        page.goto(f"{live_server.url}/games/pig-fresh/b/main?seed={seed}")
        page.wait_for_selector("body[data-ready='true']")
        page.wait_for_function("() => document.getElementById('analysis-status').textContent.startsWith('Not analysed')")
        assert opinion_status(page) == f"No second opinion: {reason}.", seed
        assert "seed=" not in page.url, "a bad seed is not kept in the URL"
    for seed, reason in {**bad, "": f"no seed given {expected}"}.items():
        page.fill("#opinion-seed", seed)
        page.click("#opinion-request")
        page.wait_for_function("t => document.getElementById('opinion-status').textContent === t",
                               arg=f"No second opinion: {reason}.")
    assert not asked, asked
    page.fill("#opinion-seed", " 7 ")
    page.click("#opinion-request")
    page.wait_for_function("() => document.getElementById('opinion-status').textContent"
                           ".startsWith('Second opinion (seed 7): analysing… 0 of ')")
    assert page.locator("#opinion-progress").is_visible() and page.url.endswith("?seed=7")
    assert any(a.startswith("POST ") for a in asked) and all("seed=7" in a for a in asked if a.startswith("GET ")), asked
    watched.assert_clean()


def test_the_agreement_counts_marks_confirmed_and_best_moves_alike(live_server, watched):
    """The page's own functions: a ``??`` is confirmed by ``??`` or ``?`` but not by ``?!`` or no mark, a ``?`` by any
    mark; only positions both opinions analysed count; the best move is the verdict's (a played move the samples
    cannot tell from a better-looking one); a move the second opinion did not judge is said so."""
    page = open_game(watched, live_server)

    def entry(seq: int, best: str, mark: str | None, played: str = "roll", win: float | None = 0.4) -> dict[str, Any]:
        moves = [{"action": best, "text": f"Seat 0 {best}s", "win": 0.5, "ci": None, "n": 50},
                 {"action": "other", "text": "Seat 0 others", "win": 0.9, "ci": None, "n": 3}]
        return {"seq": seq, "actor": 0, "win": [0.5, 0.5], "best": moves, "options": moves[::-1],
                "played": {"action": played, "text": None, "win": win, "ci": None, "loss": 0.2, "loss_ci": None,
                           "mark": mark}}

    first = {"positions": [entry(2, "roll", "??"), entry(3, "hold", "??"), entry(4, "hold", "?"),
                           entry(5, "hold", "?!"), entry(6, "roll", "??"), entry(7, "hold", "??")]}
    second = {"positions": [entry(2, "roll", "?"), entry(3, "roll", "?!"), entry(4, "hold", "?!"),
                            entry(5, "hold", None), entry(6, "hold", "??")]}  # seq 7 not analysed yet
    said = page.evaluate("async ([a, b]) => {" + js_import("analysistext.js") + """
        const tally = m.agreement(a, b);
        return [tally, m.agreementText(tally), m.agreementText(m.agreement(a, { positions: [] })),
                m.agreementText(m.agreement({ positions: [a.positions[3]] }, { positions: [b.positions[3]] })),
                ["??", "?", "?!"].map((x) => ["??", "?", "?!", null].map((y) => m.confirms(x, y)))];
    }""", [first, second])
    tally, text, nothing, unmarked, table = said
    assert tally == {"marks": 5, "confirmed": 3, "positions": 5, "same": 3}, tally
    assert text == "The second opinion confirms 3 of the first's 5 marks and names the same best move in 3 of 5 positions."
    assert nothing is None
    assert unmarked == "The second opinion confirms 0 of the first's 1 mark and names the same best move in 1 of 1 position."
    assert table == [[True, True, False, False], [True, True, True, False], [True, True, True, False]]
    lines = page.evaluate("async (entries) => {" + js_import("analysistext.js")
                          + " return entries.map((e) => m.secondOpinionText(e, 'Seat 0 rolls')); }",
                          [entry(2, "roll", "??"), entry(3, "hold", None), entry(4, "hold", None, "x", None), None])
    assert lines == ["second opinion: best Seat 0 rolls, played Seat 0 rolls marked ??",
                     "second opinion: best Seat 0 holds, played Seat 0 rolls not marked",
                     "second opinion: best Seat 0 holds, played Seat 0 rolls not judged", None], lines
    watched.assert_clean()
