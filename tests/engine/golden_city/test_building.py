"""Phase 4, building: where a house may go, what it costs (joker rule, key card), two per turn, the hand limit."""

from __future__ import annotations

import pytest

from engine import IllegalActionError
from engine.golden_city import RULES
from engine.golden_city.component_set import DEFAULT_SET
from engine.golden_city.state import BUILD, CARD_CHOICE, DISCARD
from tests.engine.golden_city.helpers import build_sites, cards, game, has, legal, play, player

BLUE = 1
HARBOURS = {s for s in DEFAULT_SET.site_ids if s.startswith("HA")}
RICH = "CO CO MT MT ME ME FO FO DE DE"


def blue_example(hand: str = RICH, keys: int = 0, **others):
    """Digest worked example 2: blue built HA16, then DE7, then C-DE-O2; blue is to build."""
    return game(players={BLUE: player(hand=hand, keys=keys, houses=("HA16", "DE7", "C-DE-O2")), **others}, turn=BLUE)


def test_worked_example_building_where_the_next_house_may_go():
    """Digest worked example 2 (the seed's "Példa kereskedőház építésére"): "A játékos a következő kereskedőházat a
    ... szomszédos sivatag területre, vagy hegységre építheti, illetve a külső kerületből kiindulva egy szomszédos külső
    kerületre. Ha ... a város belső sivatagon fekvő kerületére akar építeni, akkor előbb egy kulcskártyát kell szereznie
    ... Természetesen a játékosnak lehetősége van a következő kereskedőházát egy kikötő terepkártya lerakásának
    ellenében egy tetszése szerinti, de még szabad kikötőbe építeni." (next: a neighbouring desert suburb or the
    mountains across the river, a neighbouring outer part; the inner desert part only with a key card; or any free
    harbour for 1 coast card.) On the reconstructed board: DE3, DE5, DE6, MT4; C-DE-O1, C-MT-O1; C-DE-I with a key."""
    state = blue_example()
    expected = {"DE3", "DE5", "DE6", "MT4", "C-DE-O1", "C-MT-O1"} | (HARBOURS - {"HA16"})
    assert build_sites(state) == expected
    assert build_sites(blue_example(keys=1)) == expected | {"C-DE-I"}
    assert "build HA01 pay CO" in legal(state)
    assert "build C-DE-I pay DE DE key" in legal(blue_example(keys=1))


def test_a_harbour_needs_no_road_and_costs_one_coast_card():
    """ "A kikötőben útmegkötés nélkül mindig lehetséges egy kereskedőház felépítése. Ehhez a játékosnak csak 1 kikötő
    terepkártyát kell kijátszania." (a house in a harbour is always possible with no road condition, for just 1 coast
    card)."""
    state = game(players={0: player(hand="CO")})
    assert build_sites(state) == HARBOURS
    state = play(state, "build HA05 pay CO")
    assert has(state, 0, "HA05") and state.players[0].hand == cards("") and state.discard == cards("CO")


def test_suburbs_need_an_unbroken_road_of_own_houses():
    """ "Alapkövetelmény ... a folytatólagos útösszeköttetés egy saját kereskedőházzal beépített kikötőtől kiindulva
    addig a helyig ... Minden olyan helyen, amelyen az út keresztül vezet a játékosnak kereskedőházzal kell
    rendelkeznie." (an unbroken road from a harbour with one's own house, with one's own house on every site on
    the way). A house next to another player's house does not connect."""
    state = game(players={0: player(hand="MT MT ME ME"), 1: player(houses=("HA02", "MT2"))})
    assert not build_sites(state) & {"MT1", "MT3", "MT4", "MT5"}
    with pytest.raises(IllegalActionError, match=r"MT1 is not a road neighbour of any house of seat 0 \[building: road connection\]"):
        RULES.check(state, RULES.parse_action("build MT1 pay MT MT"))


def test_one_house_per_harbour_and_suburb_one_per_player_in_a_city_part():
    """ "Minden kikötőbe és minden elővárosba csak egy kereskedőház építhető. Az Aranyváros minden kerületébe minden
    játékos egy kereskedőházat építhet." (one house in each harbour and suburb; in each city part every player
    may build one; digest ruling: "kerület" here is a city part.)"""
    others = player(houses=("HA04", "MT8", "C-MT-O2"))
    state = game(players={0: player(hand="MT MT MT MT", houses=("HA03", "MT3", "MT5", "MT7")), 1: others})
    assert "MT8" not in build_sites(state) and "C-MT-O2" in build_sites(state)
    state = play(state, "build C-MT-O2 pay MT MT")
    assert has(state, 0, "C-MT-O2") and has(state, 1, "C-MT-O2")
    assert "C-MT-O2" not in build_sites(state)
    with pytest.raises(IllegalActionError, match=r"seat 0 already has a house in C-MT-O2"):
        RULES.check(state, RULES.parse_action("build C-MT-O2 pay MT MT"))
    with pytest.raises(IllegalActionError, match=r"HA04 already holds a house"):
        RULES.check(state, RULES.parse_action("build HA04 pay CO"))


def test_suburbs_and_outer_parts_cost_two_cards_of_their_terrain():
    """ "Egy előváros, vagy az Aranyváros egy külső városrészének beépítése 2 olyan egyforma terepkártyába kerül, amelyek
    a területnek, vagy a városrész területének megfelelnek." (a suburb or an outer city part costs 2 matching cards of
    its terrain)."""
    state = game(players={0: player(hand="DE DE FO", houses=("HA16",))})
    assert [a for a in legal(state) if a.startswith("build DE")] == ["build DE3 pay DE DE", "build DE7 pay DE DE"]
    with pytest.raises(IllegalActionError, match=r"DE3 costs 2 desert cards.*\[building: cost and joker rule\]"):
        RULES.check(state, RULES.parse_action("build DE3 pay DE FO"))


def test_inner_parts_also_take_a_key_card_which_leaves_the_game():
    """ "A négy belső városrész területre történő építéshez a játékosnak ráadásul egy kulcskártyát is ki kell játszania"
    (an inner part also takes a key card) … "Abban az esetben, ha egy játékos kulcskártyát játszik ki, azt ki kell venni a
    játékból" (a key card played leaves the game). The joker rule never replaces the key card."""
    state = blue_example(hand="DE DE", keys=1)
    with pytest.raises(IllegalActionError, match=r"C-DE-I is an inner city part: it also takes a key card"):
        RULES.check(state, RULES.parse_action("build C-DE-I pay DE DE"))
    state = play(state, "build C-DE-I pay DE DE key")
    assert state.players[BLUE].keys == 0 and state.keys_used == 1 and state.key_supply == 6
    no_key = blue_example(hand="DE DE DE DE CO CO")
    assert "C-DE-I" not in build_sites(no_key)
    with pytest.raises(IllegalActionError, match=r"seat 1 has no key card for the inner city part C-DE-I \[building: key card\]"):
        RULES.check(no_key, RULES.parse_action("build C-DE-I pay DE DE key"))


def test_worked_example_joker_rule():
    """Digest worked example 3: "Jokerszabály: 2 ugyanolyan típusú területkártya felhasználható, mint 1 tetszés szerinti
    területkártya. Ilyen módon felhasználhat a játékos például 2 sivatag területkártyát, 1 erdő területkártyaként, vagy 2
    kikötő területkártyát, 1 hegység területkártyaként. Megjegyzés: A játékos egy lépésén belül ezt a jokerszabályt
    többször is alkalmazhatja." (2 cards of one type count as 1 card of any type: 2 desert as 1 forest, 2 coast as 1
    mountains; several times in one turn.)"""
    forest = game(players={0: player(hand="FO DE DE", houses=("HA10",))})
    assert "build FO1 pay FO DE DE" in legal(forest)
    mountains = game(players={0: player(hand="MT CO CO", houses=("HA02",))})
    assert "build MT1 pay CO CO MT" in legal(mountains)
    two_jokers = game(players={0: player(hand="CO CO DE DE", houses=("HA02",))})
    assert "build MT1 pay CO CO DE DE" in legal(two_jokers)
    both_houses = game(players={0: player(hand="MT CO CO MT DE DE", houses=("HA02",))})
    state = play(both_houses, "build MT1 pay CO CO MT", "build MT2 pay MT DE DE")
    assert has(state, 0, "MT1") and has(state, 0, "MT2") and state.players[0].hand == cards("")


def test_payment_options_are_every_distinct_multiset_and_a_pair_never_replaces_its_own_terrain():
    """Digest: "a cards of T plus (k − a) pairs, for a = 0..k. Each pair is 2 cards of one terrain U ≠ T, and two pairs
    may share the same U. Every distinct multiset the hand contains is a separate action." Ruling: "a pair never
    replaces a card of its own terrain"."""
    state = game(players={0: player(hand="MT MT MT CO CO CO CO", houses=("HA02",))})
    assert [a for a in legal(state) if a.startswith("build MT1")] == [
        "build MT1 pay MT MT", "build MT1 pay CO CO MT", "build MT1 pay CO CO CO CO"]
    assert [a for a in legal(state) if a.startswith("build HA01")] == ["build HA01 pay CO", "build HA01 pay MT MT"]


def test_one_or_two_houses_or_a_pass_and_the_second_house_ends_the_turn():
    """ "Az éppen soron lévő játékos 1, vagy 2 kereskedőházat építhet ... vagy építés nélkül passzol." (the player to
    act may build 1 or 2 houses, or pass without building)."""
    state = game(players={0: player(hand="CO CO CO")})
    assert legal(state)[-1] == "pass"
    state = play(state, "build HA02 pay CO")  # coin1 reward, automatic
    assert state.turn == 0 and state.phase == BUILD and "pass" in legal(state)
    state = play(state, "build HA04 pay CO")
    assert state.turn == 1 and state.players[0].hand == cards("CO")
    passing = play(game(), "pass")
    assert passing.turn == 1 and passing.phase == BUILD


def test_a_player_without_houses_or_cards_can_only_pass():
    """Digest: "The player must still have a house left." A pass is always allowed ("passzol")."""
    assert legal(game(players={0: player(hand="CO CO", houses_left=0)})) == ["pass"]
    assert legal(game(players={0: player(hand="")})) == ["pass"]


def test_worked_example_a_reward_pays_for_the_second_house():
    """Digest worked example 8: blue (example 2) holds DE×4 and no key. Blue builds DE6 (pays DE DE) and takes its key
    card, then builds C-DE-I (pays DE DE + the key, which goes to the box). As first builder there blue gets 10 letters
    and may draw 1 landscape card. ("A játékos minden felépített kereskedőház után ... egyszeri jutalomban részesül, amit
    rögtön az építés után átvehet." — the reward right after building.)"""
    state = blue_example(hand="DE DE DE DE")
    assert "C-DE-I" not in build_sites(state)
    state = play(state, "build DE6 pay DE DE")
    assert state.players[BLUE].keys == 1 and state.key_supply == 5
    state = play(state, "build C-DE-I pay DE DE key")
    blue = state.players[BLUE]
    assert blue.keys == 0 and state.keys_used == 1 and blue.letters == 10
    assert state.phase == CARD_CHOICE and legal(state) == ["draw card", "decline card"]
    state = play(state, "draw card", "deal FO")
    assert state.players[BLUE].hand == cards("FO") and state.turn == 2


def test_paid_cards_go_face_up_onto_the_discard_pile():
    """ "A játékosok a kijátszott területkártyáikból egy felfordított lerakó-paklit képeznek" (played landscape cards form
    a face-up discard pile)."""
    state = play(game(players={0: player(hand="MT CO CO", houses=("HA02",))}), "build MT1 pay CO CO MT")
    assert state.discard == cards("CO CO MT")


def test_hand_limit_at_the_end_of_the_turn_passing_included():
    """ "Kártyalimit: Egy játékos lépése végén, nem maradhat több mint 5 területkártya a kezében. A játékos a kezében
    maradt lapokból választása szerint a lerakó-paklira dobja a többletlapokat." (at the end of their turn a player
    keeps at most 5 landscape cards and discards the surplus of their choice.) Key cards are not landscape cards."""
    state = play(game(players={0: player(hand="CO CO MT MT DE DE FO", keys=2)}), "pass")
    assert state.phase == DISCARD and state.turn == 0
    options = legal(state)
    assert options == ["discard CO CO", "discard CO MT", "discard CO FO", "discard CO DE", "discard MT MT", "discard MT FO",
                       "discard MT DE", "discard FO DE", "discard DE DE"]
    with pytest.raises(IllegalActionError, match=r"holds 7 cards and must discard exactly 2 to keep 5 \[hand limit\]"):
        RULES.check(state, RULES.parse_action("discard CO"))
    state = play(state, "discard FO DE")
    assert state.players[0].hand == cards("CO CO MT MT DE") and state.discard == cards("FO DE") and state.turn == 1
    assert state.players[0].keys == 2
    five = play(game(players={0: player(hand="CO MT MT DE DE")}), "pass")
    assert five.phase == BUILD and five.turn == 1


def test_every_player_builds_once_from_the_start_player_then_the_round_is_scored():
    """ "A kezdő játékos kezd, majd a játékosársai egyesével sorban az óramutató járásával megegyező irányban követik
    őt." … "Miután minden játékos egyszer sorra került, az építési-szakasz véget ér." (the start player begins, the
    others follow clockwise; once everyone has had a turn the phase ends.)"""
    state = game(start_seat=2, turn=2)
    state = play(state, "pass", "pass", "pass")
    assert state.turn == 1 and state.phase == BUILD
    state = play(state, "pass")
    assert state.scored == ("S1",) and state.round == 2 and state.start_seat == 3
