"""The search player: the move the analysis plays itself, where nobody has played one yet (and the tree player's).

It is the player whose strength ``python -m bench.strength`` measures against the strategy bots (player version
:data:`engine.analysis.PLAYER_VERSION`, docs/PERFORMANCE.md), and the engine seat's ``strong`` level
(:mod:`service.games.seating`): a person who plays the strong engine meets the player those figures are about.

Its move is the verdict's best (:func:`engine.analysis.verdict.judge`, with no played move, so no duel and no
top-up of the win chances) among the tree's candidates and its rollout policy's own move: a one-step improvement of
a policy is at least as good as the policy only if the policy's move is among those compared (Tesauro & Galperin
1996, "On-line policy improvement using Monte-Carlo search", NIPS 9). Like the verdict, it uses only what its seat
can see: the policy's own move is read from a determinisation of the seat's view, never from the full state.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.analysis.search import search
from engine.analysis.verdict import judge
from engine.core.protocol import Action, Rules, State
from engine.players.offered import determinizer_for, policy_for

#: Mixed into the seed for the determinisation the policy's own move is read from, so that it draws from a stream
#: of its own and the policy's stream (the seed itself) is the one the strength bench's games were played with.
VIEW_STREAM = 0x5EA7


def choose(rules: Rules, state: State, seat: int, *, rollouts: int, seed: int,
           actions: Sequence[Action] | None = None) -> Action:
    """The search player's move for ``seat`` (the seat to act) at ``state`` with a budget of ``rollouts`` playouts;
    deterministic for ``seed``. ``actions``: the legal actions, when the caller has them already. A single legal
    action is played without a search."""
    legal = list(actions) if actions is not None else list(rules.legal_actions(state))
    if len(legal) == 1:
        return legal[0]
    seen = determinizer_for(rules)(state, seat, random.Random(seed ^ VIEW_STREAM))
    own = policy_for(rules)(seen, legal, random.Random(seed))
    best = judge(rules, state, seat=seat, rollouts=rollouts, seed=seed, narrow=False, also=(own,)).best
    return best.action if best is not None else legal[0]


def tree_choice(rules: Rules, state: State, seat: int, *, rollouts: int, seed: int,
                actions: Sequence[Action] | None = None) -> Action:
    """The tree search's most visited move for ``seat`` at ``state`` (the engine seat's ``easy`` and ``normal`` levels,
    the strength bench's ``--player tree``); the first legal action where the search found no root action."""
    best = search(rules, state, seat=seat, rollouts=rollouts, seed=seed).best
    if best is not None:
        return best.action
    return actions[0] if actions is not None else rules.legal_actions(state)[0]
