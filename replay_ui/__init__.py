"""The replay UI: a Flask blueprint with pages, templates, static JS/CSS and board renderers.

Register it on an app made by :func:`ludolog.app.create_app`::

    from replay_ui import blueprint
    app.register_blueprint(blueprint)

Pages are thin HTML shells; the JS modules under ``static/js`` draw the board from the
state JSON of the API, and the UI-only JSON endpoints here (``timeline.json``,
``states.json``) hand the browser what the engine says about every position in bulk, so
stepping through a game never waits on the network. No rule of any game lives here.
"""

from flask import Blueprint
from flask.typing import ResponseReturnValue

from replay_ui import accounts, bga_import, compare_page, errors, invite_page, tokens, views  # noqa: F401  (they attach their routes and hooks)
from replay_ui.blueprint import blueprint

__all__ = ["blueprint", "create_blueprint", "forbidden_page"]


def forbidden_page(message: str) -> ResponseReturnValue:
    """The 403 page, for the app's CSRF check to refuse a page's write with (see :mod:`service.web.csrf`)."""
    return errors.error_page(403, "Forbidden", message)


def create_blueprint() -> Blueprint:
    """The UI blueprint (one per process: its routes are attached at import time)."""
    return blueprint
