"""Sign up, sign in, sign out: a signed session cookie holding the user name.

Passwords are checked and hashed by :class:`service.store.users.UserStore` (salted scrypt);
this module only runs the forms. Signing in or out starts a new session (a new CSRF token
too), so a session id planted before sign-in is worth nothing after it.
"""

from __future__ import annotations

from flask import redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue

from replay_ui.blueprint import blueprint
from replay_ui.csrf import renew_csrf_token, sessions_enabled
from service.api.context import api
from service.store.errors import ConflictError, InvalidRequestError

NO_SESSIONS = "Sign-in is switched off on this server: it has no secret key (set LUDOLOG_SECRET_KEY)."


def signed_in_user() -> str | None:
    """The user of the session cookie, or None."""
    user = session.get("user") if sessions_enabled() else None
    return str(user) if user else None


def safe_next(target: str | None) -> str:
    """Where to go after the form: a path on this site only (never another host)."""
    if target and target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return url_for("replay_ui.home")


def _start_session(user: str) -> None:
    session.clear()
    session["user"] = user
    session.permanent = True
    renew_csrf_token()


def _form_page(template: str, error: str | None = None, status: int = 200) -> ResponseReturnValue:
    name = request.form.get("name", "") if request.method == "POST" else ""
    next_url = request.values.get("next", "")
    return render_template(template, error=error, name=name, next=next_url, disabled=not sessions_enabled()), status


@blueprint.route("/signup", methods=["GET", "POST"])
def signup() -> ResponseReturnValue:
    """Create an account (name, password twice), then sign in."""
    if request.method == "GET" or not sessions_enabled():
        return _form_page("signup.html", None if sessions_enabled() else NO_SESSIONS)
    name, password = request.form.get("name", "").strip(), request.form.get("password", "")
    if password != request.form.get("password2", ""):
        return _form_page("signup.html", "The two passwords differ.", 400)
    try:
        api().users.add(name, password)
    except (InvalidRequestError, ConflictError) as exc:
        return _form_page("signup.html", exc.message, 400 if isinstance(exc, InvalidRequestError) else 409)
    _start_session(name)
    return redirect(safe_next(request.form.get("next")), 303)


@blueprint.route("/signin", methods=["GET", "POST"])
def signin() -> ResponseReturnValue:
    """Check name and password, then set the session cookie."""
    if request.method == "GET" or not sessions_enabled():
        return _form_page("signin.html", None if sessions_enabled() else NO_SESSIONS)
    name, password = request.form.get("name", "").strip(), request.form.get("password", "")
    if not name or not api().users.check_password(name, password):
        # One message for both cases: the form must not tell which user names exist.
        return _form_page("signin.html", "Unknown user name or wrong password.", 401)
    _start_session(name)
    return redirect(safe_next(request.form.get("next")), 303)


@blueprint.post("/signout")
def signout() -> ResponseReturnValue:
    """End the session (a POST with the CSRF token: a link must not sign anyone out)."""
    session.clear()
    renew_csrf_token()
    return redirect(url_for("replay_ui.home"), 303)
