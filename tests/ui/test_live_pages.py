"""Live pages in two real browsers (issue 33 item 3): a move played in one browser, or through the API, appears in the
other without a reload; a reader who stepped back gets a "new moves" button instead of a jump; the banner and the tab
title say whose turn it is ("Your turn" for the seat being viewed); after a move from elsewhere the next click in the
page plays (its expected seq followed the stream: no stale 409)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.analysed import js_import
from tests.ui.conftest import BROWSER_WAIT_MS, LiveServer, Watched
from tests.ui.helpers import board_seq, fork_demo_and_wait_for_picker, open_home, wait_board

pytestmark = pytest.mark.browser

PLAY_THROUGH_API = """async ([url, seq]) => {
  const legal = await (await fetch(url + "/legal")).json();
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const answer = await fetch(url + "/actions", {method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
    body: JSON.stringify({action: legal.actions[0].action, expected_seq: seq})});
  return [answer.status, (await answer.json()).seq];
}"""


def _second_page(browser: Any, url: str) -> Watched:
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    watched = Watched(context.new_page())
    watched.page.set_default_timeout(BROWSER_WAIT_MS)
    watched.page.on("pageerror", lambda exc: watched.errors.append(f"page error: {exc}"))
    watched.page.on("console", lambda msg: watched.errors.append(msg.text) if msg.type == "error" else None)
    watched.page.goto(url)
    watched.page.wait_for_selector("body[data-ready='true']")
    return watched


def _play_in_page(page: Any) -> int:
    before = int(page.evaluate("window.ludolog.head"))
    page.click("#picker button.pick >> nth=0")
    page.wait_for_function("before => window.ludolog.head > before && document.body.dataset.played", arg=before)
    return int(page.evaluate("window.ludolog.head"))


def _actor_at_head(page: Any) -> Any:
    return page.evaluate("fetch(location.pathname.replace(/^\\/games\\/([^/]+)\\/b\\/([^/]+).*$/, "
                         "'/api/games/$1/branches/$2/state')).then(r => r.json()).then(b => b.actor)")


def test_a_move_in_one_browser_appears_in_the_other(live_server: LiveServer, watched: Watched, browser: Any) -> None:
    owner, _ = fork_demo_and_wait_for_picker(watched, live_server, "together")
    fork_url = owner.url.rsplit("/", 1)[0]
    other = _second_page(browser, fork_url)
    try:
        reader = other.page
        reader.evaluate("window.notReloaded = true")
        head = _play_in_page(owner)
        wait_board(reader, head)
        assert reader.evaluate("window.notReloaded") is True, "the other page followed the stream, no reload"
        assert int(reader.evaluate("window.ludolog.head")) == head

        reader.click("#nav-prev")  # looking back: the next move must not pull the reader away
        wait_board(reader, head - 1)
        newer = _play_in_page(owner)
        reader.wait_for_selector("#live-new:not([hidden])")
        assert board_seq(reader) == head - 1 and "new move" in reader.inner_text("#live-new")
        reader.click("#live-new")
        wait_board(reader, newer)
        assert reader.is_hidden("#live-new")
        other.assert_clean()
    finally:
        other.page.context.close()
    watched.assert_clean()


def test_after_a_move_from_elsewhere_the_next_click_plays(live_server: LiveServer, watched: Watched) -> None:
    page, head = fork_demo_and_wait_for_picker(watched, live_server, "elsewhere")
    branch_api = page.evaluate("location.pathname").replace("/games/", "/api/games/").replace("/b/", "/branches/")
    branch_api = branch_api.rsplit("/", 1)[0]
    status, seq = page.evaluate(PLAY_THROUGH_API, [branch_api, head])  # as another tab or client would
    assert status == 201
    wait_board(page, seq)
    page.wait_for_selector("#picker button.pick")
    page.wait_for_function("seq => document.querySelector('#picker') && window.ludolog.head === seq", arg=seq)
    after = _play_in_page(page)  # a stale expected seq would be a 409 here (and an error on the page)
    assert after > seq
    watched.assert_clean()


def test_a_move_played_here_loads_only_the_new_moves_once(live_server: LiveServer, watched: Watched) -> None:
    """The move comes back twice, in the answer to its POST and on the branch's stream, in either order: the page takes
    in the new moves once (drawing a long game's move list twice per move is work a table does hundreds of times), and
    asks for the moves after the head it had, not for the whole game again."""
    page, _ = fork_demo_and_wait_for_picker(watched, live_server, "once")
    loads: list[str] = []
    page.on("request", lambda request: loads.append(request.url) if "/timeline.json" in request.url else None)
    for _ in range(3):
        before, head_before = len(loads), int(page.evaluate("window.ludolog.head"))
        head = _play_in_page(page)
        # Both have come back: the stream's batch and the POST's answer (taken in one after the other, in turn).
        page.wait_for_function("head => Number(document.body.dataset.streamHead) >= head "
                               "&& Number(document.body.dataset.played) >= head", arg=head)
        page.wait_for_timeout(300)  # a second load, were there one, would have started by now
        assert len(loads) - before == 1, loads[before:]
        assert f"after={head_before}" in loads[-1], loads[-1]
        page.wait_for_selector("#picker button.pick")
    fresh = page.evaluate("fetch(location.pathname.replace(/\\/\\d+$/, '') + '/timeline.json').then(r => r.json())")
    assert [m["text"] for m in fresh["moves"]] == page.eval_on_selector_all("#moves .mv-text", "spans => spans.map(s => s.textContent)")
    watched.assert_clean()


@pytest.mark.parametrize("gid", ["demo-puerto-rico-1", "demo-amerigo-1", "demo-entdecker-1", "demo-golden-city-1"])
def test_a_move_list_grown_move_by_move_is_the_one_drawn_at_once(live_server: LiveServer, watched: Watched, gid: str) -> None:
    """A page following a game draws again only the rounds new moves can change (issue 31: a live move's cost): grown one
    move at a time over a whole demo game, through every round's and phase's start (and Amerigo's tower throws, drawn
    as one line), the list is the one drawn from all the moves at once, and every move's line is in it."""
    page = watched.page
    page.goto(f"{live_server.url}/games/{gid}/b/main")
    page.wait_for_selector("body[data-ready='true']")
    same = page.evaluate("async (url) => {" + js_import("movelist.js") + """
        const timeline = await (await fetch(url)).json();
        const [all, players, notes] = [timeline.moves, timeline.players, new Map()];
        const grown = new m.MoveList(document.createElement('div'), () => {});
        const rebuilt = [];
        for (let count = 0; count <= all.length; count++) {
          grown.render(all.slice(0, count), players, notes);
          rebuilt.push(grown.container.querySelectorAll('section.round').length);
        }
        const once = new m.MoveList(document.createElement('div'), () => {});
        once.render(all, players, notes);
        grown.highlight(all[all.length - 1].seq);
        const current = grown.container.querySelectorAll('li.current').length;
        grown.unhighlight();
        const [a, b] = [grown.container.innerHTML, once.container.innerHTML];
        let at = 0;
        while (at < a.length && a[at] === b[at]) at++;
        return {moves: all.length, same: a === b, differ: a === b ? null : [a.slice(at - 80, at + 80), b.slice(at - 80, at + 80)],
                rounds: once.container.querySelectorAll('section.round').length, current,
                items: [...grown.items].every(([seq, li]) => grown.container.contains(li)) && grown.items.size === once.items.size};
    }""", f"/games/{gid}/b/main/timeline.json")
    assert same["moves"] > 200 and same["rounds"] > 3, same
    assert same["same"] and same["items"] and same["current"] == 1, same
    watched.assert_clean()


def test_paced_work_runs_at_once_then_once_for_all_the_asks_meanwhile(live_server: LiveServer, watched: Watched) -> None:
    """``paced`` (pace.js), which keeps a quick game from redrawing the page's summaries at every move: the first ask
    runs at once, the asks within the pause run once when it ends (the last one is never lost), no ask means no run,
    and ``now()`` runs at once and drops the ask waiting."""
    page = open_home(watched, live_server, "pacer")
    runs = page.evaluate("async () => {" + js_import("pace.js") + """
        const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
        let count = 0;
        const work = m.paced(() => { count += 1; }, 200);
        const seen = [];
        work.soon(); work.soon(); work.soon(); seen.push(count);
        await pause(300); seen.push(count);
        await pause(300); seen.push(count);
        work.soon(); seen.push(count);
        work.soon(); work.now(); seen.push(count);
        await pause(300); seen.push(count);
        return seen;
    }""")
    assert runs == [1, 2, 2, 3, 4, 4]
    watched.assert_clean()


def test_a_quick_run_of_moves_redraws_the_summaries_at_their_pace_and_ends_on_the_head(live_server: LiveServer,
                                                                                      watched: Watched) -> None:
    """Moves that come quicker than one a second (a table of engine seats) move the board at every move, but the chart
    and the analysis (each drawn from the whole line, the analysis asked for again) about once a second; when the run
    stops, the chart, the analysis and the page's address are at the head all the same."""
    page, head = fork_demo_and_wait_for_picker(watched, live_server, "quick")
    branch_api = page.evaluate("location.pathname").replace("/games/", "/api/games/").replace("/b/", "/branches/")
    branch_api = branch_api.rsplit("/", 1)[0]
    loads: list[str] = []  # the branch's own analysis (the parent's is asked for beside it, to compare)
    page.on("request", lambda request: loads.append(request.url) if f"{branch_api}/analysis?" in request.url else None)
    moves, started = 12, page.evaluate("performance.now()")
    for _ in range(moves):
        status, head = page.evaluate(PLAY_THROUGH_API, [branch_api, head])
        assert status == 201
    wait_board(page, head)
    seconds = (page.evaluate("performance.now()") - started) / 1000
    page.wait_for_function("head => document.querySelector('#chart svg.chart').getAttribute('aria-valuemax') === String(head)",
                           arg=head)
    assert page.get_attribute("#chart svg.chart", "aria-valuenow") == str(head)
    page.wait_for_function("head => location.pathname.endsWith('/' + head)", arg=head)
    page.wait_for_timeout(1200)  # a draw still waiting would have come by now
    assert 1 <= len(loads) <= seconds + 2 < moves, (len(loads), seconds, moves)
    assert page.evaluate("window.ludolog.head") == head
    watched.assert_clean()


def test_the_banner_and_title_say_whose_turn_it_is(live_server: LiveServer, watched: Watched, browser: Any) -> None:
    owner, _ = fork_demo_and_wait_for_picker(watched, live_server, "turns")
    fork_url = owner.url.rsplit("/", 1)[0]
    actor = _actor_at_head(owner)
    assert isinstance(actor, int)
    names = owner.evaluate("JSON.parse(document.getElementById('page-data').textContent).players")
    banner = owner.inner_text("#turn-banner")
    assert banner == f"{names[actor]}'s turn" and owner.title().startswith(banner)
    seat = _second_page(browser, f"{fork_url}?view={actor}")
    try:
        assert seat.page.inner_text("#turn-banner") == "Your turn"
        assert seat.page.title().startswith("Your turn")
        head = _play_in_page(owner)
        wait_board(seat.page, head)
        next_actor = _actor_at_head(owner)
        expected = "Your turn" if next_actor == actor else f"{names[next_actor]}'s turn" if isinstance(next_actor, int) else ""
        seat.page.wait_for_function("text => document.getElementById('turn-banner').textContent === text", arg=expected)
    finally:
        seat.page.context.close()
    watched.assert_clean()


def test_the_home_list_follows_new_games_but_never_shows_others_private_ones(live_server: LiveServer, watched: Watched,
                                                                             redis_client: Any) -> None:
    from engine import get_rules
    from service.games.demo import demo_setup
    from service.store.games import GameStore

    page = open_home(watched, live_server, "watcher")
    page.evaluate("window.notReloaded = true")
    store = GameStore(redis_client)
    setup, version = demo_setup("puerto_rico", 1), get_rules("puerto_rico").version
    store.create_game("puerto_rico", version, setup, owner="someone", title="Someone's secret", visibility="private")
    store.create_game("puerto_rico", version, setup, owner="someone", title="Live newcomer")
    page.wait_for_selector("#games-table >> text=Live newcomer")
    assert page.evaluate("window.notReloaded") is True
    assert "Someone's secret" not in page.inner_text("#games-table")
    watched.assert_clean()


def test_the_analysis_panel_follows_progress_notices_without_polling(live_server: LiveServer, watched: Watched,
                                                                     redis_client: Any, redis_server: Any) -> None:
    from tests.ui.analysed import analysed_pig_game, run_worker

    analysed_pig_game(live_server, watched, redis_client, redis_server, analysed=False)
    page = watched.page
    page.goto(f"{live_server.url}/games/pig-picker/b/main")
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_selector("#picker button.pick")
    loads: list[str] = []
    page.on("request", lambda request: loads.append(request.url) if "/analysis?" in request.url else None)
    page.click("#analysis-request")
    page.wait_for_function("() => document.getElementById('analysis-status').textContent.startsWith('Analysing')")
    page.wait_for_timeout(1000)
    settled = len(loads)
    page.wait_for_timeout(4000)  # the panel used to load the report again every 1.5 s while the analysis ran
    assert len(loads) == settled, f"the panel polled while nothing progressed: {loads[settled:]}"
    run_worker(redis_server.url)
    page.wait_for_selector("#picker fieldset.pick-ranked")  # the verdicts arrived through the progress stream
    page.wait_for_function("() => document.getElementById('analysis-status').textContent.endsWith('decisions analysed.')")
    watched.assert_clean()


def test_the_compare_page_moves_on_with_a_new_move(live_server: LiveServer, watched: Watched) -> None:
    page, head = fork_demo_and_wait_for_picker(watched, live_server, "compared")
    bid = page.url.split("/b/")[1].split("/")[0]
    page.goto(f"{live_server.url}/games/demo-puerto-rico-1/compare?a=main&b={bid}")
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_function("head => document.getElementById('board-b').dataset.seq === String(head)", arg=head)
    page.evaluate("window.notReloaded = true")
    status, seq = page.evaluate(PLAY_THROUGH_API, [f"/api/games/demo-puerto-rico-1/branches/{bid}", head])
    assert status == 201 and seq > head
    page.wait_for_function("seq => document.getElementById('board-b').dataset.seq === String(seq)", arg=seq)
    assert page.evaluate("window.notReloaded") is True and page.get_attribute("#board-a", "data-seq") == str(seq)
    watched.assert_clean()


def test_a_note_written_elsewhere_appears_without_reload(live_server: LiveServer, watched: Watched, browser: Any) -> None:
    from tests.ui.helpers import open_game, sign_up

    sign_up(watched, live_server, "writer")
    writer = open_game(watched, live_server, 40)
    other = _second_page(browser, f"{live_server.url}/games/demo-puerto-rico-1/b/main/40")
    try:
        reader = other.page
        reader.evaluate("window.notReloaded = true")
        status = writer.evaluate("""async () => {
          const csrf = document.querySelector('meta[name="csrf-token"]').content;
          const answer = await fetch("/api/games/demo-puerto-rico-1/annotations", {method: "POST",
            credentials: "same-origin", headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
            body: JSON.stringify({branch: "main", seq: 40, text: "a live remark"})});
          return answer.status;
        }""")
        assert status == 201
        reader.wait_for_selector("#notes-list >> text=a live remark")
        assert reader.evaluate("window.notReloaded") is True
        other.assert_clean()
    finally:
        other.page.context.close()
    watched.assert_clean()


def test_a_stream_refused_for_too_many_streams_is_opened_again_later(live_server: LiveServer, watched: Watched,
                                                                      redis_client: Any) -> None:
    """EventSource gives up for good on a 429; the page opens the stream again after its pause (live.js openStream)."""
    from engine import get_rules
    from service.games.demo import demo_setup
    from service.store.games import GameStore
    from service.store.live import OpenStreams

    streams = OpenStreams(redis_client, live_server.app.config["LUDOLOG"].streams_per_address)
    held = [streams.open("127.0.0.1")[1] for _ in range(streams.limit)]  # this address holds all it may
    page = open_home(watched, live_server, "watcher")
    page.wait_for_timeout(1000)  # the list's stream was refused by now
    for holder in held:
        streams.close("127.0.0.1", holder)
    store = GameStore(redis_client)
    setup, version = demo_setup("puerto_rico", 1), get_rules("puerto_rico").version
    page.wait_for_timeout(5000)  # the first pause after a refusal is 2 to 4 s: the stream is open again by now
    store.create_game("puerto_rico", version, setup, owner="someone", title="After the refusal")
    page.wait_for_selector("#games-table >> text=After the refusal", timeout=15_000)
