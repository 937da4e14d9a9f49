"""Move sentences as messages (issue 47): English reads exactly as before, notation and exports do not change.

``english_sentences.json`` was written by the code before the games' sentences became messages
(``python -m tests.engine.test_messages --write`` on that code): for every demo game, the English sentence and the
notation of every move, and digests of the sentences and notations of every alternative at every decision (what
the API's ``action`` strings and ``text`` list), of the game's BGA export and of the board's caption at every
position (the timeline's, which the game page shows). The code of today must give the same.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import get_rules
from engine.bga.export import export_log
from engine.core.messages import Language, Listing, Message, Term, english, render
from replay_ui.timeline import build_timeline
from service.games.demo import demo_games, demo_playout

GOLDEN = Path(__file__).with_name("english_sentences.json")
DEMOS = (1, 2)


def _short(sentence: str) -> str:
    """A sentence's short digest: the record says which move's sentence changed without holding every sentence."""
    return hashlib.sha256(sentence.encode()).hexdigest()[:12]


def _digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def demo_record(name: str, n: int) -> dict[str, Any]:
    """What the golden file holds for game ``name``'s ``n``-th demo game (see the module docstring)."""
    rules = get_rules(name)
    playout = demo_playout(name, n)
    created = playout.events[0]
    state = rules.initial_state(_setup(created))
    moves, alternatives = [], []
    for event in playout.events[1:]:
        action = rules.parse_action(event.action)
        moves.append([event.action, _short(rules.describe(state, action))])
        others = list(rules.legal_actions(state)) + [a for a, _ in rules.chance_outcomes(state)]
        alternatives.extend(f"{rules.format_action(a)} — {rules.describe(state, a)}" for a in others)
        state = rules.apply(state, action)
    export = json.dumps(export_log(playout.events), sort_keys=True, ensure_ascii=False)
    timeline = build_timeline(rules, _setup(created), playout.events)
    captions = [" · ".join(str(part) for part in position.get("caption", [])) for position in timeline["positions"]]
    return {"moves": moves, "alternatives": _digest(alternatives), "export": _digest([export]), "captions": _digest(captions)}


def _setup(created: Any) -> Any:
    from engine import Setup

    return Setup.from_json(created.data["setup"])


def _golden() -> dict[str, Any]:
    return json.loads(GOLDEN.read_text())


@pytest.mark.parametrize("name", demo_games())
@pytest.mark.parametrize("n", DEMOS)
def test_every_demo_game_reads_as_before_in_english(name: str, n: int) -> None:
    expected = _golden()[name][str(n)]
    found = demo_record(name, n)
    changed = [(i, want, got) for i, (want, got) in enumerate(zip(expected["moves"], found["moves"], strict=True))
               if want != got]
    assert changed == [], f"{name} demo {n}: first changed moves (index, before, now): {changed[:5]}"
    assert found["alternatives"] == expected["alternatives"], "an alternative's notation or English sentence changed"
    assert found["export"] == expected["export"], "the BGA export changed"
    assert found["captions"] == expected["captions"], "a board caption changed"


@pytest.mark.parametrize("name", demo_games())
def test_describe_is_the_message_in_english(name: str) -> None:
    """``describe`` and ``describe_message`` say the same: the message rendered with the game's templates."""
    rules = get_rules(name)
    playout = demo_playout(name, 1)
    state = rules.initial_state(_setup(playout.events[0]))
    for event in playout.events[1:200]:
        action = rules.parse_action(event.action)
        assert english(rules.describe_message(state, action), rules.templates) == rules.describe(state, action)
        state = rules.apply(state, action)


def _language(templates: dict[str, Any], words: dict[str, str], plural: int = 2) -> Language:
    return Language(templates.__getitem__, lambda term: words[term.en], lambda n: 0 if plural == 1 or n == 1 else 1)


def test_a_message_renders_its_terms_lists_forms_and_plurals_in_the_language_given() -> None:
    templates = {
        "t.build": ("{who} builds {building:a} for {n} doubloon", "{who} builds {building:a} for {n} doubloons"),
        "t.keep": "{who} keeps {kept}", "t.kept": "{n} {good}",
        "core.list.comma": ", ", "core.list.and": ", ", "core.list.and.last": " and ",
        "hu.build": "{who} felépíti {building:az} épületet", "t.start": "{building:A} is built",
    }
    words = {"office": "office", "harbor": "harbor", "corn": "corn", "sugar": "sugar", "hu": "egyetem"}
    english_words = _language(templates, words)
    office = Term("g", "building", "office")
    build = Message("t.build", (("who", "Anna"), ("building", office), ("n", 1)))
    assert render(build, english_words) == "Anna builds an office for 1 doubloon"
    build5 = Message("t.build", (("who", "Anna"), ("building", Term("g", "building", "harbor")), ("n", 5)))
    assert render(build5, english_words) == "Anna builds a harbor for 5 doubloons"
    assert render(build5, _language(templates, words, plural=1)) == "Anna builds a harbor for 5 doubloon"
    kept = Listing(tuple(Message("t.kept", (("n", k), ("good", Term("g", "good", g)))) for k, g in ((1, "corn"), (2, "sugar"))))
    assert render(Message("t.keep", (("who", "Bea"), ("kept", kept))), english_words) == "Bea keeps 1 corn, 2 sugar"
    assert render(Message("hu.build", (("who", "Anna"), ("building", Term("g", "building", "hu")))), english_words) == (
        "Anna felépíti az egyetem épületet")
    assert render(Message("t.start", (("building", office),)), english_words) == "An office is built"


def write_golden() -> None:
    """Write the golden file from the code as it is (run on the code before a change to the sentences)."""
    record = {name: {str(n): demo_record(name, n) for n in DEMOS} for name in demo_games()}
    GOLDEN.write_text(json.dumps(record, ensure_ascii=False, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        raise SystemExit("usage: python -m tests.engine.test_messages --write")
    write_golden()
