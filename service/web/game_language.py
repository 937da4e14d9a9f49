"""The language a request's move sentences are rendered in (issue 47): the games' catalogs' language of the
request's locale (:func:`service.i18n.games.language_of`).

The locale is the site's choice of the request's language where the site has made one; until then a ``lang``
query, else the best of ``Accept-Language`` among the games' languages, else English.
"""

from __future__ import annotations

from flask import request

from service.i18n.games import LANGUAGES, language_of


def request_language() -> str:
    """The games' language for this request (one of :data:`service.i18n.games.LANGUAGES`)."""
    asked = request.args.get("lang")
    if asked:
        return language_of(asked)
    best = request.accept_languages.best_match([*LANGUAGES, "zh", "zh-TW", "zh-CN", "zh-HK"])
    return language_of(best)
