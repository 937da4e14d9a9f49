"""The stores' error tree: what went wrong, never how to answer it.

Every error a store raises is a :class:`StoreError`. Each concrete error also derives from
the builtin it refines (``LookupError``, ``ValueError``, ``PermissionError``), as the
engine's errors do (:mod:`engine.core.errors`), so callers who only know the builtins still
catch them. ``message`` says what happened in the engine's style (lower case, quoting the
input); ``details`` holds the structured facts (``game``, ``branch``, ``seq``…) a caller can
act on.

Which HTTP status each error becomes is decided at the edge, in the API's error table
(:data:`service.api.errors.ERROR_TABLE`): the stores serve the CLI and the workers too.
"""

from __future__ import annotations

from typing import Any


class StoreError(Exception):
    """Root of the stores' errors; ``details`` names what the error is about."""

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class NotFoundError(StoreError, LookupError):
    """No such game, branch, annotation, upload or user (or not visible to the caller)."""


class ConflictError(StoreError):
    """A write based on a stale view (the branch head or the version moved on), or a name already taken."""


class InvalidRequestError(StoreError, ValueError):
    """A request the store cannot carry out as asked (a fork point past the head, say)."""


class ForbiddenError(StoreError, PermissionError):
    """The caller may see the thing but not change it (another user's branch or annotation)."""


class IdempotencyKeyReusedError(StoreError):
    """An idempotency key already used for another request (another action, seq or branch)."""


class GoneError(StoreError):
    """A thing that existed and can no longer be used (an invite already used or revoked)."""


class BranchClosingError(ConflictError):
    """A seat or an invite of a branch whose deletion is running (its owner's; it may yet be refused)."""


class BranchGoneError(GoneError):
    """A seat or an invite of a branch that was deleted."""
