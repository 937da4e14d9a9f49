"""The ``games`` catalogs (issue 47): every template in every language, with the same placeholders; the template
file in step with the engines; a Puerto Rico game's sentences in the rulebooks' words."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from engine import Setup, get_rules
from engine.core.messages import FORMS, fields, forms_asked
from service.games.demo import demo_playout
from service.i18n.games.catalogs import CATALOG_DIRS, catalog_path, language_of, move_text, render_message
from tools.games_catalog import POT, english_templates, template_catalog

TRANSLATED = sorted(CATALOG_DIRS)


def _catalog(language: str):
    with catalog_path(language).open("rb") as file:
        return read_po(file, domain="games")


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_template_is_translated_with_the_same_placeholders(language: str) -> None:
    catalog = _catalog(language)
    entries = {entry.context: entry for entry in catalog if entry.context}
    wrong = []
    for message_id, template in sorted(english_templates().items()):
        entry = entries.get(message_id)
        english = template if isinstance(template, str) else template[0]
        if entry is None:
            wrong.append(f"{message_id}: missing")
            continue
        source = entry.id if isinstance(entry.id, str) else entry.id[0]
        strings = entry.string if isinstance(entry.string, tuple | list) else (entry.string,)
        if source != english:
            wrong.append(f"{message_id}: translates {source!r}, the English is now {english!r}")
        if entry.fuzzy or not all(strings):
            wrong.append(f"{message_id}: fuzzy or untranslated")
        if isinstance(template, tuple) != isinstance(entry.id, tuple | list):
            wrong.append(f"{message_id}: plural forms in one and not the other")
        if isinstance(template, tuple) and len(strings) != catalog.num_plurals:
            wrong.append(f"{message_id}: {len(strings)} plural forms, the language has {catalog.num_plurals}")
        # Every placeholder is the English one's, and together the forms fill all of them (a singular may leave out
        # its count, as English "a coast card" does).
        if set().union(*(fields(string) for string in strings)) != fields(template):
            wrong.append(f"{message_id}: placeholders {sorted(set().union(*(fields(s) for s in strings)))}, "
                         f"English has {sorted(fields(template))}")
        for string in strings:
            if not forms_asked(string) <= set(FORMS):
                wrong.append(f"{message_id}: unknown forms {sorted(forms_asked(string) - set(FORMS))}")
    assert wrong == [], f"{language}: " + "\n".join(wrong)


def test_the_template_file_is_the_engines_templates() -> None:
    """``games.pot`` is what ``tools/games_catalog.py pot`` writes from the engines today."""
    with POT.open("rb") as file:
        written = {(entry.context, entry.id if isinstance(entry.id, str) else tuple(entry.id))
                   for entry in read_po(file) if entry.context}
    current = {(entry.context, entry.id if isinstance(entry.id, str) else tuple(entry.id))
               for entry in template_catalog() if entry.context}
    assert written == current, "run: python tools/games_catalog.py pot && python tools/games_catalog.py update"


@pytest.mark.parametrize(("locale", "language"), [
    ("hu", "hu"), ("hu-HU", "hu"), ("de_AT", "de"), ("zh-Hant", "zh-Hant"), ("zh_TW", "zh-Hant"), ("zh-HK", "zh-Hant"),
    ("zh-Hans", "zh-Hans"), ("zh_CN", "zh-Hans"), ("zh", "zh-Hans"), ("en-GB", "en"), ("fr", "en"), (None, "en"),
])
def test_a_locale_reads_its_language(locale: str | None, language: str) -> None:
    assert language_of(locale) == language


def _sentences(locale: str) -> list[str]:
    rules = get_rules("puerto_rico")
    playout = demo_playout("puerto_rico", 1)
    state = rules.initial_state(Setup.from_json(playout.events[0].data["setup"]))
    out = []
    for event in playout.events[1:]:
        action = rules.parse_action(event.action)
        out.append(move_text(rules, state, action, locale))
        state = rules.apply(state, action)
    return out


def test_a_puerto_rico_game_reads_in_the_rulebooks_words() -> None:
    hungarian = "\n".join(_sentences("hu"))
    for word in ("polgármester", "építész", "ültetvényes", "kapitány", "telepest", "dublonért", "győzelmi pontért"):
        assert word in hungarian, word
    traditional = "\n".join(_sentences("zh-Hant"))
    for word in ("市長", "建築師", "開拓者", "船長", "移民"):
        assert word in traditional, word
    simplified = "\n".join(_sentences("zh-Hans"))
    assert "市长" in simplified and "建筑师" in simplified
    german = "\n".join(_sentences("de"))
    for word in ("Bürgermeister", "Baumeister", "Siedler", "Kapitän", "Dublonen", "Siegpunkte"):
        assert word in german, word


def test_english_is_the_engines_own_sentence() -> None:
    rules = get_rules("puerto_rico")
    playout = demo_playout("puerto_rico", 2)
    state = rules.initial_state(Setup.from_json(playout.events[0].data["setup"]))
    for event in playout.events[1:300]:
        action = rules.parse_action(event.action)
        expected = rules.describe(state, action)
        assert move_text(rules, state, action, "en") == expected
        assert render_message(rules.describe_message(state, action), "en-US") == expected
        state = rules.apply(state, action)
