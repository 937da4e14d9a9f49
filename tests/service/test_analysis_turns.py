"""The turns of users' analysis jobs (service.store.analysis_turns) on the real Redis: the rotation's rules."""

from __future__ import annotations

from service.jobs import (
    PUZZLES_JOB,
    analysis_args,
    enqueue_puzzles,
    feed_analysis,
    hold_analysis,
    make_queue,
    waiting_analysis,
)
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


def test_the_puzzle_generator_waits_for_the_turn_of_the_user_whose_analysis_it_follows(redis_client):
    """The generator's confirming judgements are analysis work: they wait in the rotation as the analysis's jobs did,
    behind the users waiting longer, never straight into a full queue (issue 49); an analysis nobody asked for (the
    command line's) queues its generator at once."""
    queue = make_queue(redis_client, "turns-puzzles-analysis")  # no worker listens: room for one job at a time
    hold_analysis(queue, "bob", [waiting_analysis(analysis_args("g-bob", "main", 1, 9, 10, "full"), "bob 0")])
    assert queue.count == 1, "bob's job fills the queue"
    hold_analysis(queue, "cy", [waiting_analysis(analysis_args("g-cy", "main", 1, 9, 10, "full"), "cy 0")])
    enqueue_puzzles(queue, "g-ann", "main", 10, "full", 0, user="ann")
    assert queue.count == 1 and AnalysisTurns(redis_client, queue.name).users() == ["cy", "ann"]
    queue.empty()  # bob's job done
    assert feed_analysis(queue) == 1 and [job.description for job in queue.get_jobs()] == ["cy 0"]
    queue.empty()
    assert feed_analysis(queue) == 1
    fed = queue.get_jobs()[0]
    assert (fed.func_name, fed.id, fed.meta["user"]) == (PUZZLES_JOB, "puzzles-g-ann-main-10-full-0", "ann")
    assert list(fed.args) == ["g-ann", "main", 10, "full", 0]
    enqueue_puzzles(queue, "g-cli", "main", 10, "full", 0)
    assert queue.count == 2, "nobody's analysis: its generator goes straight in"
