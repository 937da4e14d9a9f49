"""Black (cannons), brown (progress and its tokens), white's order move and PT16; end-of-track gold."""

from __future__ import annotations

import pytest

from engine import IllegalActionError
from engine.amerigo.state import ADVANCE, CANNONS, CHOOSE, MOVE_ORDER, TAKE_TOKEN
from engine.amerigo.tokens import TOKEN_INDEX
from tests.engine.amerigo.helpers import BLUE, RED, WHITE, YELLOW, choice, legal, play, seat_first


def test_cannons_worked_example_four_ap_four_spaces():
    """ "A játékos az ágyúszámláló-koronggal lép a játékosablakján minden akciópontért 1 mezőnyit jobbra, de legfeljebb a
    12-esig" — "Példa: A piros játékos 4 AP-t használhat. Az ágyúszámláló-korongjával 4 mezőt lép jobbra" (one space per
    AP, at most to 12; Red with 4 AP moves 4)."""
    state = play(choice(4, field={"black": 4}), "choose black")
    assert state.phase == CANNONS
    assert legal(state) == ["cannons 0", "cannons 1", "cannons 2", "cannons 3", "cannons 4"]
    assert play(state, "cannons 4").players[RED].cannons == 4


def test_cannons_at_the_track_end_with_ap_unused_give_two_gold():
    """ "Példa: A piros játékos 5 AP-t használhat, a fekete akciót választja. Már van 10 ágyúja, így csak 2-t tud még
    hozzávenni. A fel nem használt ágyúkért cserébe 2 aranyat kap" (5 AP, 10 cannons: 2 more and 2 gold)."""
    state = play(choice(4, field={"black": 5}, players={RED: {"cannons": 10}}), "choose black")
    assert legal(state)[-1] == "cannons 2"
    with pytest.raises(IllegalActionError, match="the cannon track ends at 12"):
        play(state, "cannons 3")
    state = play(state, "cannons 2")
    assert state.players[RED].cannons == 12 and state.players[RED].gold == 2


def test_track_end_gold_again_when_already_at_the_end_and_only_with_ap_unused():
    """ "Ha a játékos már elérte ezen sávok egyikének a végét egy korábbi fázis során, és újra ezt az akciót hajtja végre,
    akkor újra kap 2 aranyat" (already at the end: 2 gold again); Ruling 5: 2 per action; none when every AP is used."""
    again = play(choice(4, field={"black": 3}, players={RED: {"cannons": 12}}), "choose black", "cannons 0")
    assert again.players[RED].gold == 2
    exact = play(choice(4, field={"black": 2}, players={RED: {"cannons": 10}}), "choose black", "cannons 2")
    assert exact.players[RED].gold == 0


def test_progress_worked_example_passing_a_vp_space_takes_a_token():
    """ "Amikor elér vagy túllép egy győzelmi pontot jelző mezőn, akkor el kell vennie egy fejlődésjelzőt" — "Példa: A
    kék játékos 5 AP-t használhat, és a fejlődéskorongjával átlép egy győzelmi pont-mezőn. Ezután elvesz egy
    fejlődésjelzőt" (Blue, 5 AP, passes a VP space and takes a progress token)."""
    state = play(seat_first(choice(4, field={"brown": 5}), BLUE), "choose brown")
    assert state.phase == ADVANCE and "advance 5" in legal(state) and "advance 6" not in legal(state)
    state = play(state, "advance 5")  # passes space 3 (1 VP)
    assert state.phase == TAKE_TOKEN and state.tokens_due == 1
    assert legal(state) == [f"take PT0{i}" for i in range(1, 9)]
    state = play(state, "take PT05")
    assert state.players[BLUE].tokens == (TOKEN_INDEX["PT05"],) and state.progress_spaces[4] == -1
    assert state.phase == CHOOSE and state.seat == RED  # the next in order


def test_progress_with_gold_worked_example():
    """ "Példa: A piros játékos 2 AP-t használhat, a barna akciót választja, és 1 aranyért vesz 1 plusz AP-t. Így 3 mezőt
    tud előrelépni a fejlődéssávon, és így megszerez egy újabb fejlődésjelzőt" (2 AP + 1 gold → 3 spaces: one more
    token)."""
    state = play(choice(4, field={"brown": 2}, players={RED: {"gold": 1}}), "choose brown")
    assert "advance 3" not in legal(state) and "spend gold" in legal(state)
    state = play(state, "spend gold", "advance 3")
    assert state.phase == TAKE_TOKEN and state.players[RED].gold == 0


def test_two_vp_spaces_in_one_move_take_two_tokens_while_any_are_left():
    """Digest: one token per VP space reached or passed (none if none is left)."""
    state = play(choice(4, field={"brown": 7}), "choose brown", "advance 7")  # spaces 3 and 6
    state = play(state, "take PT01", "take PT02")
    assert state.phase == CHOOSE and len(state.players[RED].tokens) == 2
    empty = choice(4, field={"brown": 7}, progress_spaces=(-1,) * 8)
    assert play(empty, "choose brown", "advance 7").phase == CHOOSE


def test_a_token_never_adds_ap_to_the_action_that_gained_it():
    """Digest: a token takes effect after it is taken; it never adds AP to the action that gained it."""
    state = play(choice(4, field={"brown": 3}), "choose brown", "advance 3", "take PT03")
    assert state.players[RED].progress == 3 and state.phase == CHOOSE


def test_progress_end_of_track_gold():
    """End of the progress track (20 (R), 15 VP) with AP unused: 2 gold."""
    state = play(choice(4, field={"brown": 5}, players={RED: {"progress": 18}}), "choose brown", "advance 2", "take PT01")
    assert state.players[RED].progress == 20 and state.players[RED].gold == 2


def test_order_move_worked_example_on_top_of_blue_first_next_phase():
    """ "A játékos minden elköltött AP-ért egy mezővel előbbre tolhatja a korongját ... a korongját a már ott lévő
    korongok tetejére teszi" — "Példa: A sárga játékos 5 AP-t használhat. A korongjával 4 mező lép előre, és a piros
    mezőn álló kék korong tetejére érkezik. A következő fázisban ő lesz a kezdőjátékos. A megmaradt 1 AP-t elveszíti"
    (Yellow, 5 AP, moves 4 onto Blue's disc on a red space, on top: first next phase; 1 AP lost). (R) track: 5 → 9."""
    state = choice(4, field={"white": 5}, players={YELLOW: {"order_pos": 5, "order_stamp": 1},
                                                  BLUE: {"order_pos": 9, "order_stamp": 2}})
    state = play(seat_first(state, YELLOW), "choose white")
    assert state.phase == MOVE_ORDER and "move 5" in legal(state) and "move 6" not in legal(state)
    state = play(state, "move 4")
    yellow = state.players[YELLOW]
    assert yellow.order_pos == 9 and yellow.order_stamp > state.players[BLUE].order_stamp and yellow.gold == 3
    from engine.amerigo.state import order_of

    assert order_of(state)[:2] == (YELLOW, BLUE)


def test_order_move_end_of_track_gold_and_pt16():
    """End of the special-action track (13 (R)) with AP unused: 2 gold. PT16: "figyelmen kívül hagyhatja a
    felhasználható akciópontokat, és az aktuális első játékos korongjára teheti a sajátját" (ignore the AP, onto the
    current first player's disc); Ruling 5: no track gold for the jump."""
    state = play(choice(4, field={"white": 5}, players={RED: {"order_pos": 11}}), "choose white", "move 2")
    assert state.players[RED].order_pos == 13 and state.players[RED].gold == 2
    jump = choice(4, field={"white": 1}, players={WHITE: {"tokens": ["PT16"]}, BLUE: {"order_pos": 13}})
    jump = play(seat_first(jump, WHITE), "choose white")
    assert "use PT16" in legal(jump)
    jump = play(jump, "use PT16")
    white = jump.players[WHITE]
    assert white.order_pos == 13 and white.order_stamp > jump.players[BLUE].order_stamp and white.gold == 1
    first = play(choice(4, field={"white": 1}, players={RED: {"tokens": ["PT16"]}}), "choose white")
    assert "use PT16" not in legal(first)  # Red is first already
