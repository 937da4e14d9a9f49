"""No route shows a viewer another seat's hidden information (issue 13, items 1-3).

For each of the four games, a whole demo game is stored; then every GET route of the OpenAPI
document and the UI's data routes (``timeline.json``, ``states.json``) are asked, at several
positions, as each seat and as a spectator. Every answer is searched for what the full state
says that viewer may not know, found without the service's own rule
(:mod:`engine.core.visibility`):

* states: another seat's hand, bonus cards and trade letters (Die goldene Stadt), another seat's
  VP chips and the plantation stack (Puerto Rico), the tower's contents (Amerigo), the face-down
  stacks and chip pool (Entdecker) must be absent or reduced to what the view shows (counts);
* events, timeline moves, exports: an event that put a card into another seat's hand or gave it
  a bonus card (the full states before and after it say so) must not show its notation.

The ``full`` view stays complete: the same walk finds the secrets there, which shows that the
search would catch a leak.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask.testing import FlaskClient

from engine import CHANCE, get_rules
from engine.bga import export_log
from service.games.demo import demo_playout, demo_setup
from service.store.games import MAIN, GameStore
from tests.service.api.helpers import Users

GAMES = ("golden_city", "puerto_rico", "amerigo", "entdecker")
#: The upload route reports the uploader's own file line by line: the full view of that file, as
#: ``view=full`` is of every game (nothing is secret between users reading a shared log in full).
FULL_VIEW_ONLY = {"/api/uploads/{uid}"}
#: The live notice streams carry a game's id, or a seq and a budget, never a state, an event or a verdict (the page
#: then asks the routes walked here), and they stay open while the page is shown: the walk could never read them to
#: their end. The branch's own event stream is walked (a finished game's ends after what it missed).
# streams of notices that never end by themselves (a walk that read one to its end would wait for ever)
NOTICE_STREAMS = {"/api/games/stream", "/api/me/tables/stream", "/api/games/{gid}/branches/{bid}/analysis/stream",
                  "/api/games/{gid}/annotations/stream", "/api/games/{gid}/branches/{bid}/chat/stream"}
UI_DATA_ROUTES = ("/games/{gid}/b/{bid}/timeline.json", "/games/{gid}/b/{bid}/states.json")


@dataclass
class Secrets:
    """What one viewer may not know in one stored game."""

    seats: int
    viewer: int | None
    hidden_events: dict[int, str]  # seq → notation the viewer may not see


def _hand_and_bonus(player: dict[str, Any]) -> tuple[int, int]:
    return sum(player["hand"].values()), len(player["bonus"])


def hidden_events(game: str, events: list[Any], viewer: int | None) -> dict[int, str]:
    """Events that gave another seat a card from the face-down pile or a bonus card, from the full states around them."""
    if game != "golden_city":
        return {}
    rules = get_rules(game)
    state = rules.initial_state(demo_setup(game, 1))
    secret = {}
    for event in events[1:]:
        before = rules.dump_state(state)["players"]
        state = rules.apply(state, rules.parse_action(event.action))
        after = rules.dump_state(state)["players"]
        for seat, (old, new) in enumerate(zip(before, after, strict=True)):
            (hand_before, bonus_before), (hand_after, bonus_after) = _hand_and_bonus(old), _hand_and_bonus(new)
            # A card drawn from the face-down pile (a chance event) or a bonus card kept; a won pair lay face up.
            from_pile = event.actor == CHANCE and hand_after > hand_before
            if seat != viewer and (from_pile or bonus_after > bonus_before):
                secret[event.seq] = event.action
    return secret


# -- what the answers must not hold ------------------------------------------------------------
def _states_in(body: Any) -> Iterator[dict[str, Any]]:
    if isinstance(body, dict):
        if isinstance(body.get("players"), list) and "phase" in body and "names" in body:
            yield body
        for value in body.values():
            yield from _states_in(value)
    elif isinstance(body, list):
        for value in body:
            yield from _states_in(value)


def _events_in(body: Any) -> Iterator[dict[str, Any]]:
    if isinstance(body, dict):
        if isinstance(body.get("seq"), int) and "action" in body:
            yield body
        for value in body.values():
            yield from _events_in(value)
    elif isinstance(body, list):
        for value in body:
            yield from _events_in(value)


def check_state(game: str, state: dict[str, Any], secrets: Secrets, where: str) -> None:
    """The state shows the viewer nothing of the others' hidden values (full state: lists; view: counts or null)."""
    others = [p for seat, p in enumerate(state["players"]) if seat != secrets.viewer]
    if game == "golden_city":
        if state["phase"] != "over":  # "A játékosok felfordítják bonusz-kártyáikat": all is shown at the end
            for player in others:
                assert player["hand"] is None and player["bonus"] is None and player["letters"] is None, (where, player)
        assert isinstance(state["pile"], int) and isinstance(state["goods_pile"], int), where
        assert isinstance(state["scoring_pile"], int), where
    elif game == "puerto_rico":
        assert isinstance(state["stack"], int), (where, state["stack"])
        for player in others:
            assert player["vp"] is None, (where, player)
    elif game == "amerigo":
        assert state["tower"] is None, (where, state["tower"])
    elif game == "entdecker":
        assert "undrawn" not in state and isinstance(state["pool"], int), where


def check_answer(game: str, body: Any, secrets: Secrets, where: str) -> int:
    """Every state and event in a JSON answer keeps the viewer's secrets; returns how many were looked at."""
    looked = 0
    for state in _states_in(body):
        check_state(game, state, secrets, where)
        looked += 1
    for event in _events_in(body):
        if event["seq"] in secrets.hidden_events:
            assert event["action"] is None, (where, event)
        looked += 1
    return looked


def check_text_export(text: str, secrets: Secrets, where: str) -> None:
    """``12. [chance] deal DE — …``: a hidden event's line keeps its sentence but not its notation."""
    for line in text.splitlines():
        found = re.match(r"^(\d+)\. \[[^\]]+\] (.*?) — ", line)
        if found and int(found.group(1)) in secrets.hidden_events:
            assert found.group(2) == "(hidden)", (where, line)


def check_bga_export(document: dict[str, Any], secrets: Secrets, events: list[Any], where: str) -> None:
    """Only the table and the viewer's own channel, and the notations in order are exactly those it may see."""
    packets = document["data"]["logs"]
    allowed = {"/table/t1"} | ({f"/player/p{2_000_001 + secrets.viewer}"} if secrets.viewer is not None else set())
    assert {p["channel"] for p in packets} <= allowed, where
    notations = [n["args"]["ludolog_action"] for p in packets for n in p["data"] if "ludolog_action" in n["args"]]
    if notations:  # games written with our generic notes (not Puerto Rico's own mapping)
        assert notations == [e.action for e in events[1:] if e.seq not in secrets.hidden_events], where


# -- the walk --------------------------------------------------------------------------------------
@pytest.fixture
def stored_games(app: Any, users: Users) -> dict[str, list[Any]]:
    """One demo game of each of the four, stored as ``leak-<game>``; its events by game."""
    games: GameStore = app.extensions["ludolog"].games
    stored = {}
    for game in GAMES:
        rules = get_rules(game)
        playout = demo_playout(game, 1)
        gid = f"leak-{game.replace('_', '-')}"
        games.create_game(game, rules.version, demo_setup(game, 1), owner="alice", gid=gid, source="live", seed="1")
        games.append(gid, MAIN, playout.events[1:], 1)
        stored[game] = playout.events
    return stored


def _get_routes(client: FlaskClient) -> list[tuple[str, set[str]]]:
    spec = client.get("/api/openapi.json").get_json()
    routes = []
    for path, operations in spec["paths"].items():
        if "get" in operations:
            params = {p["name"] for p in operations["get"].get("parameters", []) if p["in"] == "query"}
            routes.append((path, params))
    return routes


def _positions(head: int) -> list[int]:
    return sorted({2, head // 4, head // 2, 3 * head // 4, head})


def _queries(params: set[str], view: str, head: int) -> Iterator[dict[str, Any]]:
    if "view" not in params:
        yield {}
        return
    if "format" in params:
        for fmt in ("bga", "jsonl", "text"):
            yield {"view": view, "format": fmt}
        return
    for at in _positions(head):
        query: dict[str, Any] = {"view": view}
        if "at" in params:
            query["at"] = at
        if "after" in params:
            query["after"] = at - 1
        yield query


def _fill(path: str, gid: str, uid: str, aid: str) -> str:
    return path.replace("{gid}", gid).replace("{bid}", MAIN).replace("{uid}", uid).replace("{aid}", aid)


def _check_response(game: str, response: Any, secrets: Secrets, events: list[Any], where: str) -> int:
    assert response.status_code < 500, where
    if response.status_code >= 400:  # a refusal (a format a route does not offer, a log-only route): nothing shown
        return 0
    if where.count("format=text"):
        check_text_export(response.get_data(as_text=True), secrets, where)
        return 1
    text = response.get_data(as_text=True)
    if "format=jsonl" in where:
        return sum(check_answer(game, json.loads(line), secrets, where) for line in text.splitlines())
    if not response.is_json:
        return 0
    body = response.get_json()
    if "format=bga" in where:
        check_bga_export(body, secrets, events, where)
    return check_answer(game, body, secrets, where)


@pytest.mark.parametrize("game", GAMES)
def test_no_route_shows_a_viewer_what_it_may_not_see(client, users, stored_games, game):
    events = stored_games[game]
    gid, head = f"leak-{game.replace('_', '-')}", events[-1].seq
    seats = len(demo_setup(game, 1).players)
    headers = users.auth("alice")
    aid = client.post(f"/api/games/{gid}/annotations", json={"branch": MAIN, "seq": 2, "text": "a note"},
                      headers=headers).get_json()["id"]
    uid = client.post("/api/uploads", data=json.dumps(export_log(events[:40], view="spectator")),
                      content_type="application/json", headers=headers).get_json().get("id", "none")
    routes = [(p, q) for p, q in _get_routes(client) if p not in FULL_VIEW_ONLY | NOTICE_STREAMS]
    routes += [(p, {"view", "at"} if p.endswith("states.json") else {"view"}) for p in UI_DATA_ROUTES]
    routes += [("/games/{gid}/b/{bid}/timeline.json", {"view", "after"})]  # the moves after a position: a live page's ask
    assert any("view" in q for _, q in routes) and len(routes) >= 10
    looked = 0
    for viewer in [None, *range(seats)]:
        secrets = Secrets(seats, viewer, hidden_events(game, events, viewer))
        view = "spectator" if viewer is None else str(viewer)
        for path, params in routes:
            for query in _queries(params, view, head):
                if path.endswith("states.json") and "at" in query:
                    query = {"view": view, "from": query.pop("at"), "to": head}
                url = _fill(path, gid, uid, aid)
                where = f"{url}?{'&'.join(f'{k}={v}' for k, v in query.items())}"
                looked += _check_response(game, client.get(url, query_string=query, headers=headers), secrets, events, where)
    assert looked > 100


def test_the_full_view_shows_the_secrets_so_the_walk_would_catch_a_leak(client, users, stored_games):
    events = stored_games["golden_city"]
    secret = hidden_events("golden_city", events, None)
    verbs = {notation.split()[0] for notation in secret.values()}
    assert verbs == {"deal", "bonus"}, verbs
    timeline = client.get("/games/leak-golden-city/b/main/timeline.json", query_string={"view": "full"}).get_json()
    shown = {m["seq"]: m["action"] for m in timeline["moves"]}
    assert all(shown[seq] == notation for seq, notation in secret.items())
    spectator = client.get("/games/leak-golden-city/b/main/timeline.json", query_string={"view": "spectator"}).get_json()
    hidden = {m["seq"]: m for m in spectator["moves"] if m.get("hidden")}
    assert set(hidden) == set(secret)
    assert all(m["action"] is None and m["text"] for m in hidden.values())  # the sentence stays: "Anna draws a landscape card"
