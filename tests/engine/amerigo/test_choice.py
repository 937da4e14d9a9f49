"""A player's choice in a phase: an available colour, the white special action, gold, PT21; the phase's order."""

from __future__ import annotations

import pytest

from engine import IllegalActionError
from engine.amerigo import RULES
from engine.amerigo.state import CHOOSE, MOVE_ORDER, PLAN
from tests.engine.amerigo.helpers import BLUE, RED, WHITE, YELLOW, choice, legal, play, seat_first


def test_available_actions_are_the_colours_in_the_field_plus_gold():
    """ "A toronyból előbukkanó kockák színe határozza meg, hogy mely akciók lesznek használhatóak ebben a fázisban"
    (the colours of the cubes out decide the available actions); "Akció végrehajtás helyett a játékos aranyat is
    szerezhet" (instead of an action, gold)."""
    state = choice(4, field={"red": 2, "yellow": 3})
    assert legal(state) == ["choose red", "choose yellow", "gold"]
    with pytest.raises(IllegalActionError, match="no blue cube is in the action field"):
        play(state, "choose blue")


def test_phase_ap_is_the_largest_count_of_one_colour_and_bonuses_add():
    """ "A legtöbb kockából álló szín határozza meg az akciópontok (AP) számát" (the colour with most cubes gives the
    AP); PT02 "Minden alkalommal, amikor a jelző tulajdonosa kiválasztja ezt az akciót, akkor plusz 2 akciópontot kap"
    (+2 AP each time its owner chooses this action); PT08 +1 for red or green; tokens stack (Ruling 2)."""
    state = choice(4, field={"red": 2, "yellow": 3}, players={RED: {"tokens": ["PT02", "PT08"]}})
    state = play(state, "choose red")
    assert state.phase == PLAN and state.ap == 3 + 2 + 1


def test_several_players_may_pick_the_same_action():
    """ "Ugyanazt az akciót több játékos is választhatja" (several players may choose the same action)."""
    state = play(choice(4, field={"black": 3}), "choose black", "cannons 3")
    assert "choose black" in legal(state) and state.turn == 1


def test_pt15_red_and_green_count_as_each_other_for_availability_only():
    """PT15: "a zöld kockákat pirosnak, és a piros kockákat zöldnek tekintheti, amikor akciót választ" (green cubes count
    as red and red as green when choosing); Ruling 16: availability only, never the phase AP."""
    state = choice(4, field={"green": 1, "blue": 4}, players={RED: {"tokens": ["PT15"]}})
    assert legal(state)[:3] == ["choose blue", "choose red", "choose green"]
    state = play(state, "choose red")
    assert state.ap == 4
    other = seat_first(choice(4, field={"green": 1, "blue": 4}, players={RED: {"tokens": ["PT15"]}}), WHITE)
    assert "choose red" not in legal(other)


def test_white_special_action_performs_the_colour_of_the_disc_space_when_that_colour_is_absent():
    """ "Ha ebből a színből nincs kocka az akciómezőn, akkor a játékos végrehajthatja a megfelelő színű akciót" —
    "Példa: A fehér játékos 5 AP-t használhat, és a fehér akció végrehajtását választja, aminél a fehér kocka pirosnak
    számít (mivel a fehér korong a piros mezőn áll), és 5 AP-t elkölthet tervezésre" (White, disc on a red space, no
    red cube: plans with 5 AP)."""
    state = seat_first(choice(4, field={"white": 5, "blue": 2}, players={WHITE: {"order_pos": 3}}), WHITE)
    assert "special red" in legal(state)
    state = play(state, "special red")
    assert state.phase == PLAN and state.ap == 5 and state.action == 2


def test_no_special_action_when_the_colour_is_in_the_field_or_from_the_white_start_space():
    """Same: only "Ha ebből a színből nincs kocka az akciómezőn"; "Ha a játékos legalább egyszer már előrelépett ...
    a korongja egy nem fehér színű mezőn fog állni" (a disc that never moved stands on white: no special action)."""
    state = seat_first(choice(4, field={"white": 5, "red": 2}, players={WHITE: {"order_pos": 3}}), WHITE)
    assert not [a for a in legal(state) if a.startswith("special")]
    with pytest.raises(IllegalActionError, match="a red cube is in the action field"):
        play(state, "special red")
    start = choice(4, field={"white": 5})
    with pytest.raises(IllegalActionError, match="white start space"):
        play(start, "special red")


def test_special_action_on_the_last_space_may_be_any_colour():
    """ "Ha a játékos eléri a speciálisakció-sáv utolsó mezőjét, akkor a fehér kockákat bármilyen színre átválthatja"
    (on the last space, any colour); Ruling 11: present or not."""
    state = choice(4, field={"white": 2, "blue": 3}, players={RED: {"order_pos": 13, "order_stamp": 9}})
    assert [a for a in legal(state) if a.startswith("special")] == [
        "special blue", "special black", "special red", "special brown", "special green", "special yellow"]


def test_special_action_takes_the_performed_colours_bonuses_and_white_bonuses_only_for_the_order_move():
    """Ruling 2: white used as colour X takes X's bonuses; white bonuses apply only to the order move."""
    players = {WHITE: {"order_pos": 3, "tokens": ["PT02", "PT06"]}}
    state = seat_first(choice(4, field={"white": 4}, players=players), WHITE)
    assert play(state, "special red").ap == 4 + 2
    moved = play(state, "choose white")
    assert moved.phase == MOVE_ORDER and moved.ap == 4 + 2


def test_gold_instead_of_an_action_is_a_third_of_the_field_rounded_up():
    """ "összeszámolja az akciómezőn lévő kockákat, elosztja ezt a számot hárommal, felfelé kerekít" — "Példa: Mivel 10
    kocka található az akciómezőn, a kék játékos 4 aranyat szerez. Már volt 9 aranya, így az aranykorongja a 12-es mezőre
    kerül, és azonnal kap 1 GyP-t a megmaradt 1 aranyért" (10 cubes: 4 gold; Blue had 9: 12 and 1 VP)."""
    state = seat_first(choice(4, field={"blue": 4, "red": 3, "green": 3}, players={BLUE: {"gold": 9}}), BLUE)
    state = play(state, "gold")
    assert state.players[BLUE].gold == 12 and state.players[BLUE].vp == 1


def test_pt20_gold_is_half_the_field_rounded_up():
    """PT20: "az akciómezőn lévő minden második kockáért kap 1 aranyat (felfelé kerekítve)" (1 gold per 2 cubes, rounded
    up)."""
    state = play(choice(4, field={"blue": 4, "red": 3}, players={RED: {"tokens": ["PT20"]}}), "gold")
    assert state.players[RED].gold == 4


def test_pt21_scores_the_cubes_in_the_field_instead_of_an_action_once():
    """PT21: "az akció végrehajtása helyett a jelző tulajdonosa annyi győzelmi pontot kap, amennyi kocka van az
    akciómezőn" (instead of an action, VP equal to the cubes in the field); once (R); Ruling 13: every cube."""
    state = choice(4, field={"blue": 4, "red": 3}, players={RED: {"tokens": ["PT21"]}})
    assert legal(state)[-1] == "use PT21"
    state = play(state, "use PT21")
    assert state.players[RED].vp == 7 and state.players[RED].used == (20,)
    again = choice(4, field={"blue": 4}, base=state.evolve(turn=0), players={})
    assert "use PT21" not in legal(seat_first(again, RED))


def test_order_is_a_snapshot_of_the_phase_start():
    """Ruling 6: order inside a phase is a snapshot — "Példa: A sárga játékos ... A következő fázisban ő lesz a
    kezdőjátékos" (Yellow will be first in the *next* phase)."""
    state = choice(4, field={"white": 5}, players={YELLOW: {"order_pos": 5}, BLUE: {"order_pos": 9}})
    assert state.turn_order == (BLUE, YELLOW, RED, WHITE)
    state = play(state, "gold", "choose white", "move 4")
    assert state.players[YELLOW].order_pos == 9 and state.turn_order == (BLUE, YELLOW, RED, WHITE)
    assert state.phase == CHOOSE and state.seat == RED
    assert RULES.current_actor(state) == RED
