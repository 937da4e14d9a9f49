"""The account page (``/account``): the site's language kept with the account (its form posts to the language menu's
route, ``replay_ui/language.py``); how the signed-in user is told it is their turn (turn e-mails: an address, on
or off, saved through the same schema as ``PUT /api/me/notifications``; this browser's turn alerts), and the page of
a turn e-mail's unsubscribe link (``/mail/unsubscribe?token=…``: one button, so that a mail scanner that follows
links unsubscribes nobody; mail programs use the one-click POST of ``List-Unsubscribe``, ``service/api``); and the
user's claims (issue 49): which players of which games were them, with the claims on their own games to answer, as
``/api/me/claims`` does (plain forms)."""

from __future__ import annotations

import re
from typing import Any

from flask import redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from marshmallow import ValidationError

from replay_ui.accounts import signed_in_user
from replay_ui.blueprint import page_blueprint
from service.games.claims import claim_refusal, confirmed_by_proof, make_claim
from service.games.insights import settle_claim
from service.i18n import _
from service.store.claims import CONFIRMED, DECLINED
from service.store.errors import ConflictError, ForbiddenError, InvalidRequestError, NotFoundError, StoreError
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
          saved: bool = False, status: int = 200, claim: dict[str, str] | None = None) -> ResponseReturnValue:
    settings = settings_json(user)
    shown = form if form is not None else {"email": settings["email"] or "", "turn_mail": settings["turn_mail"]}
    messages = {name: " ".join(map(str, why if isinstance(why, list) else [why])) for name, why in (errors or {}).items()}
    claims = api().stores.claims
    return render_template("account.html", user=user, form=shown, errors=messages, saved=saved,
                           mail_enabled=mail_enabled(), account_locale=api().users.locale_of(user),
                           claims=claims.of_user(user), to_confirm=claims.to_confirm(user),
                           claim=claim or {"game": "", "player": ""}), status


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


def _claim_refused(exc: StoreError, player: str) -> str:
    """Why a claim was refused, in the reader's language (the store's reasons, by its error and details)."""
    details = exc.details or {}
    if isinstance(exc, NotFoundError):
        return _("No such game, or it is private and not yours.")
    if isinstance(exc, InvalidRequestError):
        return _("That game has no player %(player)s. Its players: %(players)s.", player=player,
                 players=", ".join(details.get("players", [])))
    if isinstance(exc, ConflictError) and "claimed_by" in details:
        return _("%(player)s is claimed by %(user)s already.", player=player, user=details["claimed_by"])
    if isinstance(exc, ConflictError):
        return _("You claimed a player of that game already: take that claim back first.")
    if isinstance(exc, ForbiddenError) and "visibility" in details:
        return _("That game is not public and not yours: only its uploader may claim its players.")
    return _("Nobody uploaded that game to confirm your claim.")


def game_id_of(text: str) -> str:
    """The game id typed, or taken from a game's address (``…/games/<id>/b/main``) pasted instead."""
    found = re.search(r"/games/([^/?#\s]+)", text)
    return found[1] if found else text.strip()


@bp.post("/account/claims")
def claim_player() -> ResponseReturnValue:
    """Claim the player named ``player`` of the game ``game`` (an id or a game's address): confirmed at once or
    pending its uploader; refused with the reason, the form shown again (:mod:`service.games.claims`)."""
    user = signed_in_user()
    if user is None:
        return _sign_in_first()
    typed = {"game": request.form.get("game", "")[:300], "player": request.form.get("player", "")[:200].strip()}
    gid, claims = game_id_of(typed["game"]), api().stores.claims
    refused = claim_refusal(api().games, user, gid, typed["player"])
    if refused is None:
        try:
            made = make_claim(api().games, claims, user, gid, typed["player"])
        except ConflictError as exc:  # a seat or a game claimed already: the form again, with the reason
            refused = exc
        else:
            for settled in (made, *confirmed_by_proof(api().games, claims, made)):
                settle_claim(api().stores.insights, settled)
            done = (_("Claimed: %(player)s is you.", player=made.player) if made.status == CONFIRMED else
                    _("Asked: the game's uploader will confirm that %(player)s is you.", player=made.player))
            return _page(user, claim={"game": "", "player": "", "done": done})
    return _page(user, claim=typed | {"error": _claim_refused(refused, typed["player"])}, status=_status_of(refused))


def _status_of(exc: StoreError) -> int:
    return 404 if isinstance(exc, NotFoundError) else 403 if isinstance(exc, ForbiddenError) else \
        409 if isinstance(exc, ConflictError) else 400


@bp.post("/account/claims/<cid>/<answer>")
def change_claim(cid: str, answer: str) -> ResponseReturnValue:
    """Take back one's own claim (``delete``), or confirm or decline (``confirm``, ``decline``) a claim on one's game;
    a claim answered meanwhile shows the page again with the reason."""
    user = signed_in_user()
    if user is None:
        return _sign_in_first()
    claims = api().stores.claims
    if answer not in ("delete", "confirm", "decline"):
        raise NotFoundError(f"no such answer {answer!r}")
    try:  # a claim gone or not the caller's is the error page's (404, 403); one answered meanwhile, the page's reason
        changed = (claims.delete(cid, user) if answer == "delete" else
                   claims.answer(cid, user, CONFIRMED if answer == "confirm" else DECLINED))
    except ConflictError:
        return _page(user, claim={"game": "", "player": "", "error": _("That claim was answered meanwhile.")},
                     status=409)
    settle_claim(api().stores.insights, changed)
    return _page(user)


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
