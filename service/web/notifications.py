"""How a user is told it is their turn, per request: the settings as ``GET``/``PUT /api/me/notifications`` and the
account page read and write them (one schema for both), and the unsubscribe links of turn e-mails.

The mails themselves are the services' (:mod:`service.games.turn_mail`); the settings and the pages' presence are
the store's (:mod:`service.store.notifications`).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator
from typing import Any

import redis
from marshmallow import ValidationError, fields, validate, validates_schema

from service.games.turn_mail import user_of_token
from service.store.errors import NotFoundError
from service.store.notifications import NotificationSettings
from service.web.auth import current_user
from service.web.context import api
from service.web.fields import Strict, plain_text

#: The longest address accepted (RFC 5321's limit on a forward path).
MAX_EMAIL = 254


class NotificationSettingsSchema(Strict):
    """How you want to be told it is your turn (``PUT /api/me/notifications``; the account page's form)."""

    email = fields.Email(required=True, allow_none=True, validate=[validate.Length(max=MAX_EMAIL), plain_text()],
                         metadata={"description": "where turn e-mails go (null: no address)"})
    turn_mail = fields.Boolean(required=True, truthy={True}, falsy={False}, metadata={
        "description": "send me an e-mail when it is my turn at a table and I do not have it open"})

    @validates_schema
    def _address_for_mail(self, data: dict[str, Any], **_: Any) -> None:
        if data.get("turn_mail") and not data.get("email"):
            raise ValidationError("turn e-mails need an address", field_name="email")


def mail_enabled() -> bool:
    """True when this server sends mail (``LUDOLOG_SMTP_URL`` is set)."""
    return bool(api().stores.config.smtp_url)


def settings_json(user: str) -> dict[str, Any]:
    """``user``'s settings as the API answers them, with whether this server sends mail at all."""
    settings = api().stores.notifications.settings(user)
    return {"email": settings.email, "turn_mail": settings.turn_mail, "mail_enabled": mail_enabled()}


def save_settings(user: str, loaded: dict[str, Any]) -> dict[str, Any]:
    """Store what :class:`NotificationSettingsSchema` loaded as ``user``'s settings; the settings as answered."""
    api().stores.notifications.save(user, NotificationSettings(loaded["email"] or None, bool(loaded["turn_mail"])))
    return settings_json(user)


def unsubscriber(token: str) -> str:
    """The user an unsubscribe link's token stands for; NotFoundError (404) for a token this server did not make."""
    user = user_of_token(api().stores.notifications.signing_key(), token)
    if user is None:
        raise NotFoundError("no such unsubscribe link: it is wrong or was cut short (copy the whole link from the mail, "
                            "or change your e-mails on your account page)", token="unknown")
    return user


def unsubscribe(token: str) -> str:
    """Turn off the turn e-mails of the user of ``token`` (see :func:`unsubscriber`); that user."""
    user = unsubscriber(token)
    api().stores.notifications.stop_turn_mail(user)
    return user


#: How often an open page's stream renews its lease (well within :data:`service.store.notifications.PAGE_LEASE_S`;
#: a stream passes something on at least every keep-alive, 15 s).
PRESENCE_RENEW_S = 10.0


def page_presence(gid: str, bid: str) -> Callable[[Iterator[str]], Iterator[str]] | None:
    """For the live stream of table ``bid``'s page opened by a signed-in user: what notes, while the stream lasts, that
    the user has the table open (no turn e-mail is sent to them about it meanwhile); None for anyone else or a branch
    without seats. Best effort: a store that does not answer leaves the note to its lease."""
    user = current_user()
    if user is None or not api().stores.seats.has_assignments(gid, bid):
        return None
    store, holder = api().stores.notifications, secrets.token_hex(8)

    def note(opened: bool) -> None:
        try:
            (store.page_opened if opened else store.page_closed)(gid, bid, user, holder)
        except redis.exceptions.RedisError:
            pass

    def around(messages: Iterator[str]) -> Iterator[str]:
        note(True)
        renewed = time.monotonic()
        try:
            for text in messages:
                if time.monotonic() - renewed >= PRESENCE_RENEW_S:
                    note(True)
                    renewed = time.monotonic()
                yield text
        finally:
            note(False)
    return around
