"""The JSON API: blueprints per resource, marshmallow schemas, one error handler, auth.

:func:`init_app` wires it all into an app made by :func:`service.app.create_app`.
"""

from flask import Flask, Response

from service.api import annotations, branches, games, health, openapi
from service.api.context import EXTENSION, ApiContext
from service.api.errors import register_error_handlers
from service.api.inputs import enforce_body_limit
from service.store.context import Stores

BLUEPRINTS = (health.bp, games.bp, branches.bp, annotations.bp, openapi.bp)


def _harden(response: Response) -> Response:
    """API answers are data, never pages: forbid content sniffing and framing."""
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Cache-Control", "no-store")
    return response


def init_app(app: Flask, stores: Stores) -> None:
    """Register the API's services, blueprints, body limit and error handlers on ``app``."""
    app.extensions[EXTENSION] = ApiContext.build(stores)
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    app.before_request(enforce_body_limit)
    app.after_request(_harden)
    register_error_handlers(app)
