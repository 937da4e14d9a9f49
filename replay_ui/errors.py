"""The pages' errors, handled at the edge like the API's: the store's errors mapped once to the UI's error page.

A view reads what it needs and lets a missing or forbidden game (or a bad ``view``) raise; the handlers registered here on the
UI blueprint answer it, so no view wraps its reads in try/except. A page gets ``error.html``; the UI's own
JSON endpoints (``timeline.json``, ``states.json``, ``log.json``, read by the pages' scripts) get the same
JSON error body as the API (:func:`service.web.errors.error_response`).
"""

from __future__ import annotations

from flask import Blueprint, render_template, request
from flask.typing import ResponseReturnValue

from service.i18n import DEFAULT_LOCALE, N_, _, current_locale
from service.store.errors import ConflictError, ForbiddenError, GoneError, NotFoundError, StoreError
from service.web.errors import ApiError, error_response

#: (error class, status, code, the page's title), most specific first.
PAGE_ERRORS: tuple[tuple[type[StoreError], int, str, str], ...] = (
    (NotFoundError, 404, "not_found", N_("Not found")),
    (ForbiddenError, 403, "forbidden", N_("Forbidden")),
    (GoneError, 410, "gone", N_("Gone")),  # an invite used or revoked
    (ConflictError, 409, "conflict", N_("Conflict")),  # an invite opened by the branch's own owner
)

#: What the error page says in a language other than English, by status: the store's and the web layer's messages
#: are English sentences with the facts (an id, a name), written where the error is raised; an English reader gets
#: that sentence, another reader this one (see docs/ARCHITECTURE.md, "Languages").
PAGE_MESSAGES = {
    400: N_("This address asks for something the page cannot show."),
    403: N_("This is not yours to open or change. If you came from one of our pages, reload it and try again."),
    404: N_("There is nothing here: no such game, branch or page, or it is not shown to you."),
    409: N_("This cannot be done: it conflicts with what is there already (an invite to your own table, say)."),
    410: N_("This is gone: the invite was used or revoked."),
}


def error_page(status: int, title: str, message: str) -> ResponseReturnValue:
    """The UI's error page: ``title`` a message of the catalog (translated here), ``message`` English (the store's or
    the web layer's own words), shown as is to an English reader and as :data:`PAGE_MESSAGES` says to the others."""
    if current_locale() != DEFAULT_LOCALE:
        message = _(PAGE_MESSAGES.get(status, PAGE_MESSAGES[400]))
    return render_template("error.html", status=status, title=_(title), message=message), status


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
    return error_page(exc.status, N_("Bad request") if exc.status == 400 else N_("Error"), exc.message)


def handle_errors(page: Blueprint) -> None:
    """Answer the errors of ``page``'s routes with the error page (or, for its JSON endpoints, the JSON body)."""
    for kind, *_rest in PAGE_ERRORS:
        page.register_error_handler(kind, _answer)
    page.register_error_handler(ApiError, _answer_web_error)
