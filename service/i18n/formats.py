"""Dates, numbers and durations written the current locale's way (CLDR's patterns, through Babel).

Each takes the value and, optionally, a locale (default: :func:`service.i18n.current_locale`); times are UTC unless a
timezone is given.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal
from typing import Literal

from babel import Locale, dates, lists, numbers

from service.i18n.current import current_locale
from service.i18n.locales import DEFAULT_LOCALE
from service.i18n.pseudo import PSEUDO_LOCALE


def babel_locale(locale: str | None = None) -> Locale:
    """Babel's :class:`~babel.Locale` for ``locale`` (default: the current one); English for the pseudo-locale, which
    CLDR does not know."""
    wanted = locale or current_locale()
    return Locale.parse(DEFAULT_LOCALE if wanted == PSEUDO_LOCALE else wanted)


def format_datetime(value: dt.datetime | float, width: str = "medium", tzinfo: dt.tzinfo | None = None,
                    locale: str | None = None) -> str:
    """A moment (a datetime, or seconds since the epoch), ``width`` ``short``/``medium``/``long``: ``2026. nov. 29. 4:38:09``."""
    moment = dt.datetime.fromtimestamp(value, dt.UTC) if isinstance(value, int | float) else value
    return dates.format_datetime(moment, width, tzinfo=tzinfo or dt.UTC, locale=babel_locale(locale))


def format_date(value: dt.date | dt.datetime | float, width: str = "medium", locale: str | None = None) -> str:
    """A day (a date, a datetime or seconds since the epoch, taken in UTC): ``29.11.2026``, ``2026年11月29日``."""
    day = dt.datetime.fromtimestamp(value, dt.UTC).date() if isinstance(value, int | float) else value
    return dates.format_date(day, width, locale=babel_locale(locale))


def format_number(value: int | float | Decimal, locale: str | None = None) -> str:
    """A number with the locale's digit grouping and decimal sign: ``12 345,5`` in Hungarian, ``12.345,5`` in German."""
    return numbers.format_decimal(value, locale=babel_locale(locale))


def format_percent(value: float | Decimal, locale: str | None = None) -> str:
    """A fraction as a percentage (``0.25`` → ``25%``, ``25 %`` in German)."""
    return numbers.format_percent(value, locale=babel_locale(locale))


def format_duration(value: dt.timedelta | float, width: Literal["narrow", "short", "long"] = "long", threshold: float = 0.85,
                    locale: str | None = None) -> str:
    """A duration (a timedelta or seconds) in its largest fitting unit: ``3 hours``, ``3 Stunden``, ``3 óra``, ``3 小時``.

    ``width``: ``long``, ``short`` or ``narrow``; ``threshold`` as Babel's (0.85: 55 minutes reads as ``1 hour``).
    """
    delta = value if isinstance(value, dt.timedelta) else dt.timedelta(seconds=value)
    return dates.format_timedelta(delta, threshold=threshold, format=width, locale=babel_locale(locale))


def format_list(items: Sequence[str], locale: str | None = None) -> str:
    """Names joined the locale's way: ``Ann, Bob and Cy``, ``Ann, Bob und Cy``, ``Ann, Bob és Cy``, ``Ann、Bob和Cy``."""
    return lists.format_list(list(items), locale=babel_locale(locale))
