"""What the browser tests share: opening pages and waiting for the board, signing up, and
the demo games' states (replayed exactly as ``service.games.demo`` stores them) to check the board against."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from engine import apply_event, start
from service.games.demo import demo_playout
from tests.ui.conftest import DEMO_PR, LiveServer, Watched


def open_game(watched: Watched, server: LiveServer, seq: int | None = None, bid: str = "main", gid: str = DEMO_PR) -> Any:
    """Open a game page and wait until its scripts have drawn the board."""
    page = watched.page
    page.goto(f"{server.url}/games/{gid}/b/{bid}" + (f"/{seq}" if seq else ""))
    page.wait_for_selector("body[data-ready='true']")
    return page


def board_seq(page: Any) -> int:
    """The seq the board shows now."""
    return int(page.get_attribute("#board", "data-seq"))


def wait_board(page: Any, seq: int) -> None:
    """Wait until the board shows position ``seq``."""
    page.wait_for_function("seq => document.getElementById('board').dataset.seq === String(seq)", arg=seq)


def open_home(watched: Watched, server: LiveServer, user: str) -> Any:
    """Sign up as ``user`` and open the home page, ready to use; returns the page."""
    sign_up(watched, server, user)
    page = watched.page
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='true']")
    return page


def sign_up(watched: Watched, server: LiveServer, name: str = "tester", password: str = "correct horse") -> None:
    """Create an account through the sign-up form (which signs in)."""
    sign_up_on(watched.page, server, name, password)


def sign_up_on(page: Any, server: LiveServer, name: str, password: str = "correct horse") -> None:
    """Create an account through the sign-up form on ``page``, a page of any browser context, whatever language the
    form is drawn in; signed in when it returns."""
    page.goto(f"{server.url}/signup")
    page.fill("#name", name)
    page.fill("#password", password)
    page.fill("#password2", password)
    page.click("main button[type=submit]")
    page.wait_for_selector(".who strong")  # the header's "Signed in as", in whatever language the page is in


def demo_states(game: str, n: int = 1) -> list[Any]:
    """The states of game ``game``'s ``n``-th demo game by seq (index 0 is seq 1, the game as created)."""
    playout = demo_playout(game, n)
    rules, state = start(playout.events[0])
    states = [state]
    for event in playout.events[1:]:
        states.append(apply_event(rules, states[-1], event, check=False))
    return states


def first_seq(states: list[Any], test: Callable[[Any], bool], after: int = 1) -> int:
    """The first seq after ``after`` whose state passes ``test``."""
    return next(seq for seq, state in enumerate(states, start=1) if seq > after and test(state))


def fork_here(page: Any, name: str) -> None:
    """Fork the shown branch at the shown position as ``name`` and wait for the fork's page."""
    page.fill("#fork-name", name)
    page.click("#fork-button")
    page.wait_for_url(re.compile(r"/b/(?!main)[^/]+/\d+$"))
    page.wait_for_selector("body[data-ready='true']")


def fork_demo_and_wait_for_picker(watched: Watched, server: LiveServer, name: str) -> tuple[Any, int]:
    """A signed-up user forks the Puerto Rico demo at move 300 as ``name``: (page, the fork's head) once the move
    picker offers its moves."""
    sign_up(watched, server)
    page = open_game(watched, server, 300)
    fork_here(page, name)
    head = int(page.evaluate("window.ludolog.head"))
    page.wait_for_selector("#picker button.pick")
    return page, head


class HeldRequests:
    """The page's requests to URLs matching ``pattern``, held back until :meth:`release`: a race between two
    loads made to happen in a known order."""

    def __init__(self, page: Any, pattern: str) -> None:
        self.page, self.pattern = page, pattern
        self.routes: list[Any] = []
        page.route(pattern, lambda route: self.routes.append(route))  # (Playwright takes no builtin as a handler)

    def wait(self) -> None:
        """Until the first such request has been made (and held)."""
        while not self.routes:
            self.page.wait_for_timeout(50)

    def release(self) -> None:
        """Let the held requests through, and any later ones (the unroute)."""
        for route in self.routes:
            route.continue_()
        self.page.unroute(self.pattern)


def assert_next_step_redraws_and_fits(page: Any, seq: int, width: int = 1366) -> None:
    """Stepping on from ``seq`` draws another board, and the page never scrolls sideways."""
    before = page.inner_html("#board")
    page.keyboard.press("ArrowRight")
    wait_board(page, seq + 1)
    assert page.inner_html("#board") != before, "the board did not change"
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"


def screenshot_positions(page: Any, artifacts: Path, gid: str, seqs: Iterable[int]) -> None:
    """Go to each of ``seqs`` and save the window and the full page as ``game-<gid>-<seq>[-full].png``."""
    for seq in seqs:
        page.evaluate("seq => window.ludolog.goTo(seq)", seq)
        wait_board(page, seq)
        page.screenshot(path=str(artifacts / f"game-{gid}-{seq}.png"))
        page.screenshot(path=str(artifacts / f"game-{gid}-{seq}-full.png"), full_page=True)
