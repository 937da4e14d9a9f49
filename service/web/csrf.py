"""CSRF protection for the whole app: one check for every cookie-authenticated write.

A browser sends the session cookie on its own, also on requests another site makes it
send, so a write that rides on the cookie must prove it came from one of our pages: it
carries the session's token (in the ``X-CSRF-Token`` header from the JS, or the
``csrf_token`` form field). A bearer-token request cannot be forged that way and passes.

The check belongs to the app, not to the API or the UI: :func:`ludolog.app.create_app`
installs it once with :func:`init_app`, naming the blueprints whose forms are always
checked (a sign-in form has no session yet) and how to answer a refused page. API
requests are refused in the API's JSON error shape.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable, Collection
from dataclasses import dataclass

from flask import Flask, current_app, jsonify, request, session
from flask.typing import ResponseReturnValue

#: The methods that change nothing (RFC 9110 § 9.2.1); every other method is a write.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
CSRF_HEADER = "X-CSRF-Token"
FORM_FIELD = "csrf_token"
SESSION_KEY = "csrf"
#: The session key holding the server-side session id (see :mod:`service.web.auth`).
SESSION_ID_KEY = "sid"
EXTENSION = "ludolog_csrf"
_FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


@dataclass(frozen=True)
class CsrfPolicy:
    """How the app's one check is set up: which blueprints' forms, and how a page says no."""

    form_blueprints: frozenset[str]
    refuse_page: Callable[[str], ResponseReturnValue]


def sessions_enabled() -> bool:
    """True when the app can sign cookies (it has a secret key)."""
    return bool(current_app.secret_key)


def csrf_token() -> str:
    """The session's CSRF token, created on first use ("" when the app has no sessions)."""
    if not sessions_enabled():
        return ""
    if SESSION_KEY not in session:
        session[SESSION_KEY] = secrets.token_urlsafe(32)
    return str(session[SESSION_KEY])


def renew_csrf_token() -> str:
    """A fresh token, after sign-in or sign-out (a token must not outlive its session)."""
    session[SESSION_KEY] = secrets.token_urlsafe(32)
    return str(session[SESSION_KEY])


def _sent_token() -> str | None:
    header = request.headers.get(CSRF_HEADER)
    if header:
        return header
    if request.mimetype in _FORM_TYPES:
        return request.form.get(FORM_FIELD)
    return None


def token_is_valid() -> bool:
    """True if the request carries the session's token (compared in constant time)."""
    expected, sent = session.get(SESSION_KEY), _sent_token()
    return bool(expected and sent) and hmac.compare_digest(str(expected), str(sent))


def _has_bearer() -> bool:
    return request.headers.get("Authorization", "").lower().startswith("bearer ")


def needs_check(policy: CsrfPolicy) -> bool:
    """Writes of our own forms always; other writes when the session cookie may authenticate them."""
    if request.method in SAFE_METHODS or _has_bearer():
        return False
    if request.blueprint in policy.form_blueprints:
        return True
    return bool(session.get(SESSION_ID_KEY))


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json" or request.is_json


def protect_writes() -> ResponseReturnValue | None:
    """Refuse a cookie-authenticated write without the page's token (403, JSON or the policy's page)."""
    policy: CsrfPolicy = current_app.extensions[EXTENSION]
    if not needs_check(policy) or token_is_valid():
        return None
    message = (f"this request needs the page's CSRF token (the {CSRF_HEADER} header or the {FORM_FIELD} form field); "
               "reload the page and try again")
    if _wants_json():
        return jsonify({"error": {"code": "csrf", "message": message, "details": {}}}), 403
    return policy.refuse_page(message)


def init_app(app: Flask, *, form_blueprints: Collection[str], refuse_page: Callable[[str], ResponseReturnValue]) -> None:
    """Install the one CSRF check on ``app``, before every request of every blueprint."""
    app.extensions[EXTENSION] = CsrfPolicy(frozenset(form_blueprints), refuse_page)
    app.before_request(protect_writes)
