"""Being told it is your turn (issue 46): ``GET``/``PUT /api/me/notifications`` read and set the caller's turn
e-mails (an address, on or off), and ``POST /api/mail/unsubscribe?token=…`` is the one-click unsubscribe of the mails
(RFC 8058: a mail program posts it, with no cookie, when its reader presses "unsubscribe"; the signed token is the
only credential it needs)."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields

from service.api.docs import documented
from service.api.inputs import load_body, load_query
from service.web.auth import require_user
from service.web.fields import Strict
from service.web.notifications import NotificationSettingsSchema, save_settings, settings_json, unsubscribe

bp = Blueprint("notifications", __name__)


class NotificationsSchema(Schema):
    """How you are told it is your turn."""

    email = fields.String(required=True, allow_none=True, metadata={"description": "where turn e-mails go"})
    turn_mail = fields.Boolean(required=True, metadata={"description": "turn e-mails are on"})
    mail_enabled = fields.Boolean(required=True, metadata={
        "description": "this server sends mail (LUDOLOG_SMTP_URL is set); false: no mail is sent at all"})


class UnsubscribeQuery(Strict):
    """The unsubscribe link's token."""

    token = fields.String(required=True, metadata={"description": "the token of the mail's unsubscribe link"})


class UnsubscribedSchema(Schema):
    """The answer of an unsubscribe."""

    unsubscribed = fields.Boolean(required=True)


@bp.get("/api/me/notifications")
@documented("How you are told it is your turn: your turn e-mails", response=NotificationsSchema, errors=(401,),
            auth="required", tag="seats")
def get_notifications() -> ResponseReturnValue:
    """``{"email", "turn_mail", "mail_enabled"}``."""
    return jsonify(settings_json(require_user()))


@bp.put("/api/me/notifications")
@documented("Set your turn e-mails: an address, on or off", response=NotificationsSchema,
            body=NotificationSettingsSchema, errors=(400, 401), auth="required", tag="seats",
            description="With turn_mail true, a mail goes to email when a move makes it your turn at a table you do "
                        "not have open (at most one per table every quarter hour), with a link to the table and a "
                        "one-click unsubscribe. 400 for an address that is not one, or turn_mail without an address. "
                        "Accepted also when mail_enabled is false (this server sends none until it is set up).")
def put_notifications() -> ResponseReturnValue:
    """The settings as stored."""
    user = require_user()
    return jsonify(save_settings(user, load_body(NotificationSettingsSchema)))


@bp.post("/api/mail/unsubscribe")
@documented("Stop the turn e-mails of a mail's unsubscribe link (one click, RFC 8058)", response=UnsubscribedSchema,
            query=UnsubscribeQuery, errors=(400, 404), auth="none", tag="seats", body_required=False,
            description="The List-Unsubscribe address of every turn e-mail: the token is the credential (no session, "
                        "no CSRF token: a mail program posts it). 404 for a token this server did not make.")
def one_click_unsubscribe() -> ResponseReturnValue:
    """``{"unsubscribed": true}``."""
    unsubscribe(load_query(UnsubscribeQuery)["token"])
    return jsonify({"unsubscribed": True})
