"""The boards in the reader's language, in a real browser (issue 47): each game's board, read in Hungarian and in
Chinese (traditional), shows its terms as the game's glossary gives them (the rulebooks' words: Puerto Rico's
polgármester and 市長 among the roles), and none of the English terms its renderer prints where the glossary has
another word."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from engine.amerigo import components as amerigo
from engine.amerigo.describe import ACTION_NAMES
from engine.entdecker.components import EVENT_NAMES, UNIT_NAMES
from engine.entdecker.describe import TOPOLOGY_WORDS
from engine.golden_city.components import GOODS as GOLDEN_CITY_GOODS
from engine.golden_city.components import TERRAIN_NAMES
from engine.puerto_rico import components as pr
from service.i18n.games.glossary import glossaries
from tests.ui.conftest import DEMO_PR, LiveServer, Watched

pytestmark = pytest.mark.browser

LANGUAGES = ("hu", "zh-Hant")


@dataclass(frozen=True)
class Board:
    """A demo game's position, the glossary's terms its board must show, and the English its renderer prints."""

    game: str
    gid: str
    seq: int
    #: (kind, English key) of terms the board shows at that position, checked in the glossary's word
    shown: tuple[tuple[str, str], ...]
    #: (kind, English key) of every term the renderer prints: none may be left in English (where the glossary's word
    #: differs from it)
    terms: tuple[tuple[str, str], ...]
    #: the renderer's English for what it names in a glossary's words (headings, plurals), none of which may be left
    english: tuple[str, ...]


BOARDS = {
    "puerto_rico": Board(
        "puerto_rico", DEMO_PR, 120,
        shown=(("role", "mayor"), ("role", "builder"), ("role", "settler"), ("building", "small market"),
               ("building", "harbor"), ("component", "colonist ship")),
        terms=(*(("role", role) for role in (*pr.ROLE_NAMES[: pr.PROSPECTOR], "prospector")),
               *(("building", name) for name in pr.BUILDING_NAMES)),
        english=("Cargo ships", "Trading house", "Colonists", "Plantations", "Governor", "VP chips", "VP", "quarries",
                 "supply", "to act", "pts", "face down", "discarded"),
    ),
    "amerigo": Board(
        "amerigo", "demo-amerigo-1", 451,
        shown=(("colour", "blue"), ("good", "sugar"), ("component", "cube tower"), ("component", "storage board"),
               ("component", "production token"), ("component", "neutral tile"), ("component", "ship")),
        terms=(*(("colour", colour) for colour in amerigo.COLOURS), *(("good", good) for good in amerigo.GOODS),
               *(("action", name) for name in ACTION_NAMES)),
        english=("Action circuit", "storage", "field", "tower", "Round", "Progress tokens", "Production tokens",
                 "Neutral tiles", "Special-action track", "cannons", "posts", "order", "tokens", "ships", "tiles to build",
                 "villages left", "makes", "to act", "VP", "neutral", "village", "tile"),
    ),
    "entdecker": Board(
        "entdecker", "demo-entdecker-1", 83,
        shown=(("unit", "scout"), ("unit", "fort"), ("unit", "settlement"), ("event", "storm"), ("component", "stack"),
               ("component", "reserve tile"), ("component", "discovery chip")),
        terms=(*(("unit", unit) for unit in UNIT_NAMES), *(("event", event) for event in EVENT_NAMES),
               *(("tile", word) for word in TOPOLOGY_WORDS.values())),
        english=("Stacks", "Reserve", "chips face down", "last spin", "wheel", "tiles out of the game", "paid draws left",
                 "drawn", "This turn", "to act", "pts", "chips", "hostile natives", "friendly natives", "laid this turn",
                 "expedition", "none"),
    ),
    "golden_city": Board(
        "golden_city", "demo-golden-city-1", 88,
        shown=(("card", "scoring card"), ("card", "landscape card"), ("card", "goods card"), ("component", "draw pile"),
               ("component", "discard pile"), ("site", "suburb"), ("site", "outer city part"), ("component", "letter")),
        terms=(*(("terrain", name) for name in TERRAIN_NAMES), *(("good", good) for good in GOLDEN_CITY_GOODS),
               ("site", "harbour"), ("site", "suburb"), ("site", "outer city part"), ("site", "inner city part"),
               ("card", "landscape card"), ("card", "key card"), ("card", "bonus card"), ("card", "goods card"),
               ("card", "scoring card")),
        english=("Scoring card", "Landscape cards", "Landscape pairs", "Goods cards", "Supply", "draw pile", "discards",
                 "coins", "key cards", "letters", "keys", "houses", "hand", "goods", "bonus", "to act", "start key", "left",
                 "scored", "Pair", "free", "river", "coin", "card", "none"),
    ),
}
#: Titles (no visible text: read by the board's text version and screen readers) that must not stay English.
FRAME_TITLES = {"amerigo": ("frame space", "top-left corner", "top side", "left side")}
#: What each language must show, spelt out: the glossary is read by the test too, so this pins it to the rulebook.
RULEBOOK = {("puerto_rico", "hu"): "polgármester", ("puerto_rico", "zh-Hant"): "市長",
            ("amerigo", "hu"): "kockatorony", ("amerigo", "zh-Hant"): "方塊塔",
            ("entdecker", "hu"): "felderítő", ("entdecker", "zh-Hant"): "偵察兵",
            ("golden_city", "hu"): "terepkártya", ("golden_city", "zh-Hant"): "地形卡"}


def _board_text(watched: Watched, server: LiveServer, board: Board, language: str) -> str:
    page: Any = watched.page
    page.goto(f"{server.url}/games/{board.gid}/b/main/{board.seq}?lang={language}")
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_function("() => document.querySelector('#board').innerText.trim().length > 0")
    titles = page.eval_on_selector_all("#board svg title", "titles => titles.map(t => t.textContent).join('\\n')")
    text: str = page.inner_text("#board") + "\n" + titles
    watched.assert_clean()
    return text.lower()  # as the reader sees it, in the stylesheet's capitals: the words compared without them


def _left(text: str, words: list[str]) -> list[str]:
    """The words of ``words`` still in ``text``, as words (not inside a card's id such as ``B-GOODS``)."""
    return [word for word in words if re.search(rf"(?<![\w-]){re.escape(word.lower())}(?![\w-])", text)]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", sorted(BOARDS))
def test_the_board_reads_in_the_glossary_s_words(game: str, language: str, live_server: LiveServer,
                                                 watched: Watched) -> None:
    board = BOARDS[game]
    glossary = glossaries()[game]
    text = _board_text(watched, live_server, board, language)
    assert RULEBOOK[game, language] in text, text
    missing = [word for kind, en in board.shown if (word := glossary.word(kind, en, language) or en).lower() not in text]
    assert missing == [], f"{game} in {language}: the glossary's {missing} not on the board:\n{text}"
    english = [en for kind, en in board.terms if glossary.word(kind, en, language) not in (None, en)]
    english += [title.lower() for title in FRAME_TITLES.get(game, ())]
    left = _left(text, english + list(board.english))
    assert left == [], f"{game} in {language}: English left on the board: {left}\n{text}"


def test_the_mayor_s_form_reads_in_the_glossary_s_words(live_server: LiveServer, watched: Watched) -> None:
    """Puerto Rico's mayor's form in Hungarian: its colonists, circles, San Juan and the slots' plantations and
    buildings are the Hungarian rulebook's words, and none of its English is left."""
    from tests.ui.helpers import sign_up
    from tests.ui.test_turn_forms import _table_at_mayor

    glossary = glossaries()["puerto_rico"]
    sign_up(watched, live_server, "alice")
    bid, _seq, state = _table_at_mayor(live_server)
    page: Any = watched.page
    page.goto(f"{live_server.url}/games/{DEMO_PR}/b/{bid}?lang=hu")
    page.wait_for_selector(".turn-form[data-form='mayor'] .turn-form-confirm")
    text = page.inner_text(".turn-form").lower()
    assert "telepes" in text and "san juan" in text, text
    names = page.eval_on_selector_all(".turn-form-slot", "slots => slots.map(s => s.dataset.name)")
    english = ["colonist", "colonists", "circle", "circles", "place", "start again"]
    for name in names:
        kind = "building" if name in pr.BUILDING_NAMES else "tile" if name == "quarry" else "plantation"
        word = glossary.word(kind, name if kind != "plantation" else f"{name} plantation", "hu")
        assert word and word.lower() in text, (name, word, text)
        english += [name] if word != name else []  # "hacienda" is Hungarian too
    left = _left(text, english)
    assert left == [], f"English left in the mayor's form: {left}\n{text}"
    watched.assert_clean()
