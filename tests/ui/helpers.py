"""What the browser tests share: opening pages and waiting for the board, signing up, and
the demo games' states (replayed exactly as ``service.demo`` stores them) to check the board against."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import apply_event, start
from service.demo import demo_playout
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
    page = watched.page
    page.goto(f"{server.url}/signup")
    page.fill("#name", name)
    page.fill("#password", password)
    page.fill("#password2", password)
    page.click("button[type=submit]")
    page.wait_for_selector("text=Signed in as")


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
