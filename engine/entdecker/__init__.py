"""Entdecker (Klaus Teuber, Goldsieber 1996), 2 to 4 players, full rules.

Authority: the Hungarian translation by Xell (1996) of The Game Cabinet's English rules of *Entdecker*
(Klaus Teuber; Goldsieber, 1996); our digest, with its rulings R1-R14 and the reconstructed component
data, is ``docs/games/entdecker.md``.

Modules: :mod:`components` (the component set as data, a documented reconstruction),
:mod:`component_set` (checking a component set and compiling lookup tables), :mod:`state` (immutable
state, ``initial_state``), :mod:`geometry` (fitting, passages, holes, islands), :mod:`turn` (the player's decisions),
:mod:`chance` (wheel, backs, tiles, chips), :mod:`flow` (turn skeleton and turn end),
:mod:`scoring`, :mod:`notation`, :mod:`describe`, :mod:`explain`, :mod:`serialize`, :mod:`rollout` (the
search's rollout policy), :mod:`strategy` (the strategy bots), :mod:`rules`; the same name for the same
role in every game (docs/ARCHITECTURE.md).

Where the rulebook and the digest part ways, the rulebook rules (each case noted where it lives):

* Friendly natives: "A játékos húzhat egy felfedezés korongot" (the player *may* draw a chip), so
  the chip is offered (``take chip`` / ``decline chip``) where the digest draws it automatically.
* "Legalább egy részletet mindenkinek fel kell fordítania minden körben" (everyone must *turn over*
  at least one tile each turn): ``end`` is offered only after the turn's first draw.
"""

from engine.entdecker.rules import RULES, EntdeckerRules

__all__ = ["EntdeckerRules", "RULES"]
