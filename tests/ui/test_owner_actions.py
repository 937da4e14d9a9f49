"""Issue 29, the take-back defect in the browser: "Take back my last move" (and "Delete this branch") show only on a
branch the signed-in user owns; on the ownerless demo main line and on someone else's fork they are not on screen.
The cause was general (a class's ``display`` beat the ``hidden`` attribute), so every hidden element is checked."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import fork_here, open_game, sign_up

pytestmark = pytest.mark.browser

#: Elements that carry the ``hidden`` attribute and are laid out anyway (a box on screen).
SHOWN_THOUGH_HIDDEN = """() => [...document.querySelectorAll('[hidden]')]
  .filter(e => getComputedStyle(e).display !== 'none').map(e => e.id || e.className || e.tagName)"""


def _own_actions_shown(page: Any) -> tuple[bool, bool]:
    """(take back on screen, delete on screen), once the branch tree has loaded."""
    page.wait_for_selector("#branch-tree li.here")
    return page.is_visible("#takeback-button"), page.is_visible("#delete-branch-button")


def test_take_back_only_on_the_users_own_branch(live_server: LiveServer, watched: Watched, browser: Any) -> None:
    sign_up(watched, live_server, "owner")
    page = open_game(watched, live_server, 300)
    assert _own_actions_shown(page) == (False, False), "the ownerless main line offers no take-back"
    assert not page.evaluate(SHOWN_THOUGH_HIDDEN), "an element with the hidden attribute is on screen"
    fork_here(page, "mine")
    fork_url = page.url
    assert _own_actions_shown(page) == (True, True), "the owner's own leaf fork offers both"

    other = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        stranger = Watched(other.new_page())
        stranger.page.on("pageerror", lambda exc: stranger.errors.append(f"page error: {exc}"))
        sign_up(stranger, live_server, "stranger")
        stranger.page.goto(fork_url)
        stranger.page.wait_for_selector("body[data-ready='true']")
        assert _own_actions_shown(stranger.page) == (False, False), "another user's fork offers no take-back"
        assert not stranger.page.evaluate(SHOWN_THOUGH_HIDDEN)
        stranger.assert_clean()
    finally:
        other.close()
    watched.assert_clean()
