"""The account page (``/account``): the site's language kept with the account (its form posts to the language menu's
route, ``replay_ui/language.py``); how the signed-in user is told it is their turn (turn e-mails: an address, on
or off, saved through the same schema as ``PUT /api/me/notifications``; this browser's turn alerts), and the page of
a turn e-mail's unsubscribe link (``/mail/unsubscribe?token=…``: one button, so that a mail scanner that follows
links unsubscribes nobody; mail programs use the one-click POST of ``List-Unsubscribe``, ``service/api``)."""

from __future__ import annotations

from typing import Any

from flask import redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from marshmallow import ValidationError

from replay_ui.accounts import signed_in_user
from replay_ui.blueprint import page_blueprint
from service.web.context import api
from service.web.notifications import (
    NotificationSettingsSchema,
    mail_enabled,
    save_settings,
    settings_json,
    unsubscribe,
    unsubscriber,
)

#: This module's pages, registered by the app factory with the UI's others (replay_ui.BLUEPRINTS).
bp = page_blueprint("account", __name__)


def _page(user: str, *, form: dict[str, Any] | None = None, errors: dict[str, Any] | None = None,
          saved: bool = False, status: int = 200) -> ResponseReturnValue:
    settings = settings_json(user)
    shown = form if form is not None else {"email": settings["email"] or "", "turn_mail": settings["turn_mail"]}
    messages = {name: " ".join(map(str, why if isinstance(why, list) else [why])) for name, why in (errors or {}).items()}
    return render_template("account.html", user=user, form=shown, errors=messages, saved=saved,
                           mail_enabled=mail_enabled(), account_locale=api().users.locale_of(user)), status


def _sign_in_first() -> ResponseReturnValue:
    return redirect(url_for("accounts.signin", next=url_for("account.account_page")), 303)


@bp.get("/account")
def account_page() -> ResponseReturnValue:
    """The user's turn e-mail settings (signed out: the sign-in page first)."""
    user = signed_in_user()
    return _page(user) if user is not None else _sign_in_first()


@bp.post("/account")
def save_account() -> ResponseReturnValue:
    """Save the form's ``email`` and ``turn_mail`` (400 with the reasons, what was typed shown again)."""
    user = signed_in_user()
    if user is None:
        return _sign_in_first()
    form = {"email": request.form.get("email", "").strip(), "turn_mail": request.form.get("turn_mail") == "on"}
    try:
        loaded = NotificationSettingsSchema().load({"email": form["email"] or None, "turn_mail": form["turn_mail"]})
    except ValidationError as exc:
        return _page(user, form=form, errors=exc.normalized_messages(), status=400)
    save_settings(user, loaded)
    return _page(user, saved=True)


@bp.get("/mail/unsubscribe")
def unsubscribe_page() -> ResponseReturnValue:
    """What the link stops, with the one button that stops it (404 for a link this server did not make)."""
    token = request.args.get("token", "")
    return render_template("unsubscribe.html", token=token, user=unsubscriber(token), done=False)


@bp.post("/mail/unsubscribe")
def unsubscribe_now() -> ResponseReturnValue:
    """Stop the turn e-mails of the link's user."""
    token = request.form.get("token", "")
    return render_template("unsubscribe.html", token=token, user=unsubscribe(token), done=True)
