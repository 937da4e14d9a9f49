"""The key rule (issue 45 item 1): an ``Idempotency-Key`` is its first user's on a branch, and a replay answers only
what a new request would.

At a table of Die goldene Stadt (alice owns it and holds seat 0, bob holds seat 1 by invite, the engine the rest),
the key another player or the engine used is a new request from anyone else: a stranger gets the 403 any move of
theirs gets, a seat holder the answer a new move at that seq gets (409), whether the key exists or not, so no answer
is an oracle. The key's own user is answered through the same who-may-move check and viewer rule as a new request.
The engine's move is played by the worker's own code (:func:`workers.engine_seat.play_engine_move`) in the test.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.jobs import EngineMoveScheduler, engine_queue
from service.store import keys
from service.store.games import MAIN
from tests.helpers import kill_with_work_horses, start_worker
from tests.service.api.helpers import Users, assert_error, branch_url
from tests.service.api.tables import BOBS_HIDDEN_MOVE, EVENTS, first_turn_of, golden_table
from tests.workers.test_job_recovery import wait_for
from workers.engine_seat import ENGINE_AUTHOR, play_engine_move

GID = "keys-golden-city"
BOB, ENGINE_SEAT = 1, 2


def _post(client: FlaskClient, who: str, users: Users, action: str, expected: int, key: str, **query: str) -> Any:
    return client.post(branch_url(GID, what="actions"), json={"action": action, "expected_seq": expected},
                       headers=users.auth(who) | {"Idempotency-Key": key}, query_string=query)


def _answer(response: Any) -> tuple[int, Any]:
    return response.status_code, response.get_json()


@pytest.fixture
def bobs_move(app, client, users) -> tuple[str, int, Any]:
    """Bob has played his move with the key ``bob-1``: the action, the seq it was played after, the 201 answer."""
    head = len(golden_table(app, client, users, GID, BOBS_HIDDEN_MOVE))
    first = _post(client, "bob", users, EVENTS[head].action, head, "bob-1")
    assert first.status_code == 201, first.get_json()
    return EVENTS[head].action, head, first.get_json()


def test_a_stranger_replaying_a_players_key_gets_the_403_of_any_move_of_theirs(client, users, bobs_move):
    action, head, _ = bobs_move
    used = _post(client, "carol", users, action, head, "bob-1")
    error = assert_error(used, 403)
    assert "you hold none of its seats" in error["message"]
    assert _answer(used) == _answer(_post(client, "carol", users, action, head, "never-used")), "no oracle"


def test_another_seat_holder_replaying_a_players_key_gets_what_a_new_request_gets(client, users, bobs_move):
    action, head, _ = bobs_move
    used = _post(client, "alice", users, action, head, "bob-1")
    assert_error(used, 409)
    assert _answer(used) == _answer(_post(client, "alice", users, action, head, "never-used")), "no oracle"


def test_the_keys_own_user_replays_it_in_their_own_view(client, users, bobs_move):
    action, head, first = bobs_move
    again = _post(client, "bob", users, action, head, "bob-1")
    assert _answer(again) == (201, first)
    shown = client.get(branch_url(GID, what="events"), query_string={"after": head}, headers=users.auth("bob"))
    assert first["events"] == shown.get_json()["events"][:len(first["events"])], "the answer is bob's view of them"
    assert_error(_post(client, "bob", users, action, head, "bob-1", view="full"), 403, "hidden_while_played")


def test_a_replay_by_a_player_who_no_longer_holds_the_seat_is_refused(client, users, bobs_move):
    action, head, _ = bobs_move
    assert client.delete(branch_url(GID, what=f"seats/{BOB}"), headers=users.auth("alice")).status_code == 200
    error = assert_error(_post(client, "bob", users, action, head, "bob-1"), 403)
    assert "you hold none of its seats" in error["message"]


def test_the_engines_keys_answer_nobody_else(app, client, users):
    head = len(golden_table(app, client, users, GID, first_turn_of(ENGINE_SEAT)))
    played = play_engine_move(app.extensions["ludolog"].stores, GID, MAIN, head)
    assert played is not None
    stored = app.extensions["ludolog"].games.events(GID, MAIN, after=head)
    assert stored[0].meta["author"] == ENGINE_AUTHOR and stored[0].action == played
    for who, status in (("carol", 403), ("bob", 409), ("alice", 409)):
        guessed = _post(client, who, users, played, head, f"engine-move-{head}")
        assert_error(guessed, status)
        assert _answer(guessed) == _answer(_post(client, who, users, played, head, f"engine-move-{head - 1}")), who
    assert app.extensions["ludolog"].games.head(GID, MAIN) == stored[-1].seq, "nothing more was stored"


@pytest.fixture
def engine_worker(redis_server, config) -> Iterator[subprocess.Popen]:
    """A real ``ludolog worker`` on the app's queues (it plays the engine seats' moves)."""
    worker = start_worker(redis_server.url, "--no-reconcile", LUDOLOG_QUEUE=config.queue_name)
    yield worker
    kill_with_work_horses(worker)


def test_a_real_workers_engine_move_key_is_the_engines_alone(app, client, users, engine_worker):
    head = len(golden_table(app, client, users, GID, first_turn_of(ENGINE_SEAT)))
    stores = app.extensions["ludolog"].stores
    EngineMoveScheduler(stores, engine_queue(stores))(GID, MAIN)
    wait_for(lambda: stores.games.head(GID, MAIN) > head, "the worker's engine move")
    played = stores.games.events(GID, MAIN, after=head, limit=1)[0]
    assert played.meta["author"] == ENGINE_AUTHOR
    assert stores.redis.exists(keys.idempotency_for(GID, MAIN, ENGINE_AUTHOR, f"engine-move-{head}"))
    for who, status in (("carol", 403), ("bob", 409)):
        guessed = _post(client, who, users, played.action, head, f"engine-move-{head}")
        assert_error(guessed, status)
        assert played.action not in guessed.get_data(as_text=True)
