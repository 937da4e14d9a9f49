"""A table's chat (issue 46 item 6): the owner and the people seated write; spectators read only a public game's; a
stranger to a private game gets the game's 404; a message is 1 to 500 characters (400 beyond), each user posts at most
a few a window, counted atomically (429 with Retry-After, tried with real racing requests); its author or the owner
deletes one, anyone else gets 403; the chat goes with its branch; and the stream of the real gunicorn carries what is
said and deleted as it happens. Real Redis, the real app, the Pig test game."""

from __future__ import annotations

import threading
import urllib.request
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient

from service.api.chat import ChatMessageSchema, ChatSchema
from service.runtime.redis_server import EmbeddedRedis
from service.store import keys
from service.store.chat import MAX_CHARS, POSTS_PER_WINDOW
from service.store.users import UserStore
from tests.service.api.helpers import Users, assert_error, assert_matches, branch_url
from tests.service.api.sse import Gunicorn, SseClient


def _table(client: FlaskClient, users: Users, visibility: str = "public") -> str:
    """A new pig game of alice's, a table from its start: seat 0 hers, seat 1 bob's by invite. Its id."""
    made = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Ben"], "visibility": visibility,
                                           "seats": [{"holder": "me"}, {"holder": "invite"}]},
                       headers=users.auth("alice")).get_json()
    token = made["seats"][1]["invite_url"].rsplit("/", 1)[1]
    assert client.post(f"/api/invites/{token}", headers=users.auth("bob")).status_code == 200
    return str(made["id"])


def _say(client: FlaskClient, users: Users, gid: str, who: str | None, text: str, bid: str = "main") -> Any:
    return client.post(branch_url(gid, bid, "chat"), json={"text": text}, headers=users.auth(who) if who else {})


def _chat(client: FlaskClient, users: Users, gid: str, who: str | None, bid: str = "main") -> Any:
    return client.get(branch_url(gid, bid, "chat"), headers=users.auth(who) if who else {})


def test_the_seated_players_and_the_owner_talk_and_read_it_in_order(client: FlaskClient, users: Users) -> None:
    gid = _table(client, users)
    said = _say(client, users, gid, "alice", "hello Ben")
    assert said.status_code == 201, said.get_json()
    assert_matches(ChatMessageSchema, said.get_json())
    assert _say(client, users, gid, "bob", "hi! <b>ready</b>").status_code == 201
    chat = _chat(client, users, gid, "bob").get_json()
    assert_matches(ChatSchema, chat)
    assert [(m["author"], m["text"]) for m in chat["messages"]] == [("alice", "hello Ben"), ("bob", "hi! <b>ready</b>")]
    assert chat["may_write"] is True and chat["max_chars"] == MAX_CHARS


def test_spectators_read_a_public_tables_chat_only_and_never_write(client: FlaskClient, users: Users) -> None:
    gid = _table(client, users, "public")
    _say(client, users, gid, "bob", "good luck")
    for reader in ("carol", None):
        chat = _chat(client, users, gid, reader)
        assert chat.status_code == 200 and chat.get_json()["may_write"] is False
        assert [m["text"] for m in chat.get_json()["messages"]] == ["good luck"]
    assert_error(_say(client, users, gid, "carol", "let me in"), 403, "not_at_table")
    assert_error(_say(client, users, gid, None, "anonymous"), 401)


def test_an_unlisted_tables_chat_is_its_players_own(client: FlaskClient, users: Users) -> None:
    gid = _table(client, users, "unlisted")
    _say(client, users, gid, "alice", "just us")
    for reader in ("carol", None):
        error = assert_error(_chat(client, users, gid, reader), 403, "chat_closed")
        assert "players" in error["message"]
        assert client.get(branch_url(gid, what="chat/stream"), headers=users.auth(reader) if reader else {}).status_code == 403
    assert_error(_say(client, users, gid, "carol", "hello?"), 403)
    assert _chat(client, users, gid, "bob").status_code == 200


def test_a_stranger_to_a_private_table_gets_the_games_404(client: FlaskClient, users: Users) -> None:
    made = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Ben"], "visibility": "private",
                                           "seats": [{"holder": "me"}, {"holder": "engine", "level": "easy"}]},
                       headers=users.auth("alice")).get_json()
    assert _say(client, users, made["id"], "alice", "a note to myself").status_code == 201
    for reader in ("carol", None):
        assert_error(_chat(client, users, made["id"], reader), 404)
        assert_error(client.get(branch_url(made["id"], what="chat/stream"), headers=users.auth(reader) if reader else {}), 404)
    assert_error(_say(client, users, made["id"], "carol", "hi"), 404)


def test_a_branch_without_seats_has_no_chat_to_write(client: FlaskClient, users: Users, new_game: Any) -> None:
    game = new_game()
    assert _chat(client, users, game["id"], "alice").get_json() == {"messages": [], "may_write": False,
                                                                     "max_chars": MAX_CHARS}
    assert "a chat belongs to a table" in assert_error(_say(client, users, game["id"], "alice", "hi"), 409, "no_table")["message"]


def test_a_message_is_one_to_500_characters_with_a_clear_400(client: FlaskClient, users: Users) -> None:
    gid = _table(client, users)
    assert _say(client, users, gid, "bob", "x" * MAX_CHARS).status_code == 201
    for text in ("x" * (MAX_CHARS + 1), "", "   \n "):
        error = assert_error(_say(client, users, gid, "bob", text), 400)
        assert "text" in error["details"]["fields"], error
    assert "1 to 500 characters" in str(assert_error(_say(client, users, gid, "bob", "y" * 600), 400)["details"])
    assert_error(client.post(branch_url(gid, what="chat"), json={"text": 5}, headers=users.auth("bob")), 400)
    assert_error(_say(client, users, gid, "bob", "bell\x07"), 400)


def test_posts_racing_together_pass_the_rate_limit_no_more_than_it_allows(app: Flask, client: FlaskClient,
                                                                        users: Users) -> None:
    gid = _table(client, users)
    answers: list[Any] = []
    start = threading.Barrier(20)

    def post(n: int) -> None:
        own = app.test_client()
        start.wait()
        answers.append(own.post(branch_url(gid, what="chat"), json={"text": f"spam {n}"}, headers=users.auth("bob")))

    threads = [threading.Thread(target=post, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [201] * POSTS_PER_WINDOW + [429] * (20 - POSTS_PER_WINDOW), statuses
    refused = next(a for a in answers if a.status_code == 429)
    assert int(refused.headers["Retry-After"]) >= 1 and "too fast" in refused.get_json()["error"]["message"]
    assert len(_chat(client, users, gid, "alice").get_json()["messages"]) == POSTS_PER_WINDOW
    assert _say(client, users, gid, "alice", "alice has her own count").status_code == 201


def test_a_message_is_deleted_by_its_author_or_the_owner_and_nobody_else(client: FlaskClient, users: Users) -> None:
    gid = _table(client, users)
    alices = _say(client, users, gid, "alice", "from alice").get_json()["id"]
    bobs = [_say(client, users, gid, "bob", f"from bob {n}").get_json()["id"] for n in range(2)]
    assert_error(client.delete(branch_url(gid, what=f"chat/{alices}"), headers=users.auth("bob")), 403, "not_yours")
    assert_error(client.delete(branch_url(gid, what=f"chat/{bobs[0]}"), headers=users.auth("carol")), 403)
    assert_error(client.delete(branch_url(gid, what=f"chat/{bobs[0]}")), 401)
    assert client.delete(branch_url(gid, what=f"chat/{bobs[0]}"), headers=users.auth("bob")).status_code == 204
    assert client.delete(branch_url(gid, what=f"chat/{bobs[1]}"), headers=users.auth("alice")).status_code == 204
    assert [m["text"] for m in _chat(client, users, gid, "bob").get_json()["messages"]] == ["from alice"]
    for missing in (bobs[0], "1-1", "nonsense", "9" * 30 + "-0"):
        assert_error(client.delete(branch_url(gid, what=f"chat/{missing}"), headers=users.auth("alice")), 404)


def test_the_chat_goes_with_its_branch(client: FlaskClient, users: Users, redis_client: redis.Redis) -> None:
    made = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Ben"]}, headers=users.auth("alice")).get_json()
    fork = client.post(f"/api/games/{made['id']}/branches", json={"from": "main", "at": made["seq"]},
                       headers=users.auth("alice")).get_json()["branch"]
    client.put(branch_url(made["id"], fork, "seats/1"), json={"holder": "engine", "level": "easy"}, headers=users.auth("alice"))
    assert _say(client, users, made["id"], "alice", "soon gone", fork).status_code == 201
    assert redis_client.exists(keys.chat_for(made["id"], fork))
    assert client.delete(branch_url(made["id"], fork), headers=users.auth("alice")).status_code == 204
    assert not redis_client.exists(keys.chat_for(made["id"], fork))
    assert_error(_chat(client, users, made["id"], "alice", fork), 404)


def test_the_stream_of_the_real_server_carries_what_is_said_and_deleted(redis_server: EmbeddedRedis,
                                                                       redis_client: redis.Redis) -> None:
    """gunicorn of deploy/ (gevent): bob follows the chat of an unlisted table; alice says something, then deletes
    it: both reach him at once; once alice takes his seat back, his stream says it is closed to him and ends."""
    store = UserStore(redis_client)
    alice, bob = store.add("alice"), store.add("bob")
    with Gunicorn(redis_server.url) as server:
        status, made = server.send("/api/games", {"game": "puerto_rico", "players": ["Anna", "Ben", "Cleo"],
                                                  "visibility": "unlisted", "seats": [
                                                      {"holder": "me"}, {"holder": "invite"},
                                                      {"holder": "engine", "level": "easy"}]}, alice)
        assert status == 201, made
        gid = made["id"]
        assert server.send(f"/api/invites/{made['seats'][1]['invite_url'].rsplit('/', 1)[1]}", {}, bob)[0] == 200
        assert server.send(branch_url(gid, what="chat"), {"text": "before"}, alice)[0] == 201
        stream = SseClient(server.port, branch_url(gid, what="chat/stream"), {"Authorization": f"Bearer {bob}"}).open()
        assert stream.status == 200
        opening = stream.next_message()
        assert opening.event == "chat" and [m["text"] for m in opening.json()["messages"]] == ["before"]
        status, said = server.send(branch_url(gid, what="chat"), {"text": "<img src=x onerror=alert(1)>"}, alice)
        assert status == 201
        heard = stream.next_message()
        assert heard.event == "said" and heard.json() == said
        _delete(server, branch_url(gid, what=f"chat/{said['id']}"), alice)
        unsaid = stream.next_message()
        assert unsaid.event == "unsaid" and unsaid.json() == {"id": said["id"]}
        _delete(server, branch_url(gid, what="seats/1"), alice)
        assert server.send(branch_url(gid, what="chat"), {"text": "bob is gone"}, alice)[0] == 201
        closed = stream.next_message()
        assert closed.event == "closed"
        assert "bob is gone" not in closed.data


def _delete(server: Gunicorn, path: str, token: str) -> None:
    request = urllib.request.Request(server.url(path), method="DELETE", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status in (200, 204)
