"""Turn e-mails (issue 46 item 3): a move that makes it a person's turn queues a check that mails them, through a real
SMTP server on loopback (aiosmtpd), a real RQ worker and the embedded Redis, once per turn, at most once per table
and quarter hour, never while they have the table open, never after they unsubscribed; a mail server that is down
when the mail is due gets it when it is back. Each test reads what the server received."""

from __future__ import annotations

import json
import re
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
import redis
from flask.testing import FlaskClient
from rq import Queue
from rq.job import Job
from rq.serializers import JSONSerializer

from service.games.turn_mail import NOT_WANTED, PAGE_OPEN, SENT
from service.jobs import TURN_MAIL_JOB, TURN_MAIL_RETRY, enqueue_turn_mail
from service.runtime.config import Config
from service.runtime.redis_server import EmbeddedRedis, free_port
from service.store import keys
from service.store.notifications import LIMITED, TAKEN, NotificationStore
from service.store.users import UserStore
from tests.helpers import kill_with_work_horses, start_worker, wait_until
from tests.service.api.helpers import Users, branch_url, head_of
from tests.service.api.sse import Gunicorn, SseClient
from tests.smtp import SmtpServer, finished_checks

QUEUE = "ludolog-test-mail"
SITE = "http://ludolog.test"
PIG_TABLE = {"game": "pig", "players": ["Anna", "Ben"], "options": {"target": 100},
             "seats": [{"holder": "me"}, {"holder": "invite"}]}


@pytest.fixture
def smtp_port() -> int:
    """The mail server's port (nothing listens on it until a test starts :class:`SmtpServer`)."""
    return free_port()


@pytest.fixture
def config(redis_server: EmbeddedRedis, redis_client: redis.Redis, smtp_port: int) -> Config:
    """The app's settings: mail through the loopback server, the check a second after the turn."""
    return Config(redis_url=redis_server.url, queue_redis_url=None, secret_key="test-secret", queue_name=QUEUE,
                  smtp_url=f"smtp://127.0.0.1:{smtp_port}", public_url=SITE, turn_mail_delay=1)


def _worker_env(smtp_port: int) -> dict[str, str]:
    return {"LUDOLOG_QUEUE": QUEUE, "LUDOLOG_SMTP_URL": f"smtp://127.0.0.1:{smtp_port}", "LUDOLOG_PUBLIC_URL": SITE,
            "LUDOLOG_TURN_MAIL_DELAY": "1"}


@pytest.fixture
def worker(redis_server: EmbeddedRedis, config: Config, smtp_port: int) -> Iterator[subprocess.Popen]:
    """A real ``ludolog worker`` sending through the loopback mail server."""
    process = start_worker(redis_server.url, "--no-reconcile", **_worker_env(smtp_port))
    yield process
    if process.poll() is None:
        kill_with_work_horses(process)


def _table(client: FlaskClient, users: Users, friend: str = "bob") -> str:
    """A pig table of alice's (seat 0) with ``friend`` in seat 1 by invite, who wants turn e-mails. Its game id."""
    made = client.post("/api/games", json=PIG_TABLE, headers=users.auth("alice")).get_json()
    token = made["seats"][1]["invite_url"].rsplit("/", 1)[1]
    assert client.post(f"/api/invites/{token}", headers=users.auth(friend)).status_code == 200
    wants = client.put("/api/me/notifications", json={"email": f"{friend}@example.org", "turn_mail": True},
                       headers=users.auth(friend))
    assert wants.status_code == 200, wants.get_json()
    return str(made["id"])


def _end_turn(client: FlaskClient, users: Users, gid: str, who: str) -> int:
    """``who`` rolls, then holds (unless the roll was a 1, which ended the turn); the head after."""
    for action in ("roll", "hold"):
        client.post(branch_url(gid, what="actions"), json={"action": action, "expected_seq": head_of(client, gid)},
                    headers=users.auth(who))
    return head_of(client, gid)


def _results(client_redis: redis.Redis, gid: str) -> list[str]:
    return [str(job.return_value()) for job in finished_checks(client_redis, QUEUE) if job.args[0] == gid]


def _wait_results(client_redis: redis.Redis, gid: str, count: int) -> list[str]:
    return wait_until(lambda: (found := _results(client_redis, gid)) and len(found) >= count and found,
                      f"{count} checks of table {gid} finished")


def _link(message: EmailMessage, path: str) -> str:
    body = message.get_content()
    found = re.search(rf"{re.escape(SITE)}{re.escape(path)}\S*", body)
    assert found, body
    return found.group(0)


def test_a_turn_mails_the_player_once_with_the_tables_link_and_an_unsubscribe(
        client: FlaskClient, users: Users, worker: subprocess.Popen, smtp_port: int, redis_client: redis.Redis) -> None:
    with SmtpServer(smtp_port) as inbox:
        gid = _table(client, users)
        seq = _end_turn(client, users, gid, "alice")
        assert _wait_results(redis_client, gid, 1) == [SENT]
        assert inbox.count() == 1
    mail = inbox.messages[0]
    assert mail["To"] == "bob@example.org" and mail["Subject"].startswith("Your turn at ")
    assert _link(mail, f"/games/{gid}/b/main") == f"{SITE}/games/{gid}/b/main"
    assert "Ben is to move" in mail.get_content()
    assert mail["List-Unsubscribe"].startswith(f"<{SITE}/api/mail/unsubscribe?token=bob.")
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert redis_client.get(keys.turn_mail_claim_for(gid, "main", "bob", seq)) == b"sent"


def test_the_engines_move_hands_the_turn_and_the_mail_to_the_person(
        client: FlaskClient, users: Users, worker: subprocess.Popen, smtp_port: int, redis_client: redis.Redis) -> None:
    made = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Engine"], "options": {"target": 100},
                                           "seats": [{"holder": "me"}, {"holder": "engine", "level": "easy"}]},
                       headers=users.auth("alice"))
    assert made.status_code == 201, made.get_json()
    gid = made.get_json()["id"]
    client.put("/api/me/notifications", json={"email": "alice@example.org", "turn_mail": True}, headers=users.auth("alice"))
    with SmtpServer(smtp_port) as inbox:
        _end_turn(client, users, gid, "alice")  # her own move: no mail; the engine's, in the worker, hands it back
        assert _wait_results(redis_client, gid, 1) == [SENT]
        assert inbox.count() == 1 and inbox.messages[0]["To"] == "alice@example.org"
    assert client.get("/api/me/tables", headers=users.auth("alice")).get_json()["tables"][0]["your_turn"]


def test_a_persons_move_to_their_own_next_seat_is_no_news(client: FlaskClient, users: Users,
                                                          redis_client: redis.Redis) -> None:
    made = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Ada", "Ben"], "options": {"target": 100},
                                           "seats": [{"holder": "me"}, {"holder": "me"}, {"holder": "invite"}]},
                       headers=users.auth("alice")).get_json()
    gid = made["id"]
    assert client.post(f"/api/invites/{made['seats'][2]['invite_url'].rsplit('/', 1)[1]}",
                       headers=users.auth("bob")).status_code == 200
    client.put("/api/me/notifications", json={"email": "alice@example.org", "turn_mail": True}, headers=users.auth("alice"))
    queue = Queue(QUEUE, connection=redis_client, serializer=JSONSerializer)

    def queued_for() -> list[str]:
        jobs = Job.fetch_many(queue.scheduled_job_registry.get_job_ids(), connection=redis_client, serializer=JSONSerializer)
        return [str(job.args[3]) for job in jobs if job is not None and job.func_name == TURN_MAIL_JOB]

    _end_turn(client, users, gid, "alice")  # Anna's turn ends: Ada's, alice's own seat too
    assert queued_for() == [], "her own move told her nothing new"
    _end_turn(client, users, gid, "alice")
    _end_turn(client, users, gid, "bob")  # Ben's move makes it alice's turn
    assert queued_for() == ["alice"]


def test_a_mail_server_down_then_up_gets_the_one_mail(client: FlaskClient, users: Users, worker: subprocess.Popen,
                                                      smtp_port: int, redis_client: redis.Redis) -> None:
    gid = _table(client, users)
    _end_turn(client, users, gid, "alice")
    queue = Queue(QUEUE, connection=redis_client, serializer=JSONSerializer)

    def failed_once() -> Job | None:
        jobs = Job.fetch_many(queue.scheduled_job_registry.get_job_ids(), connection=redis_client, serializer=JSONSerializer)
        return next((j for j in jobs if j is not None and j.func_name == TURN_MAIL_JOB and j.retries_left is not None
                     and j.retries_left < TURN_MAIL_RETRY.max), None)

    wait_until(failed_once, "the check failed to reach the mail server and waits for its retry")
    assert _results(redis_client, gid) == []
    with SmtpServer(smtp_port) as inbox:
        assert _wait_results(redis_client, gid, 1) == [SENT], "the retry sent it"
        assert inbox.count() == 1


@pytest.fixture
def two_workers(redis_server: EmbeddedRedis, config: Config, smtp_port: int) -> Iterator[list[subprocess.Popen]]:
    """Two real workers: checks of one turn run at the same moment."""
    processes = [start_worker(redis_server.url, "--no-reconcile", **_worker_env(smtp_port)) for _ in range(2)]
    yield processes
    for process in processes:
        if process.poll() is None:
            kill_with_work_horses(process)


def test_checks_of_one_turn_racing_send_one_mail(client: FlaskClient, users: Users, two_workers: list[subprocess.Popen],
                                                 smtp_port: int, redis_client: redis.Redis) -> None:
    with SmtpServer(smtp_port) as inbox:
        gid = _table(client, users)
        seq = _end_turn(client, users, gid, "alice")
        queue = Queue(QUEUE, connection=redis_client, serializer=JSONSerializer)
        for _ in range(3):  # as if the turn had been heard three times more: due at the same second as the first
            enqueue_turn_mail(queue, gid, "main", seq, "bob", after=1)
        results = _wait_results(redis_client, gid, 4)
        assert sorted(results) == sorted([SENT, TAKEN, TAKEN, TAKEN]), results
        assert inbox.count() == 1


def test_a_second_turn_within_the_quarter_hour_sends_nothing(client: FlaskClient, users: Users, worker: subprocess.Popen,
                                                             smtp_port: int, redis_client: redis.Redis) -> None:
    with SmtpServer(smtp_port) as inbox:
        gid = _table(client, users)
        _end_turn(client, users, gid, "alice")
        assert _wait_results(redis_client, gid, 1) == [SENT]
        _end_turn(client, users, gid, "bob")
        _end_turn(client, users, gid, "alice")
        assert _wait_results(redis_client, gid, 2) == [SENT, LIMITED]
        other = _table(client, users)
        _end_turn(client, users, other, "alice")
        assert _wait_results(redis_client, other, 1) == [SENT], "the quarter hour is per table"
        assert inbox.count() == 2


def test_the_unsubscribe_link_stops_the_mails(client: FlaskClient, users: Users, worker: subprocess.Popen,
                                              smtp_port: int, redis_client: redis.Redis) -> None:
    UserStore(redis_client).create("dora", "a long password")
    with SmtpServer(smtp_port) as inbox:
        gid = _table(client, users)
        _end_turn(client, users, gid, "alice")
        assert _wait_results(redis_client, gid, 1) == [SENT]
        link = urlsplit(_link(inbox.messages[0], "/mail/unsubscribe"))
        page = client.get(f"{link.path}?{link.query}")
        assert page.status_code == 200 and "Stop turn e-mails" in page.get_data(as_text=True)
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True))
        assert csrf, page.get_data(as_text=True)
        token = unquote(link.query.removeprefix("token="))
        done = client.post("/mail/unsubscribe", data={"csrf_token": csrf.group(1), "token": token})
        assert done.status_code == 200 and "no more turn e-mails" in done.get_data(as_text=True)
        assert client.get("/api/me/notifications", headers=users.auth("bob")).get_json()["turn_mail"] is False
        other = _table_without_opting_in(client, users)
        seq = _end_turn(client, users, other, "alice")
        queue = Queue(QUEUE, connection=redis_client, serializer=JSONSerializer)
        assert queue.scheduled_job_registry.get_job_ids() == [], "no check queued for someone who wants no mail"
        enqueue_turn_mail(queue, other, "main", seq, "bob", after=0)  # a check queued before the unsubscribe
        assert _wait_results(redis_client, other, 1) == [NOT_WANTED]
        assert inbox.count() == 1


def _table_without_opting_in(client: FlaskClient, users: Users) -> str:
    made = client.post("/api/games", json=PIG_TABLE, headers=users.auth("alice")).get_json()
    token = made["seats"][1]["invite_url"].rsplit("/", 1)[1]
    assert client.post(f"/api/invites/{token}", headers=users.auth("bob")).status_code == 200
    return str(made["id"])


def test_the_one_click_unsubscribe_takes_only_a_token_this_server_signed(client: FlaskClient, users: Users,
                                                                        redis_client: redis.Redis) -> None:
    from service.games.turn_mail import unsubscribe_token
    client.put("/api/me/notifications", json={"email": "bob@example.org", "turn_mail": True}, headers=users.auth("bob"))
    forged = unsubscribe_token(b"not the server's key", "bob")
    assert client.post(f"/api/mail/unsubscribe?token={forged}", data="List-Unsubscribe=One-Click",
                       content_type="application/x-www-form-urlencoded").status_code == 404
    real = unsubscribe_token(NotificationStore(redis_client).signing_key(), "bob")
    answer = client.post(f"/api/mail/unsubscribe?token={real}", data="List-Unsubscribe=One-Click",
                         content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 200 and answer.get_json() == {"unsubscribed": True}
    assert client.get("/api/me/notifications", headers=users.auth("bob")).get_json() == {
        "email": "bob@example.org", "turn_mail": False, "mail_enabled": True}


#: A Puerto Rico table (the gunicorn of these tests knows the built-in games only): alice holds seats 0 and 2, bob 1.
PR_TABLE = {"game": "puerto_rico", "players": ["Anna", "Ben", "Cleo"],
            "seats": [{"holder": "me"}, {"holder": "invite"}, {"holder": "me"}]}


def test_no_mail_while_the_player_has_the_table_open(redis_server: EmbeddedRedis, redis_client: redis.Redis,
                                                     smtp_port: int, worker: subprocess.Popen) -> None:
    env = _worker_env(smtp_port)
    tokens = {name: UserStore(redis_client).add(name) for name in ("alice", "bob")}
    with SmtpServer(smtp_port) as inbox, Gunicorn(redis_server.url, env=env) as server:
        status, made = server.send("/api/games", PR_TABLE, tokens["alice"])
        assert status == 201, made
        gid = made["id"]
        assert server.send(f"/api/invites/{made['seats'][1]['invite_url'].rsplit('/', 1)[1]}", {}, tokens["bob"])[0] == 200
        assert _put(server, tokens["bob"], {"email": "bob@example.org", "turn_mail": True}) == 200
        page = SseClient(server.port, f"/api/games/{gid}/branches/main/stream",
                         {"Authorization": f"Bearer {tokens['bob']}"}).open()
        _play_until(server, gid, tokens, "bob", True)
        assert _wait_results(redis_client, gid, 1) == [PAGE_OPEN]
        page.close()
        store = NotificationStore(redis_client)
        wait_until(lambda: not store.has_page_open(gid, "main", "bob"), "the closed page no longer counts as open")
        _play_until(server, gid, tokens, "bob", False)
        _play_until(server, gid, tokens, "bob", True)
        assert _wait_results(redis_client, gid, 2) == [PAGE_OPEN, SENT], "page closed: the next turn is mailed"
        assert inbox.count() == 1


def _put(server: Gunicorn, token: str, body: dict[str, Any]) -> int:
    request = urllib.request.Request(server.url("/api/me/notifications"), data=json.dumps(body).encode(), method="PUT",
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def _play_until(server: Gunicorn, gid: str, tokens: dict[str, str], who: str, their_turn: bool) -> None:
    """Whoever is to move plays their first legal action until it is (``their_turn``) or is not ``who``'s turn."""
    for _ in range(200):
        _, listed = server.get("/api/me/tables", tokens[who])
        if listed["tables"][0]["your_turn"] == their_turn:
            return
        seat = listed["tables"][0]["to_move"]["seat"]
        mover = next(name for name in tokens if server.get("/api/me/tables", tokens[name])[1]["tables"][0]["your_turn"])
        _, legal = server.get(f"/api/games/{gid}/branches/main/legal?view={seat}", tokens[mover])
        status, body = server.send(f"/api/games/{gid}/branches/main/actions",
                                   {"action": legal["actions"][0]["action"], "expected_seq": legal["seq"]}, tokens[mover])
        assert status == 201, body
    raise AssertionError(f"{who}'s turn did not come")


def test_the_mail_is_in_the_language_its_reader_chose_for_the_site(
        client: FlaskClient, users: Users, worker: subprocess.Popen, smtp_port: int, redis_client: redis.Redis) -> None:
    """Issue 47: bob chose Hungarian (his account's setting), so his turn e-mail is written in Hungarian by the worker,
    whatever language the move that made it his turn was played in."""
    with SmtpServer(smtp_port) as inbox:
        gid = _table(client, users)
        UserStore(redis_client).set_locale("bob", "hu")
        _end_turn(client, users, gid, "alice")
        assert _wait_results(redis_client, gid, 1) == [SENT]
    mail = inbox.messages[0]
    assert mail["Subject"].startswith("Te következel: ") and "Ben lép" in mail.get_content(), mail.get_content()
    assert _link(mail, f"/games/{gid}/b/main") == f"{SITE}/games/{gid}/b/main"
