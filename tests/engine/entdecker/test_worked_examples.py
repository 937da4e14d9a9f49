"""Every worked example of the digest (``docs/games/entdecker.md``, "Worked examples"), literally."""

from __future__ import annotations

from engine import Setup
from engine.entdecker import RULES
from engine.entdecker.flow import score_islands
from engine.entdecker.scoring import final_scoring, points_by_seat
from engine.entdecker.state import EXPLORE, PLACE, SCORE_CHIP, SHIP_TILE, SPIN, START, Island
from tests.engine.entdecker.helpers import cell, game, legal, play, tile_at, unit_at, weights


def test_1_income_spin_four():
    """Ex. 1 (publisher's example): spin 4; gold 6, 3, 10, 12 → 10, 7, 12, 12; the player at 10 gains only 2."""
    state = game(gold=(6, 3, 10, 12), phase=SPIN)
    state = play(state, "spin 4")
    assert state.gold == (10, 7, 12, 12)
    assert state.phase == START


def _benny_board():
    """Claudia's scout on the start tile (3, 0); D = (2, 1) between two headlands; E = (2, 2) closed by sea."""
    tiles = {(3, 0): "cape 1", (1, 1): "cape 1", (3, 1): "cape 3", (1, 2): "sea 0", (3, 2): "sea 0", (2, 3): "sea 0"}
    return game(3, tiles=tiles, units={(3, 0): ("Claudia", "scout", 0)}, turn=1, gold=(4, 10, 4), tops=(1, 1, 0, 0, 0))


def test_2_bennys_turn():
    """Ex. 2 (publisher's example): fee 1, buy 4, friendly natives placed and a chip drawn, pirates fit nowhere
    (no event), a plain tile at D, a fort built on D with a paid draw unused; the single hole E gets its reserve
    tile, which completes the island, scored at once."""
    state = play(_benny_board(), "start tile 3 0 0")
    assert state.gold[1] == 9
    state = play(state, "buy 4")
    assert state.gold[1] == 5
    state = play(state, "draw 1", "tile cape?friendly", "back 1 plain", "place 2 0 3", "take chip", "chip 2")
    assert state.chips[1] == (2,) and state.score[1] == 0
    state = play(state, "draw 2", "tile corner?pirates", "back 2 plain")
    assert state.phase == EXPLORE and state.gold[1] == 5 and tile_at(state, 2, 1) is None
    assert sum(state.discarded) == 1
    state = play(state, "draw 3", "tile bay", "back 3 plain", "place 2 1 1")
    assert state.draws_left == 1 and "build fort 0" in legal(state)
    state = play(state, "build fort 0")
    assert state.gold[1] == 2
    assert tile_at(state, 2, 2) == "reserve 2 0"  # the headland reserve tile, land facing north
    assert state.phase == SCORE_CHIP and state.chip_queue == (1,)
    state = play(state, "chip 3")
    assert state.score[1] == 4 + 3  # four tiles + the chip
    assert unit_at(state, 2, 1) is None and state.supply[1][1] == 2
    assert unit_at(state, 3, 0) == ("Claudia", "scout", 0)  # her island is not complete
    assert state.turn == 2 and state.phase == START


def _corner_counts(start: str) -> dict[str, list[int]]:
    counts = {}
    for key in ("sea", "cape", "corner", "twin", "isthmus", "strait", "bay", "fjord"):
        state = play(game(round=1), start, "buy 1", "draw 1", f"tile {key}")
        state = play(state, "back 1 plain")
        counts[key] = [int(a.split()[3]) for a in legal(state)] if state.phase == PLACE else []
    return counts


def test_3_corner_fit():
    """Ex. 3: from `start edge 0 0 N`: SEA 1, CAPE 2 (r1, r2), CORNER 1 (r1), TWIN 1 (r1); ISTHMUS, STRAIT, BAY,
    FJORD leave the game. From `start edge 4 0 N`: CAPE 3 (r1, r2, r3), CORNER 2 (r1, r2), ISTHMUS, STRAIT, BAY 1 (r1)."""
    assert _corner_counts("start edge 0 0 n") == {
        "sea": [0], "cape": [1, 2], "corner": [1], "twin": [1], "isthmus": [], "strait": [], "bay": [], "fjord": []}
    middle = _corner_counts("start edge 4 0 n")
    assert middle["cape"] == [1, 2, 3] and middle["corner"] == [1, 2]
    assert middle["isthmus"] == middle["strait"] == middle["bay"] == [1]


def test_4_dead_end_on_an_isthmus_and_going_on_through_a_strait():
    """Ex. 4: ISTHMUS at (4, 0) r1: the ship enters {N}, which leads only to the rim: the expedition ends, the draws
    left are lost, a build is still allowed. STRAIT r1 lets the ship go on to (4, 1); a build names part 0 or 1."""
    state = play(game(round=1), "start edge 4 0 n", "buy 3", "draw 1", "tile isthmus", "back 1 plain", "place 4 0 1")
    assert state.ship == (SHIP_TILE, cell(state, 4, 0), 1)
    assert state.draws_left == 2 and not any(a.startswith("draw") for a in legal(state))
    assert "build scout 0" in legal(state)
    state = play(game(round=1), "start edge 4 0 n", "buy 3", "draw 1", "tile strait", "back 1 plain", "place 4 0 1")
    assert "draw 1" in legal(state)
    assert {a for a in legal(state) if a.startswith("build scout")} == {"build scout 0", "build scout 1"}
    after = play(state, "draw 1", "tile sea", "back 1 plain")
    assert legal(after) == ["place 4 1 0"]


def test_5_starts_on_a_board_with_one_sea_tile():
    """Ex. 5: only a SEA at (0, 0): 32 legal starts in round 1, 33 from round 2 (`start tile 0 0 0` added)."""
    first = game(round=1, tiles={(0, 0): "sea 0"})
    assert len([a for a in legal(first) if a.startswith("start")]) == 32
    second = game(round=2, tiles={(0, 0): "sea 0"})
    starts = [a for a in legal(second) if a.startswith("start")]
    assert len(starts) == 33 and "start tile 0 0 0" in starts


def test_6_start_fee_for_another_players_fort():
    """Ex. 6: a start on a tile with another player's fort costs 3 and needs gold ≥ 4; with 3 gold it is illegal;
    a start on one's own unit is free."""
    tiles = {(4, 2): "cape 0"}
    forts = {(4, 2): ("Benny", "fort", 0)}
    state = game(tiles=tiles, units=forts, gold=(4, 4, 4, 4))
    assert play(state, "start tile 4 2 0").gold[0] == 1
    assert "start tile 4 2 0" not in legal(game(tiles=tiles, units=forts, gold=(3, 4, 4, 4)))
    own = game(tiles=tiles, units={(4, 2): ("Anna", "fort", 0)}, gold=(3, 4, 4, 4))
    assert play(own, "start tile 4 2 0").gold[0] == 3


def test_7_single_hole_isthmus_completes_an_island():
    """Ex. 7: CAPE r2 at (4, 2), CAPE r0 at (4, 4), SEA at (3, 3) and (5, 3): (4, 3) gets reserve #4 ISTHMUS r0; one
    complete island of size 3. A's scout on (4, 2), B's fort on (4, 4): B draws a chip, 2 → Value 5; B +5, A +3."""
    tiles = {(4, 2): "cape 2", (4, 4): "cape 0", (3, 3): "sea 0", (5, 3): "sea 0"}
    units = {(4, 2): ("Anna", "scout", 0), (4, 4): ("Benny", "fort", 0)}
    state = game(tiles=tiles, units=units, phase=EXPLORE, drawn=1, placed=(cell(game(), 5, 3),),
                 ship=(SHIP_TILE, cell(game(), 5, 3), 0))
    state = play(state, "end")
    assert tile_at(state, 4, 3) == "reserve 4 0"
    assert state.islands == (Island(cell(state, 4, 2), 3, (cell(state, 4, 2), cell(state, 4, 4))),)
    assert state.chip_queue == (1,)
    state = play(state, "chip 2")
    assert state.score[:2] == (3, 5)


def test_8_larger_hole_gets_all_land():
    """Ex. 8: (4, 3) and (5, 3) empty, six CAPEs around them all pointing land at them: both get reserve #6; one
    complete island of size 8."""
    tiles = {(4, 2): "cape 2", (5, 2): "cape 2", (4, 4): "cape 0", (5, 4): "cape 0", (3, 3): "cape 1", (6, 3): "cape 3"}
    state = game(tiles=tiles, units={(3, 3): ("Anna", "scout", 0)}, phase=EXPLORE, drawn=1,
                 placed=(cell(game(), 6, 3),), ship=(SHIP_TILE, cell(game(), 6, 3), 0))
    state = play(state, "end")
    assert tile_at(state, 4, 3) == tile_at(state, 5, 3) == "reserve 6 0"
    assert state.score[0] == 8  # the scout alone: size 8, no chip (no fort or settlement)


def _ties_state(pool):
    units = {(1, 1): ("Anna", "settlement", 0), (2, 1): ("Anna", "scout", 0), (3, 1): ("Benny", "settlement", 0),
             (4, 1): ("Benny", "scout", 0), (5, 1): ("Claudia", "fort", 0), (6, 1): ("Claudia", "fort", 0),
             (7, 1): ("Dani", "scout", 0), (8, 1): ("Dani", "scout", 0)}
    state = game(units=units, pool=pool)
    cells = tuple(sorted(state.components.cell(x, y) for x, y in units))
    return state.evolve(islands=(Island(cells[0], 9, cells),))


def test_9_ties_and_chips_on_an_island_of_nine():
    """Ex. 9: A settlement + scout, B settlement + scout, C 2 forts, D 2 scouts. Two or more chips left: A draws 2,
    B draws 4 → Value 13: A 13, B 13, C 7, D 4. Only one chip left: nobody draws, Value 9: A 9, B 9, C 5, D 3."""
    state = score_islands(_ties_state((5, 7, 6, 2)))
    assert state.chip_queue == (0, 1)
    state = play(state, "chip 2", "chip 4")
    assert state.score == (13, 13, 7, 4) and state.chips[:2] == ((2,), (4,))
    state = score_islands(_ties_state((0, 0, 1, 0)))
    assert state.score == (9, 9, 5, 3) and state.chips == ((), (), (), ())


def test_10_halving():
    """Ex. 10: halving 12 → 6 → 3 (seed: "ha az első játékos 12 pontot kap, akkor a második 6, a harmadik pedig 3");
    7 → 4 → 2 → 1."""
    assert sorted(points_by_seat({0: (1, 0, 0), 1: (0, 1, 0), 2: (0, 0, 1)}, 12).values()) == [3, 6, 12]
    keys = {0: (0, 0, 4), 1: (0, 0, 3), 2: (0, 0, 2), 3: (0, 0, 1)}
    assert points_by_seat(keys, 7) == {0: 7, 1: 4, 2: 2, 3: 1}


def test_11_scouts_only_and_a_settlement_on_an_islet():
    """Ex. 11: scouts only, size 5: A 2 scouts, B 1 scout: no chip; A 5, B 3. A settlement on an ISLET: size 1 +
    chip, scored at the end of that same turn, and the settlement comes back."""
    units = {(1, 1): ("Anna", "scout", 0), (2, 1): ("Anna", "scout", 0), (3, 1): ("Benny", "scout", 0)}
    state = game(units=units)
    state = score_islands(state.evolve(islands=(Island(11, 5, (11, 12, 13)),)))
    assert state.score[:2] == (5, 3) and state.chips == ((), (), (), ())
    state = play(game(round=1, gold=(9, 4, 4, 4)), "start edge 4 0 n", "buy 1", "draw 1", "tile islet", "back 1 plain",
                 "place 4 0 0", "build settlement 0")
    assert state.phase == SCORE_CHIP and state.gold[0] == 2
    state = play(state, "chip 4")
    assert state.score[0] == 1 + 4 and state.supply[0] == (3, 2, 1) and unit_at(state, 4, 0) is None


def test_12_events():
    """Ex. 12: pirates at 5 gold → 2, at 1 → 0, at 0 → 0; treasure at 11 → 12; ruins +3 VP; hostile natives with 5
    gold after buying: only a scout (2); storm on the first of 3 draws: placed, the turn ends, no build; friendly
    natives with an empty pool: nothing."""

    def placed(event, gold, bought=1, pool=None):
        state = game(round=1, gold=(gold + bought, 4, 4, 4), tops=(1, 0, 0, 0, 0), **({"pool": pool} if pool else {}))
        return play(state, "start edge 4 0 n", f"buy {bought}", "draw 1", f"tile cape?{event}", "back 1 plain",
                    "place 4 0 2")

    assert placed("pirates", 5, bought=3).gold[0] == 2
    assert placed("pirates", 1, bought=3).gold[0] == 0
    assert placed("pirates", 0, bought=3).gold[0] == 0
    assert placed("treasure", 11).gold[0] == 12
    assert placed("ruins", 4).score[0] == 3
    hostile = placed("hostile", 5, bought=1)
    assert [a for a in legal(hostile) if a.startswith("build")] == ["build scout 0"]
    assert play(hostile, "build scout 0").gold[0] == 3
    storm = play(game(round=1, tops=(1, 0, 0, 0, 0)), "start edge 4 0 n", "buy 3", "draw 1", "tile cape?storm",
                 "back 1 plain", "place 4 0 2")
    assert tile_at(storm, 4, 0) == "cape?storm 2" and storm.turn == 1 and storm.phase == START
    assert storm.units == game().units
    friendly = placed("friendly", 4, pool=(0, 0, 0, 0))
    assert friendly.phase == EXPLORE and friendly.chips[0] == ()


def test_13_end_by_empty_stacks():
    """Ex. 13: an incomplete island of size 6 with A's fort and B's scout: A 6, B 3, no chip. Chips held A 3, B 3,
    C 2: A +3, B +3, C 0."""
    tiles = {(x, 2): "isthmus 1" for x in range(2, 8)}
    units = {(3, 2): ("Anna", "fort", 0), (5, 2): ("Benny", "scout", 0)}
    state = game(tiles=tiles, units=units, chips=((1, 1, 1), (2, 2, 2), (3, 3), ()))
    state = final_scoring(state)
    assert state.score == (6 + 3, 3 + 3, 0, 0)
    assert RULES.outcome(state).winners == (0,)


def test_14_take_back_a_scout_then_build_it():
    """Ex. 14: all 3 of A's scouts are out; the ship is on a new land tile: `takeback` one (its island loses it),
    then `build scout`."""
    units = {(7, 5): ("Anna", "scout", 0), (8, 5): ("Anna", "scout", 0), (6, 5): ("Anna", "scout", 0)}
    state = play(game(round=1, units=units, gold=(2, 4, 4, 4)), "start edge 4 0 n", "buy 1", "draw 1", "tile cape",
                 "back 1 plain", "place 4 0 2")
    assert not any(a.startswith("build") for a in legal(state))
    assert "takeback 6 5" in legal(state)
    state = play(state, "takeback 6 5")
    assert unit_at(state, 6, 5) is None and "build scout 0" in legal(state)
    state = play(state, "build scout 0")
    assert unit_at(state, 4, 0) == ("Anna", "scout", 0)


def test_15_chance_weights():
    """Ex. 15: at setup `back 1 event` 20, `back 1 plain` 62; if stack 1 shows '?', stack 2 has 19 : 62. `draw 1`
    from a '?' top: `tile` weights SEA?storm 3, SEA?pirates 2, every other '?' type 1."""
    state = RULES.initial_state(Setup(("Anna", "Benny")))
    assert weights(state) == {"back 1 event": 20, "back 1 plain": 62}
    state = play(state, "back 1 event")
    assert weights(state) == {"back 2 event": 19, "back 2 plain": 62}
    state = play(state, "back 2 plain", "back 3 plain", "back 4 plain", "back 5 plain", "spin 3",
                 "start edge 4 0 n", "buy 1", "draw 1")
    tiles = weights(state)
    assert tiles["tile sea?storm"] == 3 and tiles["tile sea?pirates"] == 2
    assert all(w == 1 for key, w in tiles.items() if key not in ("tile sea?storm", "tile sea?pirates"))
    assert all("?" in key for key in tiles) and len(tiles) == 17
