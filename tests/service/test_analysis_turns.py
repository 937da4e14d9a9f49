"""The turns of users' analysis jobs (service.store.analysis_turns) on the real Redis: the rotation's rules."""

from __future__ import annotations

from service.store.analysis_turns import AnalysisTurns


def _job(user: str, n: int, bid: str = "main") -> dict:
    return {"args": [f"g-{user}", bid, n, n, 10, "full"], "description": f"{user} {n}"}


def _drain(turns: AnalysisTurns) -> list[str]:
    order = []
    while (job := turns.next_turn()) is not None:
        order.append(job["description"])
    return order


def test_users_take_one_job_each_in_turn_and_each_keeps_their_own_order(redis_client):
    turns = AnalysisTurns(redis_client, "q")
    turns.hold("ann", [_job("ann", n) for n in range(4)])
    turns.hold("bob", [_job("bob", n) for n in range(2)])
    turns.hold("cy", [_job("cy", 0)])
    assert _drain(turns) == ["ann 0", "bob 0", "cy 0", "ann 1", "bob 1", "ann 2", "ann 3"]
    assert turns.users() == [] and not turns.anyone_waiting()


def test_a_user_who_starts_asking_joins_ahead_of_the_user_served_last_but_behind_those_waiting(redis_client):
    turns = AnalysisTurns(redis_client, "q")
    turns.hold("ann", [_job("ann", n) for n in range(3)])
    assert turns.next_turn()["description"] == "ann 0"  # ann served; she waits at the tail for her next turn
    turns.hold("bob", [_job("bob", 0)])
    assert turns.users() == ["bob", "ann"], "bob goes before ann, who was just served"
    turns.hold("cy", [_job("cy", 0)])
    assert turns.users() == ["bob", "cy", "ann"], "cy goes behind bob, who waited longer, and before ann"
    assert _drain(turns) == ["bob 0", "cy 0", "ann 1", "ann 2"]


def test_asking_again_adds_jobs_but_never_a_second_place_in_the_rotation(redis_client):
    turns = AnalysisTurns(redis_client, "q")
    turns.hold("ann", [_job("ann", 0)])
    turns.hold("bob", [_job("bob", 0)])
    assert turns.hold("ann", [_job("ann", 1)]) == 2
    assert turns.users() == ["ann", "bob"]
    assert [job["description"] for job in turns.waiting("ann")] == ["ann 0", "ann 1"]
    assert _drain(turns) == ["ann 0", "bob 0", "ann 1"]


def test_dropping_a_branchs_jobs_leaves_the_others_in_their_turns(redis_client):
    turns = AnalysisTurns(redis_client, "q")
    turns.hold("ann", [_job("ann", 0, "gone"), _job("ann", 1), _job("ann", 2, "gone")])
    turns.hold("bob", [_job("bob", 0, "gone")])
    assert turns.drop(lambda job: job["args"][1] == "gone") == 3
    assert [args[1] for args in turns.waiting_args()] == ["main"]
    assert _drain(turns) == ["ann 1"], "bob, left with nothing, loses his turn when it comes"
    assert turns.users() == []


def test_each_queue_has_turns_of_its_own(redis_client):
    AnalysisTurns(redis_client, "q1").hold("ann", [_job("ann", 0)])
    assert AnalysisTurns(redis_client, "q2").next_turn() is None
    assert AnalysisTurns(redis_client, "q1").next_turn() == _job("ann", 0) | {"user": "ann"}


def test_a_job_handed_back_is_its_users_next_and_the_user_waits_at_the_tail(redis_client):
    turns = AnalysisTurns(redis_client, "q")
    turns.hold("ann", [_job("ann", 0)])
    turns.hold("bob", [_job("bob", 0)])
    running = turns.next_turn()
    assert running is not None and running["user"] == "ann" and turns.users() == ["bob"]
    assert turns.hand_back("ann", _job("ann", 0)) == 1
    assert turns.users() == ["bob", "ann"]
    assert _drain(turns) == ["bob 0", "ann 0"]
