"""Every answer served from something stored or cached goes through the one viewer rule (issue 45 item 1): a seat
holder, a stranger and the anonymous get only their own view of a table, whatever was stored or cached before it
became one.

The places: an idempotent replay, the timeline and the states windows (cached folds), the exports, a stored analysis,
and the live stream's batches (formatted once per view for every follower in the process). Each is first filled in
the full view while the owner plays alone (the timeline folded, an analysis stored, a stream following), then read
once seats are held by others. Most passed before issue 45: these tests keep them so; the replay did not.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask.testing import FlaskClient

from engine import CHANCE, get_rules
from service.games.analysis import Position, analyse_position, stored_results
from service.games.demo import demo_setup
from service.store.analysis_results import holder_of
from service.store.games import MAIN, GameStore
from service.store.seats import Seat
from tests.service.api.helpers import Users, assert_error, branch_url
from tests.service.api.sse import SseClient
from tests.service.api.tables import BOBS_HIDDEN_MOVE, EVENTS, GAME
from tests.service.api.test_hidden_information import Secrets, _check_response, hidden_events

GID = "cached-golden-city"
SEATS = 4
#: (user, the seat they hold: their view; None: the spectator view).
VIEWERS = (("bob", 1), ("carol", None), (None, None))
CACHED_ROUTES = ("/games/{gid}/b/main/timeline.json", "/games/{gid}/b/main/states.json",
                 "/api/games/{gid}/branches/main/export")


def _alone(app: Any) -> int:
    """Alice's game, played by her alone (every seat hers): the demo game up to bob's hidden move. Its head."""
    games: GameStore = app.extensions["ludolog"].games
    games.create_game(GAME, get_rules(GAME).version, demo_setup(GAME, 1), owner="alice", gid=GID, source="live",
                      visibility="unlisted")
    games.append(GID, MAIN, EVENTS[1:BOBS_HIDDEN_MOVE], 1)
    return BOBS_HIDDEN_MOVE


def _seat_the_table(app: Any, client: FlaskClient, users: Users) -> None:
    """Seat 1 to bob by invite, the rest to the engine: a table."""
    for seat in range(2, SEATS):
        app.extensions["ludolog"].stores.seats.assign(GID, MAIN, Seat(seat, "engine", level="easy"))
    token = client.put(branch_url(GID, what="seats/1"), json={"holder": "invite"},
                       headers=users.auth("alice")).get_json()["invite_url"].rsplit("/", 1)[1]
    assert client.post(f"/api/invites/{token}", headers=users.auth("bob")).status_code == 200


def _bobs_move(client: FlaskClient, users: Users, head: int, key: str = "bob-1") -> Any:
    return client.post(branch_url(GID, what="actions"), json={"action": EVENTS[head].action, "expected_seq": head},
                       headers=users.auth("bob") | {"Idempotency-Key": key})


def _headers(users: Users, who: str | None) -> dict[str, str]:
    return users.auth(who) if who else {}


def _queries(path: str, head: int) -> list[dict[str, Any]]:
    if path.endswith("export"):
        return [{"format": f} for f in ("bga", "jsonl", "text")]
    if path.endswith("states.json"):
        return [{"from": head - 40, "to": head}]
    return [{}, {"after": head - 10}]


def test_cached_folds_and_exports_made_in_the_full_view_serve_each_viewer_only_theirs(app, client, users):
    head = _alone(app)
    for path in CACHED_ROUTES:  # alice reads in full, alone: the caches fill in the full view
        for query in _queries(path, head):
            assert client.get(path.replace("{gid}", GID), query_string=query, headers=users.auth("alice")).status_code == 200
    _seat_the_table(app, client, users)
    looked = 0
    for who, seat in VIEWERS:
        secrets = Secrets(SEATS, seat, hidden_events(GAME, EVENTS[:head], seat))
        assert secrets.hidden_events, "the walk has secrets to look for"
        for path in CACHED_ROUTES:
            for query in _queries(path, head):
                where = f"{who} {path}?{'&'.join(f'{k}={v}' for k, v in query.items())}"
                response = client.get(path.replace("{gid}", GID), query_string=query, headers=_headers(users, who))
                assert response.status_code == 200, where
                looked += _check_response(GAME, response, secrets, EVENTS[:head], where)
    assert looked > 100


def test_an_idempotent_replay_serves_only_the_view_a_new_request_would(app, client, users):
    head = _alone(app)
    _seat_the_table(app, client, users)
    first = _bobs_move(client, users, head)
    assert first.status_code == 201
    assert first.get_json()["events"][0]["action"] == EVENTS[head].action, "bob sees his own move"
    again = _bobs_move(client, users, head)
    assert (again.status_code, again.get_json()) == (201, first.get_json())
    for who, status in (("carol", 403), (None, 401)):
        response = client.post(branch_url(GID, what="actions"), json={"action": EVENTS[head].action, "expected_seq": head},
                               headers=_headers(users, who) | {"Idempotency-Key": "bob-1"})
        assert_error(response, status)
        assert EVENTS[head].action not in response.get_data(as_text=True)


def _store_an_analysis(app: Any, head: int) -> None:
    """One decision's verdict stored in the full view, as the analysis worker stores it (alice's, before the table)."""
    stores = app.extensions["ludolog"].stores
    record = stores.games.game(GID)
    position = stores.reader.position(GID, MAIN, head)
    rules, state = position.rules, position.state
    actor = rules.current_actor(state)
    assert actor not in (None, CHANCE)
    results = stored_results(stores.redis, record, 2, "full")
    verdict = analyse_position(rules, state, head, 2, "full")  # the head's decision: no move played after it yet
    assert results.put(holder_of(stores.games.branches(GID), MAIN, head), Position(head, int(actor), None), verdict)


def test_a_stored_analysis_is_served_to_no_one_while_the_table_plays(app, client, users):
    head = _alone(app)
    _store_an_analysis(app, head)
    shown = client.get(branch_url(GID, what="analysis"), query_string={"rollouts": 2}, headers=users.auth("alice"))
    assert shown.status_code == 200 and shown.get_json()["done"] >= 1, "the stored verdict is there to be served"
    _seat_the_table(app, client, users)
    for who in ("alice", "bob", "carol", None):
        for view in ("full", "0", "1"):
            response = client.get(branch_url(GID, what="analysis"), query_string={"rollouts": 2, "view": view},
                                  headers=_headers(users, who))
            assert_error(response, 403)


@pytest.fixture
def streams() -> Iterator[list[SseClient]]:
    """Followers of the table opened before any move: bob, carol and an anonymous reader (closed at the end)."""
    opened: list[SseClient] = []
    yield opened
    for follower in opened:
        follower.close()


def test_the_live_streams_shared_batches_serve_each_follower_only_their_view(app, client, users, live_server, streams):
    head = _alone(app)
    _seat_the_table(app, client, users)
    port = urlsplit(live_server).port
    for who, _ in VIEWERS:
        streams.append(SseClient(port, f"/api/games/{GID}/branches/main/stream", _headers(users, who)).open())
        assert streams[-1].status == 200
    assert _bobs_move(client, users, head).status_code == 201
    for (who, seat), follower in zip(VIEWERS, streams, strict=True):
        message = follower.next_message()
        assert int(message.id or 0) == head + 1
        seen = client.get(branch_url(GID, what="events"), query_string={"after": head, "limit": 1},
                          headers=_headers(users, who)).get_json()["events"][0]
        assert message.json() == seen, who
        assert (EVENTS[head].action in message.data) == (seat == 1), (who, "only bob sees the bonus card he kept")
