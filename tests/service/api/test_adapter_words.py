"""The UI adapters' words in the reader's language (issue 47): the game page's phase label, notice and score hint, the
move picker's groups (the page's data), the move list's phases and tower throws and the final result's columns, cells
and tie-breaks (``timeline.json``), each game's terms from its glossary and the rest from the site's catalog."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from service.games.demo import demo_id, load_demo
from service.store.games import GameStore

PAGE_DATA = re.compile(r'<script type="application/json" id="page-data">(.*?)</script>', re.S)

#: Per game and language: what the page shows (phase label, notice, score hint), a picker group, the move list's
#: phases (some of them), a result column and a tie-break's words (a piece of one); where the adapter words a table
#: the board shows (Amerigo's progress tokens' effects, Die goldene Stadt's scoring cards' regions): one entry's.
EXPECTED: dict[str, dict[str, dict[str, Any]]] = {
    "puerto_rico": {
        "hu": {"page": ["Szerep", "jelzők + épületek + bónuszok eddig"], "group": "Válassz szerepet",
               "phases": {"polgármester", "építész"}, "column": "Győzelmi pont-jelzők", "tiebreak": "dublon és áru"},
        "zh-Hant": {"page": ["角色", "目前的分數方塊 + 建築 + 額外分數"], "group": "選擇角色",
                    "phases": {"市長", "建築師"}, "column": "分數方塊", "tiebreak": "元與貨物"},
    },
    "amerigo": {
        "hu": {"page": ["Fázis", "A tábla elrendezése a szabálykönyvből rekonstruált", "Győzelmi pontok eddig"],
               "group": "Válassz akciót", "phases": {"kék fázis (hajózás)", "Előkészület"},
               "column": "Győzelmi pontok a vége előtt", "tiebreak": "a játékossorrendben", "throw": "kék",
               "table": ("tokens", "effect", "+2 AP a fekete akciónál")},
        "zh-Hant": {"page": ["階段", "版圖配置依規則書重建", "目前分數"], "group": "選擇行動",
                    "phases": {"準備階段"}, "column": "結束前的分數", "tiebreak": "玩家順序第", "throw": "藍",
                    "table": ("tokens", "effect", "執行黑色行動時+2行動點")},
    },
    "entdecker": {
        "hu": {"page": ["Kör", "A térképrészletek, kupacok, tartalék lapok", "a pontsáv: szigetek, romok"],
               "group": "Vegyél térképrészleteket (darabja 1 arany)", "phases": {"Felfedezés", "Bevétel meghatározása"},
               "column": "szigetek pontjai", "tiebreak": "holtverseny"},
        "zh-Hant": {"page": ["回合", "地圖板塊組、牌堆、備用板塊與收入轉盤", "計分軌：島嶼、遺跡"], "group": "購買地圖板塊（每塊 1 金幣）",
                    "phases": {"探險", "收入"}, "column": "島嶼分數", "tiebreak": "同分者並列"},
    },
    "golden_city": {
        "hu": {"page": ["Fázis", "A tábla elrendezése a szabálykönyvből rekonstruált", "kereskedőlevelek eddig"],
               "group": "Licitálj egy terepkártya párra", "phases": {"Licitszakasz", "Építési szakasz"},
               "column": "házak az Aranyvárosban", "tiebreak": "a városban, majd",
               "table": ("scoring_cards", "region_names", ["R-NE folyó"])},
        "zh-Hant": {"page": ["階段", "版圖配置依規則書重建（地點", "目前的推薦信"], "group": "競標一組地形卡",
                    "phases": {"競標", "建造"}, "column": "黃金城中的房屋", "tiebreak": "棟房屋，其次",
                    "table": ("scoring_cards", "region_names", ["河流R-NE"])},
    },
}


@pytest.fixture
def demo_games(redis_client):
    """One finished demo game of each game."""
    load_demo(GameStore(redis_client), 1)


def _page_data(html: str) -> dict[str, Any]:
    found = PAGE_DATA.search(html)
    assert found, "the game page embeds its data"
    return json.loads(found.group(1))


@pytest.mark.parametrize("language", ["hu", "zh-Hant"])
@pytest.mark.parametrize("game", sorted(EXPECTED))
def test_the_adapter_speaks_the_reader_s_language(client, demo_games, game, language):
    expected = EXPECTED[game][language]
    gid = demo_id(game, 1)
    page = client.get(f"/games/{gid}/b/main", query_string={"lang": language})
    assert page.status_code == 200
    for words in expected["page"]:
        assert words in page.text, (words, game, language)
    components = _page_data(page.text)["components"]
    assert expected["group"] in components["picker_groups"].values()
    if "table" in expected:
        table, field, words = expected["table"]
        rows = components[table].values() if isinstance(components[table], dict) else components[table]
        assert words in [row[field] for row in rows], (table, field, words)

    timeline = client.get(f"/games/{gid}/b/main/timeline.json", query_string={"lang": language}).get_json()
    phases = {move["phase"] for move in timeline["moves"] if move.get("phase")}
    assert expected["phases"] <= phases, phases
    words = timeline["outcome"]["words"]
    assert expected["column"] in [column["label"] for column in words["columns"]]
    assert all(expected["tiebreak"] in said for said in words["tiebreaks"]), words["tiebreaks"]
    if "throw" in expected:
        assert any(expected["throw"] in move["throw"] for move in timeline["moves"] if move.get("throw"))


def test_english_stays_as_it_was(client, demo_games):
    timeline = client.get(f"/games/{demo_id('amerigo', 1)}/b/main/timeline.json").get_json()
    phases = {move["phase"] for move in timeline["moves"] if move.get("phase")}
    assert {"Setup", "Preparation", "blue phase (sailing)"} <= phases
    assert timeline["outcome"]["words"]["tiebreaks"][0].endswith(" in player order")
    page = client.get(f"/games/{demo_id('golden_city', 1)}/b/main").text
    assert "Board layout reconstructed from the rulebook (sites, roads" in page
