"""What an event changes on the players' sheets, for the game log: VP, gold, chests and cannons.

Issue 16: every change of these must be visible in the sentence of the event that causes it. An
action's own sentence says what the action itself gives ("takes 4 gold", "scoring 2 VP"). The
automatic steps that may follow in the same event (an island's completion, gold above 12 turning
into VP, the round's end with its pirate fight, the final scoring) are resolved inside ``apply``
like every other automatic step of the engine, not as events of their own: they have no outcome to
record (chance events are for outcomes), and the logs already stored stay valid as they are. So the
sentence of the event that sets them off names them, each with every player's changes:
:func:`changes_notes` (messages: their English templates are in :mod:`engine.amerigo.describe`). The state keeps
the sheets before the pirate fight and before the final scoring (``before_fight``, ``before_final``) so that each step's share is exact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.amerigo import components as c
from engine.amerigo.state import OVER, Player, State
from engine.core.messages import Listing, Message, message

#: The sheet values the log must account for (each one's words: the ``amerigo.amount.<key>`` templates).
KEYS = ("vp", "gold", "chests", "cannons")

#: A sheet: (VP, gold, chests, cannons) per seat.
Sheets = Sequence[Sequence[int]]
#: Per seat, by how much each tracked value changed (zeros left out).
Deltas = dict[int, dict[str, int]]


def sheet_of(player: Player) -> tuple[int, ...]:
    """A player's (VP, gold, chests, cannons)."""
    return tuple(getattr(player, key) for key in KEYS)


def sheets(state: State) -> tuple[tuple[int, ...], ...]:
    """Every player's (VP, gold, chests, cannons), in seat order."""
    return tuple(sheet_of(p) for p in state.players)


def deltas(before: Sheets, after: Sheets) -> Deltas:
    """Per seat, the tracked values that changed from ``before`` to ``after``."""
    result: Deltas = {}
    for seat, (old, new) in enumerate(zip(before, after, strict=True)):
        delta = {key: b - a for key, a, b in zip(KEYS, old, new, strict=True) if b != a}
        if delta:
            result[seat] = delta
    return result


def _amount(key: str, delta: int) -> Message:
    """``+3 VP``, ``−1 chest``: one tracked value's change."""
    return message(f"amerigo.amount.{key}", sign="+" if delta > 0 else "−", n=abs(delta))


def _player_phrase(name: str, delta: Mapping[str, int], unchanged: str = "") -> Message:
    if not delta:
        return message(f"amerigo.player.{unchanged}", who=name)
    amounts = tuple(_amount(key, delta[key]) for key in KEYS if key in delta)
    return message("amerigo.player.changes", who=name, changes=Listing(amounts, "comma"))


def _players_phrase(names: Sequence[str], changed: Deltas, unchanged: str = "") -> Listing:
    """Each changed player's changes; with ``unchanged`` (``loses_nothing``, ``gains_nothing``), every player (those
    unchanged in those words)."""
    seats = range(len(names)) if unchanged else sorted(changed)
    return Listing(tuple(_player_phrase(names[seat], changed.get(seat, {}), unchanged) for seat in seats), "semicolon")


def _minus(changed: Deltas, said: Mapping[int, Mapping[str, int]]) -> Deltas:
    """What changed beyond what was said."""
    result: Deltas = {}
    for seat in sorted(set(changed) | set(said)):
        delta = {key: changed.get(seat, {}).get(key, 0) - said.get(seat, {}).get(key, 0) for key in KEYS}
        delta = {key: d for key, d in delta.items() if d}
        if delta:
            result[seat] = delta
    return result


def _first_step(before: State, after: State) -> Message:
    """What the action set off before any round's end: completion, gold above 12, or something else."""
    completed = sum(1 for left in after.island_empty if left == 0) - sum(1 for left in before.island_empty if left == 0)
    if completed == 1:
        return message("amerigo.step.island")
    if completed > 1:
        return message("amerigo.step.islands", n=completed)
    if before.round == 0:
        return message("amerigo.step.starting_gold")
    if any(p.gold == c.GOLD_MAX for p in after.players):
        return message("amerigo.step.gold_to_vp")
    return message("amerigo.step.in_all")


def _round_ended(before: State, after: State) -> bool:
    return before.round >= 1 and (after.round != before.round or (after.phase == OVER and before.phase != OVER))


def changes_notes(before: State, after: State, claims: Mapping[int, Mapping[str, int]]) -> tuple[Message, ...]:
    """What the sentence must add, each a clause: ``the island is complete: Red +17 VP, +1 chest; Blue +4 VP``; none
    when the sentence said it all. The sentence then reads ``<sentence>; <clause>; <clause>``.

    ``claims``: per seat, what the event's own words already say (a zero says nothing).
    """
    names = after.names
    ended = _round_ended(before, after)
    over = ended and after.phase == OVER
    fought = after.before_fight if ended else sheets(after)
    parts = []
    extra = _minus(deltas(sheets(before), fought), claims)
    if extra:
        parts.append(message("amerigo.changes.step", step=_first_step(before, after), players=_players_phrase(names, extra)))
    if ended:
        scored = after.before_final if over else sheets(after)
        fight = deltas(fought, scored)
        parts.append(message("amerigo.changes.round_end", round=before.round, strength=sum(before.pirates),
                             players=_players_phrase(names, fight, "loses_nothing")))
    if over:
        final = deltas(after.before_final, sheets(after))
        parts.append(message("amerigo.changes.final", players=_players_phrase(names, final, "gains_nothing")))
    return tuple(parts)
