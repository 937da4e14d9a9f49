"""Which language a request is answered in, and gettext in the templates (issue 47).

The choice, first that says one: ``?lang=`` (a link that names its language: this request only), the signed-in user's
account setting (kept with the user, :meth:`service.store.users.UserStore.locale_of`), the anonymous visitor's cookie
(:data:`LANGUAGE_COOKIE`, set by the language menu), the browser's ``Accept-Language``, English. It is set as
:func:`service.i18n.current_locale` before every request, so that everything rendered while answering (pages, form
errors, the CSRF refusal page) is in it, and Jinja's i18n extension translates with the same catalogs.

Static files skip it: nothing in them is rendered.
"""

from __future__ import annotations

from contextvars import Token

from flask import Flask, g, request

from service.i18n import DEFAULT_LOCALE, locale_id, negotiate, reset_locale, set_locale
from service.i18n import formats as i18n_formats
from service.i18n.translate import translate_plural_raw, translate_raw
from service.web.auth import session_user
from service.web.context import api
from service.web.csrf import sessions_enabled

#: The cookie that keeps an anonymous visitor's language (a BCP 47 tag), written by the language menu.
LANGUAGE_COOKIE = "ludolog-lang"
#: The query parameter a link names its language with (``?lang=zh-Hant``).
LANGUAGE_PARAM = "lang"
_TOKEN = "ludolog_locale_token"


def chosen_locale() -> str:
    """The locale this request is answered in (Babel's id), by the order in this module's docstring."""
    return (locale_id(request.args.get(LANGUAGE_PARAM)) or account_locale() or locale_id(request.cookies.get(LANGUAGE_COOKIE))
            or negotiate(request.headers.get("Accept-Language")) or DEFAULT_LOCALE)


def account_locale() -> str | None:
    """The signed-in user's chosen language, if they chose one that is still offered."""
    user = session_user() if sessions_enabled() and request.cookies else None
    return locale_id(api().users.locale_of(user)) if user else None


def _enter_locale() -> None:
    if request.endpoint and request.endpoint.endswith(".static"):
        return
    setattr(g, _TOKEN, set_locale(chosen_locale()))


def _leave_locale(_exc: BaseException | None) -> None:
    token: Token[str] | None = g.pop(_TOKEN, None)
    if token is not None:
        try:
            reset_locale(token)
        except ValueError:  # a streamed response's teardown may run in another context: nothing of ours to undo there
            pass


def init_app(app: Flask) -> None:
    """Choose each request's locale before anything else runs, and translate templates with the same catalogs.

    Call it before the other ``before_request`` hooks are installed (the CSRF check's refusal page is translated too).
    """
    app.before_request(_enter_locale)
    app.teardown_request(_leave_locale)
    app.jinja_env.add_extension("jinja2.ext.i18n")
    # A {% trans %} block's message is its text with white space runs made one space (babel.cfg extracts it so too):
    # how a template wraps its lines is no translator's business.
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.jinja_env.install_gettext_callables(translate_raw, translate_plural_raw, newstyle=True)  # type: ignore[attr-defined]
    app.jinja_env.globals.update(
        format_datetime=i18n_formats.format_datetime, format_date=i18n_formats.format_date,
        format_number=i18n_formats.format_number, format_duration=i18n_formats.format_duration,
        format_list=i18n_formats.format_list,
    )
