"""The tokens page in headless Chromium: made from the header link, shown once, used by the API, revoked;
and signing out in one tab ends the session a copied cookie carried into another browser."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import sign_up

pytestmark = pytest.mark.timeout(120)


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
    token = page.input_value("#new-token")
    assert len(token) > 30 and page.is_visible("text=shown only this once")
    assert _api_status(live_server, token) == 200
    page.goto(f"{live_server.url}/tokens")
    assert page.inner_text(".tokens .token-name") == "my script"
    assert token not in page.content()
    page.click(".tokens button:has-text('Revoke')")
    page.wait_for_selector("text=None yet")
    assert _api_status(live_server, token) == 401
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
