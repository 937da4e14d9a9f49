"""Turn e-mails (issue 46): a person whose turn it is at a table, who asked for them and has not the table open, is
sent one mail with a link to the table and a one-click unsubscribe.

The path of one mail: a move makes it a person's turn (an append listener, :class:`service.jobs.TurnMailScheduler`,
asks :func:`person_to_mail`) → a check is queued to run ``LUDOLOG_TURN_MAIL_DELAY`` seconds later
(:data:`service.jobs.TURN_MAIL_JOB`) → the check (:func:`deliver_turn_mail`) sends only if it is still that turn, the
person still wants mail and has no page of the table open, and the turn's claim is its own (one mail per turn, one per
table and quarter hour: :class:`service.store.notifications.NotificationStore`). A send that fails raises after
handing the claim back to the same job, which RQ runs again.

No ``LUDOLOG_SMTP_URL``: no check is ever queued and nothing is sent. The mail's words are in :data:`SUBJECT` and
:data:`BODY`, in one place, messages of the site's catalog: a mail is written in the language its reader chose for
the site (their account's setting; English if they never chose one).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import quote, unquote, urlsplit

from engine import CHANCE
from service.games.titles import game_label
from service.i18n import DEFAULT_LOCALE, N_, gettext, locale_id, use_locale
from service.store.context import Stores
from service.store.notifications import CLAIMED
from service.store.seats import OWNER, USER

SUBJECT = N_("Your turn at %(title)s")
BODY = N_("""Hello %(user)s,

it is your turn at %(title)s (%(game)s): %(player)s is to move.

Play your move: %(table_url)s

You get this mail because you asked ludolog for turn e-mails (at most one per table every quarter hour, none while
you have the table open). To stop them, open %(unsubscribe_url)s
or change them on your account page: %(account_url)s
""")

#: What a check answered (its RQ job's result), besides :data:`SENT`.
SENT, MAIL_OFF, NOT_WANTED, NOT_THEIR_TURN, PAGE_OPEN = "sent", "mail off", "not wanted", "not their turn", "page open"
#: Seconds an SMTP conversation may stay silent before the send fails (and is retried): short, for the job queue
#: it holds meanwhile is the imports' and folds'.
SMTP_TIMEOUT_S = 10
#: The path of the unsubscribe page and of its one-click form (RFC 8058), below the site's address.
UNSUBSCRIBE_PAGE = "/mail/unsubscribe"
UNSUBSCRIBE_ONE_CLICK = "/api/mail/unsubscribe"
ACCOUNT_PAGE = "/account"
_SIGNED = b"ludolog unsubscribe from turn e-mails: "
#: A token as :func:`unsubscribe_token` makes them: a user name, a dot, 32 characters of URL-safe base64.
_TOKEN = re.compile(r"([A-Za-z0-9_.-]{2,40})\.([A-Za-z0-9_-]{32})")


@dataclass(frozen=True)
class TurnMail:
    """One turn e-mail to send: to whom, about which table and turn."""

    user: str
    to: str
    gid: str
    bid: str
    seq: int
    title: str
    game: str
    player: str


def person_to_move(stores: Stores, gid: str, bid: str) -> tuple[int, str, int] | None:
    """(the head seq, the user, the seat) when a person holds the seat to move at table ``bid`` (its owner's seat, or
    one taken by invite); None for a branch without seats, an engine seat, an invite nobody took, chance or the end."""
    if not stores.seats.has_assignments(gid, bid):
        return None
    position = stores.reader.position(gid, bid)
    actor = position.rules.current_actor(position.state)
    if not isinstance(actor, int) or actor < 0:  # chance, or the end
        return None
    seat = stores.seats.seat(gid, bid, actor)
    user = stores.games.branch(gid, bid).owner if seat.holder == OWNER else seat.user if seat.holder == USER else None
    return None if user is None else (position.seq, user, actor)


def person_to_mail(stores: Stores, gid: str, bid: str) -> tuple[int, str] | None:
    """After an append: (seq, user) when this server sends mail and the move made it the turn of a person who wants
    turn e-mails (their own move, when they hold the next seat too, is no news to them)."""
    if not stores.config.smtp_url:
        return None
    found = person_to_move(stores, gid, bid)
    if found is None or not stores.notifications.settings(found[1]).wants_mail:
        return None
    seq, user, _ = found
    return None if _last_mover(stores, gid, bid, seq) == user else (seq, user)


#: How far back the last player's move is looked for (the chance events drawn after one move follow it).
_LOOK_BACK = 16


def _last_mover(stores: Stores, gid: str, bid: str, head: int) -> str | None:
    """Who made the last player's move up to ``head`` (its event's author), if it is near."""
    events = stores.games.events(gid, bid, after=max(0, head - _LOOK_BACK))
    moves = [event for event in events if event.actor != CHANCE and event.type == "action_taken"]
    author = moves[-1].meta.get("author") if moves else None
    return author if isinstance(author, str) else None


def turn_to_mail(stores: Stores, gid: str, bid: str, seq: int, user: str) -> TurnMail | str:
    """The mail of ``user``'s turn at ``seq`` if it is due now, else why not (:data:`MAIL_OFF`, :data:`NOT_WANTED`,
    :data:`NOT_THEIR_TURN`, :data:`PAGE_OPEN`)."""
    settings = stores.notifications.settings(user)
    if not stores.config.smtp_url:
        return MAIL_OFF
    if not settings.wants_mail or settings.email is None:
        return NOT_WANTED
    found = person_to_move(stores, gid, bid)
    if found is None or found[:2] != (seq, user):
        return NOT_THEIR_TURN
    if stores.notifications.has_page_open(gid, bid, user):
        return PAGE_OPEN
    record = stores.games.game(gid)
    return TurnMail(user, settings.email, gid, bid, seq, record.title, game_label(record.game),
                    record.setup.players[found[2]])


def deliver_turn_mail(stores: Stores, gid: str, bid: str, seq: int, user: str, attempt: str) -> str:
    """Send ``user`` the mail of their turn at ``seq`` if it is due and the turn's claim is ``attempt``'s; what
    happened (:data:`SENT`, a reason of :func:`turn_to_mail`, or the claim's refusal). A failed send raises (the
    claim waits for ``attempt``'s retry)."""
    mail = turn_to_mail(stores, gid, bid, seq, user)
    if isinstance(mail, str):
        return mail
    claim = stores.notifications.claim_turn_mail(gid, bid, user, seq, attempt)
    if claim != CLAIMED:
        return claim
    with use_locale(locale_id(stores.users.locale_of(user)) or DEFAULT_LOCALE):  # the language they chose for the site
        message = compose(mail, stores.config.mail_from, stores.config.public_url, stores.notifications.signing_key())
    try:
        send(str(stores.config.smtp_url), message)
    except (smtplib.SMTPException, OSError):
        stores.notifications.turn_mail_failed(gid, bid, user, seq, attempt)
        raise
    stores.notifications.turn_mail_sent(gid, bid, user, seq, attempt)
    return SENT


def table_url(public_url: str, gid: str, bid: str) -> str:
    """The table's page, as a link in a mail."""
    return f"{public_url}/games/{quote(gid)}/b/{quote(bid)}"


def compose(mail: TurnMail, sender: str, public_url: str, key: bytes) -> EmailMessage:
    """The mail of ``mail``: plain text, with the table's link, an unsubscribe link and the one-click unsubscribe
    headers (RFC 2369 ``List-Unsubscribe``, RFC 8058 ``List-Unsubscribe-Post``)."""
    token = quote(unsubscribe_token(key, mail.user))
    words = {"user": mail.user, "title": mail.title, "game": mail.game, "player": mail.player,
             "table_url": table_url(public_url, mail.gid, mail.bid),
             "unsubscribe_url": f"{public_url}{UNSUBSCRIBE_PAGE}?token={token}",
             "account_url": f"{public_url}{ACCOUNT_PAGE}"}
    message = EmailMessage()
    message["Subject"] = gettext(SUBJECT, **words)
    message["From"] = sender
    message["To"] = mail.to
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain=urlsplit(public_url).hostname or "ludolog")
    message["Auto-Submitted"] = "auto-generated"
    message["List-Unsubscribe"] = f"<{public_url}{UNSUBSCRIBE_ONE_CLICK}?token={token}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(gettext(BODY, **words))
    return message


def send(smtp_url: str, message: EmailMessage) -> None:
    """Hand ``message`` to the server of ``smtp_url``: ``smtps://`` over TLS, ``smtp://`` in the clear or with STARTTLS
    when the server offers it; a user and password in the URL log in. Raises smtplib's errors or OSError."""
    parts = urlsplit(smtp_url)
    host = parts.hostname or "localhost"
    client: smtplib.SMTP
    if parts.scheme == "smtps":
        client = smtplib.SMTP_SSL(host, parts.port or 465, timeout=SMTP_TIMEOUT_S, context=ssl.create_default_context())
    else:
        client = smtplib.SMTP(host, parts.port or 25, timeout=SMTP_TIMEOUT_S)
    with client:
        client.ehlo()
        if parts.scheme == "smtp" and client.has_extn("starttls"):
            client.starttls(context=ssl.create_default_context())
            client.ehlo()
        if parts.username:
            client.login(unquote(parts.username), unquote(parts.password or ""))
        client.send_message(message)


def unsubscribe_token(key: bytes, user: str) -> str:
    """``<user>.<signature>``: whoever holds it may turn ``user``'s turn e-mails off, and nothing else."""
    return f"{user}.{_signature(key, user)}"


def user_of_token(key: bytes, token: str) -> str | None:
    """The user an unsubscribe token was made for, or None for a token this server did not sign."""
    match = _TOKEN.fullmatch(token)
    if match is None or not hmac.compare_digest(match.group(2).encode(), _signature(key, match.group(1)).encode()):
        return None
    return match.group(1)


def _signature(key: bytes, user: str) -> str:
    digest = hmac.new(key, _SIGNED + user.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()
