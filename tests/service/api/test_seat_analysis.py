"""Analysis refused at a live table (issue 33 item 2, narrowed by issue 45 item 6): while a branch is played with a
seat held by someone other than its owner and its game is not over, its analysis is refused through the API (403),
the page (the button is off and says why) and ``ludolog analyze`` (exit 2, one line), and so are its forks and
take-backs; the lines it was forked from stay analysable by anyone who may read them (a stranger's table does not
freeze a public game). The refusal names the branch as it is spelled. After the end, or once every seat is the
owner's again, everything opens. Also the invite page (its button takes the seat once)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from service.runtime.redis_server import EmbeddedRedis
from service.store.games import MAIN
from tests.helpers import PIG_PLUGIN, ROOT
from tests.service.api.helpers import Users, assert_error, branch_url
from tests.service.test_cli_edges import last_line_of_a_failure, ludolog

REFUSED = "analysis refused"


def _table(client: FlaskClient, users: Users, owner: str = "alice") -> tuple[str, str, str]:
    """Alice's public pig game; ``owner``'s fork of it with seat 1 invited (not yet taken): a live table. Its id has
    a capital letter, so that a message that changes its case shows. (gid, fork, invite token)"""
    made = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Ben"], "seed": "an"},
                       headers=users.auth("alice")).get_json()
    gid = made["id"]
    fork = _fork_with_a_capital(client, users, gid, made["seq"], owner)
    url = client.put(branch_url(gid, fork, "seats/1"), json={"holder": "invite"}, headers=users.auth(owner)).get_json()
    return gid, fork, url["invite_url"].rsplit("/", 1)[1]


def _fork_with_a_capital(client: FlaskClient, users: Users, gid: str, at: int, owner: str) -> str:
    """A fork of main at ``at`` whose id has an upper-case letter (ids are random: most have one)."""
    for _ in range(30):
        fork = str(client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": at},
                               headers=users.auth(owner)).get_json()["branch"])
        if fork.lower() != fork:
            return fork
    raise AssertionError("30 branch ids without a capital letter")


def _ask(client: FlaskClient, users: Users, gid: str, bid: str, who: str = "alice") -> Any:
    return client.post(branch_url(gid, bid, "analysis"), json={"rollouts": 2}, headers=users.auth(who))


def test_the_api_refuses_the_analysis_of_a_live_table_naming_it_as_spelled(client: FlaskClient, users: Users) -> None:
    gid, fork, _ = _table(client, users)
    error = assert_error(_ask(client, users, gid, fork), 403, "analysis_refused_while_played")
    assert REFUSED in error["message"] and "until it ends" in error["message"]
    assert f"branch {fork!r}" in error["message"] and error["details"]["branch"] == fork
    assert REFUSED in assert_error(client.get(branch_url(gid, fork, "analysis")), 403)["message"]
    other = client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": 2}, headers=users.auth("bob")).get_json()
    assert _ask(client, users, gid, other["branch"], "bob").status_code == 202, "a sibling line is not the table's"
    assert client.delete(branch_url(gid, fork, "seats/1"), headers=users.auth("alice")).status_code == 200
    assert _ask(client, users, gid, fork).status_code == 202, "every seat the owner's again: analysis opens"


def test_a_strangers_table_does_not_freeze_the_analysis_of_the_line_it_forked_from(client: FlaskClient,
                                                                                   users: Users) -> None:
    """The attack of issue 45: carol forks alice's public game and invites someone; alice's main line stays
    analysable by alice and by bob, a stranger to both, and readable by anyone. The table's own line stays closed to
    the engine: no analysis, no fork, no take-back of it."""
    gid, table, token = _table(client, users, owner="carol")
    assert client.post(f"/api/invites/{token}", headers=users.auth("bob")).status_code == 200
    assert _ask(client, users, gid, MAIN, "alice").status_code == 202, "the game's owner analyses main"
    assert _ask(client, users, gid, MAIN, "bob").status_code == 202, "so does anyone signed in on a public game"
    assert client.get(branch_url(gid, MAIN, "analysis")).status_code == 200, "and anyone reads it"
    for who in ("carol", "bob", "alice"):
        assert_error(_ask(client, users, gid, table, who), 403, "analysis_refused_while_played")
        forked = client.post(f"/api/games/{gid}/branches", json={"from": table, "at": 1}, headers=users.auth(who))
        assert f"branch {table!r}" in assert_error(forked, 409)["message"]
    taken = client.post(branch_url(gid, table, "takeback"), json={}, headers=users.auth("carol"))
    assert "cannot be taken back" in assert_error(taken, 409)["message"]


def test_the_analysis_opens_when_the_game_is_over(client: FlaskClient, users: Users) -> None:
    made = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Ben"], "seed": "e2", "options": {"target": 1}},
                       headers=users.auth("alice")).get_json()
    gid = made["id"]
    # A named seed seats the engine only (issue 45 item 10): the engine's seat makes it a table all the same.
    client.put(branch_url(gid, MAIN, "seats/1"), json={"holder": "engine", "level": "easy"}, headers=users.auth("alice"))
    assert _ask(client, users, gid, MAIN).status_code == 403
    while (state := client.get(branch_url(gid, MAIN, "state"), headers=users.auth("alice")).get_json())["actor"] == 0:
        legal = [a["action"] for a in client.get(branch_url(gid, MAIN, "legal"), headers=users.auth("alice")).get_json()["actions"]]
        client.post(branch_url(gid, MAIN, "actions"), json={"action": "hold" if "hold" in legal else legal[0],
                                                            "expected_seq": state["seq"]}, headers=users.auth("alice"))
    assert state["actor"] is None, "seat 0 reached the target (the seed rolls no 1 first)"
    assert _ask(client, users, gid, MAIN).status_code == 202
    assert client.get(branch_url(gid, MAIN, "state"), query_string={"view": "full"}).status_code == 200


def test_the_page_turns_the_button_off_and_says_why(app: Flask, client: FlaskClient, users: Users) -> None:
    gid, fork, _ = _table(client, users)
    _signed_in(app, client, "alice")
    page = client.get(f"/games/{gid}/b/{fork}").get_data(as_text=True)
    assert re.search(r'id="analysis-request"\s+disabled', page)
    assert re.search(r'id="opinion-request"\s+disabled', page), "a second opinion is refused alike"
    assert 'id="analysis-refused"' in page and "Analysis refused" in page
    assert len(re.findall(r'class="seat-waiting hint">· to move', page)) == 1, "the seat to move says it waits"
    shown = re.search(r'id="analysis-refused"[^>]*>([^<]*)<', page)
    assert shown is not None and f"branch '{fork}'" in shown.group(1), "the branch as it is spelled"
    main_page = client.get(f"/games/{gid}/b/main").get_data(as_text=True)
    assert 'id="analysis-refused"' not in main_page, "the line the table forked from is not refused"
    assert not re.search(r'id="analysis-request"\s+disabled', main_page)


def test_ludolog_analyze_refuses_in_one_line_with_exit_2(app: Flask, client: FlaskClient, users: Users, tmp_path: Path,
                                                        redis_server: EmbeddedRedis) -> None:
    gid, fork, _ = _table(client, users)
    env = {"LUDOLOG_REDIS_URL": redis_server.url, "LUDOLOG_GAME_PLUGINS": PIG_PLUGIN, "PYTHONPATH": str(ROOT)}
    done = ludolog(tmp_path, "analyze", gid, "--branch", fork, "--timeout", "5", **env)
    assert done.returncode == 2
    assert last_line_of_a_failure(done).startswith(REFUSED) and repr(fork) in last_line_of_a_failure(done)
    ancestor = ludolog(tmp_path, "analyze", gid, "--branch", MAIN, "--timeout", "5", **env)
    assert ancestor.returncode == 0 and "decisions analysed" in ancestor.stdout, "the line it forked from is analysed"


def _signed_in(app: Flask, client: FlaskClient, user: str) -> str:
    """A session cookie for ``user`` (as the sign-in page sets it); the page's CSRF token."""
    with client.session_transaction() as session:
        session["sid"] = app.extensions["ludolog"].sessions.start(user)
        session["csrf"] = "page-token"
    return "page-token"


def test_the_invite_page_takes_the_seat_once_with_its_button(app: Flask, client: FlaskClient, users: Users) -> None:
    gid, fork, token = _table(client, users)
    signed_out = client.get(f"/invite/{token}").get_data(as_text=True)
    assert "Sign in" in signed_out and "Ben" in signed_out
    csrf = _signed_in(app, client, "bob")
    page = client.get(f"/invite/{token}")
    assert page.status_code == 200 and 'id="take-seat"' in page.get_data(as_text=True)
    assert client.post(f"/invite/{token}", data={"csrf_token": "guess"}).status_code == 403, "CSRF as every form"
    taken = client.post(f"/invite/{token}", data={"csrf_token": csrf})
    assert taken.status_code == 303 and taken.headers["Location"].endswith(f"/games/{gid}/b/{fork}")
    assert client.get(branch_url(gid, fork, "seats")).get_json()["seats"][1]["holder"] == "bob"
    branch_page = client.get(f"/games/{gid}/b/{fork}").get_data(as_text=True)
    assert '"view": "1"' in branch_page or '"view":"1"' in branch_page, "bob sees his seat's view"
    again = client.get(f"/invite/{token}")
    assert again.status_code == 410 and "already used" in again.get_data(as_text=True)
    assert client.get("/invite/forged.abcdefghijklmnopqrstuvwxyz").status_code == 404
