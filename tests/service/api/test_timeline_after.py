"""The timeline a live page follows (``timeline.json``): a new head extends the newest cached timeline of its line by the
events after it, and ``after=N`` answers only the moves and positions after position N, so that a page following a long
game costs each move its own share rather than the whole game again. Both must equal one fold of the whole branch."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from flask.testing import FlaskClient

from engine import CHANCE, Event, Setup, get_rules
from engine.core.visibility import viewer_for
from replay_ui import timeline as timelines
from replay_ui.timeline import Line, build_timeline, cached_timeline
from service.store.snapshots import Resume, Step, fold_steps, resumed_steps
from tests.engine.helpers import random_game

PLAYERS = ["Ann", "Ben", "Cy"]
GAMES = ("puerto_rico", "entdecker", "amerigo", "golden_city")


def _play(client: FlaskClient, auth: dict[str, str], gid: str, moves: int, rng: random.Random) -> int:
    """Play ``moves`` random legal moves on ``gid``'s main line through the API (the server draws chance); the head."""
    branch = f"/api/games/{gid}/branches/main"
    head = client.get(f"{branch}/legal").get_json()["seq"]
    for _ in range(moves):
        legal = client.get(f"{branch}/legal").get_json()
        if not legal["actions"]:
            break
        answer = client.post(f"{branch}/actions", headers=auth,
                             json={"action": rng.choice(legal["actions"])["action"], "expected_seq": legal["seq"]})
        assert answer.status_code == 201, answer.get_json()
        head = answer.get_json()["seq"]
    return head


@pytest.fixture
def amerigo(client: FlaskClient, users) -> tuple[str, dict[str, str]]:
    """A 3-player Amerigo game of alice's (chance draws and face-down information both); its id and her auth."""
    auth = users.auth("alice")
    made = client.post("/api/games", json={"game": "amerigo", "players": PLAYERS, "seed": "tail"}, headers=auth)
    assert made.status_code == 201, made.get_json()
    return made.get_json()["id"], auth


def _whole_fold(client: FlaskClient, gid: str, view: str) -> dict[str, Any]:
    """The timeline as one fold of every event of the branch computes it, seen from ``view``."""
    games = client.application.extensions["ludolog"].games
    record = games.game(gid)
    rules = get_rules(record.game)
    viewer = viewer_for(rules, len(record.setup.players), view)
    return json.loads(json.dumps(build_timeline(rules, record.setup, games.events(gid, "main"), viewer)))


@pytest.mark.parametrize("view", ["full", "1"])
@pytest.mark.parametrize("game", GAMES)
def test_a_timeline_asked_at_every_move_equals_one_fold_of_the_whole_branch(client: FlaskClient, users, game: str,
                                                                            view: str) -> None:
    """Each game's UI adapter keeps bookkeeping from move to move (the group a move opens, running tallies): an
    extended timeline must carry it on exactly as one fold does."""
    auth = users.auth("alice")
    made = client.post("/api/games", json={"game": game, "players": PLAYERS, "seed": "tail"}, headers=auth)
    gid = made.get_json()["id"]
    rng = random.Random(view)
    for _ in range(15):  # each ask extends the one before it by a few moves (and the chance the server drew)
        _play(client, auth, gid, 4, rng)
        answer = client.get(f"/games/{gid}/b/main/timeline.json", query_string={"view": view}).get_json()
        assert answer.pop("view") == view
        assert answer == _whole_fold(client, gid, view)


@pytest.mark.parametrize("view", ["full", "0"])
def test_the_moves_after_a_position_are_the_tail_of_the_whole_timeline(client: FlaskClient, amerigo, view: str) -> None:
    gid, auth = amerigo
    head = _play(client, auth, gid, 25, random.Random(3))
    url = f"/games/{gid}/b/main/timeline.json"
    whole = client.get(url, query_string={"view": view}).get_json()
    for after in sorted({0, 1, 2, head // 2, head - 1, head}):
        part = client.get(url, query_string={"view": view, "after": after}).get_json()
        assert part.pop("after") == after
        assert part["moves"] == [move for move in whole["moves"] if move["seq"] > after]
        assert part["positions"] == whole["positions"][after:]
        assert len(whole["positions"]) == head
        assert {k: v for k, v in part.items() if k not in ("moves", "positions")} == \
               {k: v for k, v in whole.items() if k not in ("moves", "positions")}


@pytest.mark.parametrize("after", ["x", "-1", "1.5", "", "\uff11", "9" * 5000, "HEAD+1"])
def test_an_after_that_is_no_position_of_the_branch_is_a_400_that_names_it(client: FlaskClient, amerigo, after: str) -> None:
    gid, auth = amerigo
    head = _play(client, auth, gid, 4, random.Random(1))
    after = str(head + 1) if after == "HEAD+1" else after
    answer = client.get(f"/games/{gid}/b/main/timeline.json", query_string={"after": after})
    assert answer.status_code == 400, answer.get_data(as_text=True)[:300]
    error = answer.get_json()["error"]
    assert "after" in error["message"] and f"0 to {head}" in error["message"], error


class Reads:
    """The store reader's ``steps`` over a fixed list of events (an Amerigo game of :data:`PLAYERS`), remembering which
    events it read (``after`` < seq ≤ ``upto``)."""

    def __init__(self, events: Sequence[Event]) -> None:
        self.events = list(events)
        self.asked: list[tuple[int, int]] = []

    def __call__(self, upto: int, resume: Resume | None) -> Iterator[Step] | None:
        after = 0 if resume is None else resume.last.seq - 1
        self.asked.append((after, upto))
        read = [e for e in self.events if after < e.seq <= upto]
        return resumed_steps(get_rules("amerigo"), Setup(tuple(PLAYERS)), read, resume)


@pytest.fixture
def no_cached_timelines() -> Callable[[], None]:
    """The module's cache emptied before and after (it is the process's)."""
    timelines._CACHE.clear()
    yield
    timelines._CACHE.clear()


def _game(seed: int) -> tuple[Any, Setup, list[Event]]:
    rules = get_rules("amerigo")
    setup = Setup(tuple(PLAYERS))
    return rules, setup, random_game(rules, setup, seed).events


def test_a_longer_head_folds_only_the_events_after_the_newest_cached_one(no_cached_timelines) -> None:
    rules, setup, events = _game(5)
    viewer = viewer_for(rules, len(PLAYERS), "2")
    line = Line("g", "main", "2", 1.0)
    reads = Reads(events)
    for head in (40, 90, 91, len(events)):
        assert cached_timeline(line, head, rules, setup, viewer, reads) == build_timeline(rules, setup, events[:head], viewer)
    assert reads.asked == [(0, 40), (39, 90), (89, 91), (90, len(events))]
    assert cached_timeline(line, 90, rules, setup, viewer, reads) == build_timeline(rules, setup, events[:90], viewer)
    assert len(reads.asked) == 4, "a head asked before is the cached timeline"


def test_a_line_that_no_longer_ends_with_the_cached_event_is_folded_again_from_the_start(no_cached_timelines) -> None:
    rules, setup, first = _game(5)
    _, _, second = _game(6)  # the same branch id made again (deleted, then forked anew): other events
    assert first[40] != second[40] and any(e.actor == CHANCE for e in first)
    line = Line("g", "b1", "full", 1.0)
    viewer = viewer_for(rules, len(PLAYERS), "full")
    cached_timeline(line, 41, rules, setup, viewer, Reads(first))
    reads = Reads(second)
    assert cached_timeline(line, 80, rules, setup, viewer, reads) == build_timeline(rules, setup, second[:80], viewer)
    assert reads.asked == [(40, 80), (0, 80)]


def test_pages_asking_at_once_extend_the_same_cached_timeline_alike(no_cached_timelines) -> None:
    """Two pages of a table ask for the next head at the same moment (two request threads): each extends the same
    cached fold with its own copy of the adapter's bookkeeping, so both answers, and the cache, equal one fold."""
    rules, setup, events = _game(7)
    viewer = viewer_for(rules, len(PLAYERS), "0")
    line = Line("g", "main", "0", 1.0)
    cached_timeline(line, 60, rules, setup, viewer, Reads(events))
    start = threading.Barrier(8)

    def ask(head: int) -> dict[str, Any]:
        start.wait()
        return cached_timeline(line, head, rules, setup, viewer, Reads(events))

    heads = [61, 61, 75, 75, 90, 90, 120, 120]
    with ThreadPoolExecutor(len(heads)) as pool:
        answers = list(pool.map(ask, heads))
    for head, answer in zip(heads, answers, strict=True):
        assert answer == build_timeline(rules, setup, events[:head], viewer), head
    assert cached_timeline(line, 120, rules, setup, viewer, Reads(events)) == build_timeline(rules, setup, events[:120], viewer)


@pytest.mark.parametrize("game", GAMES)
def test_extending_a_cached_timeline_leaves_it_as_it_was(game: str) -> None:
    """A cached timeline may be extended more than once (two pages asking at once): each extension works on its own
    copy of the UI adapter's bookkeeping, so the second equals the first and one fold of the whole branch."""
    rules = get_rules(game)
    setup = Setup(tuple(PLAYERS))
    events = random_game(rules, setup, 11).events
    viewer = viewer_for(rules, len(PLAYERS), "full")
    base = timelines._fold(rules, setup, viewer, fold_steps(rules, rules.initial_state(setup), events[:60]))
    first = timelines._fold(rules, setup, viewer, fold_steps(rules, base.state, events[60:150]), base)
    again = timelines._fold(rules, setup, viewer, fold_steps(rules, base.state, events[60:150]), base)
    assert first.timeline == again.timeline == build_timeline(rules, setup, events[:150], viewer)
    assert base.timeline == build_timeline(rules, setup, events[:60], viewer)
