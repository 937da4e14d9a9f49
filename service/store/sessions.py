"""Browser sessions kept on the server, and the sign-in throttle.

A session cookie carries a random session id and nothing else that grants anything: the user
it belongs to lives in Redis under the id's SHA-256, with a TTL. Signing out deletes that key, so
a copied cookie stops working at once, and every session ends by itself after its lifetime.

Sign-in throttling counts failed attempts per account and per client address in fixed windows;
once either count reaches its limit, further attempts are refused (429, ``Retry-After``) until
the window ends, without checking the password, so the right password does not help a guesser.
Sign-ups (accounts created, or tried under a name already taken) are counted per address the same way.
Each limit is checked and counted in one step (:mod:`service.store.limits`), so a burst of attempts sent at
once meets the limit as a row of them would.
"""

from __future__ import annotations

import hashlib
import secrets

import redis

from service.store import keys
from service.store.limits import FixedWindow
from service.store.replies import as_optional_bytes

#: Failed sign-ins allowed per account and per address within one window, and the window.
ACCOUNT_LIMIT = 10
ADDRESS_LIMIT = 30
WINDOW_SECONDS = 15 * 60
#: Sign-ups allowed per address within one window, and that window: enough for a household or a classroom
#: behind one address, too few to fill the user list or to probe it for taken names.
SIGNUP_LIMIT = 10
SIGNUP_WINDOW_SECONDS = 60 * 60


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


class SessionStore:
    """Starts, resolves and ends server-side sessions of ``lifetime`` seconds."""

    def __init__(self, client: redis.Redis, lifetime: int) -> None:
        self.redis = client
        self.lifetime = lifetime

    def start(self, user: str) -> str:
        """A new session id for ``user`` (256 random bits; stored only as its hash)."""
        sid = secrets.token_urlsafe(32)
        self.redis.set(keys.session_for(_digest(sid)), user, ex=self.lifetime)
        return sid

    def user_for(self, sid: str) -> str | None:
        """The user of a live session, or None (unknown, ended or expired)."""
        user = as_optional_bytes(self.redis.get(keys.session_for(_digest(sid))))
        return user.decode() if user else None

    def end(self, sid: str) -> None:
        """End the session now (sign-out)."""
        self.redis.delete(keys.session_for(_digest(sid)))


class SignInThrottle:
    """Sign-in attempts per account and per address, in fixed windows; an attempt with the right password is not counted.

    An attempt is counted before its password is checked, in one atomic step per limit (:class:`FixedWindow`), and
    given back when the password was right: counting only after a wrong password let every attempt sent at the same
    moment read the count below the limit and check its password, however many were sent.
    """

    def __init__(self, client: redis.Redis, account_limit: int = ACCOUNT_LIMIT, address_limit: int = ADDRESS_LIMIT,
                 window: int = WINDOW_SECONDS) -> None:
        self.accounts = FixedWindow(client, account_limit, window)
        self.addresses = FixedWindow(client, address_limit, window)

    @staticmethod
    def _account_key(name: str) -> str:
        # The account key is the name's hash: any text typed in the form stays out of key names.
        return keys.signin_failures_for("account", _digest(name.casefold()))

    def attempt(self, name: str, address: str) -> int:
        """Count an attempt to sign in as ``name`` from ``address``: 0 when it may go on (its password may be checked),
        else the seconds until it may try again (nothing counted)."""
        by_address = self.addresses.take(keys.signin_failures_for("address", address))
        if by_address.refused:
            return by_address.retry_after
        by_account = self.accounts.take(self._account_key(name))
        if by_account.refused:
            self.addresses.give_back(keys.signin_failures_for("address", address))
            return by_account.retry_after
        return 0

    def succeeded(self, name: str, address: str) -> None:
        """A right password: the account's failures are forgotten, and this attempt does not count against the address
        (its earlier failures stay counted)."""
        self.accounts.clear(self._account_key(name))
        self.addresses.give_back(keys.signin_failures_for("address", address))


class SignUpThrottle:
    """Sign-up attempts per address, in fixed windows (accounts made, or tried under a name already taken)."""

    def __init__(self, client: redis.Redis, limit: int = SIGNUP_LIMIT, window: int = SIGNUP_WINDOW_SECONDS) -> None:
        self.attempts = FixedWindow(client, limit, window)

    def attempt(self, address: str) -> int:
        """Count one sign-up from ``address``: 0 when it may go on, else the seconds until it may (nothing counted);
        one atomic step, so attempts sent at the same moment cannot pass the limit together."""
        verdict = self.attempts.take(keys.signup_attempts_for(address))
        return verdict.retry_after
