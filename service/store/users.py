"""Users, their API tokens and passwords.

Tokens are random (256 bits) and stored only as their SHA-256: a leak of the
database does not leak usable tokens, and a token this random needs no slow hash.
Passwords are hashed with werkzeug-free scrypt from hashlib (salted, memory-hard).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Mapping

import redis
from redis.typing import EncodableT, FieldT

from service import keys
from service.store.errors import ConflictError, InvalidRequestError, NotFoundError
from service.store.replies import as_optional_bytes

USERNAME = re.compile(r"^[A-Za-z0-9_.-]{2,40}$")
_SCRYPT = {"n": 2**14, "r": 8, "p": 1, "dklen": 32}


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


class UserStore:
    """Creates users and resolves their tokens and passwords."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def add(self, name: str, password: str | None = None) -> str:
        """Create user ``name`` and return a new API token for it (shown once, stored hashed)."""
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
        return self.new_token(name)

    def exists(self, name: str) -> bool:
        """True if the user exists."""
        return bool(self.redis.exists(keys.user_for(name)))

    def new_token(self, name: str) -> str:
        """Issue another API token for an existing user."""
        if not self.exists(name):
            raise NotFoundError(f"no user {name!r}", user=name)
        token = secrets.token_urlsafe(32)
        self.redis.set(keys.token_for(hash_token(token)), name)
        return token

    def user_for_token(self, token: str) -> str | None:
        """The user a token belongs to, or None."""
        name = as_optional_bytes(self.redis.get(keys.token_for(hash_token(token))))
        return name.decode() if name else None

    def check_password(self, name: str, password: str) -> bool:
        """True if ``name`` exists and ``password`` is theirs."""
        stored = as_optional_bytes(self.redis.hget(keys.user_for(name), "password"))
        if not stored:
            return False
        return verify_password(password, stored.decode())
