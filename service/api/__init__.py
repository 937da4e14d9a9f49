"""The JSON API: blueprints per resource, marshmallow schemas, one error handler, auth.

:func:`init_app` wires it all into an app made by :func:`ludolog.app.create_app`.
"""

from flask import Flask, Response, request

from service.api import (
    analysis,
    annotations,
    branches,
    chat,
    claims,
    compare,
    downloads,
    explorer,
    games,
    health,
    live,
    notifications,
    openapi,
    puzzles,
    seats,
    tables,
    takeback,
    takeback_requests,
    uploads,
)
from service.api.errors import register_error_handlers
from service.api.inputs import enforce_body_limit
from service.store.context import Stores
from service.web.context import EXTENSION, ApiContext

BLUEPRINTS = (health.bp, games.bp, branches.bp, live.bp, live.games_bp, compare.bp, takeback.bp, takeback_requests.bp,
              seats.bp, chat.bp, tables.bp, annotations.bp, uploads.bp, downloads.bp, analysis.bp, notifications.bp,
              explorer.bp, puzzles.bp, puzzles.me_bp, claims.bp, claims.answers_bp, claims.users_bp, openapi.bp)


API_PATHS = ("/api/", "/healthz")


def _harden(response: Response) -> Response:
    """API answers are data, never pages: no content sniffing, and no caching of live state.

    Only API paths: the UI's pages and static files (another blueprint) set their own headers.
    """
    if request.path.startswith(API_PATHS):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def init_app(app: Flask, stores: Stores) -> None:
    """Register the API's services, body limit and error handlers on ``app`` (its :data:`BLUEPRINTS` are registered by
    the app factory, with the UI's)."""
    app.extensions[EXTENSION] = ApiContext.build(stores)
    app.before_request(enforce_body_limit)
    app.after_request(_harden)
    register_error_handlers(app)
