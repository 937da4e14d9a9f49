"""The language menu every page has, and the scripts' catalogs (issue 47).

The menu (``base.html``'s header) posts here: the choice is kept in a cookie for everyone (so a signed-out browser keeps
it) and, for a signed-in user, as their account setting, which follows them to any browser. The choosing order is
``service/web/language.py``'s. The scripts' catalog of a language is a JSON file whose address carries a hash of its
content, so the browser keeps it for a year and a new catalog has a new address. It holds the site's messages the
scripts use and, under ``games``, every game's terms from its glossary (the board renderers' buildings, goods, roles,
tiles and phases as the rulebooks print them: ``gameTerms`` in ``static/js/i18n.js``).
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from flask import abort, jsonify, redirect, request, url_for
from flask.typing import ResponseReturnValue

from replay_ui.accounts import safe_next, signed_in_user
from replay_ui.blueprint import blueprint, page_blueprint
from service.i18n import (
    DEFAULT_LOCALE,
    LANGUAGES,
    bcp47,
    current_locale,
    locale_id,
    script_catalog,
)
from service.i18n.games import language_of
from service.i18n.games.glossary import script_terms
from service.web.context import api
from service.web.language import LANGUAGE_COOKIE, LANGUAGE_PARAM

#: This module's routes, registered by the app factory with the UI's others (replay_ui.BLUEPRINTS).
bp = page_blueprint("language", __name__)

ONE_YEAR = 365 * 24 * 3600


@blueprint.app_context_processor
def language_globals() -> dict[str, Any]:
    """What every page's ``<html lang>``, language menu and scripts need: the page's language and the ones offered."""
    locale = current_locale()
    catalog = None
    if locale != DEFAULT_LOCALE:
        catalog = url_for("language.scripts_catalog", tag=bcp47(locale), version=scripts_catalog_version(locale))
    return {"html_lang": bcp47(locale), "ui_locale": locale, "languages": LANGUAGES, "scripts_catalog": catalog,
            "language_next": _this_page()}


def _this_page() -> str:
    """Where the menu leads back to: this page, its query kept but for ``lang`` (the menu's choice wins) and ``next``
    (a sign-in page's target is no business of the menu's, and is never echoed into every page)."""
    query = [(k, v) for k, v in request.args.items(multi=True) if k not in (LANGUAGE_PARAM, "next")]
    return request.path + (f"?{urlencode(query)}" if query else "")


@bp.post("/language")
def choose_language() -> ResponseReturnValue:
    """Keep the language chosen in the menu (cookie; account setting when signed in), then back to the page."""
    locale = locale_id(request.form.get(LANGUAGE_PARAM))
    if locale is None:
        abort(400)
    user = signed_in_user()
    if user:
        api().users.set_locale(user, locale)
    response = redirect(_without_lang(safe_next(request.form.get("next"))), 303)
    response.set_cookie(LANGUAGE_COOKIE, bcp47(locale), max_age=ONE_YEAR, samesite="Lax", httponly=True,
                        secure=request.is_secure)
    return response


def _without_lang(target: str) -> str:
    """``target`` without a ``lang`` query: a choice from the menu wins over the link the page was opened with."""
    parts = urlsplit(target)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != LANGUAGE_PARAM]
    return urlunsplit(parts._replace(query=urlencode(query)))


@cache
def scripts_catalog_of(locale: str) -> dict[str, Any]:
    """What the scripts of a page in ``locale`` translate with: the site's script messages and the games' terms."""
    return {**script_catalog(locale), "games": script_terms(language_of(locale))}


@cache
def scripts_catalog_version(locale: str) -> str:
    """A short hash of :func:`scripts_catalog_of`: its address changes with its content, so it is cached for ever."""
    text = json.dumps(scripts_catalog_of(locale), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


@bp.get("/i18n/<tag>/<version>.json")
def scripts_catalog(tag: str, version: str) -> ResponseReturnValue:
    """The scripts' catalog of a language (``static/js/i18n.js`` loads it): cached for a year at its current address."""
    locale = locale_id(tag)
    if locale is None:
        abort(404)
    response = jsonify(scripts_catalog_of(locale))
    current = version == scripts_catalog_version(locale)
    response.headers["Cache-Control"] = "public, max-age=31536000, immutable" if current else "no-cache"
    return response
