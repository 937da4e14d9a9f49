"""Games written by an older rules version still replay (issue 16).

The fixtures under ``fixtures/`` are events of an Amerigo and a Golden City game written by rules
version 1, before issue 16's changes (sailing out and back, the reshuffle when the draw pile runs out,
the final places), with the outcome version 1 gave them. Stored events never change: a checked replay
with today's rules must accept every event and end the same way.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import Event, IllegalActionError, Setup, get_rules, replay
from engine.core.versions import setup_for_version

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "v1_outcomes.json").read_text(encoding="utf-8"))


def v1_events(name: str) -> list[Event]:
    """The stored events of fixture game ``name`` (``amerigo_v1``, ``golden_city_v1``)."""
    lines = (FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    return [Event.from_json(json.loads(line)) for line in lines]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_version_1_game_replays_with_checks_and_ends_as_it_did(name):
    events = v1_events(name)
    expected = EXPECTED[name]
    assert events[0].data["rules_version"] == expected["rules_version"] == "1"
    assert get_rules(events[0].data["game"]).version != "1"  # the rules have moved on since
    rules, state = replay(events, check=True)
    outcome = rules.outcome(state)
    assert events[-1].seq == expected["head"]
    assert list(outcome.scores) == expected["scores"] and list(outcome.winners) == expected["winners"]
    assert list(outcome.tiebreaks) == expected["tiebreaks"]


def test_the_golden_city_fixture_needs_version_1s_reshuffle():
    """The fixture discards cards between the pile running out and its reshuffle: under today's rule its events would
    be illegal, so it really tests that version 1's games keep version 1's reshuffle."""
    events = v1_events("golden_city_v1")
    rules = get_rules("golden_city")
    setup = setup_for_version(rules, "1", Setup.from_json(events[0].data["setup"]))
    assert setup.options == {"reshuffle": "draw_needed"}
    current = [Event(1, events[0].type, data={**events[0].data, "rules_version": rules.version})] + events[1:]
    with pytest.raises(IllegalActionError):
        replay(current, check=True)
