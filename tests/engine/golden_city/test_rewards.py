"""Rewards ("A jutalmazás"): coins, a landscape card, a key, a bonus card, a goods card, city parts."""

from __future__ import annotations

from engine.golden_city import RULES
from engine.golden_city.component_set import DEFAULT_SET
from engine.golden_city.rewards import offer_card
from engine.golden_city.scoring import region_letters
from engine.golden_city.state import (
    BONUS_CHOICE,
    BOX,
    BUILD,
    CARD_CHOICE,
    CARD_DRAW,
    GOODS_CHOICE,
    GOODS_DRAW,
    GOODS_REFILL,
    RESHUFFLE,
)
from tests.engine.golden_city.helpers import cards, chance, game, legal, play, player


def test_coins_come_from_the_supply_and_an_empty_supply_gives_what_it_has():
    """ "A játékos 1, vagy 2 érmét kap a készletből." (1 or 2 coins from the supply). Digest: "A reward from an empty
    supply gives nothing (coins: only what the supply holds)"."""
    state = play(game(players={0: player(hand="CO MT MT", houses=("HA02",))}), "build HA04 pay CO")
    assert state.players[0].coins == 4 and state.phase == BUILD
    state = play(state, "build MT1 pay MT MT")
    assert state.players[0].coins == 6 and state.coin_supply == 23 - 3
    poor = play(game(players={0: player(hand="MT MT", houses=("HA02",))}, coin_supply=1), "build MT1 pay MT MT")
    assert poor.players[0].coins == 4 and poor.coin_supply == 0


def test_a_card_reward_may_be_drawn_or_declined():
    """ "A játékos egy területkártyát húzhat a felhúzó-pakliból, amit a kezébe vehet." (the player may draw a landscape
    card). Ruling: "may" means the player may decline."""
    state = play(game(players={0: player(hand="CO CO")}), "build HA01 pay CO")
    assert state.phase == CARD_CHOICE and legal(state) == ["draw card", "decline card"]
    drawn = play(state, "draw card")
    assert drawn.phase == CARD_DRAW and chance(drawn) == {f"deal {t}": c for t, c in
                                                          zip(("CO", "MT", "ME", "FO", "DE"), drawn.pile, strict=True) if c}
    drawn = play(drawn, "deal ME")
    assert drawn.players[0].hand == cards("CO ME") and drawn.phase == BUILD
    declined = play(state, "decline card")
    assert declined.players[0].hand == cards("CO") and declined.phase == BUILD


def test_an_empty_draw_pile_is_reshuffled_when_a_draw_is_needed():
    """ "Akkor, amikor a játék folyamán később elfognak a húzó-pakli lapjai, a játékosok keverjék meg a lerakó-pakli
    lapjait és képezzenek a megkevert lapokból egy új húzó-paklit." (when the draw pile runs out, shuffle the discards
    into a new draw pile). Ruling: a pile that ran out while there were no discards is reshuffled when a draw needs a
    card; it is a chance event with no outcome of its own (the order shows in the draws)."""
    state = play(game(players={0: player(hand="CO CO")}, pile=cards(""), discard=cards("DE DE FO")), "build HA01 pay CO")
    state = play(state, "draw card")
    assert chance(state) == {"reshuffle": 1}
    state = play(state, "reshuffle")
    assert state.pile == cards("CO DE DE FO") and state.discard == cards("") and chance(state) == {
        "deal CO": 1, "deal FO": 1, "deal DE": 2}
    state = play(state, "deal DE")
    assert state.players[0].hand == cards("CO DE")


def test_the_discards_are_reshuffled_the_moment_the_draw_pile_runs_out():
    """Issue 16. "Akkor, amikor a játék folyamán később elfogynak a húzó-pakli lapjai, … keverjék meg a lerakó-pakli
    lapjait" (when, later in the game, the draw pile runs out, shuffle the discards into a new pile): at that moment,
    so the cards discarded afterwards are not in the new pile. Chance's ``reshuffle`` follows the emptying draw at once."""
    start = game(players={0: player(hand="CO CO MT MT", houses=("HA02",))}, pile=cards("FO"), discard=cards("DE DE"))
    state = play(start, "build HA01 pay CO", "draw card")
    assert RULES.describe(state, RULES.parse_action("deal FO")) == "Anna draws a landscape card as a reward"
    state = play(state, "deal FO")
    assert state.phase == RESHUFFLE and chance(state) == {"reshuffle": 1} and legal(state) == []
    assert RULES.describe(state, RULES.parse_action("reshuffle")) == (
        "The draw pile is empty: the 3 discarded cards are shuffled into a new draw pile")
    state = play(state, "reshuffle")
    assert state.pile == cards("CO DE DE") and state.discard == cards("") and state.phase == BUILD
    state = play(state, "build MT1 pay MT MT")  # paid after the reshuffle: these wait on the discard pile
    assert state.pile == cards("CO DE DE") and state.discard == cards("MT MT")


def test_games_of_rules_version_1_keep_the_reshuffle_at_the_next_draw():
    """Stored games never change: a game written by rules version 1 replays with its reshuffle (option
    ``reshuffle: draw_needed``, which engine.core.versions gives every version-1 game)."""
    start = game(players={0: player(hand="CO CO MT MT", houses=("HA02",))}, pile=cards("FO"), discard=cards("DE DE"))
    state = play(start.evolve(late_reshuffle=True), "build HA01 pay CO", "draw card", "deal FO")
    assert state.phase == BUILD and state.pile == cards("") and state.discard == cards("CO DE DE")


def test_no_card_can_be_had_from_two_empty_piles_so_none_is_offered():
    """Digest: "If both piles are empty, nothing is drawn." A house's own payment always lands on the discards first,
    so in play the draw stays possible (after a reshuffle); with both piles empty the choice is skipped."""
    state = play(game(players={0: player(hand="CO CO")}, pile=cards(""), discard=cards("")), "build HA01 pay CO")
    assert state.phase == CARD_CHOICE and play(state, "draw card").discard == cards("CO")
    empty = game(players={0: player(hand="CO")}).evolve(pile=cards(""), discard=cards(""), site=0, built=1)
    assert offer_card(empty).phase == BUILD


def test_a_key_card_lies_face_up_in_front_of_its_owner():
    """ "A játékos egy kulcskártyát kap a készletből, amit felfordítva maga elé letesz." (a key card from the supply,
    laid face up)."""
    state = play(game(players={0: player(hand="MT MT", houses=("HA02", "MT1"))}), "build MT4 pay MT MT")
    assert state.players[0].keys == 1 and state.key_supply == 5
    assert RULES.view(state, 2)["players"][0]["keys"] == 1
    empty = play(game(players={0: player(hand="MT MT", houses=("HA02", "MT1"))}, key_supply=0), "build MT4 pay MT MT")
    assert empty.players[0].keys == 0


def test_a_bonus_card_is_chosen_from_the_whole_pile_seen_only_by_the_chooser():
    """ "A játékos átnézheti a bonusz-kártyákból kialakított lefordított paklit és kiválaszthat egy lapot, amit
    lefordítva maga elé tesz. Ezt követően a játékos a bonusz-kártyapaklit lefordítva visszateszi a helyére." (may look
    through the face-down bonus pile, choose a card and keep it face down; the pile goes back face down.)"""
    state = play(game(players={0: player(hand="MT MT", houses=("HA03",))}), "build MT3 pay MT MT")
    assert state.phase == BONUS_CHOICE
    assert legal(state) == [f"bonus {b}" for b in state.bonus_pile] + ["decline bonus"]
    assert RULES.view(state, 0)["bonus_pile"] == list(state.bonus_pile)
    assert RULES.view(state, 1)["bonus_pile"] == 8 and RULES.view(state, None)["bonus_pile"] == 8
    kept = play(state, "bonus B-CITY")
    assert kept.players[0].bonus == ("B-CITY",) and "B-CITY" not in kept.bonus_pile and kept.phase == BUILD
    assert RULES.view(kept, 1)["players"][0]["bonus"] is None and RULES.view(kept, 1)["players"][0]["bonus_count"] == 1
    assert RULES.view(kept, 0)["players"][0]["bonus"] == ["B-CITY"]
    declined = play(state, "decline bonus")
    assert declined.players[0].bonus == () and len(declined.bonus_pile) == 8
    gone = play(game(players={0: player(hand="MT MT", houses=("HA03",))}, bonus_pile=()), "build MT3 pay MT MT")
    assert gone.phase == BUILD


def test_a_goods_card_from_the_display_is_replaced_from_the_pile():
    """ "A játékos elvesz egy árukártyát. A játékos elveheti a három felfordított árukártya egyikét, de húzhat a
    lefordított pakliból is. ... Abban az esetben, ha a játékos a 3 felfordított lap egyikét vette el, új lap
    felfordításával 3 darabra kell kiegészítenie ... mindaddig, amíg a húzó pakliban van lap." (takes a goods card: one
    of the three face up, or the top of the face-down pile; a face-up one is replaced while the pile has cards.)"""
    state = play(game(players={0: player(hand="MT MT", houses=("HA02",))}), "build MT2 pay MT MT")
    assert state.phase == GOODS_CHOICE and legal(state) == ["goods G1", "goods G2", "goods G3", "goods pile"]
    taken = play(state, "goods G2")
    assert taken.phase == GOODS_REFILL and taken.players[0].goods == ("G2",)
    assert chance(taken) == {f"reveal goods G{i}": 1 for i in range(4, 9)}
    taken = play(taken, "reveal goods G7")
    assert taken.goods_display == ("G1", "G3", "G7") and taken.phase == BUILD
    blind = play(state, "goods pile")
    assert blind.phase == GOODS_DRAW
    blind = play(blind, "reveal goods G6")
    assert blind.players[0].goods == ("G6",) and blind.goods_display == ("G1", "G2", "G3") and blind.phase == BUILD
    last = play(game(players={0: player(hand="MT MT", houses=("HA02",))}, goods_pile=()), "build MT2 pay MT MT")
    assert legal(last) == ["goods G1", "goods G2", "goods G3"]
    assert play(last, "goods G1").goods_display == ("G2", "G3")


def test_with_no_goods_card_left_the_goods_reward_gives_nothing():
    """Digest: "A reward from an empty supply gives nothing (and its choice is not offered)"; "TakeGoods(display slot i)
    or TakeGoods(pile), for those that are non-empty"."""
    state = game(players={0: player(hand="MT MT", houses=("HA02",))}, goods_pile=(), goods_display=())
    state = play(state, "build MT2 pay MT MT")
    assert state.phase == BUILD and state.players[0].goods == ()
    only_pile = play(game(players={0: player(hand="MT MT", houses=("HA02",))}, goods_display=()), "build MT2 pay MT MT")
    assert legal(only_pile) == ["goods pile"]


def test_worked_example_the_goods_limit():
    """Digest worked example 7: "Fontos: Egy játékos birtokában maximum 4 árukártya lehet egyszerre. Ha a játékos egy
    ötödik lapot kap, akkor egy tetszése szerinti lapot vissza kell tennie a játék dobozába." (at most 4 goods cards; a
    player who gets a fifth returns any one of them, the new one allowed, to the box.)"""
    four = ("G4", "G5", "G6", "G7")
    state = game(players={0: player(hand="MT MT", goods=four, houses=("HA02",))}, goods_pile=("G8",))
    state = play(state, "build MT2 pay MT MT", "goods G1", "reveal goods G8")
    assert state.phase == BOX and legal(state) == ["box G4", "box G5", "box G6", "box G7", "box G1"]
    kept = play(state, "box G1")
    assert kept.players[0].goods == four and kept.goods_boxed == ("G1",) and kept.phase == BUILD
    swapped = play(state, "box G5")
    assert swapped.players[0].goods == ("G4", "G6", "G7", "G1")


def test_outer_parts_pay_5_then_3_letters_then_nothing_and_a_coin_on_the_coin_parts():
    """ "Az a játékos, aki a külső városrésze elsőként épít kereskedőházat, 5 kereskedőlevelet kap. A második ... 3 ...
    A többi játékos ... nem kap semmit. A négy külső városrész mindegyike az elsőként ott építő játékosnak +1 érmét hoz."
    (first builder in an outer part 5 letters, second 3, others nothing; four outer parts give their first builder
    +1 coin: digest ruling, the O1 part of each district.)"""
    road = ("HA04", "MT8")
    seats = {s: player(hand="MT MT", houses=road if s == 0 else ()) for s in range(4)}
    seats[1] = player(hand="MT MT", houses=("HA03", "MT3", "MT5", "MT7"))
    seats[2] = player(hand="MT MT", houses=("HA02", "MT2", "MT6"))
    state = game(players=seats)
    state = play(state, "build C-MT-O2 pay MT MT", "pass")
    assert state.players[0].letters == 5 and state.players[0].coins == 3  # C-MT-O2 shows no coin
    state = play(state, "build C-MT-O2 pay MT MT", "pass")
    assert state.players[1].letters == 3
    state = play(state, "build C-MT-O1 pay MT MT")
    assert state.players[2].letters == 5 and state.players[2].coins == 4  # C-MT-O1 shows +1 coin
    third = game(players={0: player(hand="MT MT", houses=road), 1: player(houses=("C-MT-O2",)), 2: player(houses=("C-MT-O2",))})
    third = play(third, "build C-MT-O2 pay MT MT")
    assert third.players[0].letters == 0


def test_inner_parts_pay_10_letters_and_a_card_then_6_then_nothing():
    """ "Az a játékos, aki a belső városrésze elsőként épít kereskedőházat, 10 kereskedőlevelet kap, és ráadásul húzhat 1
    lapot ... A második ... 6 ... A többi ... nem kap semmit." (first builder in an inner part: 10 letters and may draw a
    card; second 6; others nothing.)"""
    route = ("HA16", "DE7", "C-DE-O2")
    first = play(game(players={0: player(hand="DE DE", keys=1, houses=route)}), "build C-DE-I pay DE DE key")
    assert first.players[0].letters == 10 and first.phase == CARD_CHOICE
    second = game(players={0: player(hand="DE DE", keys=1, houses=route), 1: player(houses=("C-DE-I",))})
    second = play(second, "build C-DE-I pay DE DE key")
    assert second.players[0].letters == 6 and second.phase == BUILD
    later = game(players={0: player(hand="DE DE", keys=1, houses=route), 1: player(houses=("C-DE-I",)),
                          2: player(houses=("C-DE-I",))})
    later = play(later, "build C-DE-I pay DE DE key")
    assert later.players[0].letters == 0 and later.phase == BUILD


def test_worked_example_a_third_builder_gets_nothing_but_connects_and_counts():
    """Digest worked example 6 (the seed's note): "Gondolhatjuk, hogy harmadik, vagy negyedik játékosként nem éri meg
    egy városrészbe építeni ... mégis megéri ... Értékeléskor ezek a kereskedőházak is kereskedőlevelhez juttathatják a
    játékosot, valamint ezeken a kereskedőházakon keresztül közvetlen útkapcsolatot alakíthat ki egy olyan városrészrel,
    amit különben nem érne el." (a third or fourth house in a part gets no reward but scores and connects to a part
    otherwise out of reach.)"""
    state = game(players={0: player(hand="DE DE MT MT", houses=("HA16", "DE7")), 1: player(houses=("C-DE-O2",)),
                          2: player(houses=("C-DE-O2",))})
    assert "build C-MT-O1 pay MT MT" not in legal(state)
    state = play(state, "build C-DE-O2 pay DE DE")
    assert state.players[0].letters == 0 and state.players[0].coins == 3
    assert region_letters(state, DEFAULT_SET.region_masks["D-DE"]) == [2, 2, 2, 0]
    assert "build C-MT-O1 pay MT MT" in legal(state)
