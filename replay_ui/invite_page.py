"""The invite page: ``/invite/<token>``, the link a branch's owner sends for a seat (``PUT …/seats/<n>``).

GET shows what the invite is for (game, branch, seat and player name) with a button; its POST (CSRF-checked as every
form) takes the seat, as ``POST /api/invites/<token>`` does (:func:`service.web.seating.redeem`), and goes to the
branch's page in that seat's view. Signed out, the page asks to sign in first and comes back. A forged, used or
revoked invite shows the error page with the store's reason (404 or 410, :mod:`replay_ui.errors`).
"""

from __future__ import annotations

from flask import redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from replay_ui.accounts import signed_in_user
from replay_ui.blueprint import page_blueprint
from service.web.context import api
from service.web.seating import redeem

#: This module's pages, registered by the app factory with the UI's others (replay_ui.BLUEPRINTS).
bp = page_blueprint("invites", __name__)


@bp.get("/invite/<token>")
def invite_page(token: str) -> ResponseReturnValue:
    """What the invite offers, and the button that takes it (or the sign-in link)."""
    seats = api().stores.seats
    invite = seats.find_invite(token)
    record = api().games.game(invite.game)
    branch = api().games.branch(invite.game, invite.branch)
    seats.check_usable(invite)  # a used or revoked invite: the 410 page says which
    return render_template("invite.html", token=token, record=record, branch=branch, seat=invite.seat,
                           player=record.setup.players[invite.seat], user=signed_in_user(),
                           signin=url_for("accounts.signin", next=request.path))


@bp.post("/invite/<token>")
def take_invite(token: str) -> ResponseReturnValue:
    """Take the seat; then the branch's page (as the seat sees it)."""
    user = signed_in_user()
    if user is None:
        return redirect(url_for("accounts.signin", next=request.path), 303)
    taken = redeem(token, user)
    return redirect(url_for("pages.game_page", gid=taken["game"], bid=taken["branch"]), 303)
