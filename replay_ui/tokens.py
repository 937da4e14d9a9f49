"""The tokens page: a signed-in user makes, names, lists and revokes API tokens.

A token is shown once, on the page that made it; only its SHA-256 is stored
(:class:`service.store.users.UserStore`), so a lost token cannot be shown again: revoke it
and make another. The API takes any listed token as ``Authorization: Bearer TOKEN``.
"""

from __future__ import annotations

from flask import redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from replay_ui.accounts import signed_in_user
from replay_ui.blueprint import page_blueprint
from service.i18n import _, format_datetime
from service.store.errors import InvalidRequestError
from service.store.users import MAX_TOKEN_NAME
from service.web.context import api
from service.web.fields import first_refused

#: This module's pages, registered by the app factory with the UI's others (replay_ui.BLUEPRINTS).
bp = page_blueprint("tokens", __name__)


def _when(created: float) -> str:
    """When a token was made, the page's language's way, in UTC (which the long format names)."""
    return format_datetime(created, "long")


def _page(user: str, *, new_token: str | None = None, error: str | None = None, status: int = 200) -> ResponseReturnValue:
    tokens = [{"id": t.id, "name": t.name, "created": _when(t.created)} for t in api().users.tokens(user)]
    return render_template("tokens.html", tokens=tokens, new_token=new_token, error=error, max_name=MAX_TOKEN_NAME), status


def _token_name_error(name: str) -> str | None:
    """Why ``name`` is refused as a token's name, naming the character and where it is; None when it is not."""
    refused = first_refused(name)
    if refused is None:
        return None
    position, char = refused
    return _("A token's name is plain text on one line: the character U+%(code)s at position %(position)s is not allowed.",
             code=f"{ord(char):04X}", position=position)


@bp.route("/tokens", methods=["GET", "POST"])
def tokens_page() -> ResponseReturnValue:
    """GET: the user's tokens; POST (``name``): a new token, shown once on the answer."""
    user = signed_in_user()
    if user is None:
        return redirect(url_for("accounts.signin", next=url_for("tokens.tokens_page")), 303)
    if request.method == "GET":
        return _page(user)
    name = request.form.get("name", "").strip()
    error = _token_name_error(name)
    if error:
        return _page(user, error=error, status=400)
    try:
        _token_id, token = api().users.create_token(user, name)
    except InvalidRequestError:
        return _page(user, error=_("A token's name is 1 to %(most)s characters.", most=MAX_TOKEN_NAME), status=400)
    return _page(user, new_token=token, status=201)


@bp.post("/tokens/<token_id>/revoke")
def revoke_token(token_id: str) -> ResponseReturnValue:
    """Revoke one of the signed-in user's tokens (404 for one that is not theirs)."""
    user = signed_in_user()
    if user is None:
        return redirect(url_for("accounts.signin", next=url_for("tokens.tokens_page")), 303)
    api().users.revoke_token(user, token_id)  # someone else's or unknown: the 404 page (replay_ui.errors)
    return redirect(url_for("tokens.tokens_page"), 303)
