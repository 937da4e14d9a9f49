"""The pages' errors, handled at the edge like the API's: the store's errors mapped once to the UI's error page.

A view reads what it needs and lets a missing or forbidden game (or a bad ``view``) raise; the handlers registered here on the
UI blueprint answer it, so no view wraps its reads in try/except. A page gets ``error.html``; the UI's own
JSON endpoints (``timeline.json``, ``states.json``, ``log.json``, read by the pages' scripts) get the same
JSON error body as the API (:func:`service.web.errors.error_response`).
"""

from __future__ import annotations

from flask import Blueprint, render_template, request
from flask.typing import ResponseReturnValue

from service.store.errors import ConflictError, ForbiddenError, GoneError, NotFoundError, StoreError
from service.web.errors import ApiError, error_response

#: (error class, status, code, the page's title), most specific first.
PAGE_ERRORS: tuple[tuple[type[StoreError], int, str, str], ...] = (
    (NotFoundError, 404, "not_found", "Not found"),
    (ForbiddenError, 403, "forbidden", "Forbidden"),
    (GoneError, 410, "gone", "Gone"),  # an invite used or revoked
    (ConflictError, 409, "conflict", "Conflict"),  # an invite opened by the branch's own owner
)


def error_page(status: int, title: str, message: str) -> ResponseReturnValue:
    """The UI's error page."""
    return render_template("error.html", status=status, title=title, message=message), status


def _answer(exc: StoreError) -> ResponseReturnValue:
    """The page (or, for the pages' JSON endpoints, the JSON body) for ``exc``, from :data:`PAGE_ERRORS`."""
    status, code, title = next((s, c, t) for kind, s, c, t in PAGE_ERRORS if isinstance(exc, kind))
    if request.path.endswith(".json"):
        return error_response(status, code, exc.message, dict(exc.details))
    return error_page(status, title, exc.message)


def _answer_web_error(exc: ApiError) -> ResponseReturnValue:
    """An error the web layer decided on (a bad ``view``, say): its status, as a page or as JSON."""
    if request.path.endswith(".json"):
        return error_response(exc.status, exc.code, exc.message, exc.details)
    return error_page(exc.status, "Bad request" if exc.status == 400 else "Error", exc.message)


def handle_errors(page: Blueprint) -> None:
    """Answer the errors of ``page``'s routes with the error page (or, for its JSON endpoints, the JSON body)."""
    for kind, *_ in PAGE_ERRORS:
        page.register_error_handler(kind, _answer)
    page.register_error_handler(ApiError, _answer_web_error)
