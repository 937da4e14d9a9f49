"""Blue: placing the ships, sailing, island water spaces holding one ship, founding posts, discovery, PT10, PT19."""

from __future__ import annotations

import pytest

from engine import IllegalActionError
from engine.amerigo import RULES
from engine.amerigo.state import FOUND, PLACE_SHIPS, SAIL
from tests.engine.amerigo.helpers import BLUE, RED, WHITE, anchors_at, cell, choice, legal, node_name, play, seat_first


def _blue(ap: int = 4, **players):
    return choice(4, field={"blue": ap}, players=players.get("players", {}))


def test_first_sailing_places_both_ships_on_frame_spaces_free():
    """ "Amikor egy játékos első alkalommal választja ezt az akciót, leteszi a két hajóját a keret bármelyik általa
    választott mezőre" (the first time, both ships onto frame spaces of his choice). 16 frame spaces at 4 players."""
    state = play(_blue(), "choose blue")
    assert state.phase == PLACE_SHIPS
    options = legal(state)
    assert len(options) == 16 * 17 // 2 and options[0] == "ships F1 F1" and options[-1] == "ships F16 F16"
    state = play(state, "ships F1 F13")
    assert state.phase == SAIL and state.ap == 4
    assert [node_name(state, n) for n in state.players[RED].ships] == ["F1", "F13"]


def test_first_blue_by_the_white_special_action_also_places_the_ships():
    """Ruling 4: the first blue action by any route (white special included) places both ships."""
    state = choice(4, field={"white": 3}, players={RED: {"order_pos": 1, "order_stamp": 9}})
    assert play(state, "special blue").phase == PLACE_SHIPS


def test_sailing_worked_example_found_after_three_of_four_steps_second_ship_keeps_its_four():
    """ "Példa: A piros játékosnak 4 AP-je van, az első hajóját ingyen az egyik keretmezőre teszi, és hajózik 4 mezőt. Úgy
    dönt, hogy csak 3 mezőt halad, megáll egy horgonymezőn, és megalapít egy kereskedelmi állomást. E hajóhoz tartozó
    megmaradt 1 AP-t elveszíti. Még felhasználhat 4 AP-t, hogy feltegye a második hajóját, és elhajózzon vele"
    (Red, 4 AP: ship 1 sails 3 spaces to an anchor and founds a post, losing its 4th AP; ship 2 still has 4 AP)."""
    state = play(_blue(), "choose blue", "ships F3 F13")
    frame = state.players[RED].ships[0]
    anchor = anchors_at(state, frame, 3)[0]
    state = play(state, f"sail 1 {node_name(state, anchor)}")
    assert state.phase == FOUND and legal(state) == ["found", "decline"]
    state = play(state, "found")
    post = state.board.anchor_post[anchor]
    assert state.cover[post] == -1 and state.players[RED].posts_left == 11
    assert state.players[RED].vp == 3  # "az első játékos, aki megalapít egy kereskedelmi állomást, 3 győzelmi pontot kap"
    assert state.phase == SAIL and state.ships_moved == (True, False) and state.ap == 4
    assert all(text.startswith("sail 2") for text in legal(state) if text.startswith("sail"))


def test_a_second_post_on_a_discovered_island_scores_nothing():
    """ "Példa: A piros játékos 5 AP-t használhat, ezért ugyanezen sziget másik horgonymezőjéhez hajózik. Leteszi a
    második kereskedelmi állomását, de győzelmi pontot már nem kap érte, mert ez a sziget már fel van fedezve" (a second
    post on the same, already discovered, island: no VP); "Egy játékos egynél több kereskedelmi állomást is alapíthat
    minden szigeten" (several posts per island)."""
    state = play(_blue(5), "choose blue", "ships F1 F3", "sail 1 1,0", "found")  # I01's anchor (1,0) → post (1,1)
    assert state.players[RED].vp == 3
    state = play(state, "sail 2 6,2", "found")  # I01's anchor (6,2) → post (5,2), the same island
    assert state.players[RED].vp == 3 and state.players[RED].posts_founded == 2
    assert state.cover[cell(state, 5, 2)] == -1 and state.cover[cell(state, 1, 1)] == -1


def test_one_ship_per_island_water_space_any_number_on_a_frame_space_passing_is_free():
    """ "Bármennyi hajó állhat egy keretmezőn, de egy szigetlapka minden vízmezőjén csak egy hajó tartózkodhat. Egy
    vízmezőn álló hajó nem akadályozza a többi hajó áthaladását" (any number on a frame space, one per island water
    space; a ship does not block passing)."""
    state = _blue(5, players={WHITE: {"ships": (0, 1)}})  # White's ships on (0,0) and (0,1)
    state = play(state, "choose blue", "ships F1 F1")
    options = legal(state)
    assert "sail 1 0,0" not in options and "sail 1 0,1" not in options
    assert "sail 1 0,2" in options  # through both ships
    assert "sail 1 F1" in options  # staying on the frame with the other ship
    with pytest.raises(IllegalActionError, match="another ship is on that island water space"):
        play(state, "sail 1 0,1")


def test_a_ship_sails_on_water_within_its_ap():
    """ "Minden akciópontért minden hajóját egy oldalszomszédos vízmezőre mozgathatja" (per AP, each ship one
    orthogonally adjacent water space)."""
    state = play(_blue(2), "choose blue", "ships F1 F1")
    with pytest.raises(IllegalActionError, match="cannot get there with 2 AP"):
        play(state, "sail 1 0,4")
    with pytest.raises(IllegalActionError, match="on water only"):
        play(state, "sail 1 1,1")
    assert play(state, "sail 1 0,1").players[RED].ships[0] == cell(state, 0, 1)


def test_founding_needs_a_move_a_free_post_space_and_a_post_left():
    """Ruling 3: a ship must move at least one step this action to found ("ends its movement"); "amennyiben az nem
    foglalt" (if the post space is free); digest: no post can be founded on a space covered by a tile."""
    state = _blue(3, players={RED: {"ships": (cell(choice(4), 1, 0), 0)}})
    state = play(state, "choose blue", "sail 1 1,0")  # stays on the anchor
    assert state.phase == SAIL
    taken = _blue(3, players={WHITE: {"posts_left": 11}})
    taken = taken.evolve(cover=tuple(-2 if i == cell(taken, 1, 1) else v for i, v in enumerate(taken.cover)))
    taken = play(taken, "choose blue", "ships F1 F1", "sail 1 1,0")
    assert taken.phase == SAIL
    none_left = play(_blue(3, players={RED: {"posts_left": 0}}), "choose blue", "ships F1 F1", "sail 1 1,0")
    assert none_left.phase == SAIL


def test_gold_adds_one_ap_to_each_ship_that_has_not_moved():
    """Digest: for blue, 1 gold = +1 AP to each ship that has not yet moved this action."""
    state = play(_blue(2, players={RED: {"gold": 2}}), "choose blue", "ships F1 F1", "sail 1 0,1")
    assert "sail 2 0,2" not in legal(state)
    state = play(state, "spend gold")
    assert state.ap == 3 and state.players[RED].gold == 1
    assert "sail 2 0,2" in legal(state)


def test_pt10_gives_each_ship_eight_more_ap_once():
    """PT10: "minden hajója plusz 8 akciópontot kap ebben a fázisban" (each ship +8 AP this phase); once (R)."""
    state = play(_blue(2, players={RED: {"tokens": ["PT10"]}}), "choose blue", "ships F1 F1", "use PT10")
    assert state.ap == 10 and state.players[RED].used == (9,)
    assert "use PT10" not in legal(state)


def test_pt19_gives_a_gold_per_post_founded_after_gaining_it():
    """PT19: "Minden alkalommal, amikor a jelző tulajdonosa megalapít egy kereskedelmi állomást, kap 1 aranyat"."""
    state = play(_blue(3, players={RED: {"tokens": ["PT19"]}}), "choose blue", "ships F1 F1", "sail 1 1,0", "found")
    assert state.players[RED].gold == 1


def test_the_action_ends_when_both_ships_moved_or_by_end():
    """Digest: ships move one after the other, each in one go; EndAction closes the action."""
    state = play(_blue(3), "choose blue", "ships F1 F1", "sail 1 0,2", "sail 2 0,1")
    assert state.turn == 1
    ended = play(_blue(3), "choose blue", "ships F1 F1", "end")
    assert ended.turn == 1 and ended.players[RED].ships[0] == ended.board.cells


def test_completing_an_island_by_founding_scores_like_a_tile():
    """ "Egy sziget úgy is befejeződik, hogy az utolsó szabad mező egy kereskedelmiállomás-mező, és egy játékos
    kereskedelmi állomást alapít rajta" (founding on the last free space completes the island); Ruling 10."""
    state = seat_first(_blue(3), BLUE)
    board = state.board
    island = board.island_of[cell(state, 1, 1)]
    cover = list(state.cover)
    for space in board.islands[island].cells:
        if space != cell(state, 1, 1):  # the last free space: I01's post space at (1,1)
            cover[space] = -3 if space == cell(state, 5, 2) else 1
    empty = tuple(1 if i == island else n for i, n in enumerate(state.island_empty))
    discovered = tuple(True if i == island else d for i, d in enumerate(state.discovered))
    state = state.evolve(cover=tuple(cover), island_empty=empty, placements=((0, WHITE, 0, 0, 0),), discovered=discovered)
    state = play(state, "choose blue", "ships F1 F1", "sail 1 1,0", "found")
    blue = state.players[BLUE]
    assert blue.chests == 1 and not state.chests[island]
    assert blue.vp == 3 + 3 * 5  # completion 3, two posts: 3 x the time marker 5 (round 1)


def test_a_ship_may_sail_out_and_back_to_its_anchor_and_found_there():
    """Issue 16. "Minden akciópontért minden hajóját egy oldalszomszédos vízmezőre mozgathatja" (per action point each
    ship moves to an orthogonally adjacent water space) and "Ha egy hajó a mozgása végén egy horgonymezőre ér, akkor a
    játékos egy kereskedelmi állomást alapíthat" (if a ship ends its movement on an anchor space, the player may found a
    trading post): one step out and one step back is a two-step movement that ends on the anchor it started from."""
    state = _blue(3, players={RED: {"ships": (cell(choice(4), 1, 0), 0)}})
    state = play(state, "choose blue")
    assert "sail 1 back" in legal(state) and "sail 1 1,0" in legal(state)  # out and back, or stay
    assert RULES.describe(state, RULES.parse_action("sail 1 back")) == "Red sails ship 1 out and back to the anchor at 1,0"
    state = play(state, "sail 1 back")
    assert state.phase == FOUND and legal(state)[:2] == ["found", "decline"]
    state = play(state, "found")
    assert state.cover[cell(state, 1, 1)] == -1 and state.players[RED].vp == 3
    assert state.players[RED].ships[0] == cell(state, 1, 0) and state.ships_moved[0]


def test_out_and_back_needs_two_ap_and_is_offered_only_where_a_post_can_be_founded():
    """Out and back is at least 2 steps; where no post can be founded it would be staying, listed once as such."""
    short = play(_blue(1, players={RED: {"ships": (cell(choice(4), 1, 0), 0)}}), "choose blue")
    assert "sail 1 back" not in legal(short)
    with pytest.raises(IllegalActionError, match="at least 2 AP"):
        play(short, "sail 1 back")
    framed = play(_blue(3), "choose blue", "ships F1 F1")
    assert not any(text.endswith("back") for text in legal(framed))
    with pytest.raises(IllegalActionError, match="not on an anchor where a trading post can be founded"):
        play(framed, "sail 1 back")
