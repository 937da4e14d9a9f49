"""What an engine seat's move is doing, as the pages at its table read it (issue 46 item 4): thinking under a lease,
stored (gone, its time in the level's mean), failed, a lapsed lease read as a move that stopped; each change a notice
on the game's seat-changes stream. On the embedded Redis."""

from __future__ import annotations

import pytest

from service.store import keys
from service.store.engine_status import ERROR, FAILED, LEASE_SECONDS, THINKING, WORKER_STOPPED, EngineStatus


@pytest.fixture
def status(redis_client) -> EngineStatus:
    return EngineStatus(redis_client)


def _notices(redis_client, gid: str) -> list[dict[bytes, bytes]]:
    return [fields for _, fields in redis_client.xrange(keys.seat_changes_for(gid))]


def test_a_search_is_said_from_its_start_to_its_stored_move_and_timed(status: EngineStatus, redis_client) -> None:
    status.thinking("g", "b", seat=2, level="easy", seq=7, now=100.0)
    shown = status.shown("g", "b", now=101.0)
    assert shown is not None and shown["state"] == THINKING and (shown["seat"], shown["seq"]) == (2, 7)
    status.moved("g", "b", game="puerto_rico", level="easy", seconds=4.0)
    assert status.shown("g", "b") is None
    assert status.think_time("puerto_rico", "easy") == (4.0, 1)
    status.thinking("g", "b", seat=2, level="easy", seq=9)
    status.moved("g", "b", game="puerto_rico", level="easy", seconds=2.0)
    assert status.think_time("puerto_rico", "easy") == (3.0, 2)
    assert _notices(redis_client, "g") == [{b"branch": b"b", b"change": b"engine"}] * 4


def test_a_lease_not_renewed_is_a_move_that_stopped_and_the_upkeep_finds_it(status: EngineStatus) -> None:
    status.thinking("g", "b", seat=1, level="strong", seq=3, now=100.0)
    status.renew("g", "b", status.status("g", "b"), now=110.0)
    assert status.shown("g", "b", now=110.0 + LEASE_SECONDS - 1)["state"] == THINKING
    assert status.lapsed(now=110.0 + LEASE_SECONDS - 1) == []
    late = 110.0 + LEASE_SECONDS + 1
    shown = status.shown("g", "b", now=late)
    assert (shown["state"], shown["reason"], shown["retried"]) == (FAILED, WORKER_STOPPED, True)
    assert status.lapsed(now=late) == [("g", "b")]
    status.failed("g", "b", reason=WORKER_STOPPED, retried=True, now=late)
    assert status.lapsed(now=late) == [], "said once"
    assert status.status("g", "b")["state"] == FAILED


def test_a_renewal_after_the_move_was_stored_brings_nothing_back(status: EngineStatus) -> None:
    status.thinking("g", "b", seat=0, level="normal", seq=5, now=100.0)
    record = status.status("g", "b")
    status.moved("g", "b", game="amerigo", level="normal", seconds=None)
    status.renew("g", "b", record, now=101.0)
    assert status.status("g", "b") is None and status.lapsed(now=1e12) == []
    assert status.think_time("amerigo", "normal") is None, "another copy's move is not timed"


def test_a_kill_before_any_search_says_nothing(status: EngineStatus, redis_client) -> None:
    status.failed("g", "b", reason=WORKER_STOPPED, retried=True)
    assert status.status("g", "b") is None and _notices(redis_client, "g") == []


def test_a_job_that_raised_before_its_search_is_said_of_its_move_with_what_is_known_of_it(
        status: EngineStatus, redis_client) -> None:
    status.failed("g", "b", reason=ERROR, retried=True, move={"seq": 4}, now=50.0)
    said = status.shown("g", "b", now=51.0)
    assert said == {"state": FAILED, "seat": None, "level": None, "seq": 4, "since": 50.0, "reason": ERROR,
                    "retried": True, "at": 50.0}, "no seat named when it could not be read"
    status.failed("g", "b", reason=ERROR, retried=False, move={"seq": 4, "seat": 1, "level": "easy"}, now=52.0)
    assert status.shown("g", "b")["retried"] is False, "the same move again: said again"
    # A status of an earlier move is not this move's: a failure before this move's search replaces it.
    status.failed("g", "b", reason=ERROR, retried=True, move={"seq": 6, "seat": 1, "level": "easy"}, now=60.0)
    said = status.shown("g", "b", now=61.0)
    assert (said["seq"], said["seat"], said["level"], said["since"]) == (6, 1, "easy", 60.0)
    # A search of this move that started: the failure is said of it (its start, its seat), whatever else is known.
    status.thinking("g", "b", seat=1, level="easy", seq=8, now=70.0)
    status.failed("g", "b", reason=ERROR, retried=True, move={"seq": 8}, now=75.0)
    said = status.shown("g", "b", now=76.0)
    assert (said["state"], said["seat"], said["since"], said["at"]) == (FAILED, 1, 70.0, 75.0)
    assert status.lapsed(now=1e12) == [], "no lease left"
    assert len(_notices(redis_client, "g")) == 5, "each change said"
