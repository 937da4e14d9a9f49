"""Puerto Rico (Andreas Seyfarth, alea/Ravensburger), 3 to 5 players, full rules.

Authority: the Hungarian rulebook of *Puerto Rico* (Andreas Seyfarth; alea / Ravensburger) with the
building table of bypeng's Chinese translation (EEBoardgame); our digest is ``docs/games/puerto_rico.md``.

Modules (the same name for the same role in every game, docs/ARCHITECTURE.md): :mod:`components` (static
tables), :mod:`state` (immutable state, ``initial_state``), :mod:`notation`, one module per phase
(:mod:`settler`, :mod:`mayor`, :mod:`builder`, :mod:`craftsman`, :mod:`trader`, :mod:`captain`),
:mod:`roles`, :mod:`chance` (the plantation draws and the reshuffle), :mod:`flow` (round skeleton),
:mod:`scoring`, :mod:`explain` (why an action is illegal), :mod:`describe`, :mod:`serialize`,
:mod:`rollout` (the search's rollout policy), :mod:`strategy` (the strategy bots), :mod:`rules`.

Optional privileges and building abilities ("sem az ahhoz tartozó privilégiummal nem kötelező
élnie"; "A játékosoknak nem kötelező használni működő lila épületeiket"): the hacienda draw, the
settler's quarry, the craftsman's extra barrel and the wharf are choices. The mayor's privilege
colonist, the hospice and university colonists, the captain's first-load VP and the harbor's VP
are taken unless declined with a "without" form of the action (see :mod:`notation`), offered
while no end trigger has fired: a chip or a colonist left in the bank can decide when the chips
or the colonists run out; afterwards declining could only lose it. Doubloons (the trader's and
prospector's privilege, the builder's discount, markets, factory) are never worth declining and
are always taken; storage always keeps the most barrels (the windrose barrel "kell" — must — be
kept, and returning a warehoused kind instead only gives the barrels to the supply).
"""

from engine.puerto_rico.rules import RULES, PuertoRicoRules

__all__ = ["RULES", "PuertoRicoRules"]
