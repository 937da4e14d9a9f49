"""What a viewer may see of an event (engine.core.visibility), over every game, and the export's channels."""

from __future__ import annotations

import random

import pytest

import engine
from engine import CHANCE, Setup, random_playout
from engine.bga import export_log
from engine.core.visibility import EVERYONE, SeatView, events_as_seen, viewers_of


def _playout(game: str, players: int = 3, seed: int = 1):
    rules = engine.get_rules(game)
    setup = Setup(tuple(f"P{i}" for i in range(players)))
    return rules, setup, random_playout(rules, setup, random.Random(seed), check=False)


def _hidden(rules, setup, events):
    """(state, action, viewers) of every event not everyone may see."""
    state = rules.initial_state(setup)
    found = []
    for event in events[1:]:
        action = rules.parse_action(event.action)
        viewers = viewers_of(rules, state, action, len(setup.players))
        if viewers is not EVERYONE:
            found.append((state, action, event, viewers))
        state = rules.apply(state, action)
    return found


@pytest.mark.parametrize("game", engine.registered_games())
def test_a_hidden_event_looks_like_another_to_those_who_may_not_see_it(game):
    """The definition, checked on every hidden event: some other outcome with the same sentence leaves
    a non-viewer's view exactly the same, and a viewer's view differs from every such outcome."""
    rules, setup, playout = _playout(game)
    for state, action, event, viewers in _hidden(rules, setup, playout.events):
        sentence = rules.describe(state, action)
        others = [a for a, _ in rules.chance_outcomes(state)] if event.actor == CHANCE else rules.legal_actions(state)
        twins = [rules.apply(state, a) for a in others if a != action and rules.describe(state, a) == sentence]
        after = rules.apply(state, action)
        assert any(rules.view(t, None) == rules.view(after, None) for t in twins), event
        for seat in viewers:
            assert all(rules.view(t, seat) != rules.view(after, seat) for t in twins), (event, seat)


def test_golden_city_hides_cards_drawn_into_a_hand_and_bonus_cards_kept_from_everyone_but_their_owner():
    """"kiválaszthat egy lapot, amit lefordítva maga elé tesz" (chooses a card, which they put face down in front
    of them); "A játékosok a terepkártyáikat egymás elől takarva a kezükbe veszik" (the players take their landscape
    cards into their hands hidden from each other). The pairs bid for lie face up."""
    rules, setup, playout = _playout("golden_city")
    hidden = _hidden(rules, setup, playout.events)
    verbs = {event.action.split()[0] for _, _, event, _ in hidden}
    assert verbs == {"deal", "bonus"}
    for state, action, event, viewers in hidden:
        owner = state.turn
        assert viewers == frozenset({owner}), event
        assert "draws a landscape card" in rules.describe(state, action) or "keeps one face down" in rules.describe(state, action)
    public_deals = [e for e in playout.events[1:] if e.action.startswith("deal") and e.seq not in {h[2].seq for h in hidden}]
    assert public_deals, "the cards dealt face up into the pairs stay public"


@pytest.mark.parametrize("game", ["puerto_rico", "amerigo", "entdecker"])
def test_games_whose_secrets_are_only_in_the_state_hide_no_event(game):
    """Plantations drawn, cubes out of the tower and tiles turned over lie face up: every event is public."""
    rules, setup, playout = _playout(game)
    assert _hidden(rules, setup, playout.events) == []


def test_a_seat_view_of_events_hides_the_others_secrets_and_keeps_the_sentence():
    rules, setup, playout = _playout("golden_city")
    seen = events_as_seen(rules, rules.initial_state(setup), playout.events, SeatView(rules, 3, 0))
    hidden = [e for e in seen if e.get("hidden")]
    assert hidden and all(e["action"] is None and e["text"] and set(e["meta"]) <= {"time", "author", "move_id"} for e in hidden)
    full = events_as_seen(rules, rules.initial_state(setup), playout.events, SeatView(rules, 3, None, full=True))
    assert [e["action"] for e in full] == [e.action for e in playout.events]


def test_the_bga_export_puts_hidden_events_on_their_seat_channel_and_a_public_line_on_the_table():
    rules, setup, playout = _playout("golden_city")
    document = export_log(playout.events)
    table = [n for p in document["data"]["logs"] if p["channel"] == "/table/t1" for n in p["data"]]
    hidden_lines = [n for n in table if n["type"] == "ludologHidden"]
    assert hidden_lines and all("ludolog_action" not in n["args"] and n["args"]["description"] for n in hidden_lines)
    private = [(p["channel"], n) for p in document["data"]["logs"] if p["channel"].startswith("/player/") for n in p["data"]
               if n["type"] == "ludologAction"]
    viewers = {event.seq: seats for _, _, event, seats in _hidden(rules, setup, playout.events)}
    assert len(private) == len(hidden_lines) == len(viewers)
    for channel, note in private:
        assert [channel] == [f"/player/p{2_000_001 + seat}" for seat in viewers[note["args"]["ludolog_seq"]]]
    spectator = export_log(playout.events, view="spectator")
    assert {p["channel"] for p in spectator["data"]["logs"]} == {"/table/t1"}
    seat1 = export_log(playout.events, view="1")
    assert {p["channel"] for p in seat1["data"]["logs"]} == {"/table/t1", "/player/p2000002"}
