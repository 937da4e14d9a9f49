"""The live stream (``GET …/branches/<bid>/stream``) against the real gunicorn of deploy/ with its gevent workers:
resuming with Last-Event-ID sees every event once, 200 streams at once all get a move, a seat's stream is the events
route's view, a store that stops answering ends the streams cleanly, bad input is a 4xx."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from engine import get_rules
from service.games.demo import demo_playout, demo_setup
from service.runtime.redis_server import EmbeddedRedis
from service.store.games import MAIN, GameStore
from service.store.users import UserStore
from tests.helpers import PATIENCE_SECONDS
from tests.service.api.sse import Gunicorn, SseClient
from tests.service.api.test_hidden_information import hidden_events


@pytest.fixture
def server(redis_server: EmbeddedRedis, redis_client: redis.Redis) -> Iterator[Gunicorn]:
    """gunicorn (one gevent worker) on the emptied test Redis."""
    with Gunicorn(redis_server.url) as running:
        yield running


@pytest.fixture
def token(redis_client: redis.Redis) -> str:
    """alice's API token."""
    return UserStore(redis_client).add("alice")


def new_game(server: Gunicorn, token: str) -> str:
    """A public Puerto Rico game's id."""
    status, body = server.send("/api/games", {"game": "puerto_rico", "players": ["Anna", "Ben", "Cleo"], "seed": "s1"}, token)
    assert status == 201, body
    return str(body["id"])


def play_once(server: Gunicorn, gid: str, token: str) -> int:
    """One move on main (the first legal action, as the player of ``token`` sees them); the new head."""
    status, legal = server.get(f"/api/games/{gid}/branches/main/legal", token)
    assert status == 200 and legal["actor"] is not None, legal
    status, body = server.send(f"/api/games/{gid}/branches/main/actions",
                               {"action": legal["actions"][0]["action"], "expected_seq": legal["seq"]}, token)
    assert status == 201, body
    return int(body["seq"])


def all_events(server: Gunicorn, gid: str, after: int, view: str = "full") -> list[dict[str, object]]:
    """The events route's answer."""
    status, body = server.get(f"/api/games/{gid}/branches/main/events?after={after}&limit=1000&view={view}")
    assert status == 200, body
    return list(body["events"])


def stream(server: Gunicorn, gid: str, query: str = "", headers: dict[str, str] | None = None) -> SseClient:
    """An open stream of main."""
    return SseClient(server.port, f"/api/games/{gid}/branches/main/stream{query}", headers or {}).open()


def test_resuming_with_last_event_id_sees_every_event_once(server: Gunicorn, token: str) -> None:
    gid = new_game(server, token)
    start = play_once(server, gid, token)
    first = stream(server, gid)  # no Last-Event-ID: from the head on
    assert first.status == 200 and first.response_headers["content-type"].startswith("text/event-stream")
    heads = [play_once(server, gid, token) for _ in range(3)]
    seen = []
    while not seen or int(seen[-1].id or 0) < heads[-1]:
        seen.append(first.next_message())
    assert first.retry is not None and first.retry > 0
    first.close()
    missed = [play_once(server, gid, token) for _ in range(3)]  # played while the page was away
    again = stream(server, gid, headers={"Last-Event-ID": str(seen[-1].id)})
    later = [play_once(server, gid, token) for _ in range(2)]
    while int(seen[-1].id or 0) < later[-1]:
        seen.append(again.next_message())
    again.close()
    seqs = [int(m.id or 0) for m in seen]
    assert seqs == list(range(start + 1, later[-1] + 1)), "every event once, in order, none missed while away"
    assert missed[-1] < later[-1]
    expected = all_events(server, gid, start)
    assert [m.json() for m in seen] == expected, "data is what the events route returns"
    assert [m.event for m in seen] == [e["type"] for e in expected]


def test_the_query_fallback_resumes_like_the_header(server: Gunicorn, token: str) -> None:
    gid = new_game(server, token)
    heads = [play_once(server, gid, token) for _ in range(2)]
    client = stream(server, gid, "?last_event_id=0")
    seqs = []
    while not seqs or seqs[-1] < heads[-1]:
        seqs.append(int(client.next_message().id or 0))
    client.close()
    assert seqs == list(range(1, heads[-1] + 1))


def test_two_hundred_streams_all_get_the_move(server: Gunicorn, token: str) -> None:
    gid = new_game(server, token)
    # 200 readers on a loaded 2-core machine: correctness here, not latency, so each waits up to 2 minutes
    clients = [SseClient(server.port, f"/api/games/{gid}/branches/main/stream", timeout=120.0).open() for _ in range(200)]
    assert all(c.status == 200 for c in clients)
    head = play_once(server, gid, token)
    received: dict[int, list[int]] = {}
    failed: dict[int, str] = {}

    def read(index: int) -> None:
        got = []
        try:
            while not got or got[-1] < head:
                got.append(int(clients[index].next_message().id or 0))
        except (OSError, EOFError) as error:
            failed[index] = f"{type(error).__name__}: {error} after {got}"
            return
        received[index] = got

    threads = [threading.Thread(target=read, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=PATIENCE_SECONDS)
    for client in clients:
        client.close()
    assert not failed, failed
    assert len(received) == 200
    assert len({tuple(seqs) for seqs in received.values()}) == 1 and received[0][-1] == head


def test_a_seat_stream_never_carries_another_seats_hidden_values(server: Gunicorn, redis_client: redis.Redis) -> None:
    """Walked like test_hidden_information: the events that gave another seat a hidden card must not show it."""
    game = "golden_city"
    playout = demo_playout(game, 1)
    events = playout.events[:160]
    gid = "live-golden-city"
    store = GameStore(redis_client)
    store.create_game(game, get_rules(game).version, demo_setup(game, 1), owner="alice", gid=gid, source="live", seed="1")
    store.append(gid, MAIN, events[1:], 1)
    full = {e["seq"]: e for e in all_events(server, gid, 0)}
    checked = 0
    for view in ("0", "1", "spectator"):
        client = stream(server, gid, f"?view={view}&last_event_id=0")
        messages = client.messages(len(events))
        client.close()
        assert [m.json() for m in messages] == all_events(server, gid, 0, view), "the events route's view, event for event"
        by_seq = {int(m.id or 0): m for m in messages}
        secrets_ = hidden_events(game, events, None if view == "spectator" else int(view))
        for seq, notation in secrets_.items():
            assert notation not in by_seq[seq].data and notation in json.dumps(full[seq])
            checked += 1
    assert checked > 0, "the walk found hidden events to check"


def test_bad_input_is_a_clear_4xx(server: Gunicorn, token: str) -> None:
    gid = new_game(server, token)
    assert server.get(f"/api/games/{gid}/branches/main/stream?view=7")[0] == 400
    assert server.get(f"/api/games/{gid}/branches/nope/stream")[0] == 404
    assert server.get("/api/games/nope/branches/main/stream")[0] == 404
    bad = stream(server, gid, headers={"Last-Event-ID": "soon"})
    assert bad.status == 400
    for digits in ("\u00b2", "1\u00b9", "\u00bd"):  # digits to str.isdigit ("²", "¹", "½" as their Latin-1 bytes)
        bad = stream(server, gid, headers={"Last-Event-ID": digits})
        assert bad.status == 400, digits
        assert "Last-Event-ID" in bad.body_text(), digits


def test_a_store_that_stops_answering_ends_the_streams_cleanly(tmp_path: Path, token: str) -> None:
    own = EmbeddedRedis(tmp_path / "redis")
    own.start()
    try:
        name = UserStore(redis.Redis.from_url(own.url)).add("alice")
        with Gunicorn(own.url) as running:
            gid = new_game(running, name)
            clients = [stream(running, gid) for _ in range(5)]
            own.stop()
            for client in clients:
                with pytest.raises(EOFError):
                    client.next_message()
                assert client.ended
            status, body = running.get(f"/api/games/{gid}/branches/main/stream")
            assert status == 503 and body["error"]["code"] == "unavailable"
        assert "Traceback" not in running.errors()
    finally:
        own.stop()


def test_a_finished_line_sends_what_was_missed_then_ends(server: Gunicorn, redis_client: redis.Redis) -> None:
    game = "golden_city"
    playout = demo_playout(game, 1)
    gid = "live-finished"
    store = GameStore(redis_client)
    store.create_game(game, get_rules(game).version, demo_setup(game, 1), owner="alice", gid=gid, source="live", seed="1")
    store.append(gid, MAIN, playout.events[1:], 1)
    head = playout.events[-1].seq
    client = stream(server, gid, headers={"Last-Event-ID": str(head - 2)})
    messages = client.messages(3)
    assert [m.id for m in messages[:2]] == [str(head - 1), str(head)]
    assert messages[2].event == "end" and messages[2].json() == {"head": head}
    with pytest.raises(EOFError):
        client.next_message()


def test_the_game_list_stream_never_shows_a_private_game_to_others(server: Gunicorn, token: str,
                                                                   redis_client: redis.Redis) -> None:
    bob = UserStore(redis_client).add("bob")
    watching = {name: SseClient(server.port, "/api/games/stream", {"Authorization": f"Bearer {key}"}).open()
                for name, key in (("alice", token), ("bob", bob))}
    anonymous = SseClient(server.port, "/api/games/stream").open()
    status, private = server.send("/api/games", {"game": "puerto_rico", "players": ["A", "B", "C"], "visibility": "private"},
                                  token)
    assert status == 201, private
    public = new_game(server, token)
    assert [m.json()["id"] for m in watching["alice"].messages(2)] == [private["id"], public], "the owner sees both"
    got = {"bob": watching["bob"].next_message().json()["id"], "anonymous": anonymous.next_message().json()["id"]}
    assert got == {"bob": public, "anonymous": public}, "the private game came first and was not shown to them"
    for client in [*watching.values(), anonymous]:
        client.close()


def _put(server: Gunicorn, path: str, body: object, token: str) -> tuple[int, object]:
    """(status, parsed JSON) of a PUT of ``body``."""
    request = urllib.request.Request(server.url(path), data=json.dumps(body).encode(), method="PUT",
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def test_a_full_view_stream_opened_before_the_seats_were_given_ends_when_they_are(server: Gunicorn, token: str) -> None:
    """A stranger follows alice's branch in the full view while she plays it alone; she then invites someone to a seat
    (her branch becomes a table, read per seat). The open stream must not go on sending every seat's hidden
    information: at the next event it says the view is gone (naming the one the stranger may have now) and ends, and the
    stranger's reconnection in the full view is refused, while the spectator view is served."""
    # No seed named: a branch whose owner named its seed seats the engine only (issue 45 item 10).
    status, made = server.send("/api/games", {"game": "puerto_rico", "players": ["Anna", "Ben", "Cleo"]}, token)
    assert status == 201, made
    gid = str(made["id"])
    watcher = stream(server, gid, "?view=full")
    assert watcher.status == 200
    status, seat = _put(server, f"/api/games/{gid}/branches/main/seats/1", {"holder": "invite"}, token)
    assert status == 200, seat
    head = play_once(server, gid, token)
    message = watcher.next_message()
    assert message.event == "view" and message.json()["views"] == ["spectator"], "the view the stranger may have now"
    with pytest.raises(EOFError):
        watcher.next_message()
    assert stream(server, gid, "?view=full").status == 403
    spectator = stream(server, gid, f"?last_event_id={head - 1}")
    first = spectator.next_message()
    assert int(first.id or 0) == head
    assert first.json() == all_events(server, gid, head - 1, "spectator")[0]
    spectator.close()
    mine = stream(server, gid, f"?last_event_id={head - 1}", {"Authorization": f"Bearer {token}"})
    status, seat_zero = server.get(f"/api/games/{gid}/branches/main/events?after={head - 1}&view=0", token)
    assert status == 200 and mine.next_message().json() == seat_zero["events"][0], "the owner follows her own seat"
    mine.close()


def test_every_stream_documents_what_every_stream_does_and_only_the_branch_stream_resumes(client):
    """What every live route does alike (keep-alive comments, the retry, the 429) is in each stream's description,
    said once by documented_stream; 'no resume' in every one but the branch's own, which resumes after Last-Event-ID
    and says how (its description is its view's docstring)."""
    from service.api.sse import EVERY_STREAM, NO_RESUME

    paths = client.get("/api/openapi.json").get_json()["paths"]
    streams = {path: ops["get"]["description"] for path, ops in paths.items() if path.endswith("/stream")}
    branch = "/api/games/{gid}/branches/{bid}/stream"
    assert branch in streams and len(streams) >= 7, sorted(streams)
    for path, description in streams.items():
        assert description.endswith(EVERY_STREAM), path
        assert (NO_RESUME in description) is (path != branch), path
    assert "Last-Event-ID (or last_event_id) resumes after that seq with no gap" in streams[branch]
