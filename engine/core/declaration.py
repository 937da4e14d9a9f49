"""What a game declares once: what it is, and what it offers the tools around its rules.

After OpenSpiel's ``GameType`` and ``GameInfo``: each game states its facts in one value, and every tool reads
that value instead of probing the rules object for optional attributes. A :class:`Declaration` is a game's
identity (its registry name, title, rules version, player counts, the setup options it knows), the setups that
replay its older versions (read by :mod:`engine.core.versions`), and the players it offers: a demo player (the
demo), a rollout policy, strategy bots and a determiniser (the search, the verdict and the bots,
:mod:`engine.analysis`), with the analysis budget and verdict settings the game needs. Every field but the
identity has a default that means "nothing of its own": a game states only what it has.

Every rules object carries its declaration (``rules.declaration``, see :class:`engine.core.protocol.GameRules`);
:class:`engine.core.phased.PhasedRules` also reads its name, version and player counts from it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

#: A player for playouts: picks one of the legal actions (hashable) it is given in a state, randomness from the rng.
#: (The protocol's ``State`` and ``Action``, written out: the protocol module reads this one.)
Player: TypeAlias = Callable[[Any, list[Hashable], random.Random], Hashable]
#: Draws a full state consistent with what a seat sees: ``determinize(state, seat, rng) -> state``.
Determinizer: TypeAlias = Callable[[Any, int, random.Random], Any]


@dataclass(frozen=True)
class Declaration:
    """One game's declaration: its identity and what it offers (see the module docstring).

    ``legacy_options``: per older rules version, the setup options that keep its behaviour for its games
    (``{"1": {"reshuffle": "draw_needed"}}``, :mod:`engine.core.versions`).

    ``demo_player``: the player demo games are played with instead of uniform random play, for a game whose random
    games show little (it chooses only among the legal actions it is given).

    ``rollout_player``: the cheap player the search's playouts use (:mod:`engine.players.offered`; else the demo
    player, else uniform random play).

    ``strategy_players``: the game's strategy bots by name, strongest first (:mod:`engine.players.offered`).

    ``determinize``: a state ``seat`` cannot tell from ``state``, with everything it cannot see (other hands,
    face-down tiles, a pile's make-up) re-dealt from the unseen pool by the visible sizes; it must depend on
    ``view(state, seat)`` and ``rng`` only. A game needs it only when its view hides something the view does not fix
    (:mod:`engine.players.dealing`); without it the search plays on the state itself.

    ``analysis_rollouts``: the analysis's default budget for this game, where it needs more than the usual
    (:func:`engine.analysis.default_rollouts`); ``analysis_verdict``: verdict settings of its own, by name
    (:data:`engine.analysis.verdict.GAME_SETTINGS`); ``analysis_measured``: what a second opinion repeated at each
    budget the reproducibility bench measured, ``rollouts → (decisions, verdicts marked, ?? marks, ?? marks the other
    seed kept, decisions with the same best move)`` (the analysis panel's note on how sure a budget is).

    ``apply_plan``: the state after a planning player's plan (:mod:`engine.players.picking`), its actions applied in
    turn, where the game can do it faster than one ``apply`` each; it must leave exactly what they leave one by one
    (tests/engine/test_conformance.py checks it). None: the playout applies them one by one.

    ``explorer_choices``: the game's main choices in a finished game's moves, ``(seq, seat, stage, choice)`` each
    (:mod:`engine.core.played`; the explorer counts what players chose and how they fared); none, no explorer.
    """

    #: The game's registry name (``puerto_rico``), also written into ``game_created``.
    name: str
    #: The game's name as people read it (``Puerto Rico``): lists, page headers, titles.
    title: str
    #: The rules version, a string of digits; bumped when stored games would replay differently.
    version: str
    #: The fewest and the most players the game takes.
    min_players: int
    max_players: int
    #: The ``Setup.options`` keys the game understands.
    known_options: tuple[str, ...] = ()
    legacy_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    demo_player: Player | None = None
    rollout_player: Player | None = None
    strategy_players: Mapping[str, Player] = field(default_factory=dict)
    determinize: Determinizer | None = None
    analysis_rollouts: int | None = None
    analysis_verdict: Mapping[str, float] = field(default_factory=dict)
    analysis_measured: Mapping[int, tuple[int, int, int, int, int]] = field(default_factory=dict)
    explorer_choices: Callable[[Sequence[Any]], list[tuple[int, int, str, str]]] | None = None
    apply_plan: Callable[[Any, Sequence[Any]], Any] | None = None
