"""Die goldene Stadt (Michael Schacht, Kosmos 2009), 3 or 4 players, full rules.

Authority: the Hungarian translation of the rulebook of *Die goldene Stadt* (KOSMOS, 2009); our digest is
``docs/games/golden_city.md`` (our reading, rulings and the component data). The board layout, the
rewards printed on it, the goods cards and the scoring cards' faces are a documented
reconstruction (see :mod:`components`); another component set can be passed as
``Setup.options["components"]``, and ``Setup.options["start_seat"]`` names the youngest player,
who takes the start key.

Modules (the same name for the same role in every game, docs/ARCHITECTURE.md): :mod:`components` (the
default data), :mod:`component_set` (validation and the precomputed road graph), :mod:`state` (the state,
``initial_state``), :mod:`cards` (payments with the joker rule, the hand limit, draws), :mod:`flow` (the
round's skeleton and the end), one module per phase (:mod:`bidding`, :mod:`building`, :mod:`rewards`,
:mod:`scoring`), :mod:`chance`, :mod:`notation`, :mod:`describe`, :mod:`explain` (why an action is illegal),
:mod:`serialize`, :mod:`determinize` (the search's guess at hidden cards), :mod:`rollout` (the search's
rollout policy), :mod:`strategy` (the strategy bots) and :mod:`rules`.
"""

from engine.golden_city.rules import RULES, GoldenCityRules

__all__ = ["RULES", "GoldenCityRules"]
