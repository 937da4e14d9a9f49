"""Users, their API tokens and passwords.

Tokens are random (256 bits) and stored only as their SHA-256: a leak of the
database does not leak usable tokens, and a token this random needs no slow hash.
Passwords are hashed with werkzeug-free scrypt from hashlib (salted, memory-hard).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import redis
from redis.typing import EncodableT, FieldT

from service.store import keys
from service.store.errors import ConflictError, InvalidRequestError, NotFoundError
from service.store.replies import as_optional_bytes

USERNAME = re.compile(r"^[A-Za-z0-9_.-]{2,40}$")
_SCRYPT = {"n": 2**14, "r": 8, "p": 1, "dklen": 32}
MAX_TOKEN_NAME = 60
#: A locale id as kept with a user (Babel's spelling: ``hu``, ``zh_Hant``); which ones are offered is the web's to check.
LOCALE_ID = re.compile(r"^[a-z]{2,3}(_[A-Za-z]{2,4})?$")
COMMAND_LINE_TOKEN = "command line"


def hash_token(token: str) -> str:
    """The stored form of an API token."""
    return hashlib.sha256(token.encode()).hexdigest()


def hash_password(password: str, salt: bytes | None = None) -> str:
    """``scrypt$<salt hex>$<hash hex>``."""
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, **_SCRYPT)
    return f"scrypt${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    """True if ``password`` hashes to ``stored`` (constant-time compare)."""
    try:
        scheme, salt_hex, _ = stored.split("$")
    except ValueError:
        return False
    return scheme == "scrypt" and hmac.compare_digest(hash_password(password, bytes.fromhex(salt_hex)), stored)


@cache
def _dummy_hash() -> str:
    """A stored-form hash no password matches in practice, checked for unknown users (see check_password)."""
    return hash_password(secrets.token_urlsafe(32))


@dataclass(frozen=True)
class TokenInfo:
    """An API token as its owner's list shows it (never the token itself: only its hash is kept)."""

    id: str
    name: str
    created: float


class UserStore:
    """Creates users and resolves their tokens and passwords."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        _dummy_hash()  # made now, so that the first unknown user's sign-in takes no longer than the next

    def add(self, name: str, password: str | None = None) -> str:
        """Create user ``name`` and return a new API token for it (shown once, stored hashed): ``ludolog user add``."""
        self.create(name, password)
        return self.new_token(name)

    def create(self, name: str, password: str | None = None) -> None:
        """Create user ``name`` with no API token (web sign-up: tokens are made on the tokens page)."""
        if not USERNAME.match(name):
            raise InvalidRequestError(f"user name {name!r}: expected 2 to 40 letters, digits, '_', '.' or '-'", field="name")
        if password is not None and len(password) < 8:
            raise InvalidRequestError("password too short: at least 8 characters", field="password")
        record: Mapping[FieldT, EncodableT] = {
            "name": name, "created": str(time.time()), "password": hash_password(password) if password else "",
        }
        if not self.redis.hsetnx(keys.user_for(name), "name", name):
            raise ConflictError(f"user {name!r} exists already", user=name)
        self.redis.hset(keys.user_for(name), mapping=record)

    def locale_of(self, name: str) -> str | None:
        """The language ``name`` chose for the site (a locale id such as ``hu`` or ``zh_Hant``), None if they never chose
        one (their browser's is used) or there is no such user."""
        found = as_optional_bytes(self.redis.hget(keys.user_for(name), "locale"))
        return found.decode() if found else None

    def set_locale(self, name: str, locale: str) -> None:
        """Keep ``locale`` (a locale id, which the caller checked is offered) as ``name``'s language; NotFoundError for an
        unknown user."""
        if not LOCALE_ID.match(locale):
            raise InvalidRequestError(f"language {locale!r}: expected a locale id such as 'hu' or 'zh_Hant'", field="locale")
        if not self.exists(name):
            raise NotFoundError(f"no user {name!r}", user=name)
        self.redis.hset(keys.user_for(name), "locale", locale)

    def exists(self, name: str) -> bool:
        """True if the user exists."""
        return bool(self.redis.exists(keys.user_for(name)))

    def new_token(self, name: str, label: str = COMMAND_LINE_TOKEN) -> str:
        """Issue another API token for an existing user (shown once, stored hashed)."""
        return self.create_token(name, label)[1]

    def create_token(self, name: str, label: str) -> tuple[str, str]:
        """A new named API token for user ``name``: ``(token id, token)``; the token is never stored."""
        if not self.exists(name):
            raise NotFoundError(f"no user {name!r}", user=name)
        label = label.strip()
        if not 1 <= len(label) <= MAX_TOKEN_NAME:
            raise InvalidRequestError(f"token name: 1 to {MAX_TOKEN_NAME} characters", field="name")
        token, token_id = secrets.token_urlsafe(32), secrets.token_hex(6)
        record = json.dumps({"name": label, "created": time.time(), "hash": hash_token(token)})
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(keys.token_for(hash_token(token)), name)
            pipe.hset(keys.user_tokens_for(name), token_id, record)
            pipe.execute()
        return token_id, token

    def tokens(self, name: str) -> list[TokenInfo]:
        """The user's API tokens (those made since tokens were listed), oldest first."""
        raw: Mapping[bytes, bytes] = self.redis.hgetall(keys.user_tokens_for(name))  # type: ignore[assignment]
        found = []
        for token_id, record in raw.items():
            data = json.loads(record)
            found.append(TokenInfo(token_id.decode(), str(data["name"]), float(data["created"])))
        return sorted(found, key=lambda t: (t.created, t.id))

    def revoke_token(self, name: str, token_id: str) -> None:
        """Revoke one of the user's tokens: the API refuses it from now on. NotFoundError for an unknown id."""
        record = as_optional_bytes(self.redis.hget(keys.user_tokens_for(name), token_id))
        if record is None:
            raise NotFoundError(f"no token {token_id!r}", token=token_id)
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(keys.token_for(json.loads(record)["hash"]))
            pipe.hdel(keys.user_tokens_for(name), token_id)
            pipe.execute()

    def user_for_token(self, token: str) -> str | None:
        """The user a token belongs to, or None."""
        name = as_optional_bytes(self.redis.get(keys.token_for(hash_token(token))))
        return name.decode() if name else None

    def check_password(self, name: str, password: str) -> bool:
        """True if ``name`` exists and ``password`` is theirs.

        An unknown user (or one without a password) costs the same scrypt as a known one, against
        a dummy hash: how long the answer takes must not tell which user names exist.
        """
        stored = as_optional_bytes(self.redis.hget(keys.user_for(name), "password"))
        matches = verify_password(password, stored.decode() if stored else _dummy_hash())
        return bool(stored) and matches
