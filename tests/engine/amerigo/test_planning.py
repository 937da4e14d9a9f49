"""Red (planning tiles into one's stock) and yellow (buying production tokens)."""

from __future__ import annotations

import pytest

from engine import IllegalActionError
from engine.amerigo.state import BUY, CHOOSE, PLAN
from tests.engine.amerigo.helpers import RED, choice, legal, play


def _kind(state, name):
    return state.components.kind_index(name)


def test_planning_worked_example_neutral_two_square_and_two_villages_for_four_ap():
    """ "Egy saját falulapka elvétele, annak méretétől függetlenül, 1 AP-be kerül. Egy semleges tájlap ára 1-6 AP, a
    méretétől függően" — "Példa: A piros játékos 4 AP-t használhat. Elvesz egy 2-négyzetes semleges tájlapkát, valamint
    egy 4-négyzetes és egy 3-négyzetes falulapkát" (own village 1 AP whatever its size, neutral 1-6 AP by size; Red with 4
    AP takes a 2-square neutral tile, a 4-square and a 3-square village)."""
    state = play(choice(4, field={"red": 4}), "choose red")
    assert state.phase == PLAN
    options = legal(state)
    assert "plan neutral D2" in options and "plan neutral O4" in options and "plan neutral P5" not in options
    state = play(state, "plan neutral D2", "plan village O4", "plan village L3")
    red = state.players[RED]
    assert state.phase == CHOOSE  # no AP left and no gold: the action ends by itself
    assert red.stock[_kind(state, "neutral D2")] == 1 and red.stock[_kind(state, "village O4")] == 1
    assert red.stock[_kind(state, "village L3")] == 1 and sum(red.stock) == 3
    assert state.neutral[_kind(state, "neutral D2")] == 5
    assert red.villages[_kind(state, "village O4") - len(state.components.neutral_kinds)] == 0


def test_one_neutral_tile_per_phase_two_with_pt14():
    """ "Egy játékos csak egy semleges tájlapkát vehet el minden fázisban" (one neutral tile per phase); PT14: "egy
    helyett kettő semleges tájlapkát is elvehet, amennyiben mindkét lapka árát kifizeti" (two, paying both)."""
    state = play(choice(4, field={"red": 6}), "choose red", "plan neutral M1")
    assert not [a for a in legal(state) if a.startswith("plan neutral")]
    with pytest.raises(IllegalActionError, match="only one neutral tile per phase"):
        play(state, "plan neutral D2")
    pt14 = play(choice(4, field={"red": 6}, players={RED: {"tokens": ["PT14"]}}), "choose red", "plan neutral M1")
    assert "plan neutral I4" in legal(pt14)
    pt14 = play(pt14, "plan neutral I4")
    assert not [a for a in legal(pt14) if a.startswith("plan neutral")]


def test_tiles_in_stock_stay_until_built_and_the_supply_runs_out():
    """Digest: stock tiles stay until built; no limit. Own village tiles only as many as are left."""
    state = choice(4, field={"red": 6}, players={RED: {"villages": (1, 0, 0, 0, 0, 0, 0)}})
    state = play(state, "choose red", "plan village M1")
    assert not [a for a in legal(state) if a.startswith("plan village")]
    with pytest.raises(IllegalActionError, match="no village M1 tile is left"):
        play(state, "plan village M1")


def test_production_worked_example_two_cotton_tokens_for_five_ap():
    """ "A termelésjelző AP költsége megegyezik a jelzón látható számmal" — "Példa: A piros játékos 5 AP-t használhat,
    és vesz 2 gyapot termelésjelzőt 5 AP-ért" (a token costs its value; Red, 5 AP, buys two cotton tokens, 2 and 3)."""
    state = choice(4, field={"yellow": 5}, production_spaces=(0, 1, 5, 9, 0, 2, -1, -1, -1, -1))
    state = play(state, "choose yellow")
    assert state.phase == BUY
    assert legal(state) == ["buy cotton 2", "buy cotton 3", "buy cotton 4", "buy tobacco 4", "buy coconut 2", "end"]
    state = play(state, "buy cotton 2", "buy cotton 3")
    red = state.players[RED]
    assert red.production[:3] == (1, 1, 0) and state.phase == CHOOSE
    assert state.production_spaces == (-1, -1, 5, 9, 0, 2, -1, -1, -1, -1)


def test_production_token_beyond_the_ap_is_refused_and_an_action_with_nothing_left_ends_by_itself():
    """Same rule: a token of value 4 needs 4 AP. With nothing affordable and no gold, the action ends by itself."""
    assert play(choice(4, field={"yellow": 3}, production_spaces=(2,) + (-1,) * 9), "choose yellow").turn == 1
    state = play(choice(4, field={"yellow": 3}, production_spaces=(2,) + (-1,) * 9, players={RED: {"gold": 1}}),
                 "choose yellow")
    assert legal(state) == ["spend gold", "end"]
    with pytest.raises(IllegalActionError, match="costs 4 AP, the player has 3"):
        play(state, "buy cotton 4")
