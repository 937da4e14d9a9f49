"""The tokens page in headless Chromium: made from the header link, shown once, used by the API, revoked;
and signing out in one tab ends the session a copied cookie carried into another browser."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import sign_up

pytestmark = pytest.mark.browser


def _api_status(server: LiveServer, token: str) -> int:
    request = urllib.request.Request(f"{server.url}/api/games", headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def test_make_use_and_revoke_a_token_in_the_browser(live_server: LiveServer, watched: Watched) -> None:
    sign_up(watched, live_server)
    page = watched.page
    page.click("nav.account a:has-text('Tokens')")
    page.wait_for_selector("text=None yet")
    page.fill("#token-name", "my script")
    page.click("button:has-text('Create token')")
    token = page.inner_text("#new-token").strip()
    assert len(token) > 30 and page.is_visible("text=shown only this once")
    assert _api_status(live_server, token) == 200
    page.goto(f"{live_server.url}/tokens")
    assert page.inner_text(".tokens .token-name") == "my script"
    assert token not in page.content()
    page.click(".tokens button:has-text('Revoke')")
    assert "for good? Click again" in page.inner_text(".tokens button"), "revoking asks first"
    assert _api_status(live_server, token) == 200, "the first click revokes nothing"
    page.click(".tokens button:has-text('Click again')")
    page.wait_for_selector("text=None yet")
    assert _api_status(live_server, token) == 401
    watched.assert_clean()


@pytest.mark.parametrize("width", [1366, 390])
def test_the_new_token_is_shown_whole_and_copied_with_a_click(live_server: LiveServer, watched: Watched, artifacts: Path,
                                                              width: int) -> None:
    page = watched.page
    page.set_viewport_size({"width": width, "height": 844})
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    sign_up(watched, live_server)
    page.goto(f"{live_server.url}/tokens")
    page.fill("#token-name", "laptop")
    page.click("button:has-text('Create token')")
    token = page.inner_text("#new-token").strip()
    assert len(token) > 30
    # Whole: nothing of it is cut off or scrolled away in its box, and the page does not scroll sideways.
    box = page.eval_on_selector("#new-token", "e => [e.scrollWidth, e.clientWidth, e.scrollHeight, e.clientHeight]")
    assert box[0] <= box[1] and box[2] <= box[3], box
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(artifacts / f"tokens-new-{width}.png"))
    page.click("#copy-token")
    page.wait_for_selector("#copy-status:has-text('Copied')")
    assert page.evaluate("navigator.clipboard.readText()") == token
    watched.assert_clean()


def test_signing_out_ends_a_copied_session_in_another_browser(live_server: LiveServer, watched: Watched, browser) -> None:
    sign_up(watched, live_server)
    page = watched.page
    cookies = page.context.cookies()
    other = browser.new_context()
    try:
        other.add_cookies(cookies)
        copy = other.new_page()
        copy.goto(f"{live_server.url}/")
        assert copy.is_visible("text=Signed in as")
        page.click("button:has-text('Sign out')")
        page.wait_for_selector("text=Sign in")
        copy.reload()
        assert not copy.is_visible("text=Signed in as")
    finally:
        other.close()
    watched.assert_clean()
