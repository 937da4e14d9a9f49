"""The languages the site offers and how a request's wish picks one of them.

Two spellings of a locale, one per side: BCP 47 at the edges (``zh-Hant`` in ``<html lang>``, ``?lang=``, the cookie,
the JSON catalogs' addresses, ``Accept-Language``), Babel's and gettext's inside (``zh_Hant``: the catalogs' folders,
:func:`service.i18n.current_locale`, Babel's formats). :func:`locale_id` and :func:`bcp47` convert between them.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.i18n.pseudo import PSEUDO_LOCALE, PSEUDO_TAG


@dataclass(frozen=True)
class Language:
    """A language offered: its BCP 47 tag, its Babel locale id and its name in itself (as the menu shows it)."""

    tag: str
    locale: str
    name: str


#: Every language offered, in the menu's order; English is the source language of every catalog.
LANGUAGES: tuple[Language, ...] = (
    Language("en", "en", "English"),
    Language("hu", "hu", "Magyar"),
    Language("de", "de", "Deutsch"),
    Language("zh-Hant", "zh_Hant", "繁體中文"),
    Language("zh-Hans", "zh_Hans", "简体中文"),
)
#: The locale when nothing else says which: the catalogs' source language.
DEFAULT_LOCALE = "en"
#: The locale ids (Babel's spelling) offered.
LOCALES: tuple[str, ...] = tuple(language.locale for language in LANGUAGES)

#: The pseudo-locale (:mod:`service.i18n.pseudo`): answered when asked for by name, listed in no menu.
PSEUDO = Language(PSEUDO_TAG, PSEUDO_LOCALE, "⟦Ƥšéûðö⟧")
#: Every locale a request may be answered in: those offered, and the pseudo-locale.
ANSWERABLE: tuple[str, ...] = (*LOCALES, PSEUDO.locale)

_BY_KEY = {key.lower(): language for language in (*LANGUAGES, PSEUDO) for key in (language.tag, language.locale)}
#: Chinese without a script subtag: the region says which script its readers read.
_CHINESE_REGIONS = {"tw": "zh_Hant", "hk": "zh_Hant", "mo": "zh_Hant", "cn": "zh_Hans", "sg": "zh_Hans", "my": "zh_Hans"}


def language_of(locale: str) -> Language:
    """The offered language ``locale`` names, in either spelling (``zh-Hant``, ``zh_Hant``); KeyError if none."""
    return _BY_KEY[locale.lower()]


def locale_id(tag: str | None) -> str | None:
    """Babel's id of the offered language a tag names exactly (``zh-Hant`` → ``zh_Hant``), None for any other text."""
    language = _BY_KEY.get((tag or "").strip().lower())
    return language.locale if language else None


def bcp47(locale: str) -> str:
    """The BCP 47 tag of an offered locale (``zh_Hant`` → ``zh-Hant``), for ``<html lang>`` and addresses."""
    return language_of(locale).tag


def match(tag: str) -> str | None:
    """The offered locale a browser's language tag asks for, None if none fits.

    An offered tag matches exactly (any case, ``-`` or ``_``); Chinese goes by its script subtag, else by its region
    (zh-TW, zh-HK, zh-MO → traditional; zh-CN, zh-SG, zh-MY and plain zh → simplified); any other tag by its language
    (de-AT → de, en-GB → en).
    """
    parts = tag.strip().replace("_", "-").lower().split("-")
    exact = _BY_KEY.get("-".join(parts))
    if exact:
        return exact.locale
    if parts[0] == "zh":
        subtags = parts[1:]
        for subtag in subtags:
            if subtag in ("hant", "hans"):
                return "zh_Hant" if subtag == "hant" else "zh_Hans"
        return next((_CHINESE_REGIONS[s] for s in subtags if s in _CHINESE_REGIONS), "zh_Hans")
    found = _BY_KEY.get(parts[0])
    return found.locale if found else None


def negotiate(accept_language: str | None) -> str:
    """The offered locale an ``Accept-Language`` header prefers most (RFC 9110 quality values), else English."""
    for tag in _by_preference(accept_language or ""):
        found = match(tag)
        if found:
            return found
    return DEFAULT_LOCALE


def _by_preference(header: str) -> list[str]:
    """The header's language tags, the highest quality first (the header's order among equals); ``q=0`` and ``*`` left
    out."""
    weighted = []
    for position, item in enumerate(header.split(",")[:32]):  # a header longer than that is no browser's
        tag, _, params = item.partition(";")
        quality = _quality(params)
        if tag.strip() and tag.strip() != "*" and quality > 0:
            weighted.append((-quality, position, tag.strip()))
    return [tag for _, _, tag in sorted(weighted)]


def _quality(params: str) -> float:
    """The ``q`` of a header item's parameters (1 when absent, 0 when unreadable)."""
    for param in params.split(";"):
        name, _, value = param.partition("=")
        if name.strip().lower() == "q":
            try:
                return min(1.0, max(0.0, float(value)))
            except ValueError:
                return 0.0
    return 1.0
