"""Amerigo (Stefan Feld, Queen Games), 2 to 4 players, full rules.

Authority: the Hungarian translation of the rulebook of Stefan Feld's *Amerigo*; our digest is
``docs/games/amerigo.md`` (its component data are a documented reconstruction, see :mod:`components`).

Modules: :mod:`components` (the default component set, plain literals), :mod:`components` (a
validated component set, default or custom), :mod:`board` (the map's geometry from the island
layout), :mod:`state`, :mod:`notation`, :mod:`tower` (the cube tower's chance model),
:mod:`setup`, :mod:`flow` (chance steps, phases, rounds), :mod:`turns` and :mod:`choose` (a
player's turn), one module per action kind (:mod:`sailing` blue, :mod:`tracks` black/brown/white,
:mod:`planning` red/yellow, :mod:`building` green), :mod:`settle`, :mod:`scoring`,
:mod:`explain`, :mod:`describe`, :mod:`serialize`, :mod:`rules`.
"""

from engine.amerigo.rules import RULES, AmerigoRules

__all__ = ["RULES", "AmerigoRules"]
