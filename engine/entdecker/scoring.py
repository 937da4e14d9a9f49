"""Island scoring, the end of the game and its outcome.

"meg kell határozni, hogy ki járult hozzá legjobban a sziget feltérképezéséhez. Ez az a játékos lesz,
akinek a legértékesebb egysége van a szigeten" (the greatest explorer is the player with the most
valuable unit on the island; ties go down the ranks: settlement + fort + two scouts beats settlement +
fort + one scout, a fort beats three scouts by rank, not by total cost).
"""

from __future__ import annotations

from engine.core.protocol import Outcome
from engine.core.records import add_at, set_at
from engine.entdecker import geometry
from engine.entdecker.state import EMPTY, NO_UNIT, OVER, SCOUT, SETTLEMENT, Island, State, unit_kind, unit_part, unit_seat

RankKey = tuple[int, int, int]


def keys_on(state: State, unit_cells: tuple[int, ...]) -> dict[int, RankKey]:
    """Per seat with a unit there: (settlements, forts, scouts), compared lexicographically, higher first."""
    counts: dict[int, list[int]] = {}
    for cell in unit_cells:
        code = state.units[cell]
        row = counts.setdefault(unit_seat(code), [0, 0, 0])
        row[SETTLEMENT - unit_kind(code)] += 1  # settlements first in the key
    return {seat: (row[0], row[1], row[2]) for seat, row in counts.items()}


def greatest_explorers(keys: dict[int, RankKey]) -> list[int]:
    """The seats holding the highest key (all of them on a tie), in seat order."""
    best = max(keys.values())
    return sorted(seat for seat, key in keys.items() if key == best)


def points_by_seat(keys: dict[int, RankKey], value: int) -> dict[int, int]:
    """The greatest explorers gain ``value``; each following distinct key half of the key above, rounded up.

    "A szigeten levő többi játékos pedig feleannyi pontot könyvelhet el, mint amennyi az előttelevő
    játékosnak járt ... A törteket mindig felfelé kell kerekíteni" (the others each get half of what the
    player before them got, fractions rounded up); tied keys get the same (R13).
    """
    points: dict[int, int] = {}
    level = value
    for i, key in enumerate(sorted(set(keys.values()), reverse=True)):
        if i:
            level = (level + 1) // 2
        for seat, own in keys.items():
            if own == key:
                points[seat] = level
    return points


def chips_due(state: State, island: Island) -> tuple[int, ...]:
    """The seats that draw a chip for ``island``, in seat order from the active player; () when none do.

    "Amennyiben legalább egy telep vagy erőd található a felderített szigeten ... A legnagyobb felfedező
    (vagy felfedezők, döntetlen esetén) húz egy felfedezés korongot ... Ha valakinek nem jutna korong
    döntetlen esetén, úgy egyik játékos sem húz." (with a settlement or fort on the island the greatest
    explorer(s) each draw a chip; if there are not enough for every tied one, nobody draws.)
    """
    if not any(unit_kind(state.units[c]) != SCOUT for c in island.unit_cells):
        return ()
    explorers = greatest_explorers(keys_on(state, island.unit_cells))
    if sum(state.pool) < len(explorers):
        return ()
    n, active = state.n, state.turn
    return tuple(sorted(explorers, key=lambda seat: (seat - active) % n))


def award(state: State, island: Island, chip: int) -> State:
    """Score ``island`` (value = size + ``chip``) and give its units back to their owners."""
    keys = keys_on(state, island.unit_cells)
    score = state.score
    for seat, points in points_by_seat(keys, island.size + chip).items():
        score = add_at(score, seat, points)
    supply = list(state.supply)
    units = state.units
    for cell in island.unit_cells:
        code = units[cell]
        supply[unit_seat(code)] = add_at(supply[unit_seat(code)], unit_kind(code), 1)
        units = set_at(units, cell, NO_UNIT)
    new = state.copy()
    new.score = score
    new.supply = tuple(supply)
    new.units = units
    return new


def islands_with_units(state: State) -> list[Island]:
    """Every island holding a unit, in order of its first cell (the end's scoring of incomplete islands)."""
    components, board, units = state.components, state.board, state.units
    seen: set[tuple[int, int]] = set()
    found = []
    for cell, code in enumerate(units):
        if code == NO_UNIT or (cell, unit_part(code)) in seen:
            continue
        nodes, _ = geometry.island_of(components, board, cell, unit_part(code))
        seen |= nodes
        found.append(island_record(state, nodes))
    return sorted(found)


def island_record(state: State, nodes: set[tuple[int, int]]) -> Island:
    """An island's first cell, size (distinct tiles) and the cells of the units standing on it."""
    units = state.units
    cells = {cell for cell, _ in nodes}
    holding = tuple(sorted(c for c, p in nodes if units[c] != NO_UNIT and unit_part(units[c]) == p))
    return Island(min(cells), len(cells), holding)


def final_scoring(state: State) -> State:
    """The game's end: incomplete islands scored without chips, then the most-chips bonus; the game is over.

    "Minden befejezetlen szigetet úgy kell kiértékelni, mint a befejezetteket, kivéve, hogy felfedezés
    korong nem jár érte. A legtöbb felfedezés koronngal rendelkező játékos jutalomképpen annyi pontot kap,
    ahány korongja van ... Döntetlen esetén mindegyik játékos megkapja a pontot." (every incomplete island
    is scored like a complete one, but without a chip; the player(s) with the most chips gain one point
    per chip held, ties all gain it.)
    """
    for island in islands_with_units(state):
        state = award(state, island, 0)
    held = [len(c) for c in state.chips]
    most = max(held)
    score = state.score
    if most:
        for seat, count in enumerate(held):
            if count == most:
                score = add_at(score, seat, count)
    new = state.copy()
    new.score = score
    new.phase = OVER
    new.islands = ()
    new.chip_queue = ()
    new.chip_best = 0
    return new


def is_over_now(state: State) -> bool:
    """The end: "ha a tábla teljes egészét felderítették" (the board is fully explored) or no draw tile is left."""
    return EMPTY not in state.board or not any(state.undrawn)


def chip_bonus(state: State) -> tuple[int, ...]:
    """The most-chips bonus each seat gained (or would gain now)."""
    held = [len(c) for c in state.chips]
    most = max(held)
    return tuple(count if most and count == most else 0 for count in held)


def outcome(state: State) -> Outcome:
    """Scores and winners: the highest score wins, equal scores share the win (R14: no tie-break, so every
    tie-break is 0); the details give each seat's chips, most-chips bonus and gold left."""
    bonus = chip_bonus(state)
    details = tuple({"chips": len(state.chips[seat]), "chip bonus": bonus[seat], "gold left": state.gold[seat]}
                    for seat in range(state.n))
    return Outcome.ranked(state.score, scores=state.score, tiebreaks=(0,) * state.n, details=details)

