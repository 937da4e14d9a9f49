"""The ``games`` catalogs: the move sentences' templates in every language, and the one renderer of messages.

The English templates are the engines' own (each game's ``rules.templates``, :mod:`engine.core.messages`): they are
the catalog's source, written into ``translations/games.pot`` by ``tools/games_catalog.py``. Each language has a
gettext catalog, ``translations/<locale>/LC_MESSAGES/games.po``: an entry's context (``msgctxt``) is the template
id, its ``msgid`` the English template (``msgid_plural`` its plural form), its ``msgstr`` the translation. The
catalogs are read as ``.po`` (Babel's reader) when first needed: no compiled ``.mo`` files to keep in step.
Terms inside a sentence are translated by the games' glossaries (:mod:`service.i18n.games.glossary`).
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from engine import Rules, get_rules
from engine.core.messages import CORE_TEMPLATES, Language, Message, Template, Term, english_plural, render
from service.i18n.games.glossary import term_word
from service.i18n.pseudo import PSEUDO_TAG, pseudo, pseudo_template

TRANSLATIONS = Path(__file__).with_name("translations")
DOMAIN = "games"
#: The languages the games' sentences are written in: English (the templates' source) and the translations.
LANGUAGES = ("en", "hu", "de", "zh-Hant", "zh-Hans")
#: The catalog folder of each translated language (gettext's and Babel's locale names).
CATALOG_DIRS = {"hu": "hu", "de": "de", "zh-Hant": "zh_Hant", "zh-Hans": "zh_Hans"}
#: Chinese locales by region or script, for a locale given as ``zh-TW`` or ``zh_CN``.
_CHINESE = {"hant": "zh-Hant", "tw": "zh-Hant", "hk": "zh-Hant", "mo": "zh-Hant", "hans": "zh-Hans", "cn": "zh-Hans",
            "sg": "zh-Hans"}


def language_of(locale: str | None) -> str:
    """The language of :data:`LANGUAGES` that ``locale`` (``hu``, ``de_AT``, ``zh-Hant``, ``zh_TW`` …) reads, or the
    pseudo-locale (``en-XA``, :mod:`service.i18n.pseudo`); English for any other."""
    parts = (locale or "en").replace("_", "-").lower().split("-")
    if parts == PSEUDO_TAG.lower().split("-"):
        return PSEUDO_TAG
    if parts[0] == "zh":
        return next((_CHINESE[part] for part in parts[1:] if part in _CHINESE), "zh-Hans")
    return parts[0] if parts[0] in LANGUAGES else "en"


def catalog_path(language: str) -> Path:
    """The ``.po`` file of a translated ``language``."""
    return TRANSLATIONS / CATALOG_DIRS[language] / "LC_MESSAGES" / f"{DOMAIN}.po"


def english_template(message_id: str) -> Template:
    """The English template of ``message_id``: the core's, or the game's its id starts with (``puerto_rico.``)."""
    if message_id in CORE_TEMPLATES:
        return CORE_TEMPLATES[message_id]
    return _game_rules(message_id.split(".", 1)[0]).templates[message_id]


def _game_rules(game: str) -> Rules:
    return get_rules(game)


@cache
def translations(language: str) -> tuple[dict[str, Template], Callable[[int], int]]:
    """A translated ``language``'s catalog: its templates by id (fuzzy and empty entries left out) and its plural
    rule (the catalog header's ``Plural-Forms``)."""
    with catalog_path(language).open("rb") as file:
        catalog = read_po(file, domain=DOMAIN)
    templates: dict[str, Template] = {}
    for entry in catalog:
        if not entry.context or entry.fuzzy:
            continue
        string = entry.string
        if isinstance(string, tuple | list):
            if all(string):
                templates[entry.context] = tuple(string)
        elif string:
            templates[entry.context] = string
    plural: Callable[[int], int] = gettext.c2py(catalog.plural_expr)
    return templates, plural


@cache
def language_table(language: str) -> Language:
    """How messages are rendered in ``language``: its templates (English where a catalog lacks one), the glossary's
    words for terms, its plural rule."""
    if language == "en":
        return Language(english_template, _english_term, english_plural)
    if language == PSEUDO_TAG:
        return Language(_pseudo_template, _pseudo_term, english_plural)
    templates, plural = translations(language)

    def template(message_id: str) -> Template:
        found = templates.get(message_id)
        return found if found is not None else english_template(message_id)

    def term(value: Term) -> str:
        return term_word(value.game, value.kind, value.en, language)

    return Language(template, term, plural)


def _english_term(value: Term) -> str:
    return value.en


def _pseudo_template(message_id: str) -> Template:
    return pseudo_template(english_template(message_id))


def _pseudo_term(value: Term) -> str:
    return pseudo(value.en)


def render_message(message: Message, locale: str | None) -> str:
    """``message`` in the language ``locale`` reads (English for a language we do not have)."""
    return render(message, language_table(language_of(locale)))


def move_text(rules: Rules, state: Any, action: Any, locale: str | None) -> str:
    """The sentence about ``action`` taken in ``state``, in ``locale``'s language. English is the rules' own
    ``describe``, exactly as exports and the log's records say it."""
    if language_of(locale) == "en":
        return rules.describe(state, action)
    return render_message(rules.describe_message(state, action), locale)
