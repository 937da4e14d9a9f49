"""The search player (engine.analysis.player): the verdict's best among the tree's moves and its policy's own move,
from what its seat can see; the engine seat's strong level and the strength bench's player. And the tree player's move
(``tree_choice``: the easy and normal levels, the bench's ``--player tree``)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engine.analysis import judge, search
from engine.analysis.player import choose, tree_choice
from engine.core.declaration import Declaration
from tests.games.pig import PIG, PigState


class WatchedPig:
    """Pig whose seat views are "determinised" into equal copies, each remembered, and whose rollout policy holds at a
    turn total of 3 or more and remembers every state it is shown."""

    def __init__(self) -> None:
        self.determinised: list[PigState] = []
        self.shown: list[PigState] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(PIG, name)

    @property
    def declaration(self) -> Declaration:
        """Pig's declaration, offering this object's determiniser and rollout policy."""
        return replace(PIG.declaration, determinize=self.determinize, rollout_player=self.rollout_player)

    def determinize(self, state: PigState, seat: int, rng: random.Random) -> PigState:
        copy = PigState(*state)
        self.determinised.append(copy)
        return copy

    def rollout_player(self, state: PigState, actions: list[str], rng: random.Random) -> str:
        self.shown.append(state)
        return "hold" if "hold" in actions and state.turn_total >= 3 else actions[int(rng.random() * len(actions))]


def _pig(turn_total: int = 3) -> PigState:
    return PigState((5, 5), (1, 1), 0, turn_total, False, 20)


def test_the_policys_own_move_is_read_from_the_seats_view_never_from_the_full_state():
    """"Like the verdict, it uses only what its seat can see: the policy's own move is read from a determinisation of
    the seat's view, never from the full state." (the module docstring)"""
    rules, state = WatchedPig(), _pig()
    choose(rules, state, 0, rollouts=40, seed=5)
    assert rules.shown[0] is rules.determinised[0] and rules.shown[0] is not state


def test_its_move_is_the_verdicts_best_with_the_policys_own_move_weighed_too():
    rules, state = WatchedPig(), _pig()
    own = rules.rollout_player(state, list(rules.legal_actions(state)), random.Random(5))
    best = judge(rules, state, seat=0, rollouts=40, seed=5, narrow=False, also=(own,)).best
    assert best is not None and choose(WatchedPig(), state, 0, rollouts=40, seed=5) == best.action


def test_it_is_deterministic_for_a_seed():
    moves = [choose(WatchedPig(), _pig(), 0, rollouts=40, seed=9) for _ in range(3)]
    assert len(set(moves)) == 1 and moves[0] in PIG.legal_actions(_pig())


def test_a_single_legal_action_is_played_without_a_search():
    forced, free = WatchedPig(), WatchedPig()
    assert choose(forced, _pig(), 0, rollouts=40, seed=1, actions=["hold"]) == "hold"
    assert not forced.determinised and not forced.shown, "a forced move was searched"
    choose(free, _pig(), 0, rollouts=40, seed=1)
    assert free.determinised and free.shown


def test_the_tree_players_move_is_the_trees_most_visited():
    """``tree_choice``: "The tree search's most visited move for ``seat`` at ``state``" (its docstring)."""
    for seed in range(3):
        best = search(PIG, _pig(), seat=0, rollouts=40, seed=seed).best
        assert best is not None and tree_choice(PIG, _pig(), 0, rollouts=40, seed=seed) == best.action
        assert tree_choice(PIG, _pig(), 0, rollouts=40, seed=seed, actions=["hold", "roll"]) == best.action
