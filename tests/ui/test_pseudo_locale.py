"""Issue 47 item 6: the pseudo-locale walk. In ``en-XA`` every catalog text reads ``⟦Ýöûŕ ţûŕñ⟧``
(:mod:`service.i18n.pseudo`), so a word still in plain English on a page did not go through a catalog. A real
browser opens every page, the board of every game at three positions and its move list in the pseudo-locale, and
fails on any visible text (and any ``title``, ``aria-label``, ``placeholder`` or ``alt``) with a plain English word
left once the catalogs' texts and the page's data are taken out.

Data is what people and games name, never translated: the players', users' and games' names, the games' titles
(proper names, as their boxes print them), the canonical notation (in ``<code>``, ``<kbd>``, ``<pre>``, ``<samp>``),
dates and times (``<time>``: written by the browser's own formats) and elements marked ``translate="no"`` (HTML's own
mark for it).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import get_rules, registered_games
from service.games.demo import demo_setup
from service.games.titles import game_label
from service.store.users import UserStore
from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import open_game, sign_up, wait_board
from tests.ui.test_insights_browser import GID as INSIGHTS_GID
from tests.ui.test_insights_browser import USER, _analysed_copy
from tests.ui.test_log_only import TOKAIDO, _imported, _sample
from tests.ui.test_puzzles_browser import _puzzle

pytestmark = [pytest.mark.browser]

GAMES = ("puerto_rico", "amerigo", "entdecker", "golden_city")
#: The name of the API token the walk's user makes (the tokens page lists it: a user's own words).
TOKEN_NAME = "walk"
#: The places on the game pages still showing English that went through no catalog: issue 47 item 6 is done when
#: this list is empty. The test fails on any place not listed, and on a listed place that no longer shows English.
BOARDS_LEFT: dict[str, str] = {}
#: The same for the other pages.
PAGES_LEFT: dict[str, str] = {}

#: The walk, run in the page: each visible text node's text and each label-like attribute, with the plain words left
#: once nested ⟦ ⟧ spans, data elements and the page's known names are taken out.
_LEFT_ENGLISH = """names => {
  const skip = el => el.closest('code, kbd, pre, samp, time, script, style, [translate="no"], [hidden], [aria-hidden="true"]');
  // where a text is: the element's tag, id and classes, and its nearest ancestor with an id (digits dropped: one
  // place however many rows or seats it repeats for)
  const where = el => {
    const named = el.closest('[id]');
    const own = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + [...el.classList].map(c => '.' + c).join('');
    return ((named && named !== el ? '#' + named.id + ' ' : '') + own).replace(/[0-9]+/g, '');
  };
  const visible = el => el.checkVisibility ? el.checkVisibility() : !!el.offsetParent;
  const plain = text => {
    let rest = text;
    for (let before = null; before !== rest;) { before = rest; rest = rest.replace(/⟦[^⟦⟧]*⟧/g, ' '); }
    // a sentence with markup inside spans several text nodes: what comes before its unmatched end, or after its
    // unmatched start, is inside it
    rest = rest.slice(rest.lastIndexOf('⟧') + 1);
    if (rest.includes('⟦')) rest = rest.slice(0, rest.indexOf('⟦'));
    for (const name of names) rest = rest.split(name).join(' ');
    return (rest.match(/[A-Za-z]{2,}/g) || []);
  };
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || skip(el) || !visible(el) || !node.textContent.trim()) continue;
    const words = plain(node.textContent);
    if (words.length) found.push([where(el), node.textContent.trim().slice(0, 90)]);
  }
  for (const el of document.body.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
    if (skip(el)) continue;
    for (const attribute of ['title', 'aria-label', 'placeholder', 'alt']) {
      const value = el.getAttribute(attribute);
      if (value === el.dataset.action) continue;  // a move's notation, the same in every language
      if (value && plain(value).length) found.push([`${where(el)}[${attribute}]`, value.slice(0, 90)]);
    }
  }
  return found;
}"""


def _data_names(server: LiveServer) -> list[str]:
    """The data the pages show that no catalog translates: every listed game's title, owner and players, longest
    first (so that a name inside a longer one is taken out with it)."""
    client = server.app.test_client()
    names = {"ludolog", USER, "SHA-256", *(get_rules(game).title for game in registered_games())}
    for listed in client.get("/api/games?limit=200").get_json()["games"]:
        game = client.get(f"/api/games/{listed['id']}").get_json()
        names.update([game["id"], game["title"], game_label(game["game"]), *game["players"], str(game.get("owner") or "")])
    return sorted((name for name in names if name), key=len, reverse=True)


def _left_english(page: Any, where: str, names: list[str], found: dict[str, str]) -> None:
    """Add to ``found`` each place on ``page`` with text not through a catalog (an example of its text, and where)."""
    for place, text in page.evaluate(_LEFT_ENGLISH, names):
        found.setdefault(str(place), f"{text!r} ({where})")


def _check(found: dict[str, str], known: dict[str, str]) -> None:
    """Every place with English left must be a known one, and every known one must still be found (the list only
    shrinks: a place mended is taken off it)."""
    new = {place: text for place, text in found.items() if place not in known}
    mended = sorted(set(known) - set(found))
    assert not new, f"{len(new)} places show text that went through no catalog:\n" + "\n".join(
        f"  {place!r}: {text}" for place, text in sorted(new.items()))
    assert not mended, f"mended, take them off the list of places left: {mended}"


def _pseudo(page: Any, server: LiveServer) -> None:
    page.context.add_cookies([{"name": "ludolog-lang", "value": "en-XA", "url": server.url}])


def test_every_game_s_board_and_moves_go_through_the_catalogs(live_server: LiveServer, watched: Watched) -> None:
    _pseudo(watched.page, live_server)
    names = _data_names(live_server)
    found: dict[str, str] = {}
    for game in GAMES:
        page = open_game(watched, live_server, 1, gid=f"demo-{game.replace('_', '-')}-1")
        head = page.evaluate("window.ludolog.head")
        for seq in (1, head // 2, head):
            page.evaluate("seq => window.ludolog.goTo(seq)", seq)
            wait_board(page, seq)
            _left_english(page, f"{game} at {seq}", names, found)
    _check(found, BOARDS_LEFT)


def _seated_table(server: LiveServer, user: str) -> tuple[str, str]:
    """A Puerto Rico table of ``user``'s: seat 0 theirs, seat 1 an invite, seat 2 the engine's (no worker runs, so it
    stays thinking). (Its game id, its invite link's path.)"""
    token = UserStore(server.app.extensions["ludolog"].stores.redis).create_token(user, TOKEN_NAME)[1]
    made = server.app.test_client().post(
        "/api/games", headers={"Authorization": f"Bearer {token}"},
        json={"game": "puerto_rico", "players": ["Anna", "Ben", "Cleo"],
              "seats": [{"holder": "me"}, {"holder": "invite"}, {"holder": "engine", "level": "easy"}]}).get_json()
    return str(made["id"]), "/invite/" + made["seats"][1]["invite_url"].rsplit("/", 1)[1]


def _claimed_and_analysed(server: LiveServer, redis_client: Any) -> None:
    """The user's own upload of the Puerto Rico demo game, analysed and counted, and their seat in it claimed: their
    insights page has every part to show."""
    _analysed_copy(redis_client)
    token = UserStore(server.app.extensions["ludolog"].stores.redis).create_token(USER, TOKEN_NAME)[1]
    player = demo_setup("puerto_rico", 1).players[0]
    claimed = server.app.test_client().post("/api/me/claims", json={"game": INSIGHTS_GID, "player": player},
                                            headers={"Authorization": f"Bearer {token}"})
    assert claimed.status_code == 201, claimed.get_json()


def _walk(page: Any, server: LiveServer, paths: tuple[str, ...], names: list[str], found: dict[str, str],
          signed_in: bool) -> None:
    for path in paths:
        page.goto(server.url + path)
        page.wait_for_load_state("networkidle")
        _left_english(page, f"{path}{' signed in' if signed_in else ''}", names, found)


def test_every_other_page_goes_through_the_catalogs(live_server: LiveServer, watched: Watched, redis_client: Any,
                                                    redis_server: Any) -> None:
    page = watched.page
    log_game = _imported(redis_client, _sample(TOKAIDO), "tokaido-walk", TOKAIDO.name)
    puzzle = _puzzle(redis_client, redis_server.url)["id"]
    _pseudo(page, live_server)
    names = _data_names(live_server)
    found: dict[str, str] = {}
    _walk(page, live_server, ("/", "/signin", "/signup", "/help/bga-logs", "/puzzles", f"/puzzles/{puzzle}",
                              *(f"/explore/{g}" for g in GAMES), "/explore/puerto_rico/games?stage=early",
                              f"/games/{log_game}/b/main/40", "/games/no-such-game", "/mail/unsubscribe?token=x.y"),
          names, found, signed_in=False)
    sign_up(watched, live_server, USER)
    table, invite = _seated_table(live_server, USER)
    _claimed_and_analysed(live_server, redis_client)
    _walk(page, live_server, ("/", "/account", "/tokens", f"/users/{USER}/insights", f"/puzzles/{puzzle}",
                              f"/games/{table}/b/main", invite,
                              "/games/demo-puerto-rico-1/compare?a=main&b=main&at=100"),
          [*names, "Anna", "Ben", "Cleo", TOKEN_NAME, INSIGHTS_GID], found, signed_in=True)
    _check(found, PAGES_LEFT)
