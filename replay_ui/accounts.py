"""Sign up, sign in, sign out: a signed session cookie holding a server-side session id.

Passwords are checked and hashed by :class:`service.store.users.UserStore` (salted scrypt,
the same work for an unknown name); sessions live in Redis (:mod:`service.store.sessions`), so
signing out ends a session for every copy of its cookie, and sessions expire. Failed sign-ins
are throttled per account and per address, sign-ups per address (429 with ``Retry-After``). Signing in or out starts
a new session (a new CSRF token too), so a session id planted before sign-in is worth nothing
after it. ``next`` may only lead to a path on this site.
"""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit

from flask import redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue

from replay_ui.blueprint import page_blueprint
from service.i18n import N_, _, current_locale
from service.store.errors import ConflictError, InvalidRequestError
from service.web.auth import SESSION_ID, session_user
from service.web.context import api
from service.web.csrf import renew_csrf_token, sessions_enabled

#: This module's pages, registered by the app factory with the UI's others (replay_ui.BLUEPRINTS).
bp = page_blueprint("accounts", __name__)

NO_SESSIONS = N_("Sign-in is switched off on this server: it has no secret key (set LUDOLOG_SECRET_KEY).")
WRONG = N_("Unknown user name or wrong password.")
#: The sign-up form's words for what the user store refused, by the field it named (its own message is English).
SIGNUP_REFUSALS = {
    "name": N_("A user name is 2 to 40 letters, digits, “_”, “.” or “-”."),
    "password": N_("The password is too short: at least 8 characters."),
}


def signed_in_user() -> str | None:
    """The user of the session cookie's live server-side session, or None."""
    return session_user() if sessions_enabled() else None


def _is_same_site_path(target: str) -> bool:
    """A path of this site: ``/games/x?y``, never ``//host``, ``/\\host``, a scheme, or hidden characters.

    Browsers drop tabs and newlines inside URLs (``/\\t/evil.example`` becomes ``//evil.example``)
    and a newline in a Location header is refused by the server, so any control or format
    character, and any white space, refuses the target outright.
    """
    if any(ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf") for ch in target):
        return False
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        return False
    parts = urlsplit(target)
    return not parts.scheme and not parts.netloc


def safe_next(target: str | None) -> str:
    """Where to go after the form: a path on this site only (never another host); else the home page."""
    if target and _is_same_site_path(target):
        return target
    return url_for("pages.home")


def _start_session(user: str) -> None:
    old = session.get(SESSION_ID)
    if old:
        api().sessions.end(str(old))
    session.clear()
    session[SESSION_ID] = api().sessions.start(user)
    session.permanent = True  # the cookie lives as long as the server-side session (PERMANENT_SESSION_LIFETIME)
    renew_csrf_token()


def _form_page(template: str, error: str | None = None, status: int = 200) -> ResponseReturnValue:
    name = request.form.get("name", "") if request.method == "POST" else ""
    next_url = request.values.get("next", "")
    next_url = next_url if _is_same_site_path(next_url) else ""
    return render_template(template, error=error, name=name, next=next_url, disabled=not sessions_enabled()), status


@bp.route("/signup", methods=["GET", "POST"])
def signup() -> ResponseReturnValue:
    """Create an account (name, password twice), then sign in."""
    if request.method == "GET" or not sessions_enabled():
        return _form_page("signup.html", None if sessions_enabled() else _(NO_SESSIONS))
    name, password = request.form.get("name", "").strip(), request.form.get("password", "")
    if password != request.form.get("password2", ""):
        return _form_page("signup.html", _("The two passwords differ."), 400)
    address = client_address()
    wait = api().signups.attempt(address)  # checked and counted in one step: a burst cannot pass the limit together
    if wait:
        return _too_many("signup.html", _("Too many sign-ups from this address: try again in about %(minutes)s min."), wait)
    try:
        api().users.create(name, password)
    except InvalidRequestError as exc:
        return _form_page("signup.html", _(SIGNUP_REFUSALS.get(str(exc.details.get("field")), SIGNUP_REFUSALS["name"])), 400)
    except ConflictError:
        return _form_page("signup.html", _("The user name %(name)s is taken already.", name=name), 409)
    api().users.set_locale(name, current_locale())  # the language they signed up in is theirs until they change it
    _start_session(name)
    return redirect(safe_next(request.form.get("next")), 303)


def client_address() -> str:
    """The address sign-ins and sign-ups are counted against: the request's peer.

    Behind a proxy listed in LUDOLOG_TRUSTED_PROXIES the app has already taken the client from the proxy's
    ``X-Forwarded-For`` entry (:func:`ludolog.app.trust_proxies`); otherwise that header is never read.
    """
    return request.remote_addr or "unknown"


def _too_many(template: str, message: str, wait: int) -> ResponseReturnValue:
    """The form again, 429, saying how long to wait (``message`` has ``%(minutes)s``; ``Retry-After`` in seconds)."""
    minutes = max(1, round(wait / 60))
    page, status = _form_page(template, message % {"minutes": minutes}, 429)
    return page, status, {"Retry-After": str(wait)}


@bp.route("/signin", methods=["GET", "POST"])
def signin() -> ResponseReturnValue:
    """Check name and password, then start a session; throttled per account and per address."""
    if request.method == "GET" or not sessions_enabled():
        return _form_page("signin.html", None if sessions_enabled() else _(NO_SESSIONS))
    name, password = request.form.get("name", "").strip(), request.form.get("password", "")
    context, address = api(), client_address()
    wait = context.throttle.attempt(name, address)  # counted before the password is checked, given back if right
    if wait:
        return _too_many("signin.html", _("Too many failed sign-ins: try again in about %(minutes)s min."), wait)
    if not context.users.check_password(name, password):
        # One message for both cases: the form must not tell which user names exist.
        return _form_page("signin.html", _(WRONG), 401)
    context.throttle.succeeded(name, address)
    _start_session(name)
    return redirect(safe_next(request.form.get("next")), 303)


@bp.post("/signout")
def signout() -> ResponseReturnValue:
    """End the session on the server and in the browser (a POST with the CSRF token: a link must not sign anyone out)."""
    sid = session.get(SESSION_ID)
    if sid:
        api().sessions.end(str(sid))
    session.clear()
    renew_csrf_token()
    return redirect(url_for("pages.home"), 303)

