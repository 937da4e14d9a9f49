"""Setup table, role choice, the end of a round, the prospector and the end triggers."""

from __future__ import annotations

import pytest

from engine import CHANCE, IllegalActionError, Setup, SetupError
from engine.puerto_rico import RULES, components
from engine.puerto_rico import state as state_module
from engine.puerto_rico.components import BUILDINGS, CORN, INDIGO, TOTAL_BUILDINGS
from engine.puerto_rico.state import DRAW, OVER, ROLE, Phase
from tests.engine.puerto_rico.helpers import NAMES, board, choose, game, legal, play, play_on

SETUP_TABLE = {
    # players: doubloons, VP chips, supply, ship, roles, ships, starting plantations by seat
    3: (2, 75, 55, 3, 6, (4, 5, 6), (INDIGO, INDIGO, CORN)),
    4: (3, 100, 75, 4, 7, (5, 6, 7), (INDIGO, INDIGO, CORN, CORN)),
    5: (4, 122, 95, 5, 8, (6, 7, 8), (INDIGO, INDIGO, INDIGO, CORN, CORN)),
}


@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup_follows_the_rulebook_table(n):
    """ "kezdőtőkét 3 játékos esetén 2 dublont, 4 játékos esetén 3 dublont, 5 játékos esetén 4 dublont" …
    "A győzelmi pont-jelzők 3 játékos esetén: 75 pontnyi, 4 játékos esetén: 100, 5 játékos esetén: mind a 122"
    (starting money 2/3/4; VP chips 75/100/122; colonists 55/75/95 plus 3/4/5 on the ship; 6/7/8 roles;
    ships 4-5-6 / 5-6-7 / 6-7-8; the governor and the next get indigo, then corn)."""
    money, chips, supply, ship, roles, caps, plants = SETUP_TABLE[n]
    state = RULES.initial_state(Setup(NAMES[n]))
    assert [p.doubloons for p in state.players] == [money] * n
    assert state.vp_bank == chips
    assert (state.colonist_supply, state.colonist_ship) == (supply, ship)
    assert len(state.role_coins) == roles
    assert RULES.view(state, None)["stack"] == 50 - n
    assert [p.island.index(1) for p in state.players] == list(plants)
    assert state.quarries == 8 and state.goods_supply == (10, 11, 11, 9, 9)
    assert sum(state.building_supply) == TOTAL_BUILDINGS == 49 and len(BUILDINGS) == 23
    from engine.puerto_rico.captain import capacities
    assert capacities(state) == caps


@pytest.mark.parametrize("n", [3, 4, 5])
def test_the_face_up_row_is_drawn_by_chance_players_plus_one(n):
    """ "4, 5 vagy 6 ültetvény (eggyel több, mint a játékosok száma) ... képpel felfelé"
    (one plantation more than the players, face up): each is a chance draw weighted by the stack."""
    state = RULES.initial_state(Setup(NAMES[n]))
    draws = 0
    while RULES.current_actor(state) == CHANCE:
        outcomes = RULES.chance_outcomes(state)
        assert dict((RULES.format_action(a), w) for a, w in outcomes) == {
            f"draw {g}": c for g, c in zip(("corn", "indigo", "sugar", "tobacco", "coffee"), state.stack, strict=True) if c}
        state = RULES.apply(state, outcomes[-1][0])
        draws += 1
    assert draws == n + 1 and sum(state.face_up) == n + 1
    assert state.phase == ROLE and RULES.current_actor(state) == 0


def test_setup_refuses_two_players():
    with pytest.raises(SetupError):
        RULES.initial_state(Setup(("A", "B")))


def test_choosing_a_role_takes_its_doubloons_and_it_cannot_be_chosen_again():
    """ "Ha egy szerepkártyán egy vagy több dublon van, akkor az a játékos, aki az adott szerepkártyát választja, ...
    ezt a pénzt is megkapja." (whoever chooses a role card takes the doubloons on it) … "ebben a körben másik
    játékos már nem választhatja" (no one else may choose it this round)."""
    state = game(role_coins=(0, 0, 0, 0, 0, 0, 2))
    state = choose(state, "prospector")
    assert state.players[0].doubloons == 3 + 2 + 1
    assert "role prospector" not in legal(state)
    with pytest.raises(IllegalActionError, match=r"the prospector has already been chosen this round \[roles: one each\]"):
        RULES.check(state, RULES.parse_action("role prospector"))


def test_prospector_gives_one_doubloon_and_nobody_else_acts():
    """ "az aranyásó kap 1 dublont a bankból" (the prospector takes 1 doubloon from the bank); no action for others."""
    state = choose(game(), "prospector", seat=2)
    assert [p.doubloons for p in state.players] == [3, 3, 4, 3]
    assert state.phase == ROLE and state.turn == 3


def test_three_players_have_no_prospector_and_five_have_two():
    """ "3 játékos esetén: az összes szerepkártya, kivéve az aranyásókat" (3 players: all roles but the prospectors)."""
    assert "role prospector" not in legal(game(3))
    assert {"role prospector", "role prospector2"} <= set(legal(game(5)))
    with pytest.raises(IllegalActionError, match="no prospector card with 3 players"):
        RULES.check(game(3), RULES.parse_action("role prospector"))


def test_end_of_round_puts_a_doubloon_on_each_unchosen_role_and_passes_the_governor():
    """ "a három nem-választott szerepkártyára 1-1 dublont kell tenni ... a kormányzókártyát át kell adni a balra
    ülő játékosnak" (a doubloon on each of the three unchosen roles; the governor card passes left)."""
    state = game(role_coins=(1, 0, 0, 0, 0, 0, 0))
    for role in ("prospector", "builder", "trader", "craftsman"):
        state = play(state, f"role {role}")
        while state.phase != ROLE:
            state = play(state, "pass")
    assert state.governor == 1 and state.turn == 1 and state.phase == ROLE
    # settler (already 1), mayor and captain were not chosen
    assert state.role_coins == (2, 1, 0, 0, 0, 1, 0)
    assert not any(state.roles_taken)


@pytest.mark.parametrize("trigger", ["colonists", "city", "chips"])
def test_any_trigger_ends_the_game_at_the_end_of_that_round(trigger):
    """ "A játék annak a körnek a végén ér véget, amelyben az alábbi feltételek bármelyike teljesül" (the game ends
    at the end of the round in which any trigger happens): the round is played out first."""
    boards = {0: board(goods={"corn": 3}, doubloons=20, island={"corn": 1}, workers={"corn": 1})}
    state = game(boards=boards)
    if trigger == "colonists":
        state = state.evolve(colonist_supply=1)
        state = choose(state, "mayor")
    elif trigger == "chips":
        state = play(choose(state.evolve(vp_bank=2), "captain"), "load corn 5")
    else:
        city = {name: 0 for name in ("small market", "hacienda", "construction hut", "small warehouse", "hospice", "office",
                                       "large market", "large warehouse", "factory", "harbor", "wharf")}
        state = game(boards={0: board(doubloons=20, city=city)})
        state = play(choose(state, "builder"), "build small indigo plant")
    assert state.end_triggered and state.phase != OVER
    rounds = state.round
    state = play_on(state)
    assert state.round == rounds
    assert RULES.current_actor(state) is None and RULES.outcome(state) is not None
    assert state.picks == 0


def test_outcome_is_none_before_the_end():
    assert RULES.outcome(game()) is None
    assert RULES.initial_state(Setup(NAMES[3])).phase == DRAW


def test_every_named_index_names_its_component():
    """The goods, buildings, roles and phases are written as Final literals (constants to the compiled engine): each
    must still be the index of the component it names."""
    for index, name in enumerate(components.GOOD_NAMES):
        assert getattr(components, name.upper()) == index, name
    for index, name in enumerate(components.BUILDING_NAMES):
        assert getattr(components, name.upper().replace(" ", "_")) == index, name
    for index, name in enumerate(components.ROLE_NAMES):
        assert getattr(components, name.upper().replace("PROSPECTOR2", "PROSPECTOR_2")) == index, name
    for phase in Phase:
        assert getattr(state_module, phase.name) is phase, phase
