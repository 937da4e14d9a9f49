"""How a user is told that it is their turn at a table, and the bookkeeping of turn e-mails (issue 46).

* **Settings** (``keys.notifications_for``, a hash per user): the address turn e-mails go to and whether the user
  wants them (``PUT /api/me/notifications``, the account page; an unsubscribe link turns them off).
* **An open page** (``keys.table_open_by``): each live stream of a table's page held by a signed-in user keeps a lease
  in a sorted set (holder → the lease's end), renewed while the stream is open and removed when it closes; a
  stream whose process died stops counting when its lease runs out. While one lease runs, the user sees the table and
  is sent no mail about it.
* **One mail per turn** (``keys.turn_mail_claim_for``): the check of a turn claims it in one script with the quarter
  hour of its table (``keys.turn_mail_window_for``): of two checks of one turn (an append listener heard twice, RQ
  running a job again) one sends, and a table sends one user at most one mail per quarter hour. A claim is
  ``sending:<attempt>`` while the mail goes out; a send that failed hands it back to the same attempt
  (``retry:<attempt>``: RQ's retry of that job) and to nobody else; a sent mail leaves ``sent``. An attempt killed
  in the middle of a send leaves ``sending``: no second mail for that turn, rather than perhaps two.
* **The signing key** of the unsubscribe links (``keys.mail_signing_key``): random, made on first use, so that links
  work whichever process made them and no setting is needed.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

import redis

from service.store import keys
from service.store.replies import as_bytes_hash, as_optional_bytes

#: How long a page's open stream counts as the page being open without renewing its lease (the stream renews it at
#: least every keep-alive, 15 s).
PAGE_LEASE_S = 45
#: How long a claim of one turn's mail is kept (a turn this old is long over: its head has moved on).
CLAIM_KEPT_S = 7 * 24 * 3600
#: A table sends one user at most one turn e-mail in this many seconds.
MAIL_WINDOW_S = 15 * 60
CLAIMED, LIMITED, TAKEN = "claimed", "limited", "taken"

# KEYS: the turn's claim, the table's window for the user. ARGV: attempt, claim TTL, window TTL. Claims the turn for
# ``attempt`` when nobody has (and the table's quarter hour is free: it is taken with it), or when this very attempt
# handed it back after a failed send. Returns 'claimed', 'limited' (another turn's mail went out in the quarter
# hour) or 'taken' (another check has it, or it was sent).
_CLAIM = """local claim = redis.call('GET', KEYS[1])
if claim == ('retry:' .. ARGV[1]) then
  redis.call('SET', KEYS[1], 'sending:' .. ARGV[1], 'EX', ARGV[2])
  return 'claimed'
end
if claim then return 'taken' end
if redis.call('EXISTS', KEYS[2]) == 1 then return 'limited' end
redis.call('SET', KEYS[1], 'sending:' .. ARGV[1], 'EX', ARGV[2])
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[3])
return 'claimed'"""

# KEYS: the turn's claim. ARGV: from, to. Sets the claim to ``to`` only while it is ``from`` (keeping its TTL).
_MOVE_CLAIM = """if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
  return 1
end
return 0"""


@dataclass(frozen=True)
class NotificationSettings:
    """How one user wants to be told that it is their turn."""

    email: str | None = None
    turn_mail: bool = False

    @property
    def wants_mail(self) -> bool:
        """True when turn e-mails are on and there is an address to send them to."""
        return self.turn_mail and bool(self.email)


class NotificationStore:
    """Users' notification settings, the pages they have open, and the claims of turn e-mails."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._claim = client.register_script(_CLAIM)
        self._move_claim = client.register_script(_MOVE_CLAIM)

    def settings(self, user: str) -> NotificationSettings:
        """``user``'s settings (none stored: no address, no mail)."""
        stored = as_bytes_hash(self.redis.hgetall(keys.notifications_for(user)))
        email = stored.get(b"email", b"").decode() or None
        return NotificationSettings(email, stored.get(b"turn_mail") == b"1")

    def save(self, user: str, settings: NotificationSettings) -> NotificationSettings:
        """Store ``user``'s settings (an address of None forgets the address); returns them."""
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(keys.notifications_for(user), mapping={"email": settings.email or "",
                                                              "turn_mail": "1" if settings.turn_mail else "0"})
            pipe.execute()
        return settings

    def stop_turn_mail(self, user: str) -> None:
        """Turn ``user``'s turn e-mails off (the unsubscribe link), keeping the address."""
        self.redis.hset(keys.notifications_for(user), "turn_mail", "0")

    def page_opened(self, gid: str, bid: str, user: str, holder: str) -> None:
        """Note (or renew) that ``user`` has branch ``bid``'s page open through the stream ``holder``."""
        key = keys.table_open_by(gid, bid, user)
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.zadd(key, {holder: time.time() + PAGE_LEASE_S})
            pipe.expire(key, PAGE_LEASE_S)
            pipe.execute()

    def page_closed(self, gid: str, bid: str, user: str, holder: str) -> None:
        """The stream ``holder`` of ``user``'s page of branch ``bid`` closed."""
        self.redis.zrem(keys.table_open_by(gid, bid, user), holder)

    def has_page_open(self, gid: str, bid: str, user: str) -> bool:
        """True while one of ``user``'s streams of branch ``bid``'s page holds an unexpired lease."""
        return bool(self.redis.zcount(keys.table_open_by(gid, bid, user), time.time(), "+inf"))

    def claim_turn_mail(self, gid: str, bid: str, user: str, seq: int, attempt: str) -> str:
        """Claim the mail of ``user``'s turn at ``seq`` for ``attempt`` (the check's job id): :data:`CLAIMED`,
        :data:`LIMITED` (the table mailed them in the last quarter hour) or :data:`TAKEN` (another check has it)."""
        answer = self._claim(keys=[keys.turn_mail_claim_for(gid, bid, user, seq), keys.turn_mail_window_for(gid, bid, user)],
                             args=[attempt, str(CLAIM_KEPT_S), str(MAIL_WINDOW_S)])
        return answer.decode() if isinstance(answer, bytes) else str(answer)

    def turn_mail_sent(self, gid: str, bid: str, user: str, seq: int, attempt: str) -> None:
        """The mail of the turn claimed by ``attempt`` went out."""
        self._move_claim(keys=[keys.turn_mail_claim_for(gid, bid, user, seq)], args=[f"sending:{attempt}", "sent"])

    def turn_mail_failed(self, gid: str, bid: str, user: str, seq: int, attempt: str) -> None:
        """The send of ``attempt`` failed: the claim waits for that attempt's retry (and nobody else's)."""
        self._move_claim(keys=[keys.turn_mail_claim_for(gid, bid, user, seq)],
                         args=[f"sending:{attempt}", f"retry:{attempt}"])

    def signing_key(self) -> bytes:
        """The key of the unsubscribe links (made on the first call, by whichever process comes first)."""
        key = keys.mail_signing_key()
        self.redis.set(key, secrets.token_hex(32), nx=True)
        stored = as_optional_bytes(self.redis.get(key))
        if stored is None:
            raise RuntimeError("the mail signing key vanished as it was made")
        return stored
