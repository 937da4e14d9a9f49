"""Browser sessions kept on the server, and the sign-in throttle.

A session cookie carries a random session id and nothing else that grants anything: the user
it belongs to lives in Redis under the id's SHA-256, with a TTL. Signing out deletes that key, so
a copied cookie stops working at once, and every session ends by itself after its lifetime.

Sign-in throttling counts failed attempts per account and per client address in fixed windows;
once either count reaches its limit, further attempts are refused (429, ``Retry-After``) until
the window ends, without checking the password, so the right password does not help a guesser.
Sign-ups (accounts created, or tried under a name already taken) are counted per address the same way.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

import redis

from service.store import keys
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


@dataclass(frozen=True)
class SignInThrottle:
    """Failed sign-ins per account and per address, in fixed windows."""

    redis: redis.Redis
    account_limit: int = ACCOUNT_LIMIT
    address_limit: int = ADDRESS_LIMIT
    window: int = WINDOW_SECONDS

    def _keys(self, name: str, address: str) -> tuple[tuple[str, int], tuple[str, int]]:
        # The account key is the name's hash: any text typed in the form stays out of key names.
        return ((keys.signin_failures_for("account", _digest(name.casefold())), self.account_limit),
                (keys.signin_failures_for("address", address), self.address_limit))

    def retry_after(self, name: str, address: str) -> int:
        """Seconds until ``name`` may try again from ``address``; 0 when it may try now."""
        for key, limit in self._keys(name, address):
            count = as_optional_bytes(self.redis.get(key))
            if count is not None and int(count) >= limit:
                return max(1, int(self.redis.ttl(key)))
        return 0

    def failed(self, name: str, address: str) -> None:
        """Count a failed attempt against the account and the address (a window starts at the first)."""
        with self.redis.pipeline(transaction=False) as pipe:
            for key, _ in self._keys(name, address):
                pipe.set(key, 0, ex=self.window, nx=True)  # the window starts here; INCR keeps its TTL
                pipe.incr(key)
            pipe.execute()

    def succeeded(self, name: str) -> None:
        """A right password: the account's failures are forgotten (the address's stay counted)."""
        self.redis.delete(self._keys(name, "")[0][0])


@dataclass(frozen=True)
class SignUpThrottle:
    """Sign-up attempts per address, in fixed windows (the address limit of :class:`SignInThrottle`, for accounts made)."""

    redis: redis.Redis
    limit: int = SIGNUP_LIMIT
    window: int = SIGNUP_WINDOW_SECONDS

    def retry_after(self, address: str) -> int:
        """Seconds until ``address`` may sign up again; 0 when it may now."""
        key = keys.signup_attempts_for(address)
        count = as_optional_bytes(self.redis.get(key))
        if count is not None and int(count) >= self.limit:
            return max(1, int(self.redis.ttl(key)))
        return 0

    def attempted(self, address: str) -> None:
        """Count one sign-up from ``address`` (a window starts at the first)."""
        key = keys.signup_attempts_for(address)
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(key, 0, ex=self.window, nx=True)  # the window starts here; INCR keeps its TTL
            pipe.incr(key)
            pipe.execute()
