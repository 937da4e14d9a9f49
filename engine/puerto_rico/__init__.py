"""Puerto Rico (Andreas Seyfarth, alea/Ravensburger), 3 to 5 players, full rules.

Authority: the Hungarian rulebook (``seeds/000_5b4231598f131950.txt``) with the Chinese
building table (``seeds/004_fd617da41adeacb7.txt``); our digest is ``games/puerto_rico.md``.

Modules: :mod:`components` (static tables), :mod:`state` (immutable state), :mod:`notation`,
one module per phase (:mod:`settler`, :mod:`mayor`, :mod:`builder`, :mod:`craftsman`,
:mod:`trader`, :mod:`captain`), :mod:`roles`, :mod:`flow` (round skeleton), :mod:`scoring`,
:mod:`explain` (why an action is illegal), :mod:`describe`, :mod:`serialize`, :mod:`rules`.

Readings where the rules leave a choice to the player that never hurts them (documented so
that logs agree): the mayor's privilege colonist, the hospice and university colonists, the
captain's and harbor's VP are taken automatically; storage always keeps the most barrels.
The hacienda draw, the settler's quarry, the craftsman's extra barrel and the wharf are choices.
"""

from engine.puerto_rico.rules import RULES, PuertoRicoRules

__all__ = ["RULES", "PuertoRicoRules"]
