"""Events: the append-only facts a game's log is made of.

Seq 1 of every branch's history is ``game_created`` (game name, rules version, setup);
every later event is one action, by a seat (``action_taken``) or by chance
(``chance_drawn``), written in the game's notation. ``meta`` carries what the rules
never read: time, author, the source line of an imported log, the idempotency key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import StateFormatError
from engine.core.protocol import CHANCE, Actor, Setup

GAME_CREATED = "game_created"
ACTION_TAKEN = "action_taken"
CHANCE_DRAWN = "chance_drawn"
EVENT_TYPES = (GAME_CREATED, ACTION_TAKEN, CHANCE_DRAWN)

#: The schema version of events written by this code.
EVENT_VERSION = 1


@dataclass(frozen=True, slots=True)
class Event:
    """One fact of a game's history. ``data`` is set on ``game_created`` only."""

    seq: int
    type: str
    actor: Actor = None
    action: str | None = None
    v: int = EVENT_VERSION
    meta: Mapping[str, Any] = field(default_factory=dict)
    data: Mapping[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The event as JSON-safe data (``data`` only when present)."""
        out: dict[str, Any] = {
            "seq": self.seq,
            "type": self.type,
            "actor": self.actor,
            "action": self.action,
            "v": self.v,
            "meta": dict(self.meta),
        }
        if self.data is not None:
            out["data"] = dict(self.data)
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Event:
        """The event from :meth:`to_json` data; raises StateFormatError if malformed."""
        try:
            event = cls(
                seq=int(raw["seq"]),
                type=str(raw["type"]),
                actor=raw.get("actor"),
                action=raw.get("action"),
                v=int(raw.get("v", EVENT_VERSION)),
                meta=dict(raw.get("meta") or {}),
                data=dict(raw["data"]) if raw.get("data") is not None else None,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise StateFormatError(f"malformed event {raw!r}: {exc}") from exc
        if event.type not in EVENT_TYPES:
            raise StateFormatError(f"unknown event type {event.type!r}: expected one of {', '.join(EVENT_TYPES)}")
        return event

    def with_seq(self, seq: int) -> Event:
        """The same event placed at ``seq``."""
        return Event(seq, self.type, self.actor, self.action, self.v, self.meta, self.data)

    def with_meta(self, **meta: Any) -> Event:
        """The same event with ``meta`` entries added."""
        return Event(self.seq, self.type, self.actor, self.action, self.v, {**self.meta, **meta}, self.data)


def game_created(game: str, rules_version: str, setup: Setup, **meta: Any) -> Event:
    """The first event of a game."""
    data = {"game": game, "rules_version": rules_version, "setup": setup.to_json()}
    return Event(1, GAME_CREATED, None, None, meta=meta, data=data)


def action_event(seq: int, actor: Actor, notation: str, **meta: Any) -> Event:
    """The event for ``actor`` taking the action written ``notation`` at ``seq``."""
    kind = CHANCE_DRAWN if actor == CHANCE else ACTION_TAKEN
    return Event(seq, kind, actor, notation, meta=meta)
