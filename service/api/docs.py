"""Describing each view for OpenAPI next to the view itself.

``@documented(...)`` records a view's query, body and response schemas and the error
statuses it may answer; :mod:`service.api.openapi` walks the app's URL map and turns
those records into the spec, so a route cannot exist without its description (a test
checks that every API rule carries one). A long description is the view's docstring after its
first paragraph (:func:`docstring_body`), where prose reads best, rather than a string in the decorator.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from marshmallow import Schema

F = TypeVar("F", bound=Callable[..., Any])

#: How a view authenticates: "none" (ignores tokens), "optional" (a token widens what is
#: visible), "required" (401 without one).
AUTH_MODES = ("none", "optional", "required")


@dataclass(frozen=True)
class Operation:
    """What OpenAPI needs to know about one view."""

    summary: str
    response: type[Schema] | None
    status: int = 200
    query: type[Schema] | None = None
    body: type[Schema] | None = None
    errors: tuple[int, ...] = ()
    auth: str = "optional"
    headers: tuple[tuple[str, str], ...] = ()
    tag: str = "games"
    description: str = ""
    body_required: bool = True
    #: Other success statuses answered with the same response schema, each with what it means.
    also: tuple[tuple[int, str], ...] = ()


def documented(summary: str, *, response: type[Schema] | None, status: int = 200, query: type[Schema] | None = None,
               body: type[Schema] | None = None, errors: tuple[int, ...] = (), auth: str = "optional",
               headers: tuple[tuple[str, str], ...] = (), tag: str = "games", description: str = "",
               body_required: bool = True, also: tuple[tuple[int, str], ...] = ()) -> Callable[[F], F]:
    """Attach an :class:`Operation` to a view (put it below the route decorator)."""
    if auth not in AUTH_MODES:
        raise ValueError(f"auth {auth!r}: expected one of {AUTH_MODES}")

    def mark(view: F) -> F:
        said = description or docstring_body(view)
        operation = Operation(summary, response, status, query, body, errors, auth, headers, tag, said, body_required, also)
        view.openapi = operation  # type: ignore[attr-defined]
        return view

    return mark


def docstring_body(view: Callable[..., Any]) -> str:
    """The view's docstring after its first paragraph, as one line ("" without one): the API's description of a
    route whose decorator gives none (the first paragraph is for the code's readers)."""
    _, _, body = inspect.cleandoc(view.__doc__ or "").partition("\n\n")
    return " ".join(body.split())


def operation_of(view: Callable[..., Any] | None) -> Operation | None:
    """The view's :class:`Operation`, if it has one."""
    return getattr(view, "openapi", None)
