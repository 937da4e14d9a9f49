"""The round's end: pirates; the next round's preparation; the end of the game and the final scoring."""

from __future__ import annotations

from engine import CHANCE
from engine.amerigo import RULES
from engine.amerigo.scoring import fight, final_scoring
from engine.amerigo.state import OVER, PIRATE, PRODUCTION, PROGRESS, TOWER
from engine.amerigo.tokens import TOKEN_INDEX
from tests.engine.amerigo.helpers import BLUE, RED, WHITE, YELLOW, chance, choice, play, with_players


def _round_end(round_=1, **players):
    """The white phase with only gold left to take: the round ends after it."""
    return choice(4, field={"white": 3}, colour=6, round=round_, players=players.get("players", {}))


def test_pirates_worked_example_strength_six():
    """ "Minden játékosnak először a kalózok erejével ... egyező számú ágyúval kell lőnie ... Ha a játékos a nulla
    ágyúmezőre ér, és még nem éri el a kalózok erejét, akkor a kalózok teljes erejével azonos sérülést szenved el" —
    "Példa: Hat kalóz támadja a játékosokat. A kék játékosnak csak 4 ágyúja van, így az ágyúkorongját a 0 mezőre kell
    vinnie, és elveszít 6 GyP-t" — "Példa: Ugyanebben a helyzetben a sárga játékosnak 8 ágyúja van, így az
    ágyúkorongjával a 2-es mezőre lép" (strength 6: Blue with 4 cannons → 0 and −6 VP; Yellow with 8 → 2)."""
    state = _round_end(players={BLUE: {"cannons": 4, "vp": 10}, YELLOW: {"cannons": 8, "vp": 10}}).evolve(pirates=(1, 2, 3))
    state = play(state, "gold", "gold", "gold", "gold")
    assert state.phase == PIRATE
    blue, yellow = state.players[BLUE], state.players[YELLOW]
    assert blue.cannons == 0 and yellow.cannons == 2
    assert yellow.vp == 10 and blue.vp == 10 - 6


def test_vp_never_go_below_zero_and_cannons_left_stay():
    """ "Ha egy játékos összes pontja negatív lenne, akkor a győzelmipont-korongját a 0/50-es mezőre hagyja" (VP never
    below 0); "Ha a játékosnak marad még ágyúja a szükséges összegű lövés után, akkor azok megmaradnak neki" (cannons left
    stay for the next round)."""
    state = choice(4)
    player = state.players[RED]
    assert fight(player.evolve(vp=2, cannons=1), 5).vp == 0
    assert fight(player.evolve(cannons=9), 5).cannons == 4


def test_pt11_pt12_pt13():
    """PT11: "A kalózkok ereje az összes többi játékos ellen 2-vel nő" (+2 against every other player); PT12: "csak a
    győzelmi pontok felét veszíti el, felfelé kerekítve ... annyi ágyúját kell használnia ..., amennyit csak tud" (half
    the VP, rounded up, all cannons fired); PT13: "Ha ... teljesen legyőzi a kalózkokat ..., akkor kap 2 aranyat ... akkor
    is ..., ha a kalózkok ereje 0" (2 gold after a full repulse, also at strength 0)."""
    state = _round_end(players={RED: {"tokens": ["PT11"], "cannons": 3, "vp": 9}, WHITE: {"cannons": 3, "vp": 9, "tokens": ["PT12"]},
                                BLUE: {"cannons": 5, "tokens": ["PT13"]}}).evolve(pirates=(3,))
    state = play(state, "gold", "gold", "gold", "gold")
    red, white, blue = state.players[RED], state.players[WHITE], state.players[BLUE]
    assert red.cannons == 0 and red.vp == 9  # strength 3 against Red
    assert white.cannons == 0 and white.vp == 9 - 3  # strength 5, halved and rounded up
    assert blue.cannons == 0 and blue.gold == 2 + 1 + 2  # start gold 2, gold action 1, PT13 2 (strength 5 = cannons 5)
    zero = fight(choice(4).players[BLUE], 0)
    assert zero.gold == 2
    pt13 = with_players(choice(4), {BLUE: {"tokens": ["PT13"]}})
    assert fight(pt13.players[BLUE], 0).gold == 4


def test_preparation_reveals_a_pirate_slides_progress_tokens_refills_production_and_drops_a_time_marker():
    """ "1. Fordítsatok fel még egy kalózjelzőt. 2. ... tegyétek vissza a fejlődésterület jobb feléről az összes
    fejlődésjelzőt a játék dobozába. A fejlődésterület bal felén lévő jelzőket csúsztassátok át a jobb felén lévő
    helyekre. Tegyetek 4 új fejlődésjelzőt a fejlődésterület bal felére. 3. ... Tegyétek vissza az összes
    termelésjelzőt a tárolótábláról a dobozba, ezután töltsétek fel ... 4. ... Vegyétek el a legfelső időjelzőt" (one
    more pirate; right tokens to the box, left slide right, 4 new on the left; production to the box and refilled;
    the top time marker goes)."""
    state = _round_end().evolve(progress_spaces=(0, -1, 2, 3, 4, 5, 6, 7), progress_pool=tuple(range(8, 24)), storage=(4,) * 7)
    state = play(state, "gold", "gold", "gold", "gold")
    assert state.phase == PIRATE and state.round == 2 and RULES.current_actor(state) == CHANCE
    state = play(state, "pirate 4")
    assert state.pirates == (1, 4) and state.phase == PROGRESS
    assert state.progress_spaces == (-1, -1, -1, -1, 0, -1, 2, 3)
    state = play(state, "progress L1 PT10", "progress L2 PT11", "progress L3 PT12", "progress L4 PT13")
    assert state.phase == PRODUCTION and state.production_spaces == (-1,) * 10
    while state.phase == PRODUCTION:
        state = play(state, next(iter(chance(state))))
    assert state.phase == TOWER and state.colour == 0 and state.round == 2


def test_after_the_fifth_reveal_the_pirates_total_ten():
    """ "Példa: A következő forduló végén 10 kalóz fogja támadni a játékosokat" (after the fifth reveal: 10); digest:
    the marker in the box was a 0."""
    state = choice(4).evolve(pirates=(1, 2, 3, 0), pirate_pool=(0, 4))
    state = state.evolve(phase=PIRATE, round=5)
    assert chance(state)["pirate 4"] == chance(state)["pirate 0"]
    assert sum(play(state, "pirate 4").pirates) == 10


def test_final_scoring_worked_example_red_seventy_two():
    """ "Először átváltja a kincsesládáját (3 arany) és a fejlődésjelzőjét (5 arany) 8 aranyra, amivel az aransávján
    10-ről 12-re lép; a megmaradt 6 aranyért rögtön kap 6 GyP-t. Ezután még 12 GyP-t kap az aransávjáért" (chest 3 +
    token 5: 10 → 12 and 6 VP, then 12 VP); "...gyapotért: 12 GyP-t (3 árucikkjelző x 4 termelésjelző) ...dohányért: 1
    ...cukorért: 0 (0 x 2) ...kókuszért: 2 (2 x 1) ...kávért: 4 (2 x 2)"; "A piros játékos 7 GyP-t kap az egyik
    fejlődésjelzőjéért, és 12 GyP-t azért a fejlődésjelzőjéért, amivel másodszor is kiértékeli az arany-sávját. Kap még
    10 GyP-t a fejlődéssávjért"; "A játékos 6 GyP-t kap a speciálisakció-sávjért". Total from final scoring: 72."""
    state = choice(4)
    production = [0] * 15
    production[0:3] = (1, 1, 1)  # cotton: 3 bought + the printed one = 4
    production[6] = 1  # sugar: 1 bought + printed = 2
    production[12] = 1  # coffee: 2
    tokens = ["PT18", "PT23", "PT24"]
    state = with_players(state, {RED: {"gold": 10, "chests": 1, "tokens": tokens, "goods": (3, 1, 0, 2, 2),
                                       "production": tuple(production), "progress": 15, "order_pos": 10, "vp": 0}})
    state = final_scoring(state)
    red = state.players[RED]
    assert state.final[RED] == (0, 18, 19, 19, 10, 6)
    assert red.vp == 72 and red.gold == 12 and red.chests == 0 and TOKEN_INDEX["PT18"] in red.used


def test_pt22_scores_a_vp_per_post_founded():
    """PT22: "A végső értékelés során a jelző tulajdonosa 1-1 győzelmi pontot kap minden megalapított kereskedelmi
    állomásáért" (1 VP per post founded)."""
    state = with_players(choice(4), {RED: {"tokens": ["PT22"], "posts_founded": 5}})
    assert final_scoring(state).final[RED][3] == 5


def test_the_game_ends_after_round_five_with_the_interim_and_final_scoring():
    """ "A játék az 5. forduló után véget ér. A játékosok végrehajtják a közbenső értékelést a szokásos módon, majd
    következik a végső értékelés" (after round 5: the interim scoring, then the final scoring). "Az nyer, akinek a
    legtöbb győzelmi pontja van. Holtverseny esetén közülük az nyer, aki előrébb van a játékosrendben" (most VP wins; a
    tie goes to the player earlier in player order)."""
    state = _round_end(5, players={BLUE: {"order_pos": 4, "vp": 20}, RED: {"vp": 21, "gold": 0},
                                   WHITE: {"gold": 0}, YELLOW: {"gold": 0}}).evolve(pirates=(0,))
    state = play(state, "gold", "gold", "gold", "gold")
    assert state.phase == OVER and RULES.current_actor(state) is None
    outcome = RULES.outcome(state)
    # Blue: 20 + 1 gold from the field + 2 start gold = 23 + special track 1 = 24; Red: 21 + 1 = 22
    assert outcome.scores[BLUE] == 24 and outcome.winners == (BLUE,)
    tied = final_scoring(with_players(choice(4), {RED: {"vp": 5}, BLUE: {"vp": 4, "gold": 0}, YELLOW: {"gold": 1, "vp": 3},
                                                  WHITE: {"gold": 0}}))
    outcome = RULES.outcome(tied.evolve(phase=OVER))
    assert outcome.scores == (5, 0, 4, 4) and outcome.winners == (RED,)
    assert outcome.tiebreaks[BLUE] > outcome.tiebreaks[YELLOW]  # Blue is before Yellow in order
