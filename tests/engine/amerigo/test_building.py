"""Green: building from the stock next to one's post or network, land only, VP by island size, goods, completion."""

from __future__ import annotations

import pytest

from engine import IllegalActionError
from engine.amerigo.state import BUILD, CHOOSE, SAIL
from tests.engine.amerigo.helpers import BLUE, RED, WHITE, cell, choice, legal, play, seat_first


def _stock(state, names):
    stock = [0] * len(state.components.kinds)
    for name in names:
        stock[state.components.kind_index(name)] += 1
    return tuple(stock)


def _with_cover(state, marks):
    cover = list(state.cover)
    for (row, col), mark in marks.items():
        cover[cell(state, row, col)] = mark
    return state.evolve(cover=tuple(cover))


def _green(ap=4, stock=("neutral D2", "village O4", "village L3"), posts=((1, 1),), **fields):
    """Red to build on I01 (island 0, big: 25 land spaces) with posts at ``posts``."""
    state = choice(4, field={"green": ap})
    state = state.evolve(players=(state.players[RED].evolve(stock=_stock(state, stock), posts_left=12 - len(posts)),
                                  *state.players[1:]))
    state = _with_cover(state, {p: -1 for p in posts})
    empty = list(state.island_empty)
    empty[0] -= len(posts)
    return state.evolve(island_empty=tuple(empty), **fields)


def test_building_worked_example_three_tiles_for_four_ap_ten_vp_and_two_goods():
    """ "Egy falulapkának a lerakási költsége csak 1 AP. Egy semleges tájlapkának a lerakási költsége 1-6 AP" — "Példa:
    Ahhoz, hogy a képen látható 3 kiegészítőlapkát leépítse ide, a piros játékosnak 4 AP-t kell elköltenie" (the three
    tiles cost 4 AP); "Példa: A piros játékos úgy teszi le a lapkákat, hogy az csatlakozzon egy piros kereskedelmi
    állomáshoz vagy közvetlenül, vagy lapkák láncán át" (joined to a red post directly or through a chain); "Példa: A
    piros játékos a lapkái 2 árucikkjelzőre tette le: cukorra és gyaptra. Elveszi az árucikkeket" (sugar and cotton
    covered: he takes them); "Példa: A piros játékos egy nagy szigetre építette a lapkái, így 10 győzelmi pontot (GyP-t)
    kap" (on a big island: 10 VP)."""
    state = play(_green(), "choose green")
    assert state.phase == BUILD
    state = play(state, "build village L3 r0 1,2")  # (1,2) (2,2) (2,3): next to the post, covers sugar
    state = play(state, "build village O4 r0 1,4")  # (1,4) (1,5) (2,4) (2,5): joined through L3, covers cotton
    state = play(state, "build neutral D2 r0 3,1")  # (3,1) (3,2): joined through L3
    red = state.players[RED]
    assert red.vp == 10 and red.goods == (1, 0, 1, 0, 0)  # cotton, sugar
    assert sum(red.stock) == 0 and state.phase == CHOOSE
    assert state.island_empty[0] == 25 - 1 - 9


def test_a_tile_partly_on_water_is_illegal():
    """ "1. A lapkát csak szárazföldre lehet építeni – vízre sosem" — "Példa: A falulapka egy része egy vízmezőre kerül,
    emiatt ezt a lapkát nem lehet ide tenni" (partly on water: not allowed)."""
    state = play(_green(), "choose green")
    with pytest.raises(IllegalActionError, match="land only, never water"):
        play(state, "build neutral D2 r0 0,2")


def test_a_tile_not_touching_the_post_or_network_is_illegal():
    """ "2. Minden lapkát oldalszomszédosan kell letenni ... a) vagy a játékos saját kereskedelmi állomásával" — "Példa:
    Ebben az esetben a falulapka nem oldalszomszédosan kapcsolódik a játékos kereskedelmi állomásához, így nem kerülhet
    ide" (not orthogonally adjacent to his post: not allowed)."""
    state = play(_green(), "choose green")
    with pytest.raises(IllegalActionError, match="must touch the player's trading post"):
        play(state, "build neutral D2 r0 4,3")
    assert "build neutral D2 r0 at 1,2" in legal(state) and "build neutral D2 r1 at 2,1" in legal(state)


def test_neutral_tiles_of_anyone_link_other_players_villages_and_posts_break_the_chain():
    """ "b) ...vagy egy, a játékos falulapkáiból és/vagy semleges tájlapkáiból álló, a kereskedelmi állomáshoz csatlakozó
    sorhoz. (Nem számít, hogy ki építette le a semleges tájlapkát.)" (a chain of his villages and/or neutral tiles joined
    to the post, whoever built the neutral ones); digest: other players' posts and village tiles break the chain."""
    base = _green(stock=("village M1",))
    neutral_kind = base.components.kind_index("neutral M1")
    village_kind = base.components.kind_index("village M1")
    by_white_neutral = _with_cover(base, {(1, 2): 1}).evolve(placements=((neutral_kind, WHITE, 0, 1, 2),))
    assert "build village M1 r0 at 1,3" in legal(play(by_white_neutral, "choose green"))
    by_white_village = _with_cover(base, {(1, 2): 1}).evolve(placements=((village_kind, WHITE, 0, 1, 2),))
    options = legal(play(by_white_village, "choose green"))
    assert "build village M1 r0 at 1,3" not in options and "build village M1 r0 at 2,1" in options
    white_post = _with_cover(base, {(1, 2): -2})
    assert "build village M1 r0 at 1,3" not in legal(play(white_post, "choose green"))


def test_only_on_islands_with_an_own_post_and_not_on_posts():
    """ "bármelyik szigetre, ahol legalább egy kereskedelmi állomása van" (any island holding one of his posts); "A
    játékosok nem építhetnek rá egy kereskedelmi állomásra" (not on a post)."""
    state = play(_green(posts=()), "choose green")
    assert state.turn == 1  # no post anywhere: nothing to build, the action ends by itself
    state = play(_green(stock=("village M1",)), "choose green")
    assert "build village M1 r0 at 1,1" not in legal(state)
    with pytest.raises(IllegalActionError, match="already covered"):
        play(state, "build village M1 r0 1,1")


def test_an_empty_post_space_may_be_covered_and_then_no_post_is_founded_there():
    """ "építhetnek üres kereskedelmiállomás-mezőre. Ez esetben ezen a mezőn a későbbiekben nem lehet kereskedelmi
    állomást alapítani" (an empty post space may be built on; no post can be founded there afterwards)."""
    state = play(_green(stock=("neutral I4",), posts=((5, 2),)), "choose green", "build neutral I4 r0 4,2")  # (4,2)-(4,5)
    assert state.cover[cell(state, 4, 5)] > 0
    state = choice(4, field={"blue": 2}, base=state, players={RED: {"ships": (cell(state, 3, 6), cell(state, 3, 6))}})
    state = play(state, "choose blue", "sail 1 4,6")  # the anchor of (4,5)
    assert state.phase == SAIL  # no trading-post decision: the other ship may sail


def test_rotations_are_deduplicated_and_never_mirrored():
    """Ruling 12: tiles are double-sided, so they turn but are not mirrored; symmetric shapes list each placement once."""
    state = play(_green(ap=6, stock=("village O4", "village D2", "neutral S4")), "choose green")
    options = legal(state)
    assert {o.split()[3] for o in options if o.startswith("build village O4")} == {"r0"}
    assert {o.split()[3] for o in options if o.startswith("build village D2")} == {"r0", "r1"}
    assert {o.split()[3] for o in options if o.startswith("build neutral S4")} <= {"r0", "r1"}
    with pytest.raises(IllegalActionError, match="repeats another"):
        play(state, "build village O4 r1 1,2")


def test_building_worked_example_completion_in_round_two():
    """ "Ha egy játékos lefedi a sziget utolsó üres mezőjét, akkor kap még 3 győzelmi pontot ... Ha ez egy nagy sziget,
    akkor még a kincsesládát is megkapja" and the table "1: 1x, 2: 3x, 3: 6x, 4: 10x, 5: 15x, 6: 21x ... megszorozza a
    legfelső időjelzőn látható számmal" — "Példa: A második fordulóban a piros játékos megépít egy 2-négyzetes
    falulapkát, és befejezi ezt a szigetet. Kap 2 GyP-t a megépített lapkáért, 3 GyP-t a sziget befejezéséért és 12
    GyP-t (3x4) a szigeten lévő két kereskedelmi állomásáért. Összesen 17 GyP-t kapott, és még a kincsesládát is
    megszerezte. A kék játékos 4 GyP-t (1x4) kap" (round 2: 2 + 3 + 12 = 17 VP and the chest; Blue 4 VP)."""
    state = _green(stock=("village D2",), posts=((1, 1), (5, 2)), round=2)
    island = state.board.islands[0]
    neutral = state.components.kind_index("neutral M1")
    marks = {divmod(space, state.board.width): 1 for space in island.cells}
    marks.update({(1, 1): -1, (5, 2): -1, (4, 5): -3})
    del marks[(3, 3)], marks[(3, 4)]
    state = _with_cover(state, marks).evolve(placements=((neutral, WHITE, 0, 0, 0),), island_empty=(2, *state.island_empty[1:]))
    state = play(state, "choose green", "build village D2 r0 3,3")
    assert state.players[RED].vp == 17 and state.players[RED].chests == 1 and not state.chests[0]
    assert state.players[BLUE].vp == 4 and state.players[WHITE].vp == 0


def test_more_than_six_posts_score_as_six():
    """Ruling 9: more than 6 posts of one player on one island score as 6 (the table stops at 21x)."""
    from engine.amerigo.scoring import complete_island

    state = seat_first(_green(), RED)
    posts = [space for space in state.board.islands[1].cells][:8]
    state = _with_cover(state, {divmod(p, state.board.width): -1 for p in posts})
    assert complete_island(state, 1, RED).players[RED].vp == 3 + 21 * 5
