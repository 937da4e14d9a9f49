"""Gold: the 12 cap (overflow becomes VP), chests and once gold tokens cashed at one's own decision points."""

from __future__ import annotations

import pytest

from engine import IllegalActionError
from engine.amerigo.gold import gain_gold
from engine.amerigo.state import PLAN, TAKE_TOKEN
from tests.engine.amerigo.helpers import RED, WHITE, choice, legal, play, seat_first


def test_gold_above_twelve_becomes_vp_whatever_its_source():
    """ "Ha az összesített aranya meghaladná a 12-t, akkor minden plusz aranyért kap 1 győzelmi pontot" (each gold above 12
    is 1 VP); Ruling 14: gold from PT13, PT19 or the end of a track is capped like any gold."""
    player = choice(4).players[RED].evolve(gold=11, vp=4)
    assert gain_gold(player, 3).gold == 12 and gain_gold(player, 3).vp == 6
    capped = play(choice(4, field={"black": 3}, players={RED: {"cannons": 12, "gold": 12}}), "choose black", "cannons 0")
    assert capped.players[RED].gold == 12 and capped.players[RED].vp == 2


def test_a_chest_gives_three_gold_at_any_of_the_owners_decision_points():
    """A chest "bármikor eltávolíthatja a játékból, amiért 3 aranyat kap" (may be returned at any time for 3 gold);
    digest: at any of its owner's decision points."""
    state = choice(4, field={"red": 1}, players={RED: {"chests": 1}})
    assert legal(state)[-1] == "cash chest"
    state = play(state, "choose red")
    assert state.phase == PLAN and "cash chest" in legal(state)
    state = play(state, "cash chest")
    assert state.players[RED].gold == 3 and state.players[RED].chests == 0 and state.phase == PLAN
    assert "spend gold" in legal(state)


def test_once_gold_tokens_are_cashed_once():
    """PT17 "A jelző tulajdonosa egyszer 3 aranyat kap", PT18 "... egyszer 5 aranyat kap" (once 3 / 5 gold)."""
    state = seat_first(choice(4, field={"brown": 3}, players={WHITE: {"tokens": ["PT17", "PT18"], "gold": 1}}), WHITE)
    assert legal(state)[-2:] == ["cash PT17", "cash PT18"]
    state = play(state, "cash PT18")
    assert state.players[WHITE].gold == 6 and "cash PT18" not in legal(state)
    with pytest.raises(IllegalActionError, match="PT18 is already used"):
        play(state, "cash PT18")


def test_a_token_taken_in_brown_can_be_cashed_at_once():
    """Digest: a token takes effect after it is taken; cashing is a decision point of the same turn."""
    state = play(choice(4, field={"brown": 3}, players={RED: {"tokens": ["PT17"]}}), "choose brown", "advance 3")
    assert state.phase == TAKE_TOKEN and legal(state)[-1] == "cash PT17"
