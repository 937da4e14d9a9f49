"""The craftsman (production, supply limits, privilege, factory) and the trader (sales, house, office, markets)."""

from __future__ import annotations

import pytest

from engine import IllegalActionError
from engine.puerto_rico import RULES
from engine.puerto_rico.state import ROLE
from tests.engine.puerto_rico.helpers import board, choose, game, legal, play

PRODUCER = board(island={"corn": 3, "indigo": 2, "sugar": 4}, workers={"corn": 2, "indigo": 2, "sugar": 3},
                 city={"small indigo plant": 1, "sugar mill": 3})


def test_production_is_limited_by_plantations_and_by_building_colonists():
    """ "a működő kukoricaültetvények minden további nélkül kukoricát ... termelnek" (working corn plantations just
    produce) … "A feldogozóüzemeken található üres karikák mutatják, hogy az adott épület legfeljebb mennyi árut tud
    előállítani" (a production building makes at most one barrel per colonist on it)."""
    state = choose(game(boards={1: PRODUCER}), "craftsman")
    assert state.players[1].goods == (2, 1, 3, 0, 0)


def test_the_craftsman_may_take_one_more_barrel_of_a_kind_he_produced():
    """ "Végül az iparos, ha él privilégiumával, elvesz még egy hordó árut a készletből - de csak olyan árut
    választhat, amelynek előállítására képes." (one more barrel, of a kind he can produce) … "Ha az iparos egyáltalán
    nem állít elő árut, nem élhet privilégiumával" (no production, no privilege)."""
    state = choose(game(boards={0: PRODUCER}), "craftsman")
    assert legal(state) == ["extra corn", "extra indigo", "extra sugar", "pass"]
    with pytest.raises(IllegalActionError, match=r"did not produce coffee this phase \[craftsman: privilege\]"):
        RULES.check(state, RULES.parse_action("extra coffee"))
    state = play(state, "extra sugar")
    assert state.players[0].goods == (2, 1, 4, 0, 0) and state.phase == ROLE
    nothing = choose(game(), "craftsman")
    assert nothing.phase == ROLE


def test_worked_example_factory_with_corn_sold_out():
    """ "Dávidnak van működő gyára, 3 működő kukoricaültetvénye, 1 működő cukorültetvénye, 1 működő dohányültetvénye
    ... Minthogy azonban a készletben nincsen kukorica ..., összesen ... cukrot és 1 dohányt állít elő. Mivel kétfajta
    árut állít elő, a bankból kap egy dublont." (no corn in the supply: he receives sugar and tobacco only, two kinds:
    1 doubloon). The rulebook's barrel counts do not add up; the kinds rule is what it shows."""
    david = board(island={"corn": 3, "sugar": 1, "tobacco": 1}, workers={"corn": 3, "sugar": 1, "tobacco": 1},
                  city={"factory": 1, "small sugar mill": 1, "tobacco storage": 1})
    state = choose(game(boards={3: david}, goods_supply=(0, 11, 2, 9, 9)), "craftsman", seat=3)
    assert state.players[3].goods == (0, 0, 1, 1, 0) and state.players[3].doubloons == 1


def test_partial_supply_goes_in_order_from_the_craftsman():
    """ "Ha a készletből elfogyott már az az árufajta, amelyből valamelyik játékos éppen előállítana, nem kap árut."
    (a kind that ran out is not received); the craftsman takes first, then clockwise."""
    corn = board(island={"corn": 2}, workers={"corn": 2})
    state = choose(game(boards={0: corn, 1: corn, 2: corn}, goods_supply=(3, 11, 11, 9, 9)), "craftsman", seat=1)
    assert [p.goods[0] for p in state.players] == [0, 2, 1, 0]


def test_trader_sells_one_barrel_each_with_privilege_and_markets():
    """ "a kereskedő, ha ad el árut, 1 dublonnal többet kap érte" (the trader gets 1 more when selling) … kis piac
    "eggyel több dublont kap" (+1), nagy piac "kettővel több" (+2), both "hárommal több" (+3)."""
    markets = board(goods={"coffee": 1}, city={"small market": 1, "large market": 1})
    state = choose(game(boards={0: board(goods={"corn": 1}), 1: markets}), "trader")
    state = play(state, "sell corn", "sell coffee")
    assert state.players[0].doubloons == 0 + 1
    assert state.players[1].doubloons == 4 + 3
    assert state.trading_house == (0, 4)


def test_trading_house_buys_each_kind_once_unless_office():
    """ "A kereskedőház egy bizonyos árufajtából csak egyet vásárol meg (kivétel: hivatal)." (one barrel of a kind,
    except with an office)."""
    state = choose(game(boards={0: board(goods={"sugar": 2}), 1: board(goods={"sugar": 1}),
                                2: board(goods={"sugar": 1}, city={"office": 1})}), "trader")
    state = play(state, "sell sugar")
    assert state.turn == 2  # seat 1 could only sell sugar: skipped
    assert legal(state) == ["sell sugar", "pass"]


def test_a_full_trading_house_stops_sales_and_is_emptied_at_the_end():
    """ "Ha a kereskedőház megtelt, úgy a hátralévő játékosok már nem kereskedhetnek" (a full house stops sales) …
    "Ha a kereskedőház megtelt, a fázis végén a kereskedő kiüríti." (a full house is emptied at the end); "Ha ...
    négynél kevesebb áru van, azok a kereskedőházban maradnak" (fewer than four stay)."""
    state = choose(game(boards={0: board(goods={"coffee": 1})}, trading_house=(0, 1, 2)), "trader")
    state = play(state, "sell coffee")
    assert state.trading_house == () and state.goods_supply == (11, 12, 12, 9, 10)
    stays = play(choose(game(boards={0: board(goods={"coffee": 1})}, trading_house=(0,)), "trader"), "sell coffee")
    assert stays.trading_house == (0, 4)


def test_corn_sells_for_nothing_but_may_be_sold():
    """ "Kukoricát akkor is el lehet adni a kereskedőházban, ha azért nem jár pénz." (corn may be sold for 0)."""
    state = play(choose(game(boards={1: board(goods={"corn": 1})}), "trader"), "sell corn")
    assert state.players[1].doubloons == 0 and state.trading_house == (0,)
