"""CSRF protection for every cookie-authenticated write, UI forms and API calls alike.

A browser sends the session cookie on its own, also on requests another site makes it
send, so a write that rides on the cookie must prove it came from one of our pages: it
carries the session's token (in the ``X-CSRF-Token`` header from the JS, or the
``csrf_token`` form field). A bearer-token request cannot be forged that way and passes.

The hook is registered with ``before_app_request`` so it guards the API's routes too.
"""

from __future__ import annotations

import hmac
import secrets

from flask import current_app, jsonify, render_template, request, session
from flask.typing import ResponseReturnValue

from replay_ui.blueprint import blueprint

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
CSRF_HEADER = "X-CSRF-Token"
FORM_FIELD = "csrf_token"
SESSION_KEY = "csrf"  # the same key service.api.auth reads, so both layers agree on one token
_FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


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


def needs_check() -> bool:
    """Writes of our own forms always; other writes when the session cookie authenticates them."""
    if request.method in SAFE_METHODS or _has_bearer():
        return False
    if request.blueprint == blueprint.name:
        return True
    return bool(session.get("sid"))  # a session id: the cookie may authenticate this write


@blueprint.before_app_request
def protect_writes() -> ResponseReturnValue | None:
    """Refuse a cookie-authenticated write without the page's token (403, JSON or HTML)."""
    if not needs_check() or token_is_valid():
        return None
    message = (f"this request needs the page's CSRF token (the {CSRF_HEADER} header or the {FORM_FIELD} form field); "
               "reload the page and try again")
    if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json" or request.is_json:
        response = jsonify({"error": {"code": "csrf", "message": message, "details": {}}})
        return response, 403
    return render_template("error.html", status=403, title="Forbidden", message=message), 403
