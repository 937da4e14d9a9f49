"""Games written by an older rules version: the setup under which they replay as they were played.

Stored events never change, and snapshots are a cache rebuilt with the current rules (the reconciler
drops those of another version). Where a new version changes behaviour in a way that would make an
old game's events illegal or change their states, the game keeps the old behaviour behind a setup
option: a game's declaration may name, per older version, the options that select it
(``Declaration(..., legacy_options={"1": {"reshuffle": "draw_needed"}})``). This is the upcaster: every reader that
starts a game from its stored setup passes it through :func:`setup_for_version` first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.protocol import Rules, Setup


def legacy_options(rules: Rules, rules_version: str | None) -> Mapping[str, Any]:
    """The options that give ``rules`` the behaviour of ``rules_version`` (none for the current one)."""
    if rules_version is None or rules_version == rules.version:
        return {}
    return rules.declaration.legacy_options.get(str(rules_version), {})


def setup_for_version(rules: Rules, rules_version: str | None, setup: Setup) -> Setup:
    """``setup`` with the options that replay a game written by ``rules_version`` as it was played.

    Options the setup already names win (a game may have chosen them itself).
    """
    extra = legacy_options(rules, rules_version)
    if not extra:
        return setup
    return Setup(players=setup.players, options={**extra, **setup.options})
