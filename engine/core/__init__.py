"""The game-independent core: protocol, events, errors, fold/check loop, phased rules, notation, registry.

Modules: :mod:`protocol` (the ``GameRules`` protocol and its contract, ``Setup``, ``Outcome``),
:mod:`declaration` (``Declaration``: what a game is and what it offers the tools, declared once),
:mod:`events` (the event record), :mod:`errors` (the error tree), :mod:`fold` (checking and folding
events, random playouts), :mod:`phased` (``PhasedRules``: the protocol written once over a game's
phase tables, and ``apply_table``), :mod:`notation` (the one notation normalisation),
:mod:`records` (immutable records changed a field at a time), :mod:`jsonread` (the one reader of stored JSON:
typed reads that name the path of a bad field), :mod:`registry` (games by name) and
:mod:`versions` (older rules versions' setups).

Every game package has the same skeleton (``docs/ARCHITECTURE.md`` § The game-package skeleton):
``__init__`` (the rulebook and ``RULES``), ``components`` (the default component set as data),
``component_set`` (``ComponentSet``, a validated set; a game with one fixed set keeps only
``components``), ``state`` (the immutable ``State``, its phases, ``initial_state``), ``notation``,
a module per phase or decision kind (``legal_*`` and ``apply*``), ``flow`` (the round's skeleton),
chance, ``scoring``, ``explain`` (why an action is illegal), ``describe`` (the log sentence),
``serialize`` (view, dump, load: ``SNAPSHOTS``) and ``rules`` (``LEGAL``, ``APPLY``, ``DECLARATION``, ``TURNS``,
``WORDS``, the ``PhasedRules`` subclass, ``RULES``).
"""
