"""The site in Hungarian, German and Chinese (issue 47, item 4): the language chosen from ``Accept-Language``, the menu
(kept in a cookie for anonymous visitors, with the account for signed-in users), ``?lang=`` for a link,
``<html lang>``; in a real browser, the pages drawn in each language, their scripts' texts included, and a game page's
screenshots at a laptop's and a phone's width."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.ui.conftest import DEMO_PR, LiveServer
from tests.ui.helpers import sign_up_on
from tests.ui.test_pages import csrf_of, sign_up

GAME = f"/games/{DEMO_PR}/b/main"
#: The home page's heading in each language: proof the page is drawn in it (not only labelled).
GAMES = {"en": "Games", "hu": "Játszmák", "de": "Partien", "zh-Hant": "對局", "zh-Hans": "对局"}
#: A text the home page's script writes (its games count), in each language, for one game and for several.
SHOWN = {"hu": "játszma látható", "de": "angezeigt", "zh-Hant": "顯示", "zh-Hans": "显示"}


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client with cookies."""
    return app.test_client()


def _lang(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found, html[:300]
    return found.group(1)


def _heading(html: str) -> str:
    found = re.search(r'<h1 id="games-h">([^<]*)</h1>', html)
    assert found, html[:300]
    return found.group(1)


@pytest.mark.parametrize(("header", "tag"), [("hu-HU,hu;q=0.9", "hu"), ("de-DE", "de"), ("zh-TW", "zh-Hant"),
                                             ("zh-HK", "zh-Hant"), ("zh-CN", "zh-Hans"), ("zh-SG", "zh-Hans"),
                                             ("fr-FR", "en"), (None, "en")])
def test_the_browser_s_language_is_the_default(client: FlaskClient, header: str | None, tag: str) -> None:
    headers = {"Accept-Language": header} if header else {}
    html = client.get("/", headers=headers).get_data(as_text=True)
    assert _lang(html) == tag and _heading(html) == GAMES[tag]


def test_a_link_s_lang_wins_for_that_page_only(client: FlaskClient) -> None:
    html = client.get("/?lang=zh-Hant", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert _lang(html) == "zh-Hant" and _heading(html) == GAMES["zh-Hant"]
    assert _lang(client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)) == "de"
    assert _lang(client.get("/?lang=klingon", headers={"Accept-Language": "de"}).get_data(as_text=True)) == "de"


def test_the_menu_keeps_an_anonymous_visitor_s_choice_in_a_cookie(client: FlaskClient) -> None:
    token = csrf_of(client, "/")
    chosen = client.post("/language", data={"lang": "hu", "next": f"{GAME}?view=full&lang=de", "csrf_token": token},
                         headers={"Accept-Language": "de"})
    assert chosen.status_code == 303 and chosen.headers["Location"].endswith(f"{GAME}?view=full")
    assert "ludolog-lang=hu" in chosen.headers["Set-Cookie"]
    html = client.get(GAME, headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert _lang(html) == "hu"
    assert _lang(client.get("/signin", headers={"Accept-Language": "de"}).get_data(as_text=True)) == "hu"


def test_the_menu_refuses_a_post_without_the_page_s_token(client: FlaskClient) -> None:
    refused = client.post("/language", data={"lang": "hu", "next": "/"})
    assert refused.status_code == 403 and "ludolog-lang" not in refused.headers.get("Set-Cookie", "")


def test_a_signed_in_user_s_choice_follows_their_account(app: Flask, client: FlaskClient) -> None:
    token = sign_up(client, "anna")
    client.post("/language", data={"lang": "zh-Hans", "next": "/account", "csrf_token": token})
    elsewhere = app.test_client()  # another browser: no cookie of the choice, another Accept-Language
    elsewhere.post("/signin", data={"name": "anna", "password": "a long password", "csrf_token": csrf_of(elsewhere, "/signin")})
    html = elsewhere.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert _lang(html) == "zh-Hans" and _heading(html) == GAMES["zh-Hans"]
    account = elsewhere.get("/account").get_data(as_text=True)
    assert re.search(r'<option value="zh-Hans" lang="zh-Hans" selected>', account), account


def test_sign_up_keeps_the_language_it_was_made_in(app: Flask) -> None:
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "hu"
    sign_up(client, "bela")
    other = app.test_client()
    other.post("/signin", data={"name": "bela", "password": "a long password", "csrf_token": csrf_of(other, "/signin")})
    assert _lang(other.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)) == "hu"


def test_form_errors_are_in_the_page_s_language(client: FlaskClient) -> None:
    token = csrf_of(client, "/signin")
    page = client.post("/signin?lang=de", data={"name": "nobody", "password": "wrong password", "csrf_token": token})
    assert page.status_code == 401 and "Unbekannter Benutzername oder falsches Passwort." in page.get_data(as_text=True)
    token = csrf_of(client, "/signup")
    page = client.post("/signup?lang=zh-Hant", data={"name": "x", "password": "a long password",
                                                     "password2": "a long password", "csrf_token": token})
    assert page.status_code == 400 and "使用者名稱" in page.get_data(as_text=True)


def test_the_error_page_is_in_the_page_s_language(client: FlaskClient) -> None:
    page = client.get("/games/no-such-game/b/main?lang=hu")
    html = page.get_data(as_text=True)
    assert page.status_code == 404 and _lang(html) == "hu" and "<h1>Nem található</h1>" in html


def test_the_scripts_catalog_is_named_by_its_content_and_cached(client: FlaskClient) -> None:
    html = client.get("/?lang=de").get_data(as_text=True)
    address = re.search(r'<meta name="i18n-catalog" content="([^"]+)">', html).group(1)  # type: ignore[union-attr]
    assert re.fullmatch(r"/i18n/de/[0-9a-f]{12}\.json", address)
    answer = client.get(address)
    assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    catalog = json.loads(answer.get_data(as_text=True))
    assert catalog["locale"] == "de" and catalog["messages"]["Uploading…"] == "Wird hochgeladen…"
    # the games' terms ride along, from their glossaries: the board renderers' words (gameTerms in i18n.js)
    assert catalog["games"]["puerto_rico"]["role"]["mayor"] == "Bürgermeister"
    assert client.get("/i18n/de/000000000000.json").headers["Cache-Control"] == "no-cache"
    assert 'name="i18n-catalog"' not in client.get("/?lang=en").get_data(as_text=True)  # English needs none


# -- in a real browser -------------------------------------------------------------------------------------------------
def _context_page(browser: Any, locale: str | None = None, width: int = 1366, height: int = 900) -> tuple[Any, Any]:
    """A fresh browser context (its own cookies; ``locale`` sent as ``Accept-Language``) and a page in it; the page's
    script errors are collected in ``page.script_errors``."""
    options: dict[str, Any] = {"viewport": {"width": width, "height": height}}
    if locale:
        options["locale"] = locale  # Chromium sends it as Accept-Language
    context = browser.new_context(**options)
    page = context.new_page()
    page.set_default_timeout(120_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.script_errors = errors
    return context, page


@pytest.mark.browser
@pytest.mark.parametrize("tag", ["hu", "de", "zh-Hant", "zh-Hans"])
def test_pages_are_drawn_in_each_language(browser: Any, live_server: LiveServer, tag: str) -> None:
    """Home (its script's texts too), a game page and the account page, each with ``<html lang>`` and its words."""
    context, page = _context_page(browser)
    try:
        page.goto(f"{live_server.url}/?lang={tag}")
        page.wait_for_selector("body[data-ready='true']")
        assert page.get_attribute("html", "lang") == tag and page.inner_text("#games-h") == GAMES[tag]
        page.select_option("#f-order", "oldest")  # the script lists the games again and says how many it shows
        page.wait_for_function("text => document.getElementById('games-status').textContent.includes(text)", arg=SHOWN[tag])
        page.goto(f"{live_server.url}{GAME}?lang={tag}")
        page.wait_for_selector("body[data-ready='true']")
        assert page.get_attribute("html", "lang") == tag
        assert page.inner_text("#moves-h") != "Moves" and page.inner_text("#branches-h") != "Branches"
        assert page.script_errors == []
    finally:
        context.close()


@pytest.mark.browser
def test_the_menu_switches_and_keeps_the_language(browser: Any, live_server: LiveServer) -> None:
    """Anonymous: the menu's choice is kept by the browser (cookie); signed in: by the account, in a fresh browser."""
    context, page = _context_page(browser, locale="en-US")
    try:
        page.goto(f"{live_server.url}/")
        assert page.get_attribute("html", "lang") == "en"
        page.focus("#language-menu")  # by keyboard: choose, then Tab to the menu's submit and press Enter
        page.select_option("#language-menu", "de")
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        page.wait_for_selector("html[lang='de']")
        sign_up_on(page, live_server, "zoe")
        assert page.get_attribute("html", "lang") == "de"
        page.select_option("#language-menu", "zh-Hant")
        page.click(".language-menu input[type=submit]")
        page.wait_for_selector("html[lang='zh-Hant']")
    finally:
        context.close()
    context, page = _context_page(browser, locale="en-US")
    try:
        page.goto(f"{live_server.url}/signin")
        page.fill("#name", "zoe")
        page.fill("#password", "correct horse")
        page.click("main button[type=submit]")
        page.wait_for_selector(".who strong")
        assert page.get_attribute("html", "lang") == "zh-Hant"
        page.goto(f"{live_server.url}/account")
        assert page.get_attribute("html", "lang") == "zh-Hant" and page.inner_text("main h1") == "你的帳號"
    finally:
        context.close()


@pytest.mark.browser
def test_accept_language_zh_tw_gives_traditional_chinese(browser: Any, live_server: LiveServer) -> None:
    context, page = _context_page(browser, locale="zh-TW")
    try:
        page.goto(f"{live_server.url}/")
        assert page.get_attribute("html", "lang") == "zh-Hant" and page.inner_text("#games-h") == GAMES["zh-Hant"]
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.parametrize("tag", ["zh-Hant", "hu"])
@pytest.mark.parametrize("width", [1366, 390])
def test_a_game_page_fits_its_width_in_each_language(browser: Any, live_server: LiveServer, artifacts: Path,
                                                     tag: str, width: int) -> None:
    """Screenshots (test-artifacts/) of a game page in Chinese and in Hungarian, with no horizontal overflow."""
    context, page = _context_page(browser, width=width, height=900 if width > 500 else 844)
    try:
        page.goto(f"{live_server.url}{GAME}/40?lang={tag}")
        page.wait_for_selector("body[data-ready='true']")
        page.screenshot(path=str(artifacts / f"i18n-game-{tag}-{width}.png"), full_page=True)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{tag} at {width} px: {overflow} px too wide"
    finally:
        context.close()


#: Every page a visitor reaches without a game of their own (a game page of each game, the lists, the help, the
#: explorer), then the pages of a signed-in user.
EVERY_PAGE = ("/", "/signin", "/signup", "/help/bga-logs", "/puzzles", "/explore/puerto_rico",
              *(f"/games/demo-{game}-1/b/main/40" for game in ("puerto-rico", "amerigo", "entdecker", "golden-city")))
SIGNED_IN_PAGES = ("/", "/account", "/tokens")


def _fits(page: Any, server: LiveServer, path: str, name: str, artifacts: Path) -> str | None:
    """Open ``path``, save its screenshot as ``name``; what runs over the page's width, if anything does."""
    page.goto(server.url + path)
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(artifacts / f"i18n-{name}.png"), full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    return f"{path}: {overflow} px too wide" if overflow > 0 else None


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("tag", ["de", "zh-Hant"])
@pytest.mark.parametrize("width", [1366, 390])
def test_every_page_fits_its_width_in_german_and_chinese(browser: Any, live_server: LiveServer, artifacts: Path,
                                                        tag: str, width: int) -> None:
    """Screenshots of every page in German (its long words) and traditional Chinese (its line breaking) at a laptop's
    and a phone's width (test-artifacts/i18n-<page>-<tag>-<width>.png), none wider than the window."""
    context, page = _context_page(browser, locale=tag, width=width, height=900 if width > 500 else 844)
    try:
        found = [_fits(page, live_server, path, f"{path.strip('/').replace('/', '-') or 'home'}-{tag}-{width}", artifacts)
                 for path in EVERY_PAGE]
        sign_up_on(page, live_server, f"fit{width}")
        found += [_fits(page, live_server, path, f"{path.strip('/') or 'home'}-signed-in-{tag}-{width}", artifacts)
                  for path in SIGNED_IN_PAGES]
        assert not [problem for problem in found if problem], [problem for problem in found if problem]
        assert page.script_errors == []
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("tag", ["hu", "de", "zh-Hant", "zh-Hans"])
def test_axe_finds_nothing_serious_in_each_language(browser: Any, live_server: LiveServer, artifacts: Path, tag: str) -> None:
    """The home page and a game page in each language: axe's WCAG 2.2 A/AA sweep (its ``html-lang-valid`` and
    ``valid-lang`` rules included) at both widths, as ``test_accessibility`` sweeps the English pages."""
    from tests.ui.test_accessibility import _check_both_widths

    context, page = _context_page(browser)
    try:
        found: list[str] = []
        for name, path in (("home", "/"), ("game", f"{GAME}/40")):
            page.goto(f"{live_server.url}{path}?lang={tag}")
            page.wait_for_selector("body[data-ready='true']")
            _check_both_widths(page, f"{name}-{tag}", artifacts, found)
        assert not found, "\n".join(found)
    finally:
        context.close()


@pytest.mark.parametrize("tag", ["hu", "de", "zh-Hant", "zh-Hans"])
def test_the_help_page_shows_its_language_s_screenshots(client: FlaskClient, tag: str) -> None:
    """The help page's pictures show pages' words, so each language has its own (tools/help_screenshots.py)."""
    html = client.get(f"/help/bga-logs?lang={tag}").get_data(as_text=True)
    shots = re.findall(r'<img src="([^"]+)"', html)
    assert len(shots) == 3 and all(f"/help/{tag}/" in shot for shot in shots), shots
    assert all(client.get(shot).status_code == 200 for shot in shots)
    english = client.get("/help/bga-logs?lang=en").get_data(as_text=True)
    assert not [shot for shot in re.findall(r'<img src="([^"]+)"', english) if "/help/hu/" in shot]


def test_the_server_s_caption_is_in_the_page_s_language(client: FlaskClient) -> None:
    """The caption drawn on the server (before any script) says who acts in the page's words, as the script will."""
    html = client.get(f"{GAME}/40?lang=de").get_data(as_text=True)
    caption = re.search(r'<p id="caption" class="caption">([^<]*)</p>', html)
    assert caption and "ist am Zug" in caption.group(1) and "to act" not in caption.group(1), caption
