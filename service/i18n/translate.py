"""gettext in the current locale (:func:`service.i18n.current_locale`), with named placeholders.

Messages are English sentences with ``%(name)s`` placeholders (Python's format, which Babel checks in every catalog
and the scripts' ``t()`` shares), never sentences glued from pieces: the order of the words is the translator's.
"""

from __future__ import annotations

from typing import Any

from service.i18n.catalogs import SITE_DOMAIN, translations
from service.i18n.current import current_locale


def gettext(message: str, /, **variables: Any) -> str:
    """``message`` in the current locale, its ``%(name)s`` placeholders filled from ``variables``.

    ``gettext("Signed in as %(user)s", user=name)``; with no variables the text is returned as the catalog has it.
    ``_`` is the same function, the name ``pybabel extract`` looks for.
    """
    return dgettext(SITE_DOMAIN, message, **variables)


_ = gettext


def ngettext(singular: str, plural: str, count: int, /, **variables: Any) -> str:
    """The form of a message for ``count`` (``%(num)d`` is the count): ``ngettext("%(num)d game", "%(num)d games", n)``."""
    text = translations(current_locale()).ngettext(singular, plural, count)
    return text % {"num": count, **variables}


def dgettext(domain: str, message: str, /, **variables: Any) -> str:
    """``message`` of another catalog ``domain`` (``games``: the games' terms and sentences) in the current locale."""
    text = translations(current_locale(), domain).gettext(message)
    return text % variables if variables else text


def N_(message: str) -> str:  # noqa: N802  (gettext's own name for it, which pybabel extracts)
    """Mark ``message`` for the catalog without translating it now (a constant at import time): translate it where it is
    shown, ``gettext(CONSTANT)``."""
    return message


def translate_raw(message: str) -> str:
    """The catalog's text for ``message``, unformatted: what Jinja's i18n extension formats itself."""
    return translations(current_locale()).gettext(message)


def translate_plural_raw(singular: str, plural: str, count: int) -> str:
    """The catalog's form for ``count``, unformatted (Jinja's ``{% trans count=… %}`` formats it)."""
    return translations(current_locale()).ngettext(singular, plural, count)
