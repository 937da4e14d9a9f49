"""The locale being written in now: a context variable, so that each request (each greenlet under gevent) and each job
has its own, and code that renders text needs no Flask request to know it.

The web layer sets it per request (``service/web/language.py``); a worker or a command that writes for one person wraps
the work in :func:`use_locale`. Outside both it is English.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token

from service.i18n.locales import ANSWERABLE, DEFAULT_LOCALE

_LOCALE: ContextVar[str] = ContextVar("ludolog_locale", default=DEFAULT_LOCALE)


def current_locale() -> str:
    """The locale text is rendered in now, as Babel spells it (``en``, ``hu``, ``de``, ``zh_Hant``, ``zh_Hans``)."""
    return _LOCALE.get()


def set_locale(locale: str) -> Token[str]:
    """Write in ``locale`` (Babel's id, one of :data:`~service.i18n.locales.ANSWERABLE`) from now on in this context;
    the token undoes it (:func:`reset_locale`). ValueError for a locale not offered."""
    if locale not in ANSWERABLE:
        raise ValueError(f"locale {locale!r} is not offered: expected one of {', '.join(ANSWERABLE)}")
    return _LOCALE.set(locale)


def reset_locale(token: Token[str]) -> None:
    """Back to the locale before :func:`set_locale` gave ``token``."""
    _LOCALE.reset(token)


@contextmanager
def use_locale(locale: str) -> Iterator[str]:
    """``with use_locale("hu"):`` renders everything inside in Hungarian (an e-mail to one reader, a test)."""
    token = set_locale(locale)
    try:
        yield locale
    finally:
        reset_locale(token)
