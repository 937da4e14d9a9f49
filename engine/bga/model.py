"""Value objects of a parsed BGA log: the log, its packets, notifications and players.

They are frozen dataclasses, like python-chess's value types: built once by
:func:`engine.bga.envelope.parse_log`, never changed afterwards. ``args`` values stay
the plain JSON values BGA sent (dicts, lists, strings, numbers) because their shape is
game-specific; treat them as read-only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

#: Where a log came from: a JSON document (any envelope) or pasted log-panel text.
Source = Literal["json", "text"]


@dataclass(frozen=True)
class Notification:
    """One notification of a packet: a line of the game log, or a silent state update.

    ``log`` is the template (``${name}`` placeholders, may hold HTML, may be empty);
    ``args`` its arguments (a dict, or a list for some BGA notifications). ``private``,
    ``move_id``, ``packet_id`` and ``time`` are copied from the packet so that a
    notification can be used on its own.
    """

    uid: str
    type: str
    log: str
    args: dict[str, Any] | list[Any]
    private: bool
    move_id: int | None
    packet_id: int
    time: int | None

    @property
    def named_args(self) -> dict[str, Any]:
        """``args`` if it is a dict, else an empty dict (list args name nothing)."""
        return self.args if isinstance(self.args, dict) else {}


@dataclass(frozen=True)
class Packet:
    """One packet: the notifications BGA sent on one channel for one step of a move.

    ``channel`` is ``/table/t<id>`` (public) or ``/player/p<id>`` (private to
    ``player_id``). ``packet_id`` grows across all channels; a public and a private
    packet may share a ``move_id``, which is None for a few housekeeping packets.
    ``time`` is Unix seconds; it is None only for logs read from pasted text, whose
    move headers carry the time as written (``time_text``).
    """

    channel: str
    is_private: bool
    player_id: int | None
    packet_id: int
    packet_type: str
    move_id: int | None
    time: int | None
    notifications: tuple[Notification, ...]
    time_text: str | None = None


@dataclass(frozen=True)
class Player:
    """A player at the table: BGA id, name, and, when the log says so, color, score and rank."""

    id: int
    name: str
    color: str | None = None
    score: int | None = None
    rank: int | None = None


@dataclass(frozen=True)
class ResultEntry:
    """One player's line of the final result (``gameStateChange`` id 99).

    ``score_aux`` is BGA's tie-breaker score, when the game has one; ``color`` the
    player's color in the game (``#rrggbb``).
    """

    player_id: int | None
    name: str
    score: int | None
    rank: int | None
    score_aux: int | None = None
    color: str | None = None


@dataclass(frozen=True)
class BgaLog:
    """A whole BGA log, whatever envelope it came in.

    ``players`` are in seat order when the log shows it (the envelope's player list, or
    the order BGA lists them in state changes), else in order of first appearance.
    ``result`` is None when the log has no end-of-game state (an unfinished game, or a
    truncated log). ``source`` is ``"text"`` for a pasted log panel, which is best
    effort: its packets hold one notification per line and nothing else is known.
    """

    table_id: int | None
    players: tuple[Player, ...]
    packets: tuple[Packet, ...]
    result: tuple[ResultEntry, ...] | None = None
    game_name: str | None = None
    source: Source = "json"
    envelope: str = field(default="", compare=False)

    @property
    def public_packets(self) -> tuple[Packet, ...]:
        """The packets every viewer may see."""
        return tuple(p for p in self.packets if not p.is_private)

    @property
    def private_packets(self) -> tuple[Packet, ...]:
        """The packets addressed to one player only."""
        return tuple(p for p in self.packets if p.is_private)

    def player(self, player_id: int) -> Player | None:
        """The player with BGA id ``player_id``, or None."""
        for p in self.players:
            if p.id == player_id:
                return p
        return None


def packets_visible_to(log: BgaLog, player_id: int | None) -> tuple[Packet, ...]:
    """The packets that player ``player_id`` (a BGA id) may see: public ones and their own private ones.

    ``None`` is a spectator, who sees public packets only.
    """
    return tuple(p for p in log.packets if not p.is_private or (player_id is not None and p.player_id == player_id))
