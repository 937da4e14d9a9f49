"""A board drawn again changes only what differs (``redraw`` in replay_ui/static/js/dom.js), and shows exactly what a
board drawn from nothing shows: in every game, a page stepped and jumped from position to position has, at each one,
the same board markup as a page opened there; a board drawn again in a seat's or the spectator's view over the full
view's keeps nothing the narrower view hides; and a piece the step did not change is the very same node as before.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import open_game, wait_board

pytestmark = pytest.mark.browser

DEMOS = ("demo-puerto-rico-1", "demo-amerigo-1", "demo-entdecker-1", "demo-golden-city-1")

#: The board as the DOM standard compares nodes (``isEqualNode``: attributes as a set, in any order), written out, without
#: the last move's marks, which come a moment later (once the position before the last decision is loaded) and have
#: tests of their own.
BOARD_MARKUP = """() => {
    const write = (node) => {
        if (node.nodeType === Node.TEXT_NODE) return JSON.stringify(node.data);
        if (node.nodeType !== Node.ELEMENT_NODE) return `<#${node.nodeType}>`;
        const attributes = [...node.attributes].map((a) => [a.name, a.value])
            .map(([name, value]) => name === 'class' ? [name, value.split(' ').filter((c) => c !== 'last-move').join(' ')] : [name, value])
            .filter(([name, value]) => name !== 'data-last-move' && !(name === 'class' && !value))
            .sort(([a], [b]) => a < b ? -1 : 1).map(([name, value]) => `${name}=${JSON.stringify(value)}`);
        return `<${node.nodeName} ${attributes.join(' ')}>${[...node.childNodes].map(write).join('')}</${node.nodeName}>`;
    };
    return [...document.getElementById('board').childNodes].map(write).join('');
}"""


def _go(page: Any, seq: int) -> None:
    page.evaluate("seq => window.ludolog.goTo(seq)", seq)
    wait_board(page, seq)


def _drawn_from_nothing(watched: Watched, server: LiveServer, gid: str, seq: int, view: str = "full") -> str:
    fresh = watched.page.context.new_page()
    try:
        fresh.goto(f"{server.url}/games/{gid}/b/main/{seq}" + ("" if view == "full" else f"?view={view}"))
        fresh.wait_for_selector("body[data-ready='true']")
        wait_board(fresh, seq)
        return str(fresh.evaluate(BOARD_MARKUP))
    finally:
        fresh.close()


@pytest.mark.parametrize("gid", DEMOS)
def test_a_board_drawn_again_equals_one_drawn_from_nothing(live_server: LiveServer, watched: Watched, gid: str) -> None:
    page = open_game(watched, live_server, 1, gid=gid)
    head = int(page.evaluate("() => window.ludolog.head"))
    middle = head // 2
    # Forward by one, a long jump each way, and the very start: each a different amount of the board to change.
    for seq in (2, head, middle, middle + 1, 1, middle - 7):
        _go(page, seq)
        assert page.evaluate(BOARD_MARKUP) == _drawn_from_nothing(watched, live_server, gid, seq), (gid, seq)
    assert not watched.errors, watched.errors


@pytest.mark.parametrize("gid", DEMOS)
def test_a_step_keeps_the_nodes_it_does_not_change(live_server: LiveServer, watched: Watched, gid: str) -> None:
    page = open_game(watched, live_server, 1, gid=gid)
    middle = int(page.evaluate("() => window.ludolog.head")) // 2
    _go(page, middle)
    # Tag every element of the board; after one step most of them must still carry the tag (the same node objects).
    total = page.evaluate("() => { const all = document.querySelectorAll('#board *'); "
                          "for (const node of all) node.keptSince = 1; return all.length; }")
    _go(page, middle + 1)
    kept = page.evaluate("() => [...document.querySelectorAll('#board *')].filter((node) => node.keptSince === 1).length")
    assert kept >= total * 0.8, f"{gid}: only {kept} of {total} board nodes kept over one step"


@pytest.mark.parametrize("gid", DEMOS)
def test_a_board_drawn_again_in_a_narrower_view_keeps_nothing_of_the_full_one(live_server: LiveServer, watched: Watched,
                                                                          gid: str) -> None:
    """A seat's view, and the spectator's, drawn over the full view's board: the kept nodes must not carry anything
    the narrower view hides. The board then equals one drawn from nothing in that view."""
    page = open_game(watched, live_server, None, gid=gid)
    head = int(page.evaluate("() => window.ludolog.head"))
    seq = head // 2
    _go(page, seq)
    full = page.evaluate(BOARD_MARKUP)
    for view in ("1", "spectator"):
        expected = _drawn_from_nothing(watched, live_server, gid, seq, view)
        assert expected != full, f"{gid}: the {view} view hides nothing at seq {seq}; the test would prove nothing"
        page.select_option("#view-select", view)
        page.wait_for_url(re.compile(rf"\?view={view}$"))
        try:  # the view's states load first: wait until the board is drawn from them
            page.wait_for_function(f"expected => ({BOARD_MARKUP})() === expected", arg=expected)
        except PlaywrightTimeout:
            assert page.evaluate(BOARD_MARKUP) == expected, (gid, view)
        page.select_option("#view-select", "full")
        page.wait_for_function(f"full => ({BOARD_MARKUP})() === full", arg=full)
    assert not watched.errors, watched.errors
