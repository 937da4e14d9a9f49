"""What a game and its branches are, as records: the values the game store reads and writes.

They live apart from :mod:`service.store.games` so that the listing indexes, which file a record under
its index keys, need not import the store that calls them.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from engine import UnknownGameError, get_rules
from engine.core.protocol import Setup
from engine.core.versions import setup_for_version
from service.store.results import GameResult, decode_result

MAIN = "main"
VISIBILITIES = ("public", "unlisted", "private")
#: The source of a game that has no rules here: only its log lines (browsable, annotatable, not forkable).
SOURCE_LOG_ONLY = "bga-log"

@dataclass(frozen=True)
class Branch:
    """A line of play: ``main``, or a fork of ``parent`` after event ``fork_seq``."""

    id: str
    name: str
    owner: str | None
    seed: str
    parent: str | None = None
    fork_seq: int = 0
    created: float = 0.0
    incomplete: bool = False
    chance: str = "redraw"  # a fork's chance: "redraw" from its seed, or "keep" the parent line's draws where possible
    #: The seed was named by whoever made the branch rather than drawn by the server: they can foresee its draws.
    seed_chosen: bool = False

    def to_json(self) -> dict[str, Any]:
        """JSON-safe record."""
        return asdict(self)


def _setup_for(game: str, rules_version: str, setup: Setup) -> Setup:
    try:
        rules = get_rules(game)
    except UnknownGameError:  # a log-only game: no rules, nothing to replay
        return setup
    return setup_for_version(rules, rules_version, setup)


@dataclass(frozen=True)
class GameRecord:
    """What a game is: which rules, set up how, whose, who may see it, where it came from."""

    id: str
    game: str
    rules_version: str
    setup: Setup
    owner: str | None
    visibility: str = "public"
    source: str = "live"
    created: float = 0.0
    title: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    #: How the main line ended; None while it goes on (``service.store.results``).
    result: GameResult | None = None

    @property
    def is_log_only(self) -> bool:
        """True for a game kept as log lines only (no rules: no states, no forks, no export)."""
        return self.source == SOURCE_LOG_ONLY

    def to_json(self) -> dict[str, Any]:
        """JSON-safe record."""
        data = asdict(self)
        data["setup"] = self.setup.to_json()
        data["result"] = None if self.result is None else self.result.to_json()
        return data

    @classmethod
    def from_hash(cls, raw: dict[str, str]) -> GameRecord:
        """The record from the game's meta hash.

        A game written by an older rules version gets the setup that replays it as it was played
        (``engine.core.versions``): every reader starting from ``record.setup`` then folds it alike.
        """
        return cls(
            id=raw["id"], game=raw["game"], rules_version=raw["rules_version"],
            setup=_setup_for(raw["game"], raw["rules_version"], Setup.from_json(json.loads(raw["setup"]))),
            owner=raw.get("owner") or None,
            visibility=raw.get("visibility", "public"), source=raw.get("source", "live"),
            created=float(raw.get("created", 0)), title=raw.get("title", ""), extra=json.loads(raw.get("extra", "{}")),
            result=decode_result(raw.get("result")),
        )
