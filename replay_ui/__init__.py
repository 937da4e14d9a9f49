"""The replay UI: Flask blueprints with pages, templates, static JS/CSS and board renderers.

Registered by the app factory (:func:`ludolog.app.create_app`) as the API's are: each page module has its
blueprint (``bp``), listed in :data:`BLUEPRINTS` after the UI's own (``replay_ui``: static files, templates),
and the factory registers ``service.api.BLUEPRINTS`` and these in one loop. Every UI blueprint answers the
store's errors with the error page (:func:`replay_ui.errors.handle_errors`) and sends the pages' security
headers (:func:`replay_ui.views.harden_pages`).

Pages are thin HTML shells; the JS modules under ``static/js`` draw the board from the
state JSON of the API, and the UI-only JSON endpoints here (``timeline.json``,
``states.json``) hand the browser what the engine says about every position in bulk, so
stepping through a game never waits on the network. No rule of any game lives here.
"""

from flask import Blueprint
from flask.typing import ResponseReturnValue

from replay_ui import (
    account_page,
    accounts,
    bga_import,
    compare_page,
    errors,
    explorer_page,
    insights_page,
    invite_page,
    language,
    log_page,
    puzzles_page,
    tokens,
    views,
)
from replay_ui.blueprint import blueprint
from service.i18n import N_

__all__ = ["BLUEPRINTS", "blueprint", "forbidden_page"]

#: The UI's blueprints: its own (static files, templates), then one per page module.
BLUEPRINTS: tuple[Blueprint, ...] = (blueprint, views.bp, accounts.bp, tokens.bp, invite_page.bp, compare_page.bp,
                                     log_page.bp, bga_import.bp, account_page.bp, language.bp,
                                     explorer_page.bp, puzzles_page.bp, insights_page.bp)

for _ui in BLUEPRINTS:
    errors.handle_errors(_ui)
    _ui.after_request(views.harden_pages)


def forbidden_page(message: str) -> ResponseReturnValue:
    """The 403 page, for the app's CSRF check to refuse a page's write with (see :mod:`service.web.csrf`)."""
    return errors.error_page(403, N_("Forbidden"), message)
