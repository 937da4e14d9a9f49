"""What the analysis UI tests share: Pig games analysed by a real burst worker (one scripted with sure mistakes and a
fork, one whose owner has a choice at the head, one never analysed), the report as the API answers it, and chances
written as the page writes them."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from typing import Any

from engine import CHANCE, Setup, action_event, draw_chance, get_rules, random_playout
from service.games.analysis import decisions, enqueue_analysis
from service.jobs import make_queue
from service.store.games import MAIN, GameStore
from tests.helpers import PATIENCE_SECONDS, ROOT, ludolog_env
from tests.ui.helpers import sign_up

GID = "pig-analysed"
ROLLOUTS = 200  # the page's default budget; Pig's rollouts are short
QUEUE = "ludolog-ui-test"  # the UI tests' app queues here
#: The marks' thresholds of a report that does not state them.
DEFAULT_THRESHOLDS = {"?!": 0.05, "?": 0.10, "??": 0.20}


def js_import(module: str) -> str:
    """JavaScript that imports the page's own ``module`` (the instance the page runs, if it runs it) as ``m``."""
    return f"const m = await import(document.querySelector('script[type=module]').src.replace(/[^/]*$/, '{module}'));"


def run_worker(redis_url: str) -> None:
    """A real ``ludolog worker --burst``: every queued job done, then it exits."""
    done = subprocess.run([sys.executable, "-m", "ludolog.cli", "worker", "--burst", "--no-reconcile"], cwd=ROOT,
                          capture_output=True, text=True, timeout=PATIENCE_SECONDS, env=ludolog_env(redis_url, LUDOLOG_QUEUE=QUEUE))
    assert done.returncode == 0, done.stdout + done.stderr


def fork_events(rules, state, first_seq: int, first_action: str, seed: int) -> list:
    """Events of a line that plays ``first_action`` and then random legal moves to the end."""
    rng, events, seq, action = random.Random(seed), [], first_seq, first_action
    while True:
        events.append(action_event(seq, rules.current_actor(state), action))
        state = rules.apply(state, action)
        actor = rules.current_actor(state)
        if actor is None:
            return events
        seq += 1
        action = draw_chance(rules.chance_outcomes(state), rng.random()) if actor == CHANCE else rng.choice(
            list(rules.legal_actions(state)))


#: A Pig game to 30 with sure mistakes: Ben banks 28; then Anna, with 30 in her turn (holding wins at once), rolls on
#: three times, until a 1 takes it all, and Ben wins. (A random game's mistakes are too small for a careful verdict.)
BLUNDERED = ("b1", "b2", "roll", "d1", "roll", "d6", "roll", "d6", "roll", "d6", "roll", "d6", "roll", "d4", "hold",
             "roll", "d6", "roll", "d6", "roll", "d6", "roll", "d6", "roll", "d6", "roll", "d6", "roll", "d6",
             "roll", "d1", "roll", "d3", "hold")


def scripted_events(rules, setup, moves) -> list:
    """The events (from seq 2) of a game that plays ``moves`` from its start."""
    state, events = rules.initial_state(setup), []
    for seq, move in enumerate(moves, start=2):
        events.append(action_event(seq, rules.current_actor(state), move))
        state = rules.apply(state, move)
    assert rules.current_actor(state) is None, "the script plays the game to its end"
    return events


def analysed_game_with_fork(redis_client, redis_url: str, main_seeds: tuple[int, ...] = (0,)) -> tuple[int, int]:
    """A public Pig game with mistakes and a fork of it, both analysed by a real burst worker (the main line under
    each of ``main_seeds``, the fork under seed 0); (fork seq, number of decisions analysed)."""
    rules = get_rules("pig")
    setup = Setup(("Anna", "Ben"), {"target": 30})
    games = GameStore(redis_client)
    events = scripted_events(rules, setup, BLUNDERED)
    games.create_game("pig", "1", setup, owner="nobody", gid=GID, visibility="public")
    games.append(GID, MAIN, events, 1)
    _, positions = decisions(games, GID, MAIN)
    fork_at = positions[len(positions) // 2]
    state = playout_state_after(rules, setup, [None, *events], fork_at.seq)
    other = next(a for a in rules.legal_actions(state) if a != fork_at.played)
    games.fork(GID, MAIN, fork_at.seq, owner="nobody", bid="whatif", name="what if")
    games.append(GID, "whatif", fork_events(rules, state, fork_at.seq + 1, other, seed=2), fork_at.seq)
    queue = make_queue(redis_client, QUEUE)
    for bid, seeds in ((MAIN, main_seeds), ("whatif", (0,))):
        for seed in seeds:
            enqueue_analysis(games, redis_client, queue, GID, bid, ROLLOUTS, "full", seed)
    run_worker(redis_url)
    return fork_at.seq, len(positions)


def playout_state_after(rules, setup, events, seq):
    """The state after ``seq``, from ``events`` indexed by seq - 1 (index 0, the game's creation, is skipped)."""
    state = rules.initial_state(setup)
    for event in events[1:seq]:
        state = rules.apply(state, rules.parse_action(event.action))
    return state


def fresh_pig_game(redis_client) -> None:
    """A public Pig game "pig-fresh" of someone else's, never analysed."""
    setup = Setup(("Anna", "Ben"), {"target": 30})
    games = GameStore(redis_client)
    playout = random_playout(get_rules("pig"), setup, random.Random(9), check=False)
    games.create_game("pig", "1", setup, owner="nobody", gid="pig-fresh", visibility="public")
    games.append("pig-fresh", MAIN, playout.events[1:], 1)


def analysed_pig_game(live_server, watched, redis_client, redis_server, analysed: bool = True) -> tuple[Any, Any]:
    """A Pig game of the signed-up owner "picker", up to a head with a choice, analysed by a real worker (unless not
    ``analysed``): (rules, state at the head)."""
    rules, setup = get_rules("pig"), Setup(("Anna", "Ben"), {"target": 30})
    playout = random_playout(rules, setup, random.Random(10), check=False)
    state, head = rules.initial_state(setup), 1
    for event in playout.events[1:]:
        state = rules.apply(state, rules.parse_action(event.action))
        head = event.seq
        if head > 6 and isinstance(rules.current_actor(state), int) and len(rules.legal_actions(state)) > 1:
            break
    sign_up(watched, live_server, "picker")
    games = GameStore(redis_client)
    games.create_game("pig", "1", setup, owner="picker", gid="pig-picker", visibility="public")
    games.append("pig-picker", MAIN, playout.events[1:head], 1)
    if analysed:
        enqueue_analysis(games, redis_client, make_queue(redis_client, QUEUE), "pig-picker", MAIN, ROLLOUTS, "full")
        run_worker(redis_server.url)
    return rules, state


def pct(p: float | None) -> str:
    """A chance as the page writes it (JavaScript's Math.round, which rounds halves up)."""
    return "–" if p is None else f"{math.floor(100 * p + 0.5)}%"


def analysis_report(page: Any, server: Any, gid: str, bid: str = MAIN, view: str = "full",
                    seed: int = 0) -> dict[str, Any]:
    """The analysis (under ``seed``) as the API answers it to the page's browser."""
    response = page.request.get(
        f"{server.url}/api/games/{gid}/branches/{bid}/analysis?rollouts={ROLLOUTS}&view={view}&seed={seed}")
    assert response.ok, response.text()
    return response.json()


def ranked(entry: dict[str, Any]) -> list[dict[str, Any]]:
    """A position's evaluated moves, best first (its ``options`` if given, else ``best``)."""
    return sorted(entry.get("options") or entry["best"], key=lambda o: -o["win"])
