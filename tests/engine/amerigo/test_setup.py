"""Setup for 2, 3 and 4 players: islands, frames, time markers, pirates, progress and production tokens,
the order stack with its start gold, and the cube tower's setup throw."""

from __future__ import annotations

import pytest

from engine import CHANCE, Setup
from engine.amerigo import RULES
from engine.amerigo import components as c
from engine.amerigo.state import LAYOUT, ORDER, PIRATE, PRODUCTION, PROGRESS, TOWER
from tests.engine.amerigo.helpers import NAMES, chance, layout_events, play, started, vector


def test_two_to_four_players_with_distinct_names():
    """Digest: 2-4 players."""
    from engine import SetupError

    with pytest.raises(SetupError, match="2 to 4 players"):
        RULES.initial_state(Setup(("A",)))
    with pytest.raises(SetupError, match="2 to 4 players"):
        RULES.initial_state(Setup(tuple("ABCDE")))
    with pytest.raises(SetupError, match="distinct"):
        RULES.initial_state(Setup(("A", "A")))
    with pytest.raises(SetupError, match="unknown amerigo options"):
        RULES.initial_state(Setup(("A", "B"), {"variant": 1}))


@pytest.mark.parametrize("n,tiles,frames", [(2, 9, 12), (3, 12, 14), (4, 16, 16)])
def test_islands_of_random_tiles_in_frames_by_player_count(n, tiles, frames):
    """ "A szigetterület 9 (véletlenszerűen választott) szigetlapkából és 4 sarokkeretből áll" (2 players: 9 random
    tiles, 4 corner frames); 3 players: "12 ... szigetlapkából, 4 sarokkeretből és 2 rövid keretből"; 4 players: "16
    szigetlapkából, 4 sarokkeretből és 4 rövid keretből"; "Minden sarokkeret három vízmezőt tartalmaz, míg minden kis
    keret csak egyet" (a corner frame has three water spaces, a short one one)."""
    state = RULES.initial_state(Setup(NAMES[n]))
    assert RULES.current_actor(state) == CHANCE and state.phase == LAYOUT
    first = chance(state)
    assert len(first) == 16 * 4 and set(first.values()) == {1}  # any tile, any rotation, uniformly
    state = play(state, *layout_events(n))
    assert len(state.layout) == tiles and state.board is not None
    assert len(state.board.frames) == frames
    assert state.phase == PIRATE


def test_a_tile_is_laid_only_once():
    """Digest setup 1: which tiles and where: each tile once."""
    state = play(RULES.initial_state(Setup(NAMES[2])), "layout 0,0 I05 r1")
    assert not any(" I05 " in text for text in chance(state))
    assert len(chance(state)) == 15 * 4


def test_big_islands_get_a_treasure_chest_each():
    """ "A 20 vagy több földmezőből álló szigetet 'nagy szigeteknek' hívjuk ... Tegyetek egy kincsesládát minden nagy
    szigetre" (islands of 20+ land spaces are big; a chest on each)."""
    state = play(RULES.initial_state(Setup(NAMES[4])), *layout_events(4))
    board = state.board
    assert [len(i.cells) for i in board.islands if i.big] == [25, 49, 26]
    assert state.chests == tuple(i.big for i in board.islands)
    assert all(len(i.cells) < 20 for i in board.islands if not i.big)


def test_more_than_five_big_islands_five_chests():
    """Ruling 8: more than 5 big islands: chests go to 5 of them (the first by their top-left space)."""
    big = ("~~~~~~~", "~.....~", "~.....~", "~.....~", "~.....~", "~P....~", "~A~~~~~")
    tiles = {f"B{i:02d}": list(big) for i in range(16)}
    state = RULES.initial_state(Setup(NAMES[4], {"components": {"island_tiles": tiles}}))
    state = play(state, *(f"layout {i // 4},{i % 4} B{i:02d} r0" for i in range(16)))
    assert sum(i.big for i in state.board.islands) == 16
    assert state.chests == (True,) * 5 + (False,) * 11


def test_time_markers_five_four_three_two_over_a_printed_one():
    """Ruling 1: round r uses 6 − r (the seed's round-2 completion scores 3 × 4)."""
    from engine.amerigo.scoring import time_value

    state = started(4)
    assert [time_value(state.evolve(round=r)) for r in range(1, 6)] == [5, 4, 3, 2, 1]


def test_five_pirates_face_down_one_turned_up():
    """ "Jól keverjétek meg a kalózzelzőket, és tegyék képpel lefelé 5 darabot ... A megmaradt kalózzelzőket tegyék
    vissza a dobozba anélkül, hogy megnéznék őket. Az egyik, véletlenszerűen választott kalózzelzőt fordítsátok meg"
    (five face down, the rest to the box unseen, one turned up): uniform over the six markers."""
    state = play(RULES.initial_state(Setup(NAMES[2])), *layout_events(2))
    assert state.phase == PIRATE
    weights = chance(state)
    assert {k: w for k, w in weights.items() if k.startswith("pirate")} == {
        "pirate 0": 2 * weights["pirate 1"], "pirate 1": weights["pirate 1"], "pirate 2": weights["pirate 1"],
        "pirate 3": weights["pirate 1"], "pirate 4": weights["pirate 1"]}
    state = play(state, "pirate 0")
    assert state.pirates == (0,) and state.pirate_pool == (0, 1, 2, 3, 4)


def test_a_progress_token_face_up_on_each_of_the_eight_spaces():
    """ "tegyék egy-egy fejlődésjelzőt képpel felfelé a fejlődésterület mindegyik mezőjére" (one on each progress
    space), drawn uniformly without replacement."""
    state = play(RULES.initial_state(Setup(NAMES[2])), *layout_events(2), "pirate 3")
    assert state.phase == PROGRESS
    assert len(chance(state)) == 24 and next(iter(chance(state))) == "progress L1 PT01"
    state = play(state, "progress L1 PT24")
    assert len(chance(state)) == 23 and all(k.startswith("progress L2") for k in chance(state))
    for i, space in enumerate(c.PROGRESS_SPACES[1:]):
        state = play(state, f"progress {space} PT{i + 1:02d}")
    assert state.progress_spaces == (23, 0, 1, 2, 3, 4, 5, 6) and state.phase == PRODUCTION


@pytest.mark.parametrize("n,spaces,tokens", [(2, 6, 30), (3, 8, 40), (4, 10, 50)])
def test_production_tokens_for_the_player_count(n, spaces, tokens):
    """ "2 játékos esetén tegyék vissza a dobozba a 3 és 4 játékos verzióhoz tartozó termelésjelzőket; 3 játékos
    esetén csak a 4 játékoshoz tartozókat ... Csak a játékosok számának megfelelő mezőig töltsék fel" (2 players: 30
    tokens, 3 players: 40, 4: all 50; fill the spaces up to the player count's); spaces 6 / 8 / 10 (R)."""
    state = RULES.initial_state(Setup(NAMES[n]))
    assert sum(state.production_pool) == tokens and len(state.production_spaces) == spaces
    state = play(state, *layout_events(n), "pirate 1", *(f"progress {s} PT{i + 1:02d}" for i, s in enumerate(c.PROGRESS_SPACES)))
    weights = chance(state)
    per_good = c.PRODUCTION_TOKENS[n]  # per good: 2/2/2 (2 players), 3/3/2 (3), 3/4/3 (4) of values 2/3/4
    unit = weights["production 1 coffee 2"] // per_good[0]
    assert [weights[f"production 1 sugar {v}"] for v in (2, 3, 4)] == [unit * k for k in per_good]
    drawn = 0
    while state.phase == PRODUCTION:
        state = play(state, next(iter(chance(state))))
        drawn += 1
    assert drawn == spaces and state.phase == ORDER and sum(state.production_pool) == tokens - spaces


def test_order_stack_top_disc_starts_the_others_get_a_gold_per_disc_above():
    """ "Akié a legfelső korong, az lesz a kezdőjátékos. Az összes többi játékos annyi aranyat kap, ahány játékos előtte
    van" — "Példa: A Piros játékos a kezdőjátékos. A Fehér játékos a második, 1 aranyat kap; a Kék játékos 2 aranyat és a
    Sárga pedig 3-at kap" (Red starts; White second gets 1 gold, Blue 2, Yellow 3)."""
    state = started(4, order=(0, 1, 2, 3))
    assert [p.gold for p in state.players] == [0, 1, 2, 3]
    other = started(4, order=(2, 0, 3, 1))
    assert [p.gold for p in other.players] == [1, 3, 0, 2]
    assert len([k for k in chance(play(RULES.initial_state(Setup(NAMES[3])), *layout_events(3), "pirate 1",
                                        *(f"progress {s} PT{i + 1:02d}" for i, s in enumerate(c.PROGRESS_SPACES)),
                                        *("production 1 cotton 2", "production 2 cotton 2", "production 3 cotton 2",
                                          "production 4 cotton 3", "production 5 cotton 3", "production 6 cotton 3",
                                          "production 7 cotton 4", "production 8 cotton 4")))]) == 6


def test_order_from_the_start_stack():
    """ "Példa: A piros játékos dönt először ..., őt követi a Fehér, a Kék és végül a Sárga" (Red decides first, then
    White, Blue and Yellow)."""
    state = started(4, order=(0, 1, 2, 3))
    state = play(state, "tower blue 4", "tower black 1", "tower red 1", "tower brown 0", "tower green 2", "tower yellow 0",
                 "tower white 0")
    assert [state.names[s] for s in state.turn_order] == ["Red", "White", "Blue", "Yellow"]


def test_setup_throw_puts_the_cubes_out_into_storage():
    """ "Dobjátok mind a 49 kockát a toronyba, azután minden olyan kockát, ami a tálcában landolt, tegyétek az akció-kör
    megfelelő színű tárolómezőjére" — "Példa: A toronyban maradt még 2-2 db piros és sárga; 3-3 db kék, fekete és zöld;
    és 4-4 db barna és fehér kocka" (in the tower remain red 2, yellow 2, blue 3, black 3, green 3, brown 4, white 4)."""
    state = started(4)
    # the first throw (the 4 blue storage cubes) has begun: they are in the tower now
    assert state.phase == TOWER and state.thrown == vector({"blue": 4})
    assert state.tower == vector({"red": 2, "yellow": 2, "blue": 7, "black": 3, "green": 3, "brown": 4, "white": 4})
    assert state.storage == vector({"black": 4, "red": 5, "brown": 3, "green": 4, "yellow": 5, "white": 3})


def test_setup_throw_odds_are_each_cube_out_with_three_fifths():
    """Digest, probability model (R): at setup each of the 49 cubes comes out with p = 0.60."""
    state = play(RULES.initial_state(Setup(NAMES[2])), *layout_events(2), "pirate 1",
                 *(f"progress {s} PT{i + 1:02d}" for i, s in enumerate(c.PROGRESS_SPACES)))
    while state.phase == PRODUCTION:
        state = play(state, next(iter(chance(state))))
    state = play(state, "order 1 0")
    weights = chance(state)
    assert list(weights) == [f"tower blue {k}" for k in range(8)]
    total = sum(weights.values())
    assert abs(weights["tower blue 7"] / total - 0.6**7) < 1e-9
    assert abs(weights["tower blue 4"] / total - 35 * 0.6**4 * 0.4**3) < 1e-9
