"""The games' glossaries: every term an engine names, per language, with where the word comes from (issue 47).

One TOML file per game in ``glossary/`` (read with :mod:`tomllib`; ``glossary/puerto_rico.toml`` explains the
layout): for each kind of term (role, building, good, phase …) a list of entries keyed by ``en``, the engine's
own English word, each with its word in every language and the source of that word. A move sentence's
:class:`~engine.core.messages.Term` arguments are translated here; the templates around them come from the
``games`` catalogs (:mod:`service.i18n.games.catalogs`).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from service.i18n.pseudo import PSEUDO_TAG, pseudo

GLOSSARY_DIR = Path(__file__).with_name("glossary")
#: The languages every glossary entry is given in, besides the English key.
LANGUAGES = ("hu", "de", "zh-Hant", "zh-Hans")
#: What a source may be: a rulebook quoted (``<lang>-at`` says where), the original edition's word, our
#: translation, or a word derived from another language's (zh-Hans from zh-Hant by OpenCC, reviewed).
SOURCE_KINDS = ("rulebook", "edition", "ours", "derived")


@dataclass(frozen=True)
class Entry:
    """One term in one language: the word, the source id (a key of the file's ``[sources]``), where the source
    prints it and a note."""

    word: str
    source: str
    at: str
    note: str


@dataclass(frozen=True)
class Glossary:
    """One game's glossary: ``terms[kind][en][language]`` and the ``sources`` its entries name."""

    game: str
    title: str
    sources: dict[str, dict[str, str]]
    terms: dict[str, dict[str, dict[str, Entry]]]

    def word(self, kind: str, en: str, language: str) -> str | None:
        """The word for the term, or None where the glossary has none."""
        entry = self.terms.get(kind, {}).get(en, {}).get(language)
        return entry.word if entry is not None else None


def _entries(raw: dict[str, Any]) -> dict[str, Entry]:
    return {lang: Entry(raw[lang], raw.get(f"{lang}-source", lang), raw.get(f"{lang}-at", ""), raw.get(f"{lang}-note", ""))
            for lang in LANGUAGES if lang in raw}


def read_glossary(path: Path) -> Glossary:
    """The glossary in the TOML file ``path``."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    game = data.pop("game")
    sources = data.pop("sources")
    terms = {kind: {raw["en"]: _entries(raw) for raw in entries} for kind, entries in data.items()}
    return Glossary(game["name"], game["title"], sources, terms)


@cache
def glossaries() -> dict[str, Glossary]:
    """Every game's glossary, by game name (read once)."""
    found = (read_glossary(path) for path in sorted(GLOSSARY_DIR.glob("*.toml")))
    return {glossary.game: glossary for glossary in found}


def term_word(game: str, kind: str, en: str, language: str) -> str:
    """The word for ``game``'s term in ``language``; the English word where the glossary has none (a custom
    component set's own names, say)."""
    if language == PSEUDO_TAG:
        return pseudo(en)
    glossary = glossaries().get(game)
    word = glossary.word(kind, en, language) if glossary is not None else None
    return word if word is not None else en


@cache
def script_terms(language: str) -> dict[str, dict[str, dict[str, str]]]:
    """Every game's words in ``language`` as the pages' scripts read them (``static/js/i18n.js``'s ``gameTerms``):
    ``{game: {kind: {en: word}}}``; empty for English, whose words are the keys themselves."""
    if language == PSEUDO_TAG:
        return {game: {kind: {en: pseudo(en) for en in terms} for kind, terms in glossary.terms.items()}
                for game, glossary in glossaries().items()}
    return {game: {kind: {en: entries[language].word for en, entries in terms.items() if language in entries}
                   for kind, terms in glossary.terms.items()}
            for game, glossary in glossaries().items()}

