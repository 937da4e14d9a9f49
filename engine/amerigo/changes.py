"""What an event changes on the players' sheets, for the game log: VP, gold, chests and cannons.

Issue 16: every change of these must be visible in the sentence of the event that causes it. An
action's own sentence says what the action itself gives ("takes 4 gold", "scoring 2 VP"). The
automatic steps that may follow in the same event (an island's completion, gold above 12 turning
into VP, the round's end with its pirate fight, the final scoring) are resolved inside ``apply``
like every other automatic step of the engine, not as events of their own: they have no outcome to
record (chance events are for outcomes), and the logs already stored stay valid as they are. So the
sentence of the event that sets them off names them, each with every player's changes:
:func:`changes_clause`. The state keeps the sheets before the pirate fight and before the final
scoring (``before_fight``, ``before_final``) so that each step's share is exact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.amerigo import components as c
from engine.amerigo.state import OVER, Player, State

#: The sheet values the log must account for, with their words.
TRACKED = (("vp", "VP", "VP"), ("gold", "gold", "gold"), ("chests", "chest", "chests"), ("cannons", "cannon", "cannons"))
KEYS = tuple(key for key, _, _ in TRACKED)

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


def _amount(delta: int, one: str, many: str) -> str:
    size = abs(delta)
    return f"{'+' if delta > 0 else '−'}{size} {one if size == 1 else many}"


def _player_phrase(name: str, delta: Mapping[str, int], unchanged: str = "nothing") -> str:
    if not delta:
        return f"{name} {unchanged}"
    return f"{name} " + ", ".join(_amount(delta[key], one, many) for key, one, many in TRACKED if key in delta)


def _players_phrase(names: Sequence[str], changed: Deltas, unchanged: str = "") -> str:
    """Each changed player's changes; with ``unchanged``, every player (those unchanged in those words)."""
    seats = range(len(names)) if unchanged else sorted(changed)
    return "; ".join(_player_phrase(names[seat], changed.get(seat, {}), unchanged) for seat in seats)


def _minus(changed: Deltas, said: Mapping[int, Mapping[str, int]]) -> Deltas:
    """What changed beyond what was said."""
    result: Deltas = {}
    for seat in sorted(set(changed) | set(said)):
        delta = {key: changed.get(seat, {}).get(key, 0) - said.get(seat, {}).get(key, 0) for key in KEYS}
        delta = {key: d for key, d in delta.items() if d}
        if delta:
            result[seat] = delta
    return result


def _first_step(before: State, after: State) -> str:
    """What the action set off before any round's end: completion, gold above 12, or something else."""
    completed = sum(1 for left in after.island_empty if left == 0) - sum(1 for left in before.island_empty if left == 0)
    if completed == 1:
        return "the island is complete"
    if completed > 1:
        return f"{completed} islands are complete"
    if before.round == 0:
        return "the players take their starting gold"
    if any(p.gold == c.GOLD_MAX for p in after.players):
        return "gold above 12 becomes VP"
    return "in all"


def _round_ended(before: State, after: State) -> bool:
    return before.round >= 1 and (after.round != before.round or (after.phase == OVER and before.phase != OVER))


def changes_clause(before: State, after: State, claims: Mapping[int, Mapping[str, int]]) -> str:
    """``"; the island is complete: Red +17 VP, +1 chest; Blue +4 VP"``, or "" when the sentence said it all.

    ``claims``: per seat, what the event's own words already say (a zero says nothing).
    """
    names = after.names
    ended = _round_ended(before, after)
    over = ended and after.phase == OVER
    fought = after.before_fight if ended else sheets(after)
    parts = []
    extra = _minus(deltas(sheets(before), fought), claims)
    if extra:
        parts.append(f"{_first_step(before, after)}: {_players_phrase(names, extra)}")
    if ended:
        scored = after.before_final if over else sheets(after)
        fight = deltas(fought, scored)
        parts.append(f"round {before.round} ends and the pirates (strength {sum(before.pirates)}) attack: "
                     f"{_players_phrase(names, fight, 'loses nothing')}")
    if over:
        final = deltas(after.before_final, sheets(after))
        parts.append(f"the final scoring: {_players_phrase(names, final, 'gains nothing')}")
    return "".join(f"; {part}" for part in parts)
