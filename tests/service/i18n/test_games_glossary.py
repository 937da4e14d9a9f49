"""The games' glossaries (issue 47): every term the engines name, in every language, each word with its source."""

from __future__ import annotations

import pytest

from engine import Setup, get_rules
from engine.amerigo import components as amerigo
from engine.amerigo.describe import ACTION_NAMES
from engine.amerigo.state import PHASE_NAMES as AMERIGO_PHASES
from engine.core.messages import Listing, Message, Term
from engine.entdecker.components import EVENT_NAMES, UNIT_NAMES
from engine.entdecker.describe import TOPOLOGY_WORDS
from engine.entdecker.state import PHASE_NAMES as ENTDECKER_PHASES
from engine.golden_city.components import GOODS as GOLDEN_CITY_GOODS
from engine.golden_city.components import TERRAIN_NAMES
from engine.golden_city.state import PHASE_NAMES as GOLDEN_CITY_PHASES
from engine.puerto_rico import components as pr
from engine.puerto_rico.state import PHASE_NAMES as PUERTO_RICO_PHASES
from service.games.demo import demo_playout
from service.i18n.games.glossary import LANGUAGES, SOURCE_KINDS, Glossary, glossaries

#: The terms each engine names, by kind: read from the engines' own tables wherever they keep one.
ENGINE_TERMS: dict[str, dict[str, tuple[str, ...]]] = {
    "puerto_rico": {
        "role": (*pr.ROLE_NAMES[: pr.PROSPECTOR], "prospector"),  # both prospector cards read "prospector"
        "good": pr.GOOD_NAMES,
        "plantation": tuple(f"{good} plantation" for good in pr.GOOD_NAMES),
        "tile": ("quarry", "plantation"),
        "building": pr.BUILDING_NAMES,
        "phase": PUERTO_RICO_PHASES,
    },
    "entdecker": {
        "unit": UNIT_NAMES,
        "event": EVENT_NAMES,
        "tile": tuple(TOPOLOGY_WORDS.values()),
        "phase": ENTDECKER_PHASES,
    },
    "amerigo": {
        "colour": amerigo.COLOURS,
        "action": ACTION_NAMES,
        "good": amerigo.GOODS,
        "phase": AMERIGO_PHASES,
    },
    "golden_city": {
        "terrain": TERRAIN_NAMES,
        "good": GOLDEN_CITY_GOODS,
        "site": ("harbour", "suburb", "outer city part", "inner city part", "district", "river"),
        "card": ("landscape card", "key card", "bonus card", "goods card", "scoring card"),
        "phase": GOLDEN_CITY_PHASES,
    },
}


def _glossary(game: str) -> Glossary:
    found = glossaries().get(game)
    assert found is not None, f"no glossary for {game} (service/i18n/games/glossary/{game}.toml)"
    return found


@pytest.mark.parametrize("game", sorted(ENGINE_TERMS))
def test_every_term_the_engine_names_has_a_word_in_every_language(game: str) -> None:
    glossary = _glossary(game)
    missing = [f"{kind} {en!r} in {language}" for kind, words in ENGINE_TERMS[game].items() for en in words
               for language in LANGUAGES if glossary.word(kind, en, language) is None]
    assert missing == [], f"{game}: no word for " + "; ".join(missing)


@pytest.mark.parametrize("game", sorted(ENGINE_TERMS))
def test_every_word_names_its_source_and_a_rulebook_word_where_the_rulebook_prints_it(game: str) -> None:
    glossary = _glossary(game)
    wrong = []
    for kind, terms in glossary.terms.items():
        for en, entries in terms.items():
            for language, entry in entries.items():
                where = f"{kind} {en!r} {language}"
                source = glossary.sources.get(entry.source)
                if not entry.word.strip():
                    wrong.append(f"{where}: an empty word")
                if source is None:
                    wrong.append(f"{where}: source {entry.source!r} is not in [sources]")
                    continue
                if source.get("kind") not in SOURCE_KINDS or not source.get("cite", "").strip():
                    wrong.append(f"{where}: source {entry.source!r} needs a kind of {SOURCE_KINDS} and a cite")
                if source.get("kind") == "rulebook" and not entry.at.strip():
                    wrong.append(f"{where}: a rulebook word needs {language}-at (where the rulebook prints it)")
                if language == "zh-Hans" and source.get("kind") != "derived":
                    wrong.append(f"{where}: simplified Chinese is derived from the traditional word")
    assert wrong == []


def test_the_rulebooks_own_words_are_used_where_the_rulebooks_print_them() -> None:
    """Spot checks against the rulebooks: the Hungarian and Chinese Puerto Rico roles, the rules text over the
    introduction (the settler is "ültetvényes"; the introduction's "telepes" is the colonist)."""
    glossary = _glossary("puerto_rico")
    hungarian = [glossary.word("role", role, "hu") for role in ENGINE_TERMS["puerto_rico"]["role"]]
    assert hungarian == ["ültetvényes", "polgármester", "építész", "iparos", "kereskedő", "kapitány", "aranyásó"]
    chinese = [glossary.word("role", role, "zh-Hant") for role in ENGINE_TERMS["puerto_rico"]["role"]]
    assert chinese == ["開拓者", "市長", "建築師", "工匠", "商人", "船長", "礦工"]
    assert glossary.word("component", "colonist", "hu") == "telepes"
    assert "rules text wins" in glossary.terms["role"]["settler"]["hu"].note
    german = [glossary.word("role", role, "de") for role in ENGINE_TERMS["puerto_rico"]["role"]]
    assert german == ["Siedler", "Bürgermeister", "Baumeister", "Aufseher", "Händler", "Kapitän", "Goldsucher"]


def _terms(value: object) -> list[Term]:
    """Every term inside a message argument, clauses and lists included."""
    if isinstance(value, Term):
        return [value]
    if isinstance(value, Message):
        return [term for _, arg in value.args for term in _terms(arg)]
    if isinstance(value, Listing):
        return [term for item in value.items for term in _terms(item)]
    return []


@pytest.mark.parametrize("game", sorted(ENGINE_TERMS))
def test_every_term_a_demo_games_sentences_name_is_in_the_glossary(game: str) -> None:
    rules = get_rules(game)
    playout = demo_playout(game, 1)
    state = rules.initial_state(Setup.from_json(playout.events[0].data["setup"]))
    named: set[Term] = set()
    for event in playout.events[1:]:
        action = rules.parse_action(event.action)
        named.update(_terms(rules.describe_message(state, action)))
        state = rules.apply(state, action)
    glossary = _glossary(game)
    missing = sorted(f"{t.kind} {t.en!r}" for t in named if any(glossary.word(t.kind, t.en, lang) is None for lang in LANGUAGES))
    assert named, f"{game}'s sentences name no term"
    assert missing == []
