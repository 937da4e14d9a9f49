"""The three ways the game ends ("A játék vége") and what is played after a trigger."""

from __future__ import annotations

import random

from engine import Setup, random_playout
from engine.bga import export_log
from engine.golden_city import RULES
from engine.golden_city.component_set import DEFAULT_SET
from engine.golden_city.state import BUILD, OVER
from tests.engine.golden_city.helpers import game, legal, play, player

HARBOURS = tuple(s for s in DEFAULT_SET.site_ids if s.startswith("HA"))


def test_worked_example_the_last_house_ends_the_game_after_the_round():
    """Digest worked example 9: "Az egyik játékos összes kereskedőházát felépítette (a játéktáblára állította). A
    megkezdett kört a játékosok még végigjátsszák." (a player has built all their houses; the round begun is played
    to its end.) Start seat 0: seat 1 places their last house in round r; seats 2 and 3 still build, round r's card
    is scored, then the bonus cards, and the game ends (without passing the start key)."""
    state = game(players={1: player(hand="CO", houses_left=1), 2: player(hand="CO"), 3: player(hand="CO")}, round=5)
    state = play(state, "pass", "build HA02 pay CO")
    assert state.end_triggered and state.players[1].houses_left == 0 and state.phase == BUILD and state.turn == 1
    assert legal(state) == ["pass"]
    state = play(state, "pass", "build HA06 pay CO", "pass", "build HA10 pay CO", "pass")
    assert state.phase == OVER and RULES.current_actor(state) is None
    assert state.scored == ("S1",) and state.start_seat == 0 and state.round == 5
    assert RULES.outcome(state) is not None


def test_a_blocked_player_ends_the_game_and_loses():
    """ "Előfordulhat az is, hogy egy játékos nem tud további kereskedőházat építeni, mert már nincsen szabad kikötő és a
    játékosnak nincsen közvetlen kapcsolódási lehetősége egyetlen szabad helyhez sem. Ebben az esetben a játéknak idő
    előtti vége van. Ez a játékos lesz a játék vesztese. A megkezdett kört a játékosok még végigjátsszák." (no free
    harbour and no road to a free site: the game ends early, that player loses, the round is played out.) Digest:
    "Check every player after every placement"; cards and coins are ignored."""
    others = player(houses=HARBOURS[1:-1] + ("MT1",))  # every harbour but HA16, and the only road out of HA01
    stuck = player(houses=("HA01",), letters=99)
    state = game(players={0: player(hand="CO"), 1: stuck, 2: others})
    assert not state.end_triggered
    state = play(state, "build HA16 pay CO")
    assert state.players[1].blocked and not state.players[0].blocked and state.end_triggered
    state = play(state, "pass", "pass", "pass", "pass")
    assert state.phase == OVER
    outcome = RULES.outcome(state)
    assert 1 not in outcome.winners and outcome.details[1]["blocked"] == 1


def test_city_parts_without_the_players_house_keep_a_player_open_even_without_a_key():
    """Digest: "Open means an empty suburb, or a city part without their house. Inner parts count as open even without a
    key, and cards and coins are ignored." """
    state = game(players={0: player(houses=("HA15",)), 1: player(houses=("C-DE-O1", "C-DE-O2")),
                          2: player(houses=HARBOURS[:14] + ("DE3", "DE2", "DE6", "DE7", "C-DE-I")),
                          3: player(hand="CO")}, turn=3)
    state = play(state, "build HA16 pay CO")
    # seat 1 has no harbour to go to, but the city parts C-DE-I (without a key), C-FO-O2 and C-MT-O1 stay open
    assert not state.players[1].blocked and state.players[1].keys == 0
    assert state.players[0].blocked  # HA15's neighbours DE2 and DE3 are taken, no harbour is free


def test_the_last_scoring_card_ends_the_game_at_once():
    """ "Az utolsó értékelő-kártya szerinti értékelés is lezajlik." (the scoring of the last scoring card has taken
    place): the game ends right after it, whoever has houses left."""
    state = game(scoring_card="S16", scoring_pile=(), round=16, start_seat=0)
    state = play(state, "pass", "pass", "pass", "pass")
    assert state.phase == OVER and state.scored == ("S16",)


def test_without_a_trigger_the_start_key_passes_and_a_new_round_begins():
    """ "A kezdőjátékost jelző kulcsot az óramutató járásával megegyező irányba tovább kell adni. ... A következő kör is
    egy értékelő kártya felfordításával ... kezdődik." (the start key passes clockwise; the next round begins with a
    scoring card.)"""
    state = play(game(start_seat=3, turn=3), "pass", "pass", "pass", "pass")
    assert state.start_seat == 0 and state.round == 2 and RULES.current_actor(state) == "chance"


def test_the_bga_export_ranks_a_blocked_player_last_even_with_the_most_letters():
    """Issue 16: "Ez a játékos lesz a játék vesztese." (This player is the loser.) The export's result table takes the
    engine's final places, not a ranking by score: in this seeded game the blocked seat 2 has the most letters."""
    playout = random_playout(RULES, Setup(("A", "B", "C")), random.Random(2))
    outcome = RULES.outcome(playout.state)
    assert outcome.details[2]["blocked"] == 1 and outcome.scores[2] == max(outcome.scores)
    assert outcome.ranks == (2, 1, 3)
    end = export_log(playout.events)["data"]["logs"][-1]["data"][0]
    assert end["args"]["name"] == "gameEnd"
    assert [(entry["name"], entry["rank"]) for entry in end["args"]["args"]["result"]] == [("A", 2), ("B", 1), ("C", 3)]
