"""The settler phase: plantations, the quarry privilege, hacienda, construction hut, hospice, the refill."""

from __future__ import annotations

import pytest

from engine import CHANCE, IllegalActionError
from engine.puerto_rico import RULES
from engine.puerto_rico.state import DRAW, HACIENDA_DRAW, ROLE
from tests.engine.puerto_rico.helpers import board, choose, game, legal, play


def test_the_settler_may_take_a_quarry_the_others_may_not():
    """ "privilégium: az ültetvényes megteheti, hogy az ültetvény helyett egy kőbányát vesz el" (the settler may take
    a quarry instead of a plantation) … "de nem vehet el kőbányát - kivétel: építőműhely" (others may not)."""
    state = choose(game(), "settler")
    assert legal(state) == ["plant corn", "plant indigo", "plant sugar", "plant tobacco", "plant coffee", "quarry", "pass"]
    state = play(state, "quarry")
    assert state.players[0].island[5] == 1 and state.quarries == 7
    assert "quarry" not in legal(state)
    with pytest.raises(IllegalActionError, match=r"only the settler \(privilege\) or the owner of a working construction hut"):
        RULES.check(state, RULES.parse_action("quarry"))


def test_a_working_construction_hut_allows_a_quarry():
    """ "a működő építőműhellyel rendelkező játékos elvehet egy kőbányát a képpel felfelé kirakott ültetvények egyike
    helyett" (a working construction hut lets its owner take a quarry instead of a face-up plantation)."""
    state = play(choose(game(boards={1: board(city={"construction hut": 1})}), "settler"), "plant corn")
    assert state.turn == 1 and "quarry" in legal(state)
    idle = play(choose(game(boards={1: board(city={"construction hut": 0})}), "settler"), "plant corn")
    assert "quarry" not in legal(idle)


def test_no_quarries_left_means_no_quarry_for_anyone():
    """ "Ha a kőbányák oszlopa kifogyott, az ültetvényes már nem élhet privilégiumával" (no quarries, no privilege)."""
    state = choose(game(quarries=0), "settler")
    assert "quarry" not in legal(state)
    with pytest.raises(IllegalActionError, match="no quarries are left"):
        RULES.check(state, RULES.parse_action("quarry"))


def test_a_full_island_takes_nothing():
    """ "Ha egy játékos már mind a 12 ültetvény-helyet feltöltötte ... már sem új kőbányát, sem új ültetvényt nem
    létesíthet" (a player with 12 filled island spaces takes nothing): their turn is skipped."""
    state = choose(game(boards={1: board(island={"corn": 12})}), "settler")
    state = play(state, "plant corn")
    assert state.turn == 2


def test_hacienda_draws_from_the_stack_first_by_chance_then_the_player_takes_normally():
    """ "a működő haciendával rendelkező játékos, mielőtt még elvenne egyet a képpel felfelé kirakott ültetvények közül,
    elvehet egy plusz ültetvényt a képpel lefelé fordított ültetvények oszlopának tetejéről" (before taking, a working
    hacienda lets its owner take one more plantation from the face-down stack)."""
    state = choose(game(boards={0: board(city={"hacienda": 1})}), "settler")
    assert legal(state)[-2:] == ["hacienda", "pass"]
    state = play(state, "hacienda")
    assert state.phase == HACIENDA_DRAW and RULES.current_actor(state) == CHANCE
    weights = dict((RULES.format_action(a), w) for a, w in RULES.chance_outcomes(state))
    assert weights["draw indigo"] == state.stack[1]
    state = RULES.apply(state, RULES.parse_action("draw coffee"))
    assert state.players[0].island[4] == 1 and state.turn == 0
    assert "hacienda" not in legal(state) and "plant coffee" in legal(state)


def test_hospice_staffs_the_taken_tile_from_the_supply_then_the_ship_but_not_the_hacienda_draw():
    """ "A működő menhellyel rendelkező játékos az ültetvényes-fázis során lerakott ültetvényre vagy kőbányára azonnal
    rakhat egy telepest a telepesek kupacából ... Ha ... nincsen egyetlen telepes sem, a játékos elvehet egyet a
    telepeshajóról" (a working hospice puts a supply colonist on the tile taken; from the ship when the supply is empty);
    "ehhez a plusz ültetvényhez nem kap plusz telepest" (none on the hacienda's extra plantation)."""
    hospice = board(city={"hospice": 1, "hacienda": 1})
    state = choose(game(boards={0: hospice}, colonist_supply=0, colonist_ship=4), "settler")
    state = RULES.apply(play(state, "hacienda"), RULES.parse_action("draw corn"))
    assert state.players[0].island_workers == (0,) * 6
    state = play(state, "quarry")
    assert state.players[0].island_workers[5] == 1 and state.colonist_ship == 3


def test_untaken_plantations_are_discarded_and_players_plus_one_turned_up_by_chance():
    """ "Végül az ültetvényes összeszedi a felfordított ültetvények közül azokat, amelyeket nem választott senki sem,
    és ... a dobott ültetvények halmába teszi. Ezután ... új ültetvényeket húz - eggyel többet, mint amennyi a
    játékosok száma" (discard the untaken ones, turn up players + 1 new ones)."""
    state = play(choose(game(), "settler"), "plant corn", "plant indigo", "pass", "pass")
    assert state.phase == DRAW and state.to_draw == 5 and state.discards == (0, 0, 1, 1, 1)
    for _ in range(5):
        state = RULES.apply(state, RULES.chance_outcomes(state)[0][0])
    assert state.phase == ROLE and sum(state.face_up) == 5


def test_an_empty_stack_is_turned_up_then_the_discards_are_reshuffled_by_a_chance_event():
    """ "Ha a képpel lefelé fordított ültetvények halmaiban már nincsen elegendő ültetvény, a játékos először ezeket
    forgatja fel és rakja ki; ezután a dobott ültetvényeket ... összekeveri" (turn up what is left, then shuffle the
    discards into a new stack) … "Ha már semmiképpen sem lehet feltölteni ..., az elkövetkező köröket a megfelelő
    számú választható ültetvény nélkül kell lejátszani" (if still short, play on with fewer)."""
    state = choose(game(stack=(0, 0, 1, 0, 0), discards=(1, 0, 0, 0, 0)), "settler")
    state = play(state, "plant corn", "plant indigo", "plant sugar", "plant tobacco")
    state = RULES.apply(state, RULES.parse_action("draw sugar"))
    assert [RULES.format_action(a) for a, _ in RULES.chance_outcomes(state)] == ["reshuffle"]
    state = RULES.apply(state, RULES.parse_action("reshuffle"))
    assert state.stack == (1, 0, 0, 0, 1) and state.discards == (0,) * 5
    state = RULES.apply(RULES.apply(state, RULES.parse_action("draw corn")), RULES.parse_action("draw coffee"))
    assert state.phase == ROLE and state.face_up == (1, 0, 1, 0, 1)
