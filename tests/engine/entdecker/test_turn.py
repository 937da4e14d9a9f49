"""A player's turn: income, the start, buying, drawing and placing, stopping, building, taking scouts back."""

from __future__ import annotations

import pytest

from engine import IllegalActionError
from engine.entdecker import RULES
from engine.entdecker.state import BUY, EXPLORE, PLACE, SHIP_CIRCLE, SHIP_TILE, SPIN, START, TILE
from tests.engine.entdecker.helpers import cell, game, legal, play, tile_at, unit_at, weights


def refused(state, text, match):
    with pytest.raises(IllegalActionError, match=match):
        RULES.check(state, RULES.parse_action(text))


# --- income ---------------------------------------------------------------------------------------


def test_the_wheel_gives_every_player_the_same_income_capped_at_twelve():
    """ "A legfiatalabb játékos pörget egyet ... Minden játékos annyi pénzt kap, amennyit a nyíl mutat, de
    semmilyen módon nem mehet a játékosok aranykészlete tizenkettő fölé." (the youngest spins; every player gains
    what the arrow shows, never above twelve.) The wheel (reconstructed): 2, 3, 3, 4, 4, 5."""
    state = game(3, phase=SPIN, gold=(0, 9, 12))
    assert weights(state) == {"spin 2": 1, "spin 3": 2, "spin 4": 2, "spin 5": 1}
    assert play(state, "spin 5").gold == (5, 12, 12)


def test_income_once_per_round_before_the_youngest_plays():
    """ "Minden kör kezdetén a legfiatalabb játékos határozza meg a bevételt minden játékos számára." (at the start
    of each round the youngest determines the income for all players.) R3: once per round, before seat 0."""
    state = game(2, round=1, turn=1, gold=(4, 4))
    state = play(state, "start edge 4 0 n", "buy 1", "draw 1", "tile sea", "back 1 plain", "place 4 0 0")
    assert state.phase == SPIN and state.turn == 0 and state.round == 2
    state = play(state, "spin 2", "start edge 0 3 w", "buy 1", "draw 1", "tile sea", "back 1 plain", "place 0 3 0")
    assert state.phase == START and state.turn == 1 and state.gold == (5, 5)


# --- the start ------------------------------------------------------------------------------------


def test_first_round_starts_only_from_the_circles():
    """ "Az első körben a hajó csak a tábla szélén levő körök valamelyikéből indulhat." (in the first round the ship
    may only start from one of the circles at the board's edge.)"""
    state = game(round=1, tiles={(4, 2): "sea 0"})
    assert all(a.startswith("start edge") for a in legal(state))
    refused(state, "start tile 4 2 0", "in the first round the ship may only start from a circle")


def test_a_start_needs_a_passage_into_unexplored_sea():
    """ "a hajót egy már felfedezett területre teszi. Ennek a területnek legalább egy, még felderítetlen területhez
    kapcsolódó szaggatott vonallal kell rendelkeznie." (the ship goes onto an explored area with at least one dashed
    line leading to an unexplored area.) A circle before an explored cell leads nowhere new."""
    tiles = {(0, 0): "isthmus 1", (1, 0): "sea 0", (0, 1): "cape 0", (5, 3): "sea 0"}
    state = game(tiles=tiles)
    starts = legal(state)
    assert "start tile 5 3 0" in starts and "start tile 1 0 0" in starts
    assert "start tile 0 0 0" not in starts and "start tile 0 0 1" not in starts  # {S} faces the cape, {N} the rim
    refused(state, "start tile 0 0 1", "water region 1 of \\(0, 0\\) has no passage into unexplored sea")
    refused(state, "start edge 0 0 n", "already explored")
    refused(state, "start tile 5 4 0", "there is no tile at \\(5, 4\\)")


def test_start_circles_stay_legal_after_the_first_round():
    """R4: the rim is explored sea, so a circle before an unexplored cell stays a legal start in every round."""
    assert "start edge 9 6 e" in legal(game(round=7))


def test_the_start_fee_goes_to_the_bank_not_to_the_owner():
    """ "Annyi aranyat kell elköltenie, amennyibe az ott levő egység került. Ezt az összeget a másik játékos nem
    kapja meg!" (he must spend as much gold as the unit there cost; the other player does not get it.)"""
    state = game(tiles={(4, 2): "cape 0"}, units={(4, 2): ("Benny", "settlement", 0)}, gold=(8, 5, 4, 4))
    state = play(state, "start tile 4 2 0")
    assert state.gold[:2] == (2, 5)
    assert state.ship == (SHIP_TILE, cell(state, 4, 2), 0) and state.phase == BUY


def test_the_fee_is_the_listed_cost_even_on_hostile_natives():
    """R5: the fee is the unit's listed cost, even if it was built at double cost on hostile natives."""
    state = game(tiles={(4, 2): "cape?hostile 0"}, units={(4, 2): ("Benny", "fort", 0)}, gold=(4, 4, 4, 4))
    assert play(state, "start tile 4 2 0").gold[0] == 1


def test_pass_only_when_no_start_is_possible():
    """R6: the seed does not foresee a player with no legal start; he must pass and his turn ends."""
    state = game(gold=(0, 4, 4, 4), units={(6, 6): ("Anna", "scout", 0)}, tiles={(6, 6): "cape 0"})
    assert legal(state) == ["pass", "takeback 6 6"]
    state = play(state, "pass")
    assert state.turn == 1 and state.phase == START
    refused(state, "pass", "a start is possible, so the player may not pass")


# --- buying ---------------------------------------------------------------------------------------


def test_each_tile_costs_one_gold_and_at_least_one_is_bought():
    """ "A játékos eldönti, hány részletet akar felfordítani ebben a körben. Minden részlet egy aranyba kerül.
    Legalább egy részletet mindenkinek fel kell fordítania minden körben." (the player decides how many tiles to turn
    over this turn; each costs one gold; everyone must turn over at least one each turn.)"""
    state = play(game(gold=(5, 4, 4, 4)), "start edge 4 0 n")
    assert legal(state) == ["buy 1", "buy 2", "buy 3", "buy 4", "buy 5"]
    refused(state, "buy 0", "buy between 1 and 5 tiles")
    state = play(state, "buy 5")
    assert state.gold[0] == 0 and state.draws_left == 5 and state.phase == EXPLORE


def test_no_more_tiles_bought_than_the_stacks_hold():
    """Digest: 1 ≤ N ≤ min(gold left after the fee, undrawn tiles)."""
    state = play(game(gold=(9, 4, 4, 4), stacks=(2, 0, 0, 0, 0), tops=(0, -1, -1, -1, -1)), "start edge 4 0 n")
    assert legal(state) == ["buy 1", "buy 2"]


# --- exploring ------------------------------------------------------------------------------------


def test_draw_from_any_of_the_five_stacks_and_the_first_draw_is_owed():
    """ "A játékos az öt kupac valamelyikéből húz egy térképrészletet." (he draws a tile from any of the five
    stacks.) "Legalább egy részletet mindenkinek fel kell fordítania" (everyone must turn over at least one tile):
    `end` only after the first draw (the seed's reading; the digest let the expedition end before any draw)."""
    state = play(game(), "start edge 4 0 n", "buy 2")
    assert legal(state) == ["draw 1", "draw 2", "draw 3", "draw 4", "draw 5"]
    refused(state, "end", "at least one tile must be turned over every turn")
    state = play(state, "draw 4")
    assert state.phase == TILE and state.stack == 3 and state.draws_left == 1


def test_a_tile_that_fits_must_be_placed_where_the_player_chooses():
    """ "IV, Ha a részlet illeszkedik, akkor muszáj letenni. Ezután a hajót az új területre kell mozgatni. Ha egy
    részlet többféleképpen is lerakható, akkor a játékos választhat, hogyan helyezi el." (a tile that fits must be
    placed; then the ship moves onto it; if it fits in several ways the player chooses.)"""
    state = play(game(), "start edge 4 0 n", "buy 2", "draw 1", "tile cape", "back 1 plain")
    assert state.phase == PLACE and legal(state) == ["place 4 0 1", "place 4 0 2", "place 4 0 3"]
    state = play(state, "place 4 0 3")
    assert tile_at(state, 4, 0) == "cape 3" and state.ship == (SHIP_TILE, cell(state, 4, 0), 0)
    assert legal(state)[:5] == ["draw 1", "draw 2", "draw 3", "draw 4", "draw 5"]


def test_the_new_tile_joins_the_ship_by_a_passage_and_matches_every_neighbour():
    """ "II, Lehelyezi a részletet egy olyan területre, amely szomszédos azzal a hellyel, amin a hajó áll. A két
    területnek kapcsolódnia kell egymáshoz egy szaggatott vonallal, valamint a letett területnek minden oldalával
    passzolnia kell az esetleges környező részletekhez – földhöz föld, vízhez víz." (the tile goes next to where the
    ship stands, joined to it by a dashed line, and every side must match the tiles around: land to land, water
    to water.)"""
    state = game(tiles={(4, 0): "sea 0", (5, 1): "cape 3"}, phase=BUY)
    state = play(state.evolve(ship=(SHIP_TILE, cell(state, 4, 0), 0)), "buy 1", "draw 1", "tile cape", "back 1 plain")
    # (3, 0) and (5, 0): water N (rim) and toward the sea; (4, 1): water N, land E (the headland's west side).
    assert legal(state) == ["place 3 0 2", "place 3 0 3", "place 5 0 1", "place 4 1 1"]
    refused(state, "place 4 1 2", "the tile's E side does not match: it needs land there")
    refused(state, "place 6 6 0", "is not behind one of the ship's passages")


def test_a_tile_that_fits_nowhere_leaves_the_game_without_its_event():
    """ "III, Ha a részlet nem illeszkedik, akkor kikerül a játékból, vissza kell tenni a dobozba." (a tile that
    does not fit leaves the game, back into the box.) Digest: a '?' tile's event then does not happen."""
    state = play(game(round=1, tops=(1, 0, 0, 0, 0)), "start edge 0 0 n", "buy 2", "draw 1", "tile bay?treasure",
                 "back 1 plain")
    assert state.phase == EXPLORE and tile_at(state, 0, 0) is None and state.gold[0] == 4 - 2
    assert state.discarded[state.components.key_index["bay?treasure"]] == 1 and state.draws_left == 1
    assert state.ship == (SHIP_CIRCLE, 0, 0)


def test_stopping_early_returns_no_gold():
    """ "VI, A játékosoknak nem kötelező annyi részletet felfordítani, amennyit terveztek. Hamarabb is
    abbahagyhatják ... Amennyiben valaki végül kevesebb részletet húz, mint amennyit tervezett, nem kapja vissza az
    elköltött aranyat." (players may stop before turning over all they planned; the gold spent is not returned.)"""
    state = play(game(gold=(6, 4, 4, 4)), "start edge 4 0 n", "buy 5", "draw 1", "tile sea", "back 1 plain",
                 "place 4 0 0", "end")
    assert state.gold[0] == 1 and state.turn == 1


def test_a_dead_end_ends_the_expedition_but_a_build_is_still_allowed():
    """ "Amennyiben olyan területre lép, amelyről nem lehet továbbhaladni, nincs is más választása." (if the ship
    reaches an area it cannot leave, he has no other choice.) Digest ex. 4: the draws left are lost."""
    state = play(game(gold=(9, 4, 4, 4)), "start edge 4 0 n", "buy 4", "draw 1", "tile bay", "back 1 plain", "place 4 0 1")
    assert legal(state) == ["build scout 0", "build fort 0", "end"]
    refused(state, "draw 1", "the ship is at a dead end")


def test_a_dead_end_on_open_sea_with_nothing_to_build_ends_the_turn():
    """Digest: the expedition ends at a dead end; with no build possible nothing is left to decide."""
    tiles = {(3, 0): "sea 0", (5, 0): "sea 0", (4, 1): "sea 0"}
    state = play(game(tiles=tiles), "start edge 4 0 n", "buy 3", "draw 1", "tile sea", "back 1 plain", "place 4 0 0")
    assert state.turn == 1 and state.phase == START


def test_the_expedition_ends_when_the_stacks_run_out():
    """Digest: the expedition ends when all stacks are empty (the last tile still gets its build)."""
    state = game(stacks=(1, 0, 0, 0, 0), tops=(0, -1, -1, -1, -1))
    undrawn = [0] * state.components.draw_kinds
    undrawn[state.components.key_index["cape"]] = 1
    state = play(state.evolve(undrawn=tuple(undrawn)), "start edge 4 0 n", "buy 1", "draw 1", "tile cape",
                 "place 4 0 2")
    assert legal(state) == ["build scout 0", "build fort 0", "end"]


# --- building -------------------------------------------------------------------------------------


def test_building_pays_the_cost_and_ends_the_turn_at_once():
    """ "Ha egy játékos olyan területre ért hajójával, amin szárazföld látható, dönthet úgy, hogy odaépít egyet a
    készletéből. A köre ezután véget ér, még akkor is, ha további részleteket húzhatott volna. A játékos a
    szárazföldre helyezi az egységét és visszalép annyit az aranyjelzőjével, amennyibe az egység került." (a player
    whose ship reached land may build a unit from his supply there; his turn then ends even with draws left; he
    pays the unit's cost.)"""
    state = play(game(gold=(12, 4, 4, 4)), "start edge 4 0 n", "buy 3", "draw 1", "tile cape", "back 1 plain",
                 "place 4 0 2")
    assert [a for a in legal(state) if a.startswith("build")] == ["build scout 0", "build fort 0", "build settlement 0"]
    state = play(state, "build settlement 0")
    assert state.gold[0] == 12 - 3 - 6 and unit_at(state, 4, 0) == ("Anna", "settlement", 0)
    assert state.supply[0] == (3, 2, 0) and state.turn == 1


def test_only_the_tile_reached_this_turn_takes_a_unit():
    """R7: only the tile the ship reached this turn ("olyan területre ért hajójával": reached with his ship), not
    the tile or circle it started from, and not after a tile that fitted nowhere left the ship where it was."""
    state = game(tiles={(4, 2): "cape 1"})
    state = play(state, "start tile 4 2 0", "buy 2")
    assert not any(a.startswith("build") for a in legal(state))
    refused(state, "build scout 0", "only on a tile with land that the ship reached this turn")


def test_several_land_parts_the_player_chooses_one():
    """ "Amennyiben egy részleten több, nem egybefüggő szárazföld is feltűnik, a játékosnak el kell döntenie, hogy
    melyik részre építkezik." (if a tile shows several separate land areas, the player decides which to build on.)"""
    state = play(game(), "start edge 4 0 n", "buy 1", "draw 1", "tile strait", "back 1 plain", "place 4 0 1")
    assert legal(state) == ["build scout 0", "build scout 1", "build fort 0", "build fort 1", "end"]
    state = play(state, "build fort 1")
    assert unit_at(state, 4, 0) == ("Anna", "fort", 1)
    refused(game(), "build scout 0", "the game is waiting for a start")


def test_no_unit_that_the_player_cannot_pay_or_does_not_have():
    """ "odaépít egyet a készletéből" (builds one from his supply) and pays its cost."""
    state = play(game(gold=(4, 4, 4, 4)), "start edge 4 0 n", "buy 1", "draw 1", "tile cape", "back 1 plain",
                 "place 4 0 2")
    assert [a for a in legal(state) if a.startswith("build")] == ["build scout 0", "build fort 0"]
    refused(state, "build settlement 0", "a settlement costs 6 gold here and Anna has 3")
    empty = state.evolve(supply=((3, 0, 1),) + state.supply[1:])
    refused(empty, "build fort 0", "Anna has no fort left in the supply")


def test_a_scout_may_be_taken_back_at_the_owners_decisions_forts_may_not():
    """ "Az egységek csak úgy kerülhetnek vissza a játékoshoz, hogy a szigetet teljesen felderítette valaki. A
    felderítő kivétel. Ezt a játékos bármikor visszaveheti a szabadon feltehető egységek közé." (units come back
    only when their island is completed; the scout is the exception: the player may take it back at any time.)
    R8: at his own start and explore decisions."""
    units = {(6, 6): ("Anna", "scout", 0), (2, 6): ("Anna", "fort", 0), (8, 6): ("Benny", "scout", 0)}
    tiles = {(6, 6): "cape 0", (2, 6): "cape 0", (8, 6): "cape 0"}
    state = game(units=units, tiles=tiles)
    assert legal(state)[-1] == "takeback 6 6"
    refused(state, "takeback 2 6", "only scouts come back at will")
    refused(state, "takeback 8 6", "Anna has no unit at \\(8, 6\\)")
    state = play(state, "takeback 6 6")
    assert unit_at(state, 6, 6) is None and state.supply[0] == (3, 1, 1) and state.phase == START
    state = play(state, "start edge 4 0 n")
    refused(state.evolve(units=game(units=units, tiles=tiles).units), "takeback 6 6", "only at its owner's start or explore")
