"""Play a fork together (issue 33, "done when"): two real browsers and an engine seat play a complete game.

alice forks a new game and keeps seat 0, invites bob to seat 1 (he opens the link in his own browser and takes the
seat with the invite page's button) and gives seat 2 to the engine at level easy, which a real ``ludolog worker``
plays from the engine queue. Each human move is made on its player's own page with the move picker (a seeded random
choice among the picker's buttons); at every decision both browsers are checked to see the branch only as their own
seat sees it: each page, opened once and following the branch's live stream (never reloaded), reaches the position in
its seat's view, and the states its session reads there equal the engine's view of the
full state for that seat (:func:`engine.core.visibility.viewer_for`), never the full state. Puerto Rico, Entdecker,
Amerigo and Die goldene Stadt, three players each; the time per game is printed (``-s`` shows it).

A whole game from a late fork (issue 48): the browsers and the engine cost most of the suite's CPU, and what they prove
is proven by the last decisions as well as by all of them. So, but for Die goldene Stadt (the shortest, kept whole from
its first decision), alice first plays her new game's main line to its end through the API with the same seeded
picker (every seat's move; the full rules check each, and both people's seat views are read through the API at every
decision), then forks it about :data:`LATE_DECISIONS` decisions before that end, and the table plays the fork to its
own end. On the fork each seat's view is read through the API at every decision (its holder's token, no view asked:
the server decides), the mover's page is checked at every one of its moves, and the other person's page at every
:data:`OTHER_PAGE_EVERY`-th decision and at the end.

The people's picks come from a seeded random choice and the engine's moves from the position as its seat sees it
(:func:`service.games.seating.engine_seed`, never the game's random id); the fork's chance is the server's: a table
with people at it is dealt from a seed the server draws and keeps secret until the end (issue 45 item 10: a seed its
owner named would let her foresee the draws), so the game's length varies from run to run (a random Puerto Rico game
here lasts from about 200 to 600 events).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from engine import get_rules
from engine.core.visibility import viewer_for
from service.store.users import UserStore
from tests.helpers import ROOT, kill_with_work_horses, ludolog_env
from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import sign_up

#: The slow tier (`make test` runs it, `make check` leaves it out): four whole games played by two browsers and an engine.
pytestmark = pytest.mark.slow

GAMES = ("golden_city", "entdecker", "amerigo", "puerto_rico")
PLAYERS = ("Alice", "Bob", "Engine")
#: A whole game is a few hundred decisions: no single one may take this long (the engine's included). Generous: a
#: decision waits only until it is made, and a loaded machine is several times slower (a hang alone reaches it).
DECISION_SECONDS = 300
MAX_DECISIONS = 3000
#: The decisions before the main line's end where the fork is made (the table plays on from there to the fork's end).
LATE_DECISIONS = 60
#: Played whole by the browsers and the engine, from the first decision on.
WHOLE = ("golden_city",)
#: The page of the person not moving is checked at every this many decisions (the mover's at each of its moves).
OTHER_PAGE_EVERY = 10
#: A whole game takes minutes (3.5 for Die goldene Stadt on a 2-core machine): past the suite's bound per test.
GAME_SECONDS = 3600


@dataclass
class Player:
    """One person at the table: their browser page, their seat and their API token."""

    name: str
    seat: int
    watched: Watched
    token: str

    @property
    def page(self) -> Any:
        """The player's browser page."""
        return self.watched.page


@pytest.fixture
def engine_worker(live_server: LiveServer, redis_server: Any, tmp_path: Path) -> Iterator[subprocess.Popen]:
    """A real ``ludolog worker`` on the app's queues (the engine seat's moves, folds). Its log goes to a file: a
    whole game's worth of log lines fills a pipe nobody reads, and the worker would stop at its next line."""
    queue = live_server.app.extensions["ludolog"].stores.config.queue_name
    log = tmp_path / "worker.log"
    with log.open("wb") as out:
        worker = subprocess.Popen([sys.executable, "-m", "ludolog.cli", "worker", "--no-reconcile"], cwd=ROOT,
                                  env=ludolog_env(redis_server.url, LUDOLOG_QUEUE=queue),
                                  start_new_session=True, stdout=out, stderr=subprocess.STDOUT)
    yield worker
    kill_with_work_horses(worker)
    print(log.read_text(errors="replace")[-3000:])  # what the worker said: shown when a test fails


@pytest.fixture
def alice_and_bob(browser: Any, live_server: LiveServer) -> Iterator[tuple[Player, Player]]:
    """alice (seat 0) and bob (seat 1), each signed up in a browser context of their own, closed after the test."""
    alice = Player("alice", 0, _browser_user(browser, live_server, "alice"), _token(live_server, "alice"))
    bob = Player("bob", 1, _browser_user(browser, live_server, "bob"), _token(live_server, "bob"))
    yield alice, bob
    for player in (alice, bob):
        player.page.context.close()


def _browser_user(browser: Any, server: LiveServer, name: str) -> Watched:
    """A browser context of its own (its own cookies) signed up as ``name``, watched for page errors."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.set_default_timeout(DECISION_SECONDS * 1000)
    watched = Watched(page)
    page.on("pageerror", lambda exc: watched.errors.append(f"page error: {exc}"))
    sign_up(watched, server, name)
    return watched


def _token(server: LiveServer, name: str) -> str:
    return UserStore(server.app.extensions["ludolog"].stores.redis).create_token(name, "together")[1]


def open_branch(page: Any, server: LiveServer, gid: str, bid: str) -> dict[str, Any]:
    """Open the branch's page (once: from then on it follows the branch's stream) and return the data it was drawn
    from."""
    page.goto(f"{server.url}/games/{gid}/b/{bid}")
    page.wait_for_selector("body[data-ready='true']")
    return dict(json.loads(page.text_content("#page-data")))


def wait_for_seq(page: Any, seq: int) -> None:
    """Wait, without reloading, until the page shows the branch's position ``seq``: the move reached it through the
    live stream (the player's own move, another's, or the engine's)."""
    try:
        page.wait_for_function("seq => document.getElementById('board').dataset.seq === String(seq)", arg=seq)
    except PlaywrightTimeout as timeout:  # say where the page stands, not only that it did not get there
        shown = page.evaluate("() => [document.getElementById('board').dataset.seq, document.body.dataset.liveHead, "
                              "document.body.dataset.played, document.body.dataset.liveEnded, "
                              "!document.getElementById('live-new').hidden]")
        raise AssertionError(f"the page never showed seq {seq}: board, live head, played here, stream ended, "
                             f"'new moves' shown: {shown}") from timeout


def _expected_view(server: LiveServer, game: str, gid: str, bid: str, seat: int) -> Any:
    """What ``seat`` may see of the branch's head, computed by the engine from the full state."""
    position = server.app.extensions["ludolog"].stores.reader.position(gid, bid)
    viewer = viewer_for(get_rules(game), len(PLAYERS), str(seat))
    return json.loads(json.dumps(viewer.state(position.state)))


def _states_as_seen(page: Any, gid: str, bid: str, seq: int) -> Any:
    """The state at ``seq`` as the page's own session reads it (no view asked: the server decides)."""
    return page.evaluate("""async ([gid, bid, seq]) => {
        const r = await fetch(`/games/${gid}/b/${bid}/states.json?from=${seq}&to=${seq}`);
        return (await r.json()).states[String(seq)];
    }""", [gid, bid, seq])


def _head_and_actor(server: LiveServer, gid: str, bid: str) -> tuple[int, Any]:
    position = server.app.extensions["ludolog"].stores.reader.position(gid, bid)
    return position.seq, position.rules.current_actor(position.state)


def _new_game(client: FlaskClient, game: str, alice: Player) -> tuple[str, int]:
    """alice's new game (fixed seed): its id and its first decision's seq."""
    made = client.post("/api/games", json={"game": game, "players": list(PLAYERS), "seed": f"together-{game}"},
                       headers=_auth(alice))
    assert made.status_code == 201, made.get_json()
    return made.get_json()["id"], made.get_json()["seq"]


def _auth(player: Player) -> dict[str, str]:
    return {"Authorization": f"Bearer {player.token}"}


def _play_the_main_line(client: FlaskClient, server: LiveServer, game: str, gid: str, alice: Player,
                        rng: random.Random) -> int:
    """alice plays every seat of her game's main line to its end through the API with the seeded picker (the rules
    check each move; the chance events are the server's), reading both people's seat views at every decision.
    Returns the seq :data:`LATE_DECISIONS` decisions before the end (the first decision's in a shorter game)."""
    branch = f"/api/games/{gid}/branches/main"
    decisions: list[int] = []
    for _ in range(MAX_DECISIONS):
        legal = client.get(f"{branch}/legal", headers=_auth(alice)).get_json()
        if legal["actor"] is None:
            break
        assert isinstance(legal["actor"], int) and legal["actions"], legal  # chance is drawn by the server itself
        decisions.append(legal["seq"])
        for seat in (0, 1):
            _check_view_through_the_api(client, server, game, gid, "main", seat, _auth(alice), view=str(seat))
        action = legal["actions"][rng.randrange(len(legal["actions"]))]["action"]
        played = client.post(f"{branch}/actions", json={"action": action, "expected_seq": legal["seq"]},
                             headers=_auth(alice))
        assert played.status_code == 201, played.get_json()
    assert client.get(f"{branch}/state", headers=_auth(alice)).get_json()["outcome"] is not None, \
        f"{game}: the main line is not over after {MAX_DECISIONS} decisions"
    return decisions[max(0, len(decisions) - LATE_DECISIONS)]


def _check_view_through_the_api(client: FlaskClient, server: LiveServer, game: str, gid: str, bid: str, seat: int,
                                headers: dict[str, str], view: str | None = None) -> None:
    """The branch's head as the API shows it (``view`` asked, or the server's default for the caller) is ``seat``'s
    view of the full state, computed by the engine."""
    query = {"view": view} if view is not None else {}
    answer = client.get(f"/api/games/{gid}/branches/{bid}/state", query_string=query, headers=headers)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["state"] == _expected_view(server, game, gid, bid, seat), (bid, seat, answer.get_json()["seq"])


def _set_the_table(client: FlaskClient, server: LiveServer, game: str, gid: str, at: int, alice: Player,
                   bob: Player) -> str:
    """alice's fork of her game at ``at`` with seat 1 invited and seat 2 the engine's; bob takes seat 1 in his
    browser. The fork's id."""
    auth = _auth(alice)
    fork = client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": at, "name": "together"},
                       headers=auth).get_json()["branch"]
    seats = f"/api/games/{gid}/branches/{fork}/seats"
    assert client.put(f"{seats}/2", json={"holder": "engine", "level": "easy"}, headers=auth).status_code == 200
    invite = client.put(f"{seats}/1", json={"holder": "invite"}, headers=auth).get_json()["invite_url"]
    bob.page.goto(f"{server.url}/invite/{invite.rsplit('/', 1)[1]}")
    bob.page.click("#take-seat")
    bob.page.wait_for_selector("body[data-ready='true']")
    holders = [s["holder"] for s in client.get(seats).get_json()["seats"]]
    assert holders == ["owner", "bob", "engine"], holders
    return fork


def _check_sees_only_own_seat(server: LiveServer, game: str, gid: str, bid: str, player: Player, seq: int,
                              actor: int) -> None:
    """The page shows ``seq`` in the player's seat's view, and the states its session reads there are that seat's;
    its seats card says that seat ``actor`` is the one waiting."""
    wait_for_seq(player.page, seq)
    player.page.wait_for_function("""seat => [...document.querySelectorAll('.seat')].every(
        (item) => item.querySelector('.seat-waiting').hidden === (item.dataset.seat !== String(seat)))""", arg=actor)
    assert player.page.eval_on_selector("#view-select", "select => select.value") == str(player.seat), player.name
    expected = _expected_view(server, game, gid, bid, player.seat)
    assert _states_as_seen(player.page, gid, bid, seq) == expected, (player.name, seq)


def _play_with_the_picker(page: Any, seq: int, rng: random.Random) -> str:
    """Click one of the picker's moves at ``seq`` (a seeded random choice); its notation. Where the picker offers a
    turn of many steps as one form (Puerto Rico's mayor), the player opens its "one step at a time" list first."""
    page.wait_for_selector(f"#picker[data-seq='{seq}'] button.pick", state="attached")
    folded = page.query_selector(f"#picker[data-seq='{seq}'] details.pick-steps:not([open]) > summary")
    if folded:
        folded.click()
    page.wait_for_selector(f"#picker[data-seq='{seq}'] button.pick")
    buttons = page.query_selector_all(f"#picker[data-seq='{seq}'] button.pick")
    choice = buttons[rng.randrange(len(buttons))]
    action = str(choice.get_attribute("data-action"))
    choice.click()
    return action


def _wait_for_head_past(server: LiveServer, gid: str, bid: str, seq: int) -> None:
    """Wait until the branch's head is past ``seq``: its head read alone (one Redis read), 20 times a second; the whole
    position (to name the seat to move) only if it never comes."""
    games = server.app.extensions["ludolog"].games
    deadline = time.monotonic() + DECISION_SECONDS
    while games.head(gid, bid) <= seq:
        if time.monotonic() > deadline:
            actor = _head_and_actor(server, gid, bid)[1]
            raise AssertionError(f"no move after seq {seq} within {DECISION_SECONDS} s (seat {actor} to move)")
        time.sleep(0.05)


@pytest.mark.timeout(GAME_SECONDS)
@pytest.mark.parametrize("game", GAMES)
def test_two_browsers_and_the_engine_play_a_whole_game_on_a_fork(live_server, engine_worker, alice_and_bob, game) -> None:
    started = time.monotonic()
    server = live_server
    client = server.app.test_client()
    alice, bob = alice_and_bob
    rng = random.Random(f"together-{game}")
    gid, at = _new_game(client, game, alice)
    if game not in WHOLE:
        at = _play_the_main_line(client, server, game, gid, alice, rng)
    bid = _set_the_table(client, server, game, gid, at, alice, bob)
    for player in (alice, bob):
        data = open_branch(player.page, server, gid, bid)
        assert data["view"] == str(player.seat) and data["state"] == _expected_view(server, game, gid, bid, player.seat)
    moves = _play_the_fork(client, server, game, gid, bid, (alice, bob), rng)
    seq, actor = _head_and_actor(server, gid, bid)
    assert actor is None, f"{game}: not over after {MAX_DECISIONS} decisions"
    assert all(moves.values()), moves
    events = server.app.extensions["ludolog"].games.events(gid, bid)
    authors = {(e.actor, e.meta.get("author")) for e in events if isinstance(e.actor, int) and e.seq > at}
    assert {author for _, author in authors} <= {"alice", "bob", "~engine", "server"}
    assert {(0, "alice"), (1, "bob"), (2, "~engine")} <= authors, authors
    seed = client.get(f"/api/games/{gid}/branches/{bid}/seats").get_json()["seed"]
    for player in (alice, bob):  # the game is over: every view opens again, and the deal seed is revealed
        wait_for_seq(player.page, seq)
        player.page.wait_for_function("seed => document.querySelector('#seed-commitment .seed')?.textContent === seed",
                                      arg=seed)
        data = open_branch(player.page, server, gid, bid)
        assert data["view"] == "full"
        assert not player.watched.errors, player.watched.errors
    print(f"{game}: a whole game of {seq} events, the table's from seq {at} ({moves}) in {time.monotonic() - started:.0f} s")


def _play_the_fork(client: FlaskClient, server: LiveServer, game: str, gid: str, bid: str,
                   people: tuple[Player, Player], rng: random.Random) -> dict[str, int]:
    """The table plays the fork to its end: each person's move on their own page with the picker, the engine's by the
    worker; both people's seat views read through the API at every person's decision, the mover's page checked at
    each of its moves and the other's at every :data:`OTHER_PAGE_EVERY`-th. The moves each made."""
    moves = {"alice": 0, "bob": 0, "engine": 0}
    for _ in range(MAX_DECISIONS):
        seq, actor = _head_and_actor(server, gid, bid)
        if actor is None:
            break
        if actor == 2:  # (the head moves while the engine plays: the views are read at the people's decisions)
            _wait_for_head_past(server, gid, bid, seq)
            moves["engine"] += 1
            continue
        for person in people:
            _check_view_through_the_api(client, server, game, gid, bid, person.seat, _auth(person))
        mover = people[actor]
        _check_sees_only_own_seat(server, game, gid, bid, mover, seq, actor)
        if (moves["alice"] + moves["bob"]) % OTHER_PAGE_EVERY == 0:
            _check_sees_only_own_seat(server, game, gid, bid, people[1 - actor], seq, actor)
        _play_with_the_picker(mover.page, seq, rng)
        _wait_for_head_past(server, gid, bid, seq)
        moves[mover.name] += 1
    return moves
