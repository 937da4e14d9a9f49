"""Setup for every player count, the options, and component sets (the default one and custom ones)."""

from __future__ import annotations

import copy

import pytest

from engine import CHANCE, Setup, SetupError
from engine.entdecker import RULES
from engine.entdecker.component_set import DEFAULT_SET, component_set
from engine.entdecker.components import DEFAULT_COMPONENTS
from engine.entdecker.state import SETUP_BACK, SPIN, START
from tests.engine.entdecker.helpers import NAMES, legal, play, weights


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_player_starts_with_four_gold_and_the_full_set_of_units(n):
    """ "Kezdetben minden játékosnak négy aranya van. A pontjelzőket a start mezőre helyezzük." (everyone starts
    with four gold; the score markers go on the start space) and "Felderítő=1 (ebből van három darab), erőd=3 (ebből
    két darab), telep=6 (ebből pedig egy)" (3 scouts, 2 forts, 1 settlement)."""
    state = RULES.initial_state(Setup(NAMES[n]))
    assert state.gold == (4,) * n and state.score == (0,) * n
    assert state.supply == ((3, 2, 1),) * n and state.chips == ((),) * n


@pytest.mark.parametrize("names", [("Anna",), ("A", "B", "C", "D", "E"), ("Anna", "Anna")])
def test_two_to_four_distinct_players(names):
    """ "Klaus Teuber játéka 2-4 játékos számára" (a game for 2 to 4 players)."""
    with pytest.raises(SetupError):
        RULES.initial_state(Setup(names))


def test_five_face_down_stacks_and_six_face_up_reserve_stacks():
    """ "A tartalékkártyákat számozásuk szerint bontsuk hat kupacba és helyezzük a tábla mellé képpel felfelé. A
    térképrészleteket jól keverjük meg és osszuk öt egyenlő részre, majd képpel lefelé tegyük őket a tábla mellé."
    (the reserve tiles go face up in six stacks by number; the map tiles, shuffled, in five equal face-down
    stacks.) R2: 82 tiles make stacks of 17, 17, 16, 16, 16."""
    state = RULES.initial_state(Setup(NAMES[3]))
    assert state.stacks == (17, 17, 16, 16, 16) and sum(state.undrawn) == 82
    assert state.reserve == (5, 6, 6, 4, 7, 10)
    assert sum(state.pool) == 20 and all(code == -1 for code in state.board)


def test_setup_turns_up_each_stacks_top_back_then_the_youngest_spins():
    """ "A legfiatalabb játékos megkapja a random bevételgenerátort és a hajót, majd kezdheti a játékot." (the
    youngest gets the income wheel and the ship and begins.) The backs of the five tops are chance events first."""
    state = RULES.initial_state(Setup(NAMES[2]))
    for k in range(1, 6):
        assert state.phase == SETUP_BACK and RULES.current_actor(state) == CHANCE
        assert set(weights(state)) == {f"back {k} event", f"back {k} plain"}
        state = play(state, f"back {k} plain")
    assert state.phase == SPIN and state.turn == 0
    state = play(state, "spin 5")
    assert state.phase == START and RULES.current_actor(state) == 0 and state.gold == (9, 9)


def test_income_each_turn_option_spins_before_every_turn():
    """Digest R3: the literal reading (a spin before every turn) is the setup flag ``income_each_turn``."""
    state = RULES.initial_state(Setup(NAMES[2], {"income_each_turn": True}))
    state = play(state, *[f"back {k} plain" for k in range(1, 6)], "spin 2", "start edge 4 0 n", "buy 1", "draw 1",
                 "tile sea", "back 1 plain", "place 4 0 0")
    assert state.phase == SPIN and state.turn == 1
    default = RULES.initial_state(Setup(NAMES[2]))
    default = play(default, *[f"back {k} plain" for k in range(1, 6)], "spin 2", "start edge 4 0 n", "buy 1", "draw 1",
                   "tile sea", "back 1 plain", "place 4 0 0")
    assert default.phase == START and default.turn == 1


@pytest.mark.parametrize("options,message", [
    ({"colour": "red"}, "unknown entdecker options"),
    ({"income_each_turn": "yes"}, "income_each_turn must be true or false"),
])
def test_bad_options_are_refused(options, message):
    with pytest.raises(SetupError, match=message):
        RULES.initial_state(Setup(NAMES[2], options))


def test_the_default_component_set_matches_the_digest_totals():
    """Digest, "Component data": 82 draw tiles of which 20 '?'; 38 reserve; 20 chips (5/7/6/2); wheel 2-5; 10 × 7."""
    cs = DEFAULT_SET
    assert sum(cs.draw_counts) == 82 and sum(c for c, k in zip(cs.draw_counts, cs.kinds, strict=False) if k.back) == 20
    assert sum(cs.reserve_counts) == 38
    assert dict(zip(cs.chip_values, cs.chip_counts, strict=True)) == {1: 5, 2: 7, 3: 6, 4: 2}
    assert dict(zip(cs.wheel_values, cs.wheel_weights, strict=True)) == {2: 1, 3: 2, 4: 2, 5: 1}
    assert (cs.width, cs.height, len(cs.circles)) == (10, 7, 34)
    assert cs.unit_cost == (1, 3, 6) and cs.unit_copies == (3, 2, 1) and (cs.gold_start, cs.gold_max) == (4, 12)


def small_set():
    """A custom set: a 4 × 3 board, 12 plain tiles, two '?' tiles, cheaper units, a one-value wheel."""
    data = copy.deepcopy(DEFAULT_COMPONENTS)
    data["board"] = {"w": 4, "h": 3, "rim": "water"}
    data["draw_tiles"] = [
        {"type": "SEA", "topology": "SEA", "event": None, "count": 6},
        {"type": "CAPE", "topology": "CAPE", "event": None, "count": 6},
        {"type": "CAPE?ruins", "topology": "CAPE", "event": "ruins", "count": 2},
    ]
    data["stack_sizes"] = [7, 7]
    data["wheel"] = [3]
    data["units"]["fort"] = {"cost": 2, "copies": 1}
    return data


def test_a_custom_component_set_is_played_with():
    state = RULES.initial_state(Setup(NAMES[2], {"components": small_set()}))
    assert state.stacks == (7, 7) and len(state.board) == 12 and state.supply == ((3, 1, 1),) * 2
    assert weights(state) == {"back 1 event": 2, "back 1 plain": 12}
    state = play(state, "back 1 event", "back 2 plain")
    assert weights(state) == {"spin 3": 1}
    state = play(state, "spin 3")
    assert len([a for a in legal(state) if a.startswith("start edge")]) == 14
    dumped = RULES.dump_state(state)
    assert dumped["components"] == small_set() and RULES.load_state(dumped) == state


def _broken(path, value):
    data = small_set()
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


@pytest.mark.parametrize("path,value,message", [
    (("board", "w"), 40, r"components: board\.w: expected an int in 2\.\.26, got 40"),
    (("stack_sizes",), [7, 6], r"components: stack_sizes: must add up to the 14 draw tiles, add up to 13"),
    (("draw_tiles", 0, "topology"), "OCEAN", r"components: draw_tiles\[0\]\.topology: expected one of .*, got \"OCEAN\""),
    (("draw_tiles", 2, "event"), "volcano", r"components: draw_tiles\[2\]\.event: expected one of"),
    (("draw_tiles", 2, "type"), "CAPE?storm", r"components: draw_tiles\[2\]\.type: must be the topology plus"),
    (("draw_tiles", 1, "count"), 0, r"components: draw_tiles\[1\]\.count: expected an int of at least 1, got 0"),
    (("topologies", "CAPE", "sides"), "LWX", r"components: topologies\.CAPE\.sides: expected four letters"),
    (("topologies", "CAPE", "land"), [], r"components: topologies\.CAPE\.land: must cover every land side"),
    (("topologies", "CAPE", "water"), [["E", "S"], ["S", "W"]], r"names side 'S', which is not a free water side"),
    (("reserve", "4"), ["CORNER", 4], r"components: reserve\.4: must be a face with two opposite land sides"),
    (("reserve", "5"), ["FJORD", 4], r"components: reserve\.5: must join all its land sides in one part"),
    (("reserve", "6"), KeyError, r"components: reserve: must have the back numbers 1 to 6"),
    (("chips", "0"), 3, r"components: chips: keys must be positive values"),
    (("wheel",), [], r"components: wheel: must have at least one segment"),
    (("units", "fort", "cost"), -1, r"components: units\.fort\.cost: expected an int of at least 0, got -1"),
    (("gold", "start"), 13, r"components: gold\.start: expected an int in 0\.\.12, got 13"),
    (("gold",), KeyError, r"components: misses the fields gold"),
])
def test_a_bad_component_set_is_refused_naming_the_field(path, value, message):
    with pytest.raises(SetupError, match=message):
        RULES.initial_state(Setup(NAMES[2], {"components": _broken(path, value)}))


def test_a_draw_tile_without_water_could_never_be_placed():
    """Digest: "Every draw tile has a water side (a tile must join the ship's passage)"."""
    data = small_set()
    data["draw_tiles"].append({"type": "LAND", "topology": "LAND", "event": None, "count": 1})
    data["stack_sizes"] = [8, 7]
    with pytest.raises(SetupError, match=r"draw_tiles\[3\]: draws LAND, which has no water side"):
        component_set(data)


def test_components_must_be_json_shaped():
    with pytest.raises(SetupError, match="components must be JSON-shaped"):
        component_set({"board": object()})
    with pytest.raises(SetupError, match=r"bad entdecker components: expected an object"):
        component_set([1, 2])
