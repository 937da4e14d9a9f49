"""The players a game offers, and what they are made of: below the games, which build them, and the analysis,
which plays them.

Modules: :mod:`picking` (how bots and rollout policies pick: ``pick``, ``forced_or_explored``,
``verb_preference_player``, ``GreedyPlayer``, and the plans of a :class:`~engine.players.picking.PlanningPlayer`),
:mod:`dealing` (re-dealing what a seat cannot see, for a game's determiniser) and :mod:`offered` (what a game
offers, read from its declaration: its rollout policy, demo player, strategy bots and determiniser).

A game's own players live in its package (``rollout.py``, ``strategy.py``, ``determinize.py``) and import from
here; the game declares them (:class:`engine.core.declaration.Declaration`), and the search
(:mod:`engine.analysis`) reaches them through :mod:`offered`. Nothing here imports a game or the analysis.
"""
