"""The per-user analysis quota counts work (rollouts × decisions still to analyse) in a sliding hour.

The store (:class:`service.store.quota.AnalysisQuota`) on the real Redis with a given clock, then the
API's answers: 429 with ``Retry-After`` and the figures, 422 for more than the whole allowance.
"""

from __future__ import annotations

import random

import pytest
import redis
from flask.testing import FlaskClient

from engine import Setup, get_rules, random_playout
from service.games.analysis import decisions
from service.jobs import analysis_queue_name
from service.runtime.config import Config
from service.runtime.redis_server import EmbeddedRedis
from service.store.analysis_turns import AnalysisTurns
from service.store.games import MAIN, GameStore
from service.store.quota import AnalysisQuota
from tests.service.api.helpers import Users, assert_error

URL = "/api/games/{gid}/branches/{bid}/analysis"
#: The allowance in units of one rollout at every decision of the test game.
SMALL_REQUESTS = 40


def test_a_grant_frees_up_when_it_is_an_hour_old_and_the_store_says_when(redis_client):
    quota = AnalysisQuota(redis_client, limit=1000)
    assert quota.take("ann", 300, now=0.0).granted
    assert quota.take("ann", 300, now=1000.0).granted
    refused = quota.take("ann", 500, now=2000.0)
    assert (refused.granted, refused.used, refused.left, refused.retry_after) == (False, 600, 400, 1600)
    still = quota.take("ann", 500, now=3599.0)
    assert (still.granted, still.retry_after) == (False, 1)
    assert quota.take("ann", 500, now=3601.0).granted, "the first grant has aged out of the hour"
    assert quota.used("ann", now=3601.0) == 800
    assert quota.take("bob", 1000, now=3601.0).granted, "each user has an allowance of their own"


def test_work_beyond_the_whole_allowance_never_fits_and_nothing_is_granted(redis_client):
    quota = AnalysisQuota(redis_client, limit=1000)
    answer = quota.take("ann", 1001, now=0.0)
    assert answer.never_fits and answer.retry_after is None
    assert quota.used("ann", now=0.0) == 0
    assert quota.take("ann", 0, now=0.0).granted, "asking for no work costs nothing"


def _game(redis_client: redis.Redis) -> str:
    setup = Setup(("Anna", "Ben"), {"target": 30})
    playout = random_playout(get_rules("pig"), setup, random.Random(4), check=False)
    games = GameStore(redis_client)
    record = games.create_game("pig", "1", setup, owner="alice", visibility="public")
    games.append(record.id, MAIN, playout.events[1:], 1)
    return record.id


def _decisions(redis_client: redis.Redis, gid: str) -> int:
    return len(decisions(GameStore(redis_client), gid, MAIN)[1])


@pytest.fixture
def gid(redis_client: redis.Redis) -> str:
    """alice's public Pig game."""
    return _game(redis_client)


@pytest.fixture
def config(redis_server: EmbeddedRedis, redis_client: redis.Redis, gid: str) -> Config:
    """The API tests' settings, with an allowance of SMALL_REQUESTS one-rollout analyses of ``gid``."""
    limit = SMALL_REQUESTS * _decisions(redis_client, gid)
    return Config(redis_url=redis_server.url, queue_redis_url=None, secret_key="test-secret", queue_name="ludolog-test",
                  analysis_work_per_hour=limit)


def _waiting(redis_client: redis.Redis, user: str) -> int:
    return len(AnalysisTurns(redis_client, analysis_queue_name("ludolog-test")).waiting(user))


def test_the_limit_counts_work_not_requests(client: FlaskClient, users: Users, redis_client, config, gid):
    """Budgets 1 to 8 (36 units of work) fit in the 40 units; then 9 does not, but 4 (for another view) still does."""
    url = URL.format(gid=gid, bid=MAIN)
    work = _decisions(redis_client, gid)
    for rollouts in range(1, 9):
        assert client.post(url, json={"rollouts": rollouts}, headers=users.auth("carol")).status_code == 202
    error = assert_error(client.post(url, json={"rollouts": 9}, headers=users.auth("carol")), 429, "analysis_quota_used")
    assert error["details"] == {"asked": 9 * work, "left": 4 * work, "limit": config.analysis_work_per_hour,
                                "retry_after": error["details"]["retry_after"]}
    last = client.post(url, json={"rollouts": 4, "view": "0"}, headers=users.auth("carol"))
    assert last.status_code == 202 and last.get_json()["jobs"] >= 1
    assert AnalysisQuota(redis_client, config.analysis_work_per_hour).used("carol") == config.analysis_work_per_hour
    assert client.post(url, json={"rollouts": 9}, headers=users.auth("bob")).status_code == 202, "bob has his own"


def test_asking_again_for_an_analysis_on_its_way_queues_and_costs_nothing(client: FlaskClient, users: Users,
                                                                           redis_client, config, gid):
    url = URL.format(gid=gid, bid=MAIN)
    quota = AnalysisQuota(redis_client, config.analysis_work_per_hour)
    first = client.post(url, json={"rollouts": 10}, headers=users.auth("carol"))
    assert first.status_code == 202 and first.get_json()["jobs"] >= 1
    used = quota.used("carol")
    again = client.post(url, json={"rollouts": 10}, headers=users.auth("carol"))
    assert again.status_code == 202 and again.get_json()["jobs"] == 0
    assert quota.used("carol") == used == 10 * _decisions(redis_client, gid)
    assert again.get_json()["status"] == "running"


def test_a_429_says_how_much_was_asked_how_much_is_left_and_when_it_frees_up(client: FlaskClient, users: Users,
                                                                              redis_client, config, gid):
    url = URL.format(gid=gid, bid=MAIN)
    work = _decisions(redis_client, gid)
    big = SMALL_REQUESTS - 5
    assert client.post(url, json={"rollouts": big}, headers=users.auth("carol")).status_code == 202
    queued = _waiting(redis_client, "carol")
    answer = client.post(url, json={"rollouts": 10}, headers=users.auth("carol"))
    error = assert_error(answer, 429, "analysis_quota_used")
    retry_after = int(answer.headers["Retry-After"])
    assert 3590 <= retry_after <= 3600, "the one grant of the hour ages out an hour after it was made"
    assert error["details"] == {"asked": 10 * work, "left": 5 * work, "limit": SMALL_REQUESTS * work,
                                "retry_after": retry_after}
    message = error["message"]
    assert f"{10 * work:,}" in message and f"{5 * work:,}" in message and f"in {retry_after} s" in message, message
    assert _waiting(redis_client, "carol") == queued, "a refused request queues nothing"


def test_more_than_the_whole_allowance_in_one_request_is_a_422_that_queues_nothing(client: FlaskClient, users: Users,
                                                                                   redis_client, config, gid):
    url = URL.format(gid=gid, bid=MAIN)
    error = assert_error(client.post(url, json={"rollouts": SMALL_REQUESTS + 1}, headers=users.auth("carol")), 422,
                         "too_much_work")
    assert "ask for fewer rollouts" in error["message"]
    assert _waiting(redis_client, "carol") == 0
    assert client.get(url).get_json()["status"] == "none"
    assert client.post(url, json={"rollouts": SMALL_REQUESTS}, headers=users.auth("carol")).status_code == 202
