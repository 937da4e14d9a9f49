"""Your tables, the finished ones apart (issue 46 item 2): ``GET /api/me/tables`` lists the tables being played under
``tables`` and those whose game is over under ``finished``, the latest ended first, as many as asked with how many
there are. A table leaves the index of tables being played with the move that ends its game (so a listing reads the
caller's tables being played, not every table they ever sat at), and one found there over (ended before the index
kept them apart) is moved when listed. Real Redis, the real play service, the Pig test game."""

from __future__ import annotations

from typing import Any

import redis
from flask.testing import FlaskClient

from service.store import keys
from tests.service.api.helpers import Users, assert_error, assert_matches, branch_url

SHORT_PIG = {"game": "pig", "players": ["Anna", "Ben"], "options": {"target": 1},
             "seats": [{"holder": "me"}, {"holder": "invite"}]}


def _listing(client: FlaskClient, users: Users, who: str, query: str = "") -> dict[str, Any]:
    from service.api.tables import TablesSchema
    response = client.get(f"/api/me/tables{query}", headers=users.auth(who))
    assert response.status_code == 200, response.get_json()
    assert_matches(TablesSchema, response.get_json())
    return dict(response.get_json())


def _table(client: FlaskClient, users: Users) -> str:
    """A pig table to 1 point: seat 0 alice's, seat 1 bob's by invite. Its game id."""
    made = client.post("/api/games", json=SHORT_PIG, headers=users.auth("alice"))
    assert made.status_code == 201, made.get_json()
    token = made.get_json()["seats"][1]["invite_url"].rsplit("/", 1)[1]
    assert client.post(f"/api/invites/{token}", headers=users.auth("bob")).status_code == 200
    return str(made.get_json()["id"])


def _play_to_the_end(client: FlaskClient, users: Users, gid: str) -> None:
    """Alice and bob each play their seat (roll, and hold once there is something to keep) until the game is over."""
    holders = {0: users.auth("alice"), 1: users.auth("bob")}
    for _ in range(200):
        state = client.get(branch_url(gid, what="state")).get_json()
        if state["actor"] is None:
            return
        legal = client.get(branch_url(gid, what="legal"), headers=holders[state["actor"]]).get_json()
        actions = [a["action"] for a in legal["actions"]]
        played = client.post(branch_url(gid, what="actions"), headers=holders[legal["actor"]],
                             json={"action": "hold" if "hold" in actions else "roll", "expected_seq": legal["seq"]})
        assert played.status_code == 201, played.get_json()
    raise AssertionError("the game did not end")


def _members(redis_client: redis.Redis, key: str) -> list[bytes]:
    return list(redis_client.zrange(key, 0, -1))


def test_a_table_whose_game_ended_is_listed_apart_the_latest_first(client: FlaskClient, users: Users,
                                                                    redis_client: redis.Redis) -> None:
    first, second, going = _table(client, users), _table(client, users), _table(client, users)
    _play_to_the_end(client, users, first)
    _play_to_the_end(client, users, second)
    for who in ("alice", "bob"):
        listing = _listing(client, users, who)
        assert [t["game"] for t in listing["tables"]] == [going], f"{who}: only the game going on is being played"
        assert [t["game"] for t in listing["finished"]] == [second, first], f"{who}: the latest ended first"
        assert listing["finished_total"] == 2
        assert all(t["over"] and t["to_move"] is None and t["ended"] for t in listing["finished"])
        assert listing["tables"][0]["ended"] is None and not listing["tables"][0]["over"]
    one = _listing(client, users, "bob", "?finished=1")
    assert [t["game"] for t in one["finished"]] == [second] and one["finished_total"] == 2, "one asked, two in all"
    assert _listing(client, users, "carol") == {"tables": [], "finished": [], "finished_total": 0}
    assert_error(client.get("/api/me/tables?finished=-1", headers=users.auth("bob")), 400)


def test_the_move_that_ends_the_game_moves_the_table_out_of_the_index_of_tables_played(
        client: FlaskClient, users: Users, redis_client: redis.Redis) -> None:
    """Straight after the last move, before anyone lists anything: the tables being played are read from an index that
    no longer holds it, so a listing costs the tables being played, however many ended before."""
    gid = _table(client, users)
    member = f"{gid}/main".encode()
    assert all(member in _members(redis_client, keys.tables_of(who)) for who in ("alice", "bob"))
    _play_to_the_end(client, users, gid)
    for who in ("alice", "bob"):
        assert member not in _members(redis_client, keys.tables_of(who)), f"{who}: still among the tables played"
        assert _members(redis_client, keys.finished_tables_of(who)) == [member]
    assert client.delete(branch_url(gid, what="seats/1"), headers=users.auth("alice")).status_code == 200
    assert _members(redis_client, keys.finished_tables_of("bob")) == [], "bob's seat was taken back: not his table"
    assert _members(redis_client, keys.tables_of("alice")) == [], "a seat changed at a finished table: still finished"
    assert _members(redis_client, keys.finished_tables_of("alice")) == [member]
    assert _listing(client, users, "bob")["finished"] == []


def test_a_finished_table_left_among_those_played_is_moved_when_listed(client: FlaskClient, users: Users,
                                                                      redis_client: redis.Redis) -> None:
    """A table that ended before finished tables were kept apart is still in the index of tables played: the listing
    shows it as finished and moves it, once."""
    gid = _table(client, users)
    _play_to_the_end(client, users, gid)
    member = f"{gid}/main"
    for who in ("alice", "bob"):  # as the index was before: the finished table among those played
        redis_client.zrem(keys.finished_tables_of(who), member)
        redis_client.zadd(keys.tables_of(who), {member: 1.0})
    listing = _listing(client, users, "bob")
    assert listing["tables"] == [] and [t["game"] for t in listing["finished"]] == [gid]
    assert _members(redis_client, keys.tables_of("alice")) == [] and _members(redis_client, keys.tables_of("bob")) == []
    assert _listing(client, users, "alice")["finished_total"] == 1
