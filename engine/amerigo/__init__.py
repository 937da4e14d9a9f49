"""Amerigo (Stefan Feld, Queen Games), 2 to 4 players, full rules.

Authority: the Hungarian translation of the rulebook of Stefan Feld's *Amerigo*; our digest is
``docs/games/amerigo.md`` (its component data are a documented reconstruction, see :mod:`components`).

Modules (the same name for the same role in every game, docs/ARCHITECTURE.md): :mod:`components` (the
default component set, plain literals), :mod:`component_set` (a validated component set, default or custom),
:mod:`board` (the map's geometry from the island layout), :mod:`state` (the state, ``initial_state``),
:mod:`notation`, :mod:`tower` (the cube tower's chance model), :mod:`chance` (setup's chance steps and the
throws), :mod:`flow` (phases, rounds), :mod:`turns` and :mod:`choose` (a player's turn), one module per
action kind (:mod:`sailing` blue, :mod:`tracks` black/brown/white, :mod:`planning` red/yellow,
:mod:`building` green), :mod:`settle`, :mod:`scoring`, :mod:`explain`, :mod:`describe`, :mod:`serialize`,
:mod:`rollout` (the search's rollout policy and the demo's player), :mod:`strategy` (the strategy bots),
:mod:`rules`.
"""

from engine.amerigo.rules import RULES, AmerigoRules

__all__ = ["RULES", "AmerigoRules"]
