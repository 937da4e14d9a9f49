"""The gettext catalogs, read from the ``.po`` files in the repository when first asked for.

A domain is a set of catalogs, one ``.po`` per locale under ``<folder>/<locale>/LC_MESSAGES/<domain>.po`` (the layout
``pybabel init``/``update`` write): ``messages`` is the site's (``service/i18n/translations``), ``games`` the games'
glossaries and move sentences (``service/i18n/games``, registered by that package with :func:`register_domain`).
No compiled ``.mo`` is kept in the repository or built at install: each ``.po`` is parsed with Babel once per
process (a few milliseconds) and compiled in memory, so a fresh clone, an editable install and a test all read the
catalogs translators edit. Fuzzy entries are left out, as ``msgfmt`` leaves them out.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from service.i18n.locales import DEFAULT_LOCALE, LOCALES, bcp47
from service.i18n.pseudo import PSEUDO_LOCALE, pseudo_catalog

#: The site's own catalogs (domain ``messages``).
SITE_FOLDER = Path(__file__).parent / "translations"
SITE_DOMAIN = "messages"
_FOLDERS: dict[str, Path] = {SITE_DOMAIN: SITE_FOLDER}


def register_domain(domain: str, folder: Path) -> None:
    """Make ``domain``'s catalogs, kept under ``folder/<locale>/LC_MESSAGES/<domain>.po``, known to the translators."""
    _FOLDERS[domain] = folder
    translations.cache_clear()
    catalog.cache_clear()


def po_path(locale: str, domain: str = SITE_DOMAIN) -> Path:
    """Where ``domain``'s catalog for ``locale`` (Babel's id) is kept."""
    return _FOLDERS[domain] / locale / "LC_MESSAGES" / f"{domain}.po"


@cache
def catalog(locale: str, domain: str = SITE_DOMAIN) -> Catalog | None:
    """The parsed ``.po`` of ``domain`` in ``locale``; None for English (the source language) or a missing file. The
    pseudo-locale's is made from the first translated language's (:mod:`service.i18n.pseudo`)."""
    if locale == PSEUDO_LOCALE:
        source = catalog(LOCALES[1], domain)
        return pseudo_catalog(source) if source is not None else None
    path = po_path(locale, domain) if locale != DEFAULT_LOCALE and domain in _FOLDERS else None
    if path is None or not path.is_file():
        return None
    with path.open("rb") as po:
        return read_po(po, locale=locale, domain=domain)


@cache
def translations(locale: str, domain: str = SITE_DOMAIN) -> NullTranslations:
    """The gettext translations of ``domain`` in ``locale`` (the messages themselves where there is no catalog)."""
    found = catalog(locale, domain)
    if found is None:
        return NullTranslations()
    compiled = io.BytesIO()
    write_mo(compiled, found)
    compiled.seek(0)
    return Translations(compiled, domain=domain)


def _is_script_message(message: Any) -> bool:
    return any(str(path).endswith(".js") for path, _line in message.locations)


@cache
def script_catalog(locale: str) -> dict[str, Any]:
    """What the pages' scripts translate with (``static/js/i18n.js``): the site's messages that a JS module uses,
    translated into ``locale`` (untranslated ones left out: the script shows its English), and the plural rule."""
    found = catalog(locale)
    messages: dict[str, str | list[str]] = {}
    for message in found or ():
        if not message.id or not _is_script_message(message) or message.fuzzy:
            continue
        if isinstance(message.id, tuple | list):
            forms = [str(form) for form in message.string or ()]
            if all(forms):
                messages[str(message.id[0])] = forms
        elif message.string:
            messages[str(message.id)] = str(message.string)
    plurals = found.num_plurals if found is not None else 2
    return {"locale": bcp47(locale), "plurals": plurals, "messages": messages}
