"""The game log says every score (issue 16): every change of VP, gold, chests or cannons is visible in the sentence
of the event that causes it, the automatic steps it sets off (an island's completion, the round's end with the pirate
fight, the final scoring) named with every player's share."""

from __future__ import annotations

import random
import re

import pytest

from engine import Setup
from engine.amerigo import RULES
from engine.amerigo.changes import KEYS, deltas, sheets
from engine.amerigo.describe import claims
from engine.core.fold import random_playout
from service.games.demo import demo_playout
from tests.engine.amerigo.helpers import BLUE, RED, YELLOW, choice, play
from tests.engine.amerigo.test_building import _green, _with_cover
from tests.engine.amerigo.test_rounds import _round_end

WORDS = {"VP": "vp", "gold": "gold", "chest": "chests", "chests": "chests", "cannon": "cannons", "cannons": "cannons"}


def _said_after_the_action(sentence: str, names: tuple[str, ...]) -> dict[int, dict[str, int]]:
    """The changes the clauses after the action's own words name, per seat, summed over the clauses."""
    total: dict[int, dict[str, int]] = {}
    for clause in sentence.split("; ")[1:]:
        for part in clause.split(": ", 1)[-1].split("; "):
            seat = next((i for i, name in enumerate(names) if part.startswith(name + " ")), None)
            if seat is None:
                continue
            for sign, number, word in re.findall(r"([+−])(\d+) (VP|gold|chests?|cannons?)", part):
                key = WORDS[word]
                total.setdefault(seat, {}).setdefault(key, 0)
                total[seat][key] += int(number) * (1 if sign == "+" else -1)
    return total


def _check_every_change_is_said(playout):
    state = RULES.initial_state(Setup.from_json(playout.events[0].data["setup"]))
    checked = 0
    for event in playout.events[1:]:
        action = RULES.parse_action(event.action)
        sentence = RULES.describe(state, action)
        after = RULES.apply(state, action)
        own = {state.seat: claims(state, action)} if isinstance(event.actor, int) else {}
        named = _said_after_the_action(sentence, state.names)
        for seat in range(state.n):
            for key in KEYS:
                change = deltas(sheets(state), sheets(after)).get(seat, {}).get(key, 0)
                said = own.get(seat, {}).get(key, 0) + named.get(seat, {}).get(key, 0)
                assert said == change, f"seq {event.seq}: {sentence!r} says {key} {said} for seat {seat}, it changed {change}"
        checked += bool(deltas(sheets(state), sheets(after)))
        state = after
    return checked


@pytest.mark.parametrize("n", [1, 2])
def test_every_change_of_vp_gold_chests_and_cannons_is_in_its_events_sentence(n):
    """The demo games (built up by the demo player) and a random game: summing what each sentence says equals what
    changed, for every event and every player."""
    assert _check_every_change_is_said(demo_playout("amerigo", n)) > 50


def test_every_change_is_said_in_a_random_two_player_game():
    assert _check_every_change_is_said(random_playout(RULES, Setup(("Ann", "Bob")), random.Random(7))) > 10


def test_the_build_that_completes_an_island_says_every_players_score():
    """ "Példa: A második fordulóban a piros játékos megépít egy 2-négyzetes falulapkát, és befejezi ezt a szigetet. Kap 2
    GyP-t a megépített lapkáért, 3 GyP-t a sziget befejezéséért és 12 GyP-t (3x4) a szigeten lévő két kereskedelmi
    állomásáért. Összesen 17 GyP-t kapott, és még a kincsesládát is megszerezte. A kék játékos 4 GyP-t (1x4) kap" (Red
    builds a 2-square village and completes the island: 2 VP for the tile, 3 for completing it and 12 for his two posts,
    17 VP in all and the treasure chest; Blue gets 4 VP). The sentence used to say only "scoring 2 VP"."""
    state = _green(stock=("village D2",), posts=((1, 1), (5, 2)), round=2)
    island = state.board.islands[0]
    neutral = state.components.kind_index("neutral M1")
    marks = {divmod(space, state.board.width): 1 for space in island.cells}
    marks.update({(1, 1): -1, (5, 2): -1, (4, 5): -3})
    del marks[(3, 3)], marks[(3, 4)]
    state = _with_cover(state, marks).evolve(placements=((neutral, 1, 0, 0, 0),), island_empty=(2, *state.island_empty[1:]))
    state = play(state, "choose green")
    assert RULES.describe(state, RULES.parse_action("build village D2 r0 3,3")) == (
        "Red builds a village D2 tile at 3,3 for 1 AP, scoring 2 VP; the island is complete: Red +15 VP, +1 chest; "
        "Blue +4 VP")


def test_the_pirate_fight_at_the_rounds_end_is_told_with_who_lost_what():
    """ "Példa: Hat kalóz támadja a játékosokat. A kék játékosnak csak 4 ágyúja van, így az ágyúkorongját a 0 mezőre kell
    vinnie, és elveszít 6 GyP-t" — "Ugyanebben a helyzetben a sárga játékosnak 8 ágyúja van, így az ágyúkorongjával a
    2-es mezőre lép" (six pirates attack: Blue with only 4 cannons goes to 0 and loses 6 VP; Yellow with 8 goes to 2).
    The fight used to change VP and cannons silently; the last action of the round now tells it."""
    state = _round_end(players={BLUE: {"cannons": 4, "vp": 10}, YELLOW: {"cannons": 8, "vp": 10}, RED: {"vp": 3}})
    state = play(state.evolve(pirates=(1, 2, 3)), "gold", "gold", "gold")
    assert RULES.describe(state, RULES.parse_action("gold")) == (
        "Yellow takes 1 gold instead of an action; round 1 ends and the pirates (strength 6) attack: Red −3 VP; "
        "White loses nothing; Blue −6 VP, −4 cannons; Yellow −6 cannons")


def test_the_advance_to_the_progress_tracks_end_says_the_two_gold():
    """ "Ha a játékos számlálókorongja eléri (vagy elérte) az ágyú-, fejlődés- vagy speciálisakció-sáv végét, és a
    játékos nem használta fel az összes elérhető akciópontját, akkor kap 2 aranyat" (a disc reaching the end of the
    cannon, progress or special-action track with AP unused gives 2 gold)."""
    state = play(choice(4, field={"brown": 5}, players={RED: {"progress": 18}}), "choose brown")
    assert RULES.describe(state, RULES.parse_action("advance 2")) == (
        "Red advances 2 spaces on the progress track (now at 20) (2 gold at the track's end once the progress tokens "
        "are taken)")
    state = play(state, "advance 2")
    assert RULES.describe(state, RULES.parse_action("take PT01")).endswith("and gets 2 gold at the progress track's end")
    at_end = play(choice(4, field={"brown": 3}, players={RED: {"progress": 20}}), "choose brown")
    assert RULES.describe(at_end, RULES.parse_action("advance 0")) == (
        "Red leaves the progress disc where it is (at 20) and gets 2 gold at the track's end")


def test_a_track_move_of_no_space_says_the_disc_stays():
    """Brown and black allow 0 spaces ("0..min(AP, last − position)"): the action ends with the disc where it is, said
    so, never as "advances 0 spaces" (issue 46)."""
    brown = play(choice(4, field={"brown": 3}, players={RED: {"progress": 4}}), "choose brown")
    assert "advance 0" in [RULES.format_action(a) for a in RULES.legal_actions(brown)]
    assert RULES.describe(brown, RULES.parse_action("advance 0")) == "Red leaves the progress disc where it is (at 4)"
    black = play(choice(4, field={"black": 3}, players={RED: {"cannons": 2}}), "choose black")
    assert RULES.describe(black, RULES.parse_action("cannons 0")) == "Red loads no cannon and leaves the cannon disc at 2"
