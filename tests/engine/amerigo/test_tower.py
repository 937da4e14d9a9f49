"""The cube tower as chance: each phase's throw, the phase AP, skipped phases, stray cubes, the odds (R)."""

from __future__ import annotations

import pytest

from engine import CHANCE, IllegalActionError
from engine.amerigo import RULES
from engine.amerigo.state import CHOOSE, PIRATE, TOWER
from engine.amerigo.tower import SCALE, throw_weights
from tests.engine.amerigo.helpers import chance, choice, legal, play, started, vector

PHASE_ONE = ("tower blue 4", "tower black 1", "tower red 1", "tower brown 0", "tower green 2", "tower yellow 0", "tower white 0")


def test_phase_one_worked_example():
    """ "Példa: A játékos elvesz 4 kék kockát, és bedobja azokat a toronyba ... Tegyétek a 4 kék, 1 fekete, 1 piros és 2
    zöld kockát a tálcából az akciómezőre. Mivel egy színből 4 a legtöbb a kocka, ezért a játékosok 4 AP-t költhetnek
    ebben a fázisban a kék, fekete, piros vagy zöld akcióban" (4 blue thrown; blue 4, black 1, red 1, green 2 come out:
    4 AP for blue, black, red or green). Digest: the tower then holds 17, and black storage is 5 for phase 2."""
    state = play(started(4), *PHASE_ONE)
    assert state.phase == CHOOSE and state.phase_ap == 4
    assert [a for a in legal(state) if a.startswith("choose")] == ["choose blue", "choose black", "choose red", "choose green"]
    assert state.tower == vector({"blue": 3, "black": 2, "red": 1, "brown": 4, "green": 1, "yellow": 2, "white": 4})
    assert sum(state.tower) == 17
    state = play(state, "gold", "gold", "gold", "gold")
    assert state.colour == 1 and state.storage[1] == 0 and state.thrown == vector({"black": 5})


def test_each_colour_out_is_bounded_by_the_cubes_inside_plus_thrown():
    """Digest: 0 ≤ O[c] ≤ tower[c] + D[c]; colours with no cube inside get no chance event."""
    state = started(4)
    assert list(chance(state))[:8] == [f"tower blue {k}" for k in range(8)]
    state = play(state, "tower blue 7")
    assert list(chance(state))[:4] == ["tower black 0", "tower black 1", "tower black 2", "tower black 3"]
    with pytest.raises(IllegalActionError, match="not a possible chance outcome"):
        play(state, "tower black 4")


def test_throw_odds_follow_the_model():
    """Digest (R): a thrown cube comes out with 0.65, a cube inside with q(n) = 1 − 0.92^n, n = cubes thrown."""
    weights = throw_weights(4, 3, 4)  # 4 blue thrown onto 3 blue inside
    total = sum(weights)
    q = 1 - 0.92**4
    assert abs(weights[0] / total - 0.35**4 * (1 - q) ** 3) < 1e-9
    assert abs(weights[7] / total - 0.65**4 * q**3) < 1e-9
    assert abs(total - SCALE) < 16 and all(w >= 1 for w in weights)


def test_a_phase_with_an_empty_storage_space_is_skipped():
    """ "Ha a tárolómező üres, vagy nem esik ki kocka a toronyból, akkor az adott fázist hagyjátok ki, a játékosok nem
    hajtanak végre akciót" (an empty storage space, or no cube coming out: the phase is skipped, nobody acts)."""
    state = started(4, storage={"blue": 0, "black": 3, "red": 5, "brown": 3, "green": 4, "yellow": 5, "white": 3})
    assert state.colour == 1 and state.thrown == vector({"black": 3})


def test_a_throw_with_no_cube_out_skips_the_phase_and_the_cubes_stay_inside():
    """Same sentence: "vagy nem esik ki kocka a toronyból" (or no cube comes out); digest: the thrown cubes stay inside."""
    state = play(started(4), "tower blue 0", "tower black 0", "tower red 0", "tower brown 0", "tower green 0",
                 "tower yellow 0", "tower white 0")
    assert state.colour == 1 and state.phase == TOWER and state.tower[0] == 7


def test_all_field_cubes_go_to_storage_after_the_phase():
    """ "Miután minden játékos végrehajtotta az akcióját, tegyék az összes kockát az akciómezőről a megfelelő színű
    tárolómezőre" (after every player acted, all field cubes go to their colours' storage spaces)."""
    state = play(started(4), *PHASE_ONE, "gold", "gold", "gold", "gold")
    assert state.storage == vector({"blue": 4, "red": 6, "brown": 3, "green": 6, "yellow": 5, "white": 3})
    assert state.field == (0,) * 7


def test_stray_cubes_join_the_throw_they_fell_before():
    """ "Ha a toronyból nem megfelelő időben esnek ki kockák ..., akkor ezeket a kockákat hagyjátok a tálcában a következő
    fázis kezdetéig. Majd ezeket a kockákat is dobjátok bele az adott fázishoz tartozó tárolómezőn található kockával
    együtt a toronyba" (cubes falling out at the wrong time wait in the tray and are thrown with the next phase's)."""
    state = started(4)
    assert chance(state)["stray red 2"] == 1 and "stray red 3" not in chance(state)
    state = play(state, "stray red 2")
    assert state.thrown == vector({"blue": 4, "red": 2}) and state.tower[2] == 2
    assert "stray red 1" not in chance(play(state, "tower blue 1"))  # only before the first colour's outcome


def test_stray_cubes_between_rounds_are_thrown_even_if_the_storage_space_is_empty():
    """Ruling 7: stray cubes are thrown even when the phase's storage space is empty."""
    state = choice(4, field={"white": 3}, colour=6, storage=(0,) * 7, tower=(7, 7, 7, 7, 7, 7, 4))
    state = play(state, "gold", "gold", "gold", "gold")
    assert state.phase == PIRATE and RULES.current_actor(state) == CHANCE
    state = play(state, "stray black 2", "pirate 2")
    assert state.stray == vector({"black": 2}) and state.tower[1] == 5
    while state.phase != TOWER:
        state = play(state, next(iter(chance(state))))
    assert state.colour == 0 and state.thrown == vector({"black": 2}) and state.stray == (0,) * 7
