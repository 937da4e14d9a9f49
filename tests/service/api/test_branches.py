"""Branches: events, state, legal actions, playing on (owner only), idempotency, forks."""

from __future__ import annotations

from engine import Setup
from service.api.schemas import ActionResultSchema, EventsPageSchema, ForkCreatedSchema, LegalSchema, StateSchema
from service.store.games import GameStore
from tests.service.api.helpers import assert_error, assert_matches, branch_url, head_of, play, play_to_end


def test_events_pages_through_a_branch(client, users, new_game):
    gid = new_game()["id"]
    for _ in range(3):
        assert play(client, gid, "roll", users.auth("alice")).status_code == 201
    body = client.get(branch_url(gid, what="events")).get_json()
    assert_matches(EventsPageSchema, body)
    seqs = [e["seq"] for e in body["events"]]
    assert seqs == list(range(1, body["head"] + 1)) and body["head"] == 9
    assert body["events"][0]["type"] == "game_created" and body["events"][0]["data"]["game"] == "pig"
    page = client.get(branch_url(gid, what="events") + "?after=3&limit=2").get_json()
    assert [e["seq"] for e in page["events"]] == [4, 5] and page["head"] == 9
    assert client.get(branch_url(gid, what="events") + "?after=9").get_json()["events"] == []


def test_events_refuse_bad_numbers(client, new_game):
    gid = new_game()["id"]
    for bad in ("after=-1", "after=two", "limit=0", "limit=5001", "limit=1.5", "befor=3"):
        error = assert_error(client.get(branch_url(gid, what="events") + f"?{bad}"), 400, "invalid")
        assert error["details"]["location"] == "query"
    assert client.get(branch_url(gid, what="events") + "?limit=5000").status_code == 200


def test_unknown_branch_is_404_on_every_route(client, users, new_game):
    gid = new_game()["id"]
    for what in ("events", "state", "legal"):
        assert_error(client.get(branch_url(gid, "nope", what)), 404, "not_found")
    response = client.post(branch_url(gid, "nope", "actions"), json={"action": "roll", "expected_seq": 3}, headers=users.auth("alice"))
    assert_error(response, 404, "not_found")
    response = client.post(f"/api/games/{gid}/branches", json={"from": "nope", "at": 1}, headers=users.auth("alice"))
    assert_error(response, 404, "not_found")


def test_state_at_head_and_at_a_seq(client, users, new_game):
    gid = new_game()["id"]
    play(client, gid, "roll", users.auth("alice"))
    body = client.get(branch_url(gid, what="state")).get_json()
    assert_matches(StateSchema, body)
    assert body["seq"] == body["head"] == 5 and body["outcome"] is None
    assert body["actor"] in (0, 1)
    early = client.get(branch_url(gid, what="state") + "?at=1").get_json()
    assert early["seq"] == 1 and early["actor"] == "chance" and early["state"]["bluffs"] == [None, None]
    assert_error(client.get(branch_url(gid, what="state") + "?at=6"), 400, "bad_request")
    assert_error(client.get(branch_url(gid, what="state") + "?at=0"), 400, "invalid")


def test_state_views_hide_what_the_viewer_may_not_see(client, new_game):
    gid = new_game()["id"]
    url = branch_url(gid, what="state")
    full = client.get(url).get_json()["state"]
    assert None not in full["bluffs"]
    assert client.get(url + "?view=full").get_json()["state"] == full
    assert client.get(url + "?view=spectator").get_json()["state"]["bluffs"] == [None, None]
    assert client.get(url + "?view=1").get_json()["state"]["bluffs"] == [None, full["bluffs"][1]]
    assert_error(client.get(url + "?view=2"), 400, "invalid")
    assert_error(client.get(url + "?view=owner"), 400, "invalid")


def test_legal_lists_actions_with_sentences(client, users, new_game):
    gid = new_game()["id"]
    body = client.get(branch_url(gid, what="legal")).get_json()
    assert_matches(LegalSchema, body)
    assert body == {"seq": 3, "actor": 0, "actions": [{"action": "roll", "text": "Seat 0 rolls"}]}
    at_chance = client.get(branch_url(gid, what="legal") + "?at=2").get_json()
    assert at_chance == {"seq": 2, "actor": "chance", "actions": []}
    assert_error(client.get(branch_url(gid, what="legal") + "?at=x"), 400, "invalid")


def test_finished_game_has_no_actor_an_outcome_and_no_legal_actions(client, users, new_game):
    gid = new_game(options={"target": 3})["id"]
    play_to_end(client, gid, users.auth("alice"))
    state = client.get(branch_url(gid, what="state")).get_json()
    assert state["actor"] is None and max(state["outcome"]["scores"]) >= 3 and state["outcome"]["winners"]
    assert client.get(branch_url(gid, what="legal")).get_json()["actions"] == []
    error = assert_error(play(client, gid, "roll", users.auth("alice")), 422, "illegal_action")
    assert "over" in error["message"]


def test_owner_plays_and_the_server_draws_the_chance_after(client, users, new_game):
    gid = new_game()["id"]
    response = play(client, gid, "roll", users.auth("alice"))
    assert response.status_code == 201
    body = response.get_json()
    assert_matches(ActionResultSchema, body)
    player, die = body["events"]
    assert (player["seq"], player["actor"], player["action"], player["meta"]["author"]) == (4, 0, "roll", "alice")
    assert (die["seq"], die["actor"], die["type"]) == (5, "chance", "chance_drawn") and die["action"].startswith("d")
    assert body["seq"] == 5 == head_of(client, gid)


def test_only_the_branch_owner_appends(client, users, new_game):
    gid = new_game()["id"]
    body = {"action": "roll", "expected_seq": 3}
    error = assert_error(client.post(branch_url(gid, what="actions"), json=body, headers=users.auth("bob")), 403, "forbidden")
    assert "alice" in error["message"]
    assert_error(client.post(branch_url(gid, what="actions"), json=body), 401, "unauthorized")
    assert head_of(client, gid) == 3


def test_refused_actions_append_nothing(client, users, new_game):
    gid = new_game()["id"]
    url, headers = branch_url(gid, what="actions"), users.auth("alice")
    error = assert_error(client.post(url, json={"action": "hold", "expected_seq": 3}, headers=headers), 422, "illegal_action")
    assert "seq 4" in error["message"] and "pig: turn" in error["message"]
    assert error["details"] | {"seq": 4, "action": "hold", "rule": "pig: turn"} == error["details"]
    error = assert_error(client.post(url, json={"action": "roll", "expected_seq": 2}, headers=headers), 409, "conflict")
    assert error["details"]["head"] == 3
    error = assert_error(client.post(url, json={"action": "fly", "expected_seq": 3}, headers=headers), 400, "bad_notation")
    assert "'fly'" in error["message"]
    assert_error(client.post(url, json={"action": "d6", "expected_seq": 3}, headers=headers), 422, "illegal_action")
    for bad in ({"action": "roll"}, {"action": "roll", "expected_seq": "3"}, {"action": "roll", "expected_seq": True},
                {"action": "roll", "expected_seq": 3.0}, {"action": "roll", "expected_seq": 3, "seat": 0},
                {"action": 5, "expected_seq": 3}):
        assert_error(client.post(url, json=bad, headers=headers), 400, "invalid")
    assert_error(client.post(url, data="{'action': 'roll'}", headers=headers, content_type="application/json"), 400, "bad_json")
    assert head_of(client, gid) == 3


def test_idempotency_key_stores_once_and_answers_the_same(client, users, new_game):
    gid = new_game()["id"]
    headers = users.auth("alice") | {"Idempotency-Key": "move-1"}
    body = {"action": "roll", "expected_seq": 3}
    first = client.post(branch_url(gid, what="actions"), json=body, headers=headers)
    second = client.post(branch_url(gid, what="actions"), json=body, headers=headers)
    assert first.status_code == second.status_code == 201
    assert first.get_json() == second.get_json()
    assert head_of(client, gid) == 5
    events = client.get(branch_url(gid, what="events")).get_json()["events"]
    assert [e["seq"] for e in events] == [1, 2, 3, 4, 5]
    bad = users.auth("alice") | {"Idempotency-Key": "no spaces please"}
    assert_error(client.post(branch_url(gid, what="actions"), json={"action": "roll", "expected_seq": 5}, headers=bad), 400, "invalid")


def test_fork_by_another_user_is_theirs_to_play(client, users, new_game):
    gid = new_game()["id"]
    play(client, gid, "roll", users.auth("alice"))
    fork = {"from": "main", "at": 4, "name": "other dice"}
    response = client.post(f"/api/games/{gid}/branches", json=fork, headers=users.auth("bob"))
    assert response.status_code == 201
    body = response.get_json()
    assert_matches(ForkCreatedSchema, body)
    bid = body["branch"]
    # The fork point is right after a roll: the fork draws its own die at once, so seat play can go on.
    assert body["seq"] == 5 == head_of(client, gid, bid)
    fork_events = client.get(branch_url(gid, bid, "events")).get_json()["events"]
    main_events = client.get(branch_url(gid, what="events")).get_json()["events"]
    assert fork_events[:4] == main_events[:4] and fork_events[4]["actor"] == "chance"
    legal = client.get(branch_url(gid, bid, "legal")).get_json()
    assert legal["actor"] in (0, 1) and legal["actions"]
    assert play(client, gid, "roll", users.auth("bob"), bid).status_code == 201
    assert_error(play(client, gid, "roll", users.auth("alice"), bid), 403, "forbidden")
    assert head_of(client, gid) == 5  # main untouched
    tree = {b["id"]: b for b in client.get(f"/api/games/{gid}").get_json()["branches"]}
    assert tree[bid]["owner"] == "bob" and tree[bid]["name"] == "other dice" and tree[bid]["head"] == 7


def test_fork_of_a_fork_and_fork_errors(client, users, new_game):
    gid = new_game()["id"]
    url = f"/api/games/{gid}/branches"
    first = client.post(url, json={"from": "main", "at": 3}, headers=users.auth("bob")).get_json()["branch"]
    second = client.post(url, json={"from": first, "at": 2}, headers=users.auth("carol"))
    assert second.status_code == 201 and second.get_json()["seq"] == 3  # the second bluff redrawn by the fork
    assert_error(client.post(url, json={"from": "main", "at": 1}), 401)
    assert_error(client.post(url, json={"from": "main", "at": 9}, headers=users.auth("bob")), 400, "bad_request")
    assert_error(client.post(url, json={"from": "main"}, headers=users.auth("bob")), 400, "invalid")
    assert_error(client.post(url, json={"from": "main", "at": 1, "dice": "x"}, headers=users.auth("bob")), 400, "invalid")


def test_log_only_games_cannot_be_forked_or_played(client, users, redis_client):
    record = GameStore(redis_client).create_game("pig", "1", Setup(("Anna", "Ben")), owner="alice", source="bga-log")
    error = assert_error(client.post(f"/api/games/{record.id}/branches", json={"from": "main", "at": 1}, headers=users.auth("bob")),
                         422, "log_only")
    assert error["message"] == "log-only games cannot be forked"
    response = client.post(branch_url(record.id, what="actions"), json={"action": "b1", "expected_seq": 1}, headers=users.auth("alice"))
    assert_error(response, 422, "log_only")
    assert client.get(branch_url(record.id, what="events")).get_json()["head"] == 1


def test_appends_queue_a_fold_job(client, users, new_game, redis_client):
    from rq import Queue
    from rq.serializers import JSONSerializer

    gid = new_game()["id"]
    play(client, gid, "roll", users.auth("alice"))
    jobs = Queue("ludolog-test", connection=redis_client, serializer=JSONSerializer).jobs
    assert [job.args for job in jobs] == [[gid, "main"]]  # batched: one pending fold per branch
