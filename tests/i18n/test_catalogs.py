"""Every message of the site, as the code has it now, is translated in every language, with the same placeholders and
HTML tags as its English (issue 47: catalog coverage 100 % for the four new languages).

The messages are extracted afresh (as ``make messages`` does), so a string wrapped in a template or a script but never
put in the catalogs fails here too, not only one left untranslated in them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.i18n.catalog_check import TRANSLATED, catalog, extracted, forms, ids, placeholders, tags


@pytest.fixture(scope="module")
def site_messages(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, list[str]]]:
    """(id, [English forms]) of every message extracted now."""
    found = extracted(Path(tmp_path_factory.mktemp("messages")))
    return [(str(ids(m)[0]), ids(m)) for m in found if m.id]


def test_the_extraction_finds_the_site_s_messages(site_messages: list[tuple[str, list[str]]]) -> None:
    """The extraction reads templates, Python and scripts alike (else the next tests would pass on nothing)."""
    found = {key for key, _ in site_messages}
    assert {"Skip to content", "Sign in", "Could not list games: %(reason)s", "Unknown user name or wrong password."} <= found
    assert len(found) > 100


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_message_is_translated(locale: str, site_messages: list[tuple[str, list[str]]]) -> None:
    translated = catalog(locale)
    missing = []
    for key, english in site_messages:
        message = translated.get(key)
        if message is None or message.fuzzy or not all(forms(message)) or not forms(message):
            missing.append(key)
        elif len(english) == 2 and len(forms(message)) != translated.num_plurals:
            missing.append(f"{key} (plural forms: {len(forms(message))}, expected {translated.num_plurals})")
    assert missing == [], f"{locale}: {len(missing)} messages without a translation (run `make messages`, then translate):\n" + \
        "\n".join(missing)


@pytest.mark.parametrize("locale", TRANSLATED)
def test_translations_keep_placeholders_and_tags(locale: str, site_messages: list[tuple[str, list[str]]]) -> None:
    """A translation names the same placeholders (``%(user)s``) and holds the same HTML tags as its English: a lost
    ``%(user)s`` or ``<kbd>`` would show the wrong thing, a misspelt one would raise when the page is drawn."""
    translated = catalog(locale)
    wrong = []
    for key, english in site_messages:
        message = translated.get(key)
        if message is None:
            continue
        for text in forms(message):
            if not text:
                continue
            if placeholders(text) - {"%(num)d"} != placeholders(english[-1]) - {"%(num)d"} or tags(text) != tags(english[0]):
                wrong.append(f"{key!r} → {text!r}")
    assert wrong == [], f"{locale}:\n" + "\n".join(wrong)


def test_every_message_a_script_asks_for_is_extracted(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Babel's JavaScript reader passes over a ``t()`` inside another ``t()``'s arguments: such a message would never
    reach the catalogs and would show in English whatever the language. Every ``t``/``tn``/``tParts`` message of every
    script must be in the extraction."""
    from tests.i18n.test_no_english_left import SCRIPTS, _without_comments

    found = extracted(Path(tmp_path_factory.mktemp("messages")))
    known = {ids(m)[0] for m in found if m.id}
    asked = [(path.name, re.sub(r"\\(.)", r"\1", match.group(1))) for path in sorted(SCRIPTS.rglob("*.js"))
             for match in re.finditer(r'(?<![\w.])(?:t|tn|tParts)\(\s*"((?:[^"\\]|\\.)*)"', _without_comments(path.read_text()))]
    assert asked and [(name, message) for name, message in asked if message not in known] == []
