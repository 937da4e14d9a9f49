"""The UI's pages and JSON endpoints through Flask's test client: rendering, visibility,
the timeline and state windows, sign-up / sign-in / sign-out and CSRF."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from engine import Setup
from replay_ui.accounts import safe_next
from service.store.users import UserStore
from tests.ui.conftest import DEMO_PR

pytestmark = pytest.mark.browser
GAME = f"/games/{DEMO_PR}/b/main"


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client with cookies."""
    return app.test_client()


def csrf_of(client: FlaskClient, path: str = "/") -> str:
    """The CSRF token a page of ``path`` carries in its meta tag."""
    html = client.get(path).get_data(as_text=True)
    match = re.search(r'<meta name="csrf-token" content="([^"]*)">', html)
    assert match, html[:500]
    return match.group(1)


def sign_up(client: FlaskClient, name: str = "ann", password: str = "a long password") -> str:
    """Sign up through the form; returns the session's CSRF token."""
    token = csrf_of(client, "/signup")
    response = client.post("/signup", data={"name": name, "password": password, "password2": password, "csrf_token": token})
    assert response.status_code == 303, response.get_data(as_text=True)
    return csrf_of(client)


def test_home_and_game_pages_render_with_a_strict_policy(client: FlaskClient) -> None:
    home = client.get("/")
    assert home.status_code == 200 and "Upload a log" in home.get_data(as_text=True)
    page = client.get(f"{GAME}/300")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    assert '<script type="application/json" id="page-data">' in html and '"seq": 300' in html
    assert "<script>" not in html, "no inline script: the policy would block it"


def test_unknown_game_is_an_html_404_and_out_of_range_redirects_to_the_head(client: FlaskClient) -> None:
    missing = client.get("/games/nope/b/main/3")
    assert missing.status_code == 404 and missing.mimetype == "text/html"
    assert client.get(f"/games/{DEMO_PR}").headers["Location"].endswith(GAME)
    head = client.get(f"/api/games/{DEMO_PR}/branches/main/state").get_json()["seq"]
    assert client.get(f"{GAME}/999999").headers["Location"].endswith(f"{GAME}/{head}")


def test_timeline_has_every_move_in_engine_sentences_and_final_scores(client: FlaskClient) -> None:
    timeline = client.get(f"{GAME}/timeline.json").get_json()
    head = timeline["head"]
    assert [m["seq"] for m in timeline["moves"]] == list(range(2, head + 1))
    assert len(timeline["positions"]) == head
    picks = [m for m in timeline["moves"] if m.get("pick")]
    assert picks and all(m["text"].startswith(timeline["players"][m["actor"]] + " chooses the ") for m in picks)
    assert all(m["round"] >= 1 for m in timeline["moves"])
    assert timeline["positions"][-1]["scores"] == timeline["outcome"]["scores"]
    legal = client.get(f"/api/games/{DEMO_PR}/branches/main/legal?at=1").get_json()
    assert timeline["positions"][0]["actor"] == legal["actor"]


def test_timeline_for_a_seat_hides_the_others_scores(client: FlaskClient) -> None:
    timeline = client.get(f"{GAME}/timeline.json?view=2").get_json()
    last = timeline["positions"][-1]["scores"]
    assert last[2] is not None and all(s is None for i, s in enumerate(last) if i != 2)
    assert client.get(f"{GAME}/timeline.json?view=9").status_code == 400


def test_states_window_matches_the_api_state(client: FlaskClient) -> None:
    body = client.get(f"{GAME}/states.json?from=100&to=120&view=1").get_json()
    assert sorted(map(int, body["states"])) == list(range(100, 121))
    api_state = client.get(f"/api/games/{DEMO_PR}/branches/main/state?at=110&view=1").get_json()["state"]
    assert body["states"]["110"] == api_state
    capped = client.get(f"{GAME}/states.json?from=1&to=900").get_json()
    assert len(capped["states"]) == 64


def test_private_games_stay_invisible(client: FlaskClient, redis_client: redis.Redis) -> None:
    token = UserStore(redis_client).add("owner")
    made = client.post("/api/games", json={"game": "puerto_rico", "players": ["A", "B", "C"], "visibility": "private"},
                       headers={"Authorization": f"Bearer {token}"})
    assert made.status_code == 201, made.get_json()
    gid = made.get_json()["id"]
    assert client.get(f"/games/{gid}/b/main").status_code == 404
    assert client.get(f"/games/{gid}/b/main/timeline.json").status_code == 404
    assert client.get(f"/games/{gid}/b/main/states.json").status_code == 404


def test_page_errors_are_answered_at_the_edge(client: FlaskClient) -> None:
    """The UI blueprint's handlers (replay_ui.errors) answer a store or web error once: a page gets the error page
    with the store's message, the pages' JSON endpoints the API's JSON error body, both with the same status."""
    page = client.get("/games/nosuchgame/b/main")
    assert page.status_code == 404 and page.mimetype == "text/html"
    assert "no game &#39;nosuchgame&#39;" in page.get_data(as_text=True) or "no game 'nosuchgame'" in page.get_data(as_text=True)
    compare = client.get("/games/nosuchgame/compare")
    assert compare.status_code == 404 and compare.mimetype == "text/html"
    missing = client.get("/games/nosuchgame/b/main/timeline.json")
    assert missing.status_code == 404 and missing.get_json()["error"]["code"] == "not_found"
    bad_view = client.get(f"{GAME}/states.json?view=9")
    assert bad_view.status_code == 400 and bad_view.get_json()["error"]["message"]
    branch = client.get(f"/games/{DEMO_PR}/b/nosuchbranch")
    assert branch.status_code == 404 and branch.mimetype == "text/html"


def test_sign_up_in_out_with_a_hashed_password(client: FlaskClient, redis_client: redis.Redis) -> None:
    sign_up(client, "ann", "a long password")
    assert "Signed in as" in client.get("/").get_data(as_text=True)
    stored = redis_client.hgetall(next(iter(redis_client.scan_iter(match="*user*ann*"))))
    assert b"a long password" not in b"".join(stored.values())
    token = csrf_of(client)
    assert client.post("/signout", data={"csrf_token": token}).status_code == 303
    assert "Signed in as" not in client.get("/").get_data(as_text=True)
    token = csrf_of(client, "/signin")
    wrong = client.post("/signin", data={"name": "ann", "password": "wrong password", "csrf_token": token})
    assert wrong.status_code == 401 and "wrong password" in wrong.get_data(as_text=True)
    right = client.post("/signin", data={"name": "ann", "password": "a long password", "csrf_token": token, "next": "/games/x"})
    assert right.status_code == 303 and right.headers["Location"] == "/games/x"


def test_sign_up_refuses_bad_input(client: FlaskClient) -> None:
    token = csrf_of(client, "/signup")
    short = client.post("/signup", data={"name": "bob", "password": "short", "password2": "short", "csrf_token": token})
    assert short.status_code == 400 and "at least 8" in short.get_data(as_text=True)
    differ = client.post("/signup", data={"name": "bob", "password": "long enough 1", "password2": "long enough 2", "csrf_token": token})
    assert differ.status_code == 400
    sign_up(client, "bob")
    again = client.post("/signup", data={"name": "bob", "password": "long enough", "password2": "long enough",
                                         "csrf_token": csrf_of(client, "/signup")})
    assert again.status_code == 409


def test_forms_without_the_csrf_token_are_refused(client: FlaskClient) -> None:
    client.get("/signin")
    assert client.post("/signin", data={"name": "ann", "password": "whatever"}).status_code == 403
    forged = {"name": "ann", "password": "x" * 9, "password2": "x" * 9, "csrf_token": "forged"}
    assert client.post("/signup", data=forged).status_code == 403
    sign_up(client)
    assert client.post("/signout").status_code == 403


def test_cookie_authenticated_api_writes_need_the_header(client: FlaskClient) -> None:
    token = sign_up(client)
    body: dict[str, Any] = {"game": "puerto_rico", "players": ["A", "B", "C"]}
    refused = client.post("/api/games", json=body)
    assert refused.status_code == 403 and refused.get_json()["error"]["code"] == "csrf"
    made = client.post("/api/games", json=body, headers={"X-CSRF-Token": token})
    assert made.status_code == 201, made.get_json()
    assert made.get_json()["id"]


def test_bearer_token_writes_need_no_csrf(app: Flask, redis_client: redis.Redis) -> None:
    client = app.test_client()
    token = UserStore(redis_client).add("robot")
    made = client.post("/api/games", json={"game": "puerto_rico", "players": ["A", "B", "C"]},
                       headers={"Authorization": f"Bearer {token}"})
    assert made.status_code == 201, made.get_json()


def test_next_targets_stay_on_this_site(app: Flask) -> None:
    with app.test_request_context():
        assert safe_next("/games/x") == "/games/x"
        for evil in ("//evil.example/x", "https://evil.example/", "/\\evil.example", "", None):
            assert safe_next(evil) == "/"


def test_hostile_player_names_and_titles_stay_text(client: FlaskClient, redis_client: redis.Redis) -> None:
    token = UserStore(redis_client).add("mallory")
    evil = "</script><script>alert(1)</script>"
    made = client.post("/api/games", json={"game": "puerto_rico", "players": [evil, "<img src=x onerror=alert(2)>", "C"],
                                          "title": evil}, headers={"Authorization": f"Bearer {token}"})
    assert made.status_code == 201, made.get_json()
    html = client.get(f"/games/{made.get_json()['id']}/b/main").get_data(as_text=True)
    assert "<script>alert(1)" not in html and "<img src=x" not in html
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_each_game_finds_its_ui_adapter_by_module_name_and_others_get_the_generic_one() -> None:
    """``replay_ui/games/<game>.py`` with ``ADAPTER`` is the only thing a game's board needs registered."""
    from replay_ui.games import GenericAdapter, adapter_for
    from replay_ui.games.puerto_rico import PuertoRicoAdapter

    assert type(adapter_for("puerto_rico")) is PuertoRicoAdapter
    assert type(adapter_for("pig")) is GenericAdapter
    assert type(adapter_for("../secrets")) is GenericAdapter
    components = adapter_for("puerto_rico").components(Setup(("A", "B", "C", "D")))
    assert components["phase_label"] == "Role" and components["picker_groups"]["build"].startswith("Build")
    assert len(components["roles"]) == 7 and len(adapter_for("puerto_rico").components(Setup(("A", "B", "C")))["roles"]) == 6


def test_the_game_page_labels_jump_to_with_the_games_phase_word(client: FlaskClient) -> None:
    html = client.get(GAME).get_data(as_text=True)
    assert '<label for="jump-phase">Role</label>' in html
    assert "chips + buildings + bonuses so far; click to jump" in html
    assert "board-notice" not in html  # Puerto Rico's board is the rulebook's, not a reconstruction


def test_the_budget_select_starts_at_the_games_default(client: FlaskClient) -> None:
    """Die goldene Stadt's analysis defaults to 400 rollouts (its marks need them to repeat), Puerto Rico's to 200."""
    for gid, budget in ((DEMO_PR, 200), ("demo-golden-city-1", 400)):
        html = client.get(f"/games/{gid}/b/main").get_data(as_text=True)
        select = re.search(r'<select id="analysis-budget">(.*?)</select>', html, re.S)
        assert select, html[:300]
        assert re.findall(r'<option value="(\d+)" selected>', select.group(1)) == [str(budget)], (gid, select.group(1))


def test_a_games_default_budget_outside_the_usual_options_is_offered_and_selected(
        client: FlaskClient, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that names another budget (Pig, made to name 300 here) finds it among the options, selected."""
    from engine import get_rules
    from service.store.games import GameStore

    pig = get_rules("pig")
    monkeypatch.setattr(pig, "declaration", dataclasses.replace(pig.declaration, analysis_rollouts=300))
    record = GameStore(redis_client).create_game("pig", "1", Setup(("Anna", "Ben")), owner=None, visibility="public")
    html = client.get(f"/games/{record.id}/b/main").get_data(as_text=True)
    select = re.search(r'<select id="analysis-budget">(.*?)</select>', html, re.S)
    assert select, html[:300]
    assert re.findall(r'<option value="(\d+)"', select.group(1)) == ["50", "200", "300", "400", "1000"]
    assert re.findall(r'<option value="(\d+)" selected>', select.group(1)) == ["300"]
