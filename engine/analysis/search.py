"""Information-set Monte Carlo tree search over the Rules protocol, for any game and any number of seats.

The algorithm is single-observer information-set MCTS (SO-ISMCTS) from Cowling, Powley and
Whitehouse, "Information Set Monte Carlo Tree Search", IEEE Transactions on Computational
Intelligence and AI in Games 4(2), 2012. Each iteration:

1. *determinises*: draws one full state consistent with what the searching seat sees (the game's
   declared ``determinize``, see :mod:`engine.players.dealing`);
2. *selects* down one shared tree whose edges are actions: at a seat's decision, among the children
   legal in this determinisation, the one with the best UCB1 value for *that* seat (each seat
   maximises its own win share, as in max^n), exploration counted against how often the child was
   *available* rather than how often its parent was visited (the paper's subset-armed bandit); at a
   chance event, an outcome drawn by the rules' weights;
3. *expands* one untried action of a seat (chance outcomes are added as they are drawn);
4. *plays out* the rest of the game with the rollout policy (:mod:`engine.players.offered`);
5. *backs up* every seat's win share (:func:`engine.analysis.stats.win_shares`) along the path.

Why ISMCTS rather than plain determinised MCTS (one tree per sampled deal, votes merged): the
latter splits the budget between many small trees and lets each one plan as if it knew the hidden
cards ("strategy fusion"); ISMCTS gathers every iteration into one tree over what the searching seat
can tell apart, so a budget of a few hundred rollouts gives usable statistics for every root action.
A seat's hint therefore never depends on what it cannot see: the only use of the hidden part of the
state is through fresh determinisations, which depend on the seat's view alone.

Everything is deterministic for a given seed: randomness comes from one ``random.Random(seed)``,
children are kept in insertion order and ties are broken by the rules' own action order.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.analysis.stats import wilson_interval, win_shares
from engine.core.fold import Player, draw_chance
from engine.core.protocol import CHANCE, Action, Rules, State
from engine.players.offered import determinizer_for, policy_for
from engine.players.picking import plan_of

#: Bumped whenever a change alters results for the same inputs (stored analyses carry it). 2: rollouts take forced
#: moves without a draw, the policies pick with one draw each and Puerto Rico's plans a player's colonist
#: placements at once (issue 17's speed work: the same choices, drawn from a new random stream).
#: 3: verdicts (:mod:`engine.analysis.verdict`): candidates judged on paired playouts, searches seeded by the request's
#: seed as well as the position.
#: 4: the verdicts of 3 together with rollouts played by strategy bots (Puerto Rico's shipping bot, Entdecker's
#: settler, a tenth of their moves random: engine/<game>/strategy.py), which a parallel branch had also called 3;
#: results recorded under either 3 measure neither of them together, so they no longer count.
#: 5: a played move's verdict ends in a duel with its strongest rival, and a played move the paired interval does not
#: show to be worse is the best move (:mod:`engine.analysis.verdict`); the choice without a played move is unchanged.
#: 6: the best move is played out further until the mover's win chance is known to 0.035 either side (at most four
#: budgets): the chances and their intervals change, the choice and the marks do not.
#: 7: a duel whose loss leans past a mark's threshold without its interval confirming it is played on until decided
#: (at most a budget a move): the marks, the best move and the chances of such positions change; no played move, no duel.
#: 8: that duel goes on up to two budgets a move, and also where its mean is just below a threshold (within 0.02).
#: 9: a judged played move is compared with up to twelve of the tree's moves instead of four (the choice is unchanged).
#: A game may name verdict settings of its own (:data:`engine.analysis.verdict.GAME_SETTINGS`); its verdicts then carry
#: a version of their own, this one followed by those settings (:func:`engine.analysis.verdict.search_version`: Amerigo's
#: and Entdecker's are "version 10" in docs/PERFORMANCE.md; Puerto Rico's names a wider interval for its win chances,
#: issue 49 item 7), and the other games keep this one and their stored verdicts.
SEARCH_VERSION = "9"
#: The version of the search player's own choice (a verdict without a played move, and the tree): what the strength
#: bench counts its games by. It moves with :data:`SEARCH_VERSION` except where a version changed only how a played
#: move is judged or how precisely the chances are given (5–8), so the games played under the same choice
#: keep counting. 5: the search player also weighs its rollout policy's own move (``judge``'s ``also``).
PLAYER_VERSION = "5"
#: The default budget where a game names none (:func:`default_rollouts`): rollouts per analysed position.
DEFAULT_ROLLOUTS = 200
#: UCB1's exploration constant for rewards in [0, 1] (a little below sqrt(2): rollouts are noisy already).
EXPLORATION = 0.7
#: A rollout that has not ended after this many steps counts as a draw between every seat.
MAX_ROLLOUT_STEPS = 100_000


@dataclass(frozen=True)
class ActionStats:
    """One root action: the mover's estimated win probability, its visits and a 95 % Wilson interval."""

    action: Action
    visits: int
    win: float
    low: float
    high: float


@dataclass(frozen=True)
class Analysis:
    """The result of :func:`search` at one position.

    ``win`` is every seat's estimated probability of first place (a shared first counts 1/k, see
    :func:`~engine.analysis.stats.win_shares`); ``actions`` the legal actions of the seat to act,
    most visited first (empty at chance, at the end, or when the searching seat is not the one to
    act, whose options it may not know); ``actor`` who acts at the position.
    """

    seat: int | None
    actor: Any
    rollouts: int
    seed: int
    win: tuple[float, ...]
    actions: tuple[ActionStats, ...] = field(default=())

    @property
    def best(self) -> ActionStats | None:
        """The recommended action: the most visited (the usual robust choice of MCTS), or None."""
        return self.actions[0] if self.actions else None

    def to_json(self, format_action: Callable[[Action], str]) -> dict[str, Any]:
        """JSON-safe data, actions in the game's notation."""
        return {
            "seat": self.seat, "actor": self.actor, "rollouts": self.rollouts, "seed": self.seed, "win": list(self.win),
            "actions": [{"action": format_action(a.action), "n": a.visits, "win": a.win, "ci": [a.low, a.high]}
                        for a in self.actions],
        }


class _Node:
    """A tree node: per-seat win totals of the iterations through it, visits, and availability."""

    __slots__ = ("available", "children", "visits", "wins")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.available = 1
        self.wins: list[float] = []

    def rate(self, seat: int) -> float:
        return self.wins[seat] / self.visits if self.visits and seat < len(self.wins) else 0.0

    def add(self, shares: tuple[float, ...]) -> None:
        if len(self.wins) < len(shares):
            self.wins.extend([0.0] * (len(shares) - len(self.wins)))
        for seat, share in enumerate(shares):
            self.wins[seat] += share
        self.visits += 1


def _ucb_pick(node: _Node, actions: list[Action], seat: int) -> Action:
    """The legal child with the best UCB1 value for ``seat`` (availability-based, first on ties)."""
    best, best_value = actions[0], -math.inf
    for action in actions:
        child = node.children[action]
        value = child.rate(seat) + EXPLORATION * math.sqrt(math.log(child.available) / child.visits)
        if value > best_value:
            best, best_value = action, value
    return best


def _descend(rules: Rules, state: State, root: _Node, rng: random.Random) -> tuple[State, list[_Node]]:
    """Selection and expansion: the state reached and the nodes passed, ending at a new node or the end."""
    node, path = root, [root]
    while True:
        actor = rules.current_actor(state)
        if actor is None:
            return state, path
        if actor == CHANCE:
            action = draw_chance(rules.chance_outcomes(state), rng.random())
            child = node.children.setdefault(action, _Node())
        else:
            actions = list(rules.legal_actions(state))
            untried = [a for a in actions if a not in node.children]
            for action in actions:
                if action in node.children:
                    node.children[action].available += 1
            if untried:
                action = rng.choice(untried)
                child = node.children[action] = _Node()
                path.append(child)
                return rules.apply(state, action), path
            action = _ucb_pick(node, actions, int(actor))
            child = node.children[action]
        state = rules.apply(state, action)
        node = child
        path.append(node)


#: Called before every playout, in order: how a long search lets something else run between two playouts (the engine
#: seat's worker lends its process to another owner's waiting move: ``workers/engine_seat.py``). Nothing by default;
#: a hook must leave the search's state and random numbers alone, so the search's result does not depend on it. A hook
#: may raise to abandon the search, which then gives no result (the analysis job does when its analysis is cancelled:
#: ``workers/analysis.py``).
BETWEEN_PLAYOUTS: list[Callable[[], None]] = []


def play_out(rules: Rules, state: State, policy: Player, rng: random.Random) -> tuple[float, ...] | None:
    """Every seat's win share after playing on with ``policy``; None when the game does not end in time.

    The hottest loop of an analysis (a rollout is hundreds of steps): the rules' methods are bound once, a
    forced move (one legal action, one chance outcome) is taken without asking the policy or drawing a number,
    a policy's plan (:mod:`engine.players.picking`) is applied without asking for the legal actions in
    between (at once where the game declares ``apply_plan``), and any other choice costs one ``legal_actions`` and
    one ``apply``.
    """
    for hook in BETWEEN_PLAYOUTS:
        hook()
    current_actor, legal_actions, chance_outcomes, apply = (
        rules.current_actor, rules.legal_actions, rules.chance_outcomes, rules.apply)
    plan = plan_of(policy)
    apply_plan = rules.declaration.apply_plan
    for _ in range(MAX_ROLLOUT_STEPS):
        actor = current_actor(state)
        if actor is None:
            outcome = rules.outcome(state)
            return win_shares(outcome) if outcome is not None else None
        if actor == CHANCE:
            outcomes = chance_outcomes(state)
            state = apply(state, outcomes[0][0] if len(outcomes) == 1 else draw_chance(outcomes, rng.random()))
            continue
        planned = plan(state, rng) if plan is not None else ()
        if planned:
            if apply_plan is not None:
                state = apply_plan(state, planned)
            else:
                for action in planned:
                    state = apply(state, action)
            continue
        actions = legal_actions(state)
        state = apply(state, actions[0] if len(actions) == 1 else policy(state, list(actions), rng))
    return None


#: The former private name, kept for callers written before verdicts needed the playout.
_play_out = play_out


def default_rollouts(rules: Rules) -> int:
    """The game's default budget: the ``analysis_rollouts`` its declaration names, else :data:`DEFAULT_ROLLOUTS`.

    A game names a larger budget where the marks of a played move need more samples to repeat under a second seed
    (the reproducibility bench measures it): how many rollouts a verdict needs depends on how noisy the game's
    playouts are and how close its moves, not only on the method.
    """
    named = rules.declaration.analysis_rollouts
    return int(named) if named else DEFAULT_ROLLOUTS


def search(rules: Rules, state: State, *, seat: int | None, rollouts: int = DEFAULT_ROLLOUTS, seed: int = 0,
           policy: Player | None = None) -> Analysis:
    """Analyse ``state`` for ``seat`` with ``rollouts`` iterations of ISMCTS (see the module docstring).

    ``seat`` None searches with full information (the spectator's "full view" of a finished log);
    a seat searches over determinisations of what it cannot see. ``policy`` overrides the game's
    rollout policy. Raises ValueError for a budget below 1.
    """
    if rollouts < 1:
        raise ValueError(f"rollouts must be at least 1, got {rollouts}")
    actor = rules.current_actor(state)
    if actor is None:
        outcome = rules.outcome(state)
        return Analysis(seat, None, 0, seed, win_shares(outcome) if outcome is not None else ())
    rng = random.Random(seed)
    determinize = determinizer_for(rules)
    player = policy or policy_for(rules)
    root = _Node()
    for _ in range(rollouts):
        sample = determinize(state, seat, rng) if seat is not None else state
        leaf, path = _descend(rules, sample, root, rng)
        shares = play_out(rules, leaf, player, rng)
        if shares is None:
            seats = max(len(root.wins), 1)
            shares = (1.0 / seats,) * seats
        for node in path:
            node.add(shares)
    return Analysis(seat, actor, rollouts, seed, tuple(root.rate(s) for s in range(len(root.wins))),
                    _root_actions(rules, state, root, seat, actor))


def _root_actions(rules: Rules, state: State, root: _Node, seat: int | None, actor: Any) -> tuple[ActionStats, ...]:
    """Statistics of the mover's legal actions, most visited first, then best rate, then the rules' order."""
    if actor == CHANCE or (seat is not None and actor != seat):
        return ()
    stats = []
    for action in rules.legal_actions(state):
        child = root.children.get(action)
        visits = child.visits if child is not None else 0
        wins = child.wins[actor] if child is not None and actor < len(child.wins) else 0.0
        low, high = wilson_interval(wins, visits)
        stats.append(ActionStats(action, visits, wins / visits if visits else 0.0, low, high))
    order = sorted(range(len(stats)), key=lambda i: (-stats[i].visits, -stats[i].win, i))
    return tuple(stats[i] for i in order)
