"""The end of a turn: holes filled from the reserve, complete islands scored, the game's end."""

from __future__ import annotations

from engine.entdecker import RULES
from engine.entdecker.flow import score_islands
from engine.entdecker.state import EXPLORE, OVER, SCORE_CHIP, SHIP_TILE, START, Island
from tests.engine.entdecker.helpers import cell, code, game, play, tile_at, unit_at

_CELL = game().components.cell


def ending(tiles, *, last, units=None, **fields):
    """Seat 0 has just laid the tile at ``last`` (the ship on it, region 0) and ends the expedition."""
    state = game(tiles=tiles, units=units, phase=EXPLORE, drawn=1, placed=(_CELL(*last),),
                 ship=(SHIP_TILE, _CELL(*last), 0), **fields)
    return play(state, "end")


# --- holes ----------------------------------------------------------------------------------------


def test_a_hole_closed_by_tiles_and_the_rim_is_filled_from_the_reserve():
    """ "VII, Ha egy kör végére olyan lyuk keletkezik, amelybe csak egyetlen típusú részlet illeszkedik – vagyis mind
    a négy oldalról felderített terület veszi körbe –, a tartalékkártyákból kell pótolni." (a hole into which only
    one kind of tile fits, explored on all four sides, is filled from the reserve.) R1: the rim is explored sea."""
    state = ending({(1, 0): "sea 0", (0, 1): "cape 0"}, last=(1, 0))
    assert tile_at(state, 0, 0) == "reserve 2 2"  # land faces the headland to the south
    assert state.reserve == (5, 5, 6, 4, 7, 10)


def test_an_empty_reserve_stack_lends_a_copy():
    """R11: if the needed reserve stack is empty, a copy is used anyway (the rules never leave a hole open)."""
    state = ending({(1, 0): "sea 0", (0, 1): "sea 0"}, last=(1, 0), reserve=(0, 6, 6, 4, 7, 10))
    assert tile_at(state, 0, 0) == "reserve 1 0" and state.reserve[0] == 0


def test_larger_holes_are_filled_only_when_land_closes_them_on_every_side():
    """ "Előfordulhatnak nagyobb lyukak is, melyeket minden oldalról szárazföld határol. Ezeket is a
    tartalékkártyákkal kell kipótolni." (larger holes bordered by land on every side are filled from the reserve
    too.) Two empty cells with one side facing water stay open: the ship can still reach them."""
    tiles = {(4, 2): "cape 2", (5, 2): "cape 2", (4, 4): "cape 0", (5, 4): "sea 0", (3, 3): "cape 1", (6, 3): "cape 3"}
    state = ending(tiles, last=(6, 3))
    assert tile_at(state, 4, 3) is None and tile_at(state, 5, 3) is None
    at_rim = {(0, 1): "cape 0", (1, 1): "cape 0", (2, 0): "cape 3"}
    state = ending(at_rim, last=(2, 0))
    assert tile_at(state, 0, 0) is None and tile_at(state, 1, 0) is None


# --- islands --------------------------------------------------------------------------------------


def test_an_island_counts_each_tile_once():
    """ "A sziget értékének megállapításához meg kell számolni, hogy hány térképrészletből áll" (count how many tiles
    the island is made of): a tile whose two land parts both lie in the island counts once."""
    tiles = {(4, 4): "twin 0", (4, 3): "corner 1", (5, 3): "corner 2", (5, 4): "corner 3"}
    state = ending(tiles, units={(4, 3): ("Benny", "scout", 0)}, last=(5, 4))
    assert state.score[1] == 4 and unit_at(state, 4, 3) is None


def test_an_island_without_units_scores_nothing():
    """ "azok, akiknek egységei vannak a sziget(ek)en, győzelempontot kapnak" (those with units on the island(s) get
    victory points): with nobody there the island is only marked as scored."""
    state = ending({(4, 2): "cape 2", (4, 3): "cape 0"}, last=(4, 3))
    assert state.score == (0, 0, 0, 0) and state.turn == 1


def test_complete_islands_are_scored_in_order_of_their_first_cell():
    """R12: islands completed in one turn are scored in order of their first cell (smallest y, then x): the chip
    pool can run out in between. The strait at (4, 2) completes the north island (Claudia's fort) and the south one
    (Benny's fort); the only chip left goes to the north island."""
    tiles = {(4, 1): "cape 2", (4, 3): "cape 0", (3, 2): "sea 0"}
    units = {(4, 1): ("Claudia", "fort", 0), (4, 3): ("Benny", "fort", 0)}
    state = game(tiles=tiles, units=units, phase=EXPLORE, pool=(0, 0, 1, 0), ship=(SHIP_TILE, _CELL(3, 2), 0),
                 draws_left=1)
    state = play(state, "draw 1", "tile strait", "back 1 plain", "place 4 2 0", "end")
    assert state.phase == SCORE_CHIP and state.chip_queue == (2,)
    assert [island.first for island in state.islands] == [cell(state, 4, 1), cell(state, 4, 2)]
    state = play(state, "chip 3")
    assert state.score == (0, 2, 2 + 3, 0) and state.phase == START


def test_the_greatest_explorer_is_decided_by_rank_then_by_the_lower_units():
    """ "Például a telep+erőd+két felderítő üti a telep+erőd+egy felderítőt. Az erőd+nulla felderítő pedig üti a
    három felderítőt – az erőd „rangja” miatt nyer, nem az egységek összértéke miatt." (settlement + fort + two
    scouts beats settlement + fort + one scout; a fort and no scout beats three scouts, by the fort's rank, not by
    the units' total value.)"""
    units = {(1, 1): ("Anna", "settlement", 0), (2, 1): ("Anna", "fort", 0), (3, 1): ("Anna", "scout", 0),
             (4, 1): ("Anna", "scout", 0), (5, 1): ("Benny", "settlement", 0), (6, 1): ("Benny", "fort", 0),
             (7, 1): ("Benny", "scout", 0)}
    state = game(units=units, pool=(0, 0, 0, 0))
    cells = tuple(sorted(_CELL(x, y) for x, y in units))
    assert score_islands(state.evolve(islands=(Island(cells[0], 10, cells),))).score[:2] == (10, 5)
    units = {(1, 1): ("Claudia", "fort", 0), (2, 1): ("Dani", "scout", 0), (3, 1): ("Dani", "scout", 0),
             (4, 1): ("Dani", "scout", 0)}
    state = game(units=units, pool=(0, 0, 0, 0))
    cells = tuple(sorted(_CELL(x, y) for x, y in units))
    assert score_islands(state.evolve(islands=(Island(cells[0], 6, cells),))).score[2:] == (6, 3)


def test_a_fort_or_settlement_brings_a_chip_whose_value_is_added():
    """ "Amennyiben legalább egy telep vagy erőd található a felderített szigeten, akkor valami újat is megismernek. A
    legnagyobb felfedező ... húz egy felfedezés korongot ... A sziget értékének megállapításához meg kell számolni,
    hogy hány térképrészletből áll, majd ehhez hozzáadni a felfedezés korong értékét." (with at least one settlement
    or fort on the island the greatest explorer draws a chip; the island's value is its tiles plus the chip.) Benny's
    fort leads, draws the chip and gains 3 + 1; Anna's scout gains half of that."""
    tiles = {(4, 2): "cape 2", (4, 3): "isthmus 0", (4, 4): "cape 0"}
    units = {(4, 2): ("Anna", "scout", 0), (4, 4): ("Benny", "fort", 0)}
    state = ending(tiles, units=units, last=(4, 3))
    assert state.chip_queue == (1,)
    state = play(state, "chip 1")
    assert state.score[:2] == (2, 4) and state.chips[1] == (1,)
    assert state.supply[0] == (3, 2, 1) and state.supply[1] == (3, 2, 1)  # "végül visszakapja az egységeit"


# --- the end --------------------------------------------------------------------------------------


def full_board_but(empty_cells, extra):
    """Every cell open sea except ``empty_cells`` and the ``extra`` tiles."""
    state = game()
    board = [code(state, "sea 0")] * state.components.cells
    for x, y in empty_cells:
        board[_CELL(x, y)] = -1
    for (x, y), text in extra.items():
        board[_CELL(x, y)] = code(state, text)
    return tuple(board)


def test_the_game_ends_when_the_board_is_explored_and_the_last_island_scores_as_usual():
    """ "A játék akkor ér véget, ha a tábla teljes egészét felderítették a játékosok. Amennyiben az utolsó
    tércéprészlet pont befejez egy szigetet, azt még a szokásos módon kell kiértékelni." (the game ends when the
    whole board has been explored; if the last tile completes an island, it is scored as usual.)"""
    board = full_board_but([(4, 0), (5, 0)], {(6, 0): "cape 3"})
    state = game(board=board).evolve(units=game(units={(6, 0): ("Benny", "fort", 0)}).units,
                                     supply=((3, 2, 1), (3, 1, 1), (3, 2, 1), (3, 2, 1)))
    state = play(state, "start edge 4 0 n", "buy 1", "draw 1", "tile sea", "back 1 plain", "place 4 0 0")
    assert tile_at(state, 5, 0) == "reserve 2 1" and state.phase == SCORE_CHIP
    state = play(state, "chip 2")
    assert state.phase == OVER and RULES.current_actor(state) is None
    assert state.score == (0, 2 + 2 + 1, 0, 0)  # the island, then the most-chips bonus (Benny holds the only chip)
    assert RULES.outcome(state).winners == (1,)


def test_the_game_ends_after_the_last_tile_and_incomplete_islands_score_without_chips():
    """ "Előfordulhat, hogy már minden tércéprészletet felfordítottak a játékosok, de a tábla még nincs teljesen
    befejezve. Ebben az esetben az utolsó részlet felhasználása után ér véget a játék. Minden befejezetlen szigetet
    úgy kell kiértékelni, mint a befejezetteket, kivéve, hogy felfedezés korong nem jár érte." (all tiles may be
    turned over before the board is complete: the game then ends after the last tile is used, and every incomplete
    island is scored like a complete one, but without a chip.)"""
    state = game(stacks=(1, 0, 0, 0, 0), tops=(0, -1, -1, -1, -1), gold=(9, 4, 4, 4))
    undrawn = [0] * state.components.draw_kinds
    undrawn[state.components.key_index["cape"]] = 1
    state = play(state.evolve(undrawn=tuple(undrawn)), "start edge 4 0 n", "buy 1", "draw 1", "tile cape",
                 "place 4 0 2", "build settlement 0")
    assert state.phase == OVER and state.score == (1, 0, 0, 0) and state.pool == (5, 7, 6, 2)
    assert state.supply[0] == (3, 2, 1)


def test_the_most_chips_bonus_counts_chips_not_values_and_ties_all_gain():
    """ "A legtöbb felfedezés koronngal rendelkező játékos jutalomképpen annyi pontot kap, ahány korongja van – tehát
    nem annyit, amennyi az értékük összege. Döntetlen esetén mindegyik játékos megkapja a pontot." (the player with
    the most chips gains as many points as chips held, not their total value; on a tie every one of them gains it.)"""
    from engine.entdecker.scoring import final_scoring

    state = final_scoring(game(chips=((4, 4), (1, 1), (3,), ()), score=(5, 6, 7, 0)))
    assert state.score == (7, 8, 7, 0)
    assert final_scoring(game(score=(1, 2, 3, 4))).score == (1, 2, 3, 4)


def test_equal_scores_share_the_win():
    """ "Az a játékos nyert, akinek a sikerjelzője legelőrébb van." (the player furthest ahead on the track wins.)
    R14: the seed gives no tie-break, so equal scores share the win."""
    from engine.entdecker.scoring import final_scoring

    outcome = RULES.outcome(final_scoring(game(score=(9, 9, 3, 9))))
    assert outcome.winners == (0, 1, 3) and outcome.scores == (9, 9, 3, 9)


def test_tied_greatest_explorers_draw_in_seat_order_from_the_active_player():
    """Digest, scoring step 2: "each greatest explorer draws one chip face up (seat order from the active
    player)". Claudia (seat 2) is active; Anna and Dani tie with a fort each: Dani draws first."""
    units = {(1, 1): ("Anna", "fort", 0), (2, 1): ("Dani", "fort", 0)}
    state = game(units=units, turn=2)
    cells = tuple(sorted(_CELL(x, y) for x, y in units))
    state = score_islands(state.evolve(islands=(Island(cells[0], 3, cells),)))
    assert state.chip_queue == (3, 0)
    state = play(state, "chip 1", "chip 4")
    assert state.chips[3] == (1,) and state.chips[0] == (4,) and state.score == (7, 0, 0, 7)
