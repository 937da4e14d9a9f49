"""The component set: the digest's reconstructed data passes its own checks; custom sets and their errors."""

from __future__ import annotations

import json
import random

import pytest

from engine import Setup, SetupError, random_playout
from engine.golden_city import RULES
from engine.golden_city.component_set import DEFAULT_SET, HARBOUR, INNER, OUTER, SUBURB, component_set
from engine.golden_city.components import DEFAULT_COMPONENTS
from engine.golden_city.state import OVER
from tests.engine.helpers import replay_checked

CS = DEFAULT_SET


def test_the_board_has_the_rulebooks_counts():
    """ "A sziget partján 16 kikötő van. A sziget belseje 30 elővárosból áll, négy különböző területtípuson ... Ezek közül
    12 a négy folyó mellett fekszik. ... Középen található a négy kerületből álló Aranyváros. Minden kerület egy belső és
    két külső városrészből áll." (16 harbours, 30 suburbs on four terrains, 12 of them on four rivers, a city of four
    districts of one inner and two outer parts each.)"""
    kinds = CS.kinds
    assert len(CS.site_ids) == 58
    assert (kinds.count(HARBOUR), kinds.count(SUBURB), kinds.count(OUTER), kinds.count(INNER)) == (16, 30, 8, 4)
    assert CS.river_mask.bit_count() == 12 and len(CS.river_ids) == 4
    assert all(mask.bit_count() == 3 for mask in CS.river_masks)
    assert [CS.district_masks[t].bit_count() for t in range(1, 5)] == [3, 3, 3, 3]


def test_the_reconstructed_data_passes_the_digests_checks():
    """Digest § Checks the data passes: every site reachable from the harbours; suburb terrains MT 8, ME 7, FO 8, DE 7;
    3 river suburbs per river; the reward counts; the shortest harbour→city path is 3 houses; harbours neighbour only
    suburbs; an inner part neighbours only the two outer parts of its district; 4 outer parts show the coin."""
    reached, frontier = CS.harbours, CS.harbours
    while frontier:
        nxt = 0
        for site in CS.site_bits(frontier):
            nxt |= CS.neighbours[site]
        frontier = nxt & ~reached
        reached |= nxt
    assert reached == (1 << 58) - 1
    suburbs = [CS.terrains[s] for s in range(58) if CS.kinds[s] == SUBURB]
    assert [suburbs.count(t) for t in range(1, 5)] == [8, 7, 8, 7]
    rewards = {}
    for s in range(58):
        rewards.setdefault(CS.kinds[s], []).append(DEFAULT_COMPONENTS["sites"][s]["reward"])
    assert sorted(rewards[HARBOUR]) == sorted(["card"] * 8 + ["coin1"] * 8)
    assert {r: rewards[SUBURB].count(r) for r in set(rewards[SUBURB])} == {
        "coin2": 4, "coin1": 2, "card": 2, "key": 6, "bonus": 8, "goods": 8}
    assert rewards[OUTER].count("outer+coin") == 4
    for s in CS.site_bits(CS.harbours):
        assert all(CS.kinds[x] == SUBURB for x in CS.site_bits(CS.neighbours[s]))
    for s in range(58):
        if CS.kinds[s] == INNER:
            assert {CS.kinds[x] for x in CS.site_bits(CS.neighbours[s])} == {OUTER}
            assert all(CS.terrains[x] == CS.terrains[s] for x in CS.site_bits(CS.neighbours[s]))
    # shortest path harbour, suburb, outer part: no harbour touches the city, some of their suburbs do
    one_step = 0
    for s in CS.site_bits(CS.harbours):
        assert not CS.neighbours[s] & CS.city
        one_step |= CS.neighbours[s]
    assert any(CS.neighbours[x] & CS.city for x in CS.site_bits(one_step))


def test_cards_goods_and_scoring_cards():
    """ "8 árukártyát" … "Minden árukártyán két különböző áru van feltüntetve." (8 goods cards, 2 different goods on
    each); 16 scoring cards with backs 4× 1, 8× 2, 4× 3; 8 bonus cards; 6 key cards; 35 coins; 10 cards per terrain."""
    assert len(CS.goods_card_ids) == 8 and all(bin(CS.goods_of_card[g]).count("1") == 2 for g in CS.goods_card_ids)
    assert all(sum(CS.goods_of_card[g] >> i & 1 for g in CS.goods_card_ids) == 4 for i in range(4))
    backs = [CS.scoring_back[s] for s in CS.scoring_ids]
    assert backs == [1] * 4 + [2] * 8 + [3] * 4
    assert len(CS.bonus_ids) == 8 and CS.key_cards == 6 and CS.coins == 35 and CS.landscape == (10,) * 5


SMALL = {
    "sites": [
        {"id": "H1", "kind": "harbour", "terrain": "CO", "river": None, "reward": "card", "neighbours": ["S1"]},
        {"id": "H2", "kind": "harbour", "terrain": "CO", "river": None, "reward": "goods", "neighbours": ["S1", "S2"]},
        {"id": "H3", "kind": "harbour", "terrain": "CO", "river": None, "reward": "bonus", "neighbours": ["S2"]},
        {"id": "S1", "kind": "suburb", "terrain": "MT", "river": "R1", "reward": "key", "neighbours": ["H1", "H2", "O1"]},
        {"id": "S2", "kind": "suburb", "terrain": "DE", "river": "R1", "reward": "coin2", "neighbours": ["H2", "H3", "O1"]},
        {"id": "O1", "kind": "outer", "terrain": "MT", "river": None, "reward": "outer+coin", "neighbours": ["S1", "S2", "I1"]},
        {"id": "I1", "kind": "inner", "terrain": "MT", "river": None, "reward": "inner", "neighbours": ["O1"]},
    ],
    "scoring_cards": [
        {"id": "K1", "back": 1, "good": "wine", "regions": ["R1"]},
        {"id": "K2", "back": 2, "good": "spices", "regions": ["D-MT", "R1"]},
    ],
    "landscape": {"CO": 8, "MT": 8, "ME": 4, "FO": 4, "DE": 8},
}


@pytest.mark.parametrize("n", [3, 4])
def test_a_custom_component_set_plays_whole_games(n):
    """Brief: a game's setup accepts another component set through ``Setup.options["components"]``; missing top-level
    keys keep the default. A tiny board ends by blocked players or by its 2 scoring cards."""
    setup = Setup(tuple(f"P{i}" for i in range(n)), {"components": SMALL})
    for seed in range(10):
        playout = random_playout(RULES, setup, random.Random(seed))
        assert playout.state.phase == OVER and playout.state.round <= 2
        assert playout.state.components.site_ids == ("H1", "H2", "H3", "S1", "S2", "O1", "I1")
        replayed = replay_checked(RULES, playout.events)
        assert replayed == playout.state
        dumped = json.loads(json.dumps(RULES.dump_state(playout.state)))
        assert dumped["components"]["sites"][0]["id"] == "H1"
        assert RULES.load_state(dumped) == playout.state


def test_the_default_set_dumps_as_null_and_equal_sets_are_one_object():
    state = RULES.initial_state(Setup(("A", "B", "C")))
    assert RULES.dump_state(state)["components"] is None
    assert component_set(json.loads(json.dumps(DEFAULT_COMPONENTS))) is DEFAULT_SET
    assert component_set(SMALL) is component_set(json.loads(json.dumps(SMALL)))


def _with_site(**changes):
    site = {**SMALL["sites"][3], **changes}
    return {**SMALL, "sites": SMALL["sites"][:3] + [site] + SMALL["sites"][4:]}


@pytest.mark.parametrize(
    "custom,message",
    [
        ("board", "components: must be an object"),
        ({"colours": 5}, "unknown fields ['colours']"),
        (_with_site(kind="village"), 'sites[3].kind: expected one of harbour, suburb, outer, inner, got "village"'),
        (_with_site(terrain="CO"), "sites[3].terrain: of S1: harbours and only harbours are coast"),
        (_with_site(reward="inner"), "sites[3].reward: of S1: a suburb carries one of"),
        (_with_site(neighbours=["H1", "H2", "X9"]), "S1 names neighbour 'X9', which is not another site"),
        (_with_site(neighbours=["H1", "H2", "O1", "S2"]), "S1 names neighbour S2, but S2 does not name S1"),
        (_with_site(id="pile"), "sites[3].id: expected an id"),
        ({**SMALL, "scoring_cards": [{"id": "K1", "back": 1, "good": "gold", "regions": ["R1"]}]},
         'scoring_cards[0].good: expected one of wine, ceramics, cloth, spices, got "gold"'),
        ({**SMALL, "scoring_cards": [{"id": "K1", "back": 1, "good": "wine", "regions": ["R9"]}]},
         'scoring_cards[0].regions[0]: expected one of R1, D-MT, got "R9"'),
        ({"bonus_cards": [{"id": "B1", "effect": "terrain", "terrain": "CO"}]}, "harbours never count"),
        ({"landscape": {"CO": 2, "MT": 10, "ME": 10, "FO": 10, "DE": 10}}, "landscape.CO: 2 are too few"),
        ({"landscape": {"CO": 4, "MT": 4, "ME": 4, "FO": 4, "DE": 4}}, "landscape: 20 cards are too few"),
        ({"coins": 8}, "coins: 8 are too few to give"),
        ({"houses": {"5": 12}}, "houses: expected an object mapping player counts"),
        ({"goods_cards": [{"id": "G1", "goods": ["wine", "wine"]}]}, 'goods_cards[0].goods: lists "wine" twice'),
    ],
)
def test_bad_component_sets_are_refused_naming_the_field(custom, message):
    """Brief: custom sets are "validated with clear SetupErrors that name the field and why"."""
    with pytest.raises(SetupError) as err:
        RULES.initial_state(Setup(("A", "B", "C"), {"components": custom}))
    assert message in str(err.value)


def test_a_set_without_houses_for_the_player_count_is_refused():
    with pytest.raises(SetupError, match=r"gives houses for \[3\] players, not 4"):
        RULES.initial_state(Setup(("A", "B", "C", "D"), {"components": {"houses": {"3": 18}}}))
