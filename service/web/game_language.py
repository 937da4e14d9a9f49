"""The language a request's move sentences are rendered in (issue 47): the games' catalogs' language of the
request's locale (:func:`service.i18n.games.language_of`).

The locale is the site's choice for the request (``service/web/language.py``: ``?lang=``, the account's setting, the
cookie, ``Accept-Language``), so the sentences are always in the page's language.
"""

from __future__ import annotations

from service.i18n import current_locale
from service.i18n.games import language_of


def request_language() -> str:
    """The games' language for this request (one of :data:`service.i18n.games.LANGUAGES`)."""
    return language_of(current_locale())
