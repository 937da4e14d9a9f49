"""The Flask app factory: ``gunicorn 'ludolog.app:create_app()'``.

The factory is the top of the layers (engine ← stores ← API, UI, jobs): it alone knows them
all, and wires the API, the UI's blueprints (both lists registered here, in one loop) and the app's one CSRF check
together. Each web
process builds one app; its stores (Redis connections, the state reader's cache)
live as long as the process. Tests pass their own :class:`Config` and :class:`Stores`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any

import redis
from flask import Flask
from flask_compress import Compress
from werkzeug.middleware.proxy_fix import ProxyFix

import replay_ui
from service import api
from service.api.health import handle_store_loading
from service.runtime.config import Config, check_secret_key
from service.store.context import Stores
from service.web import csrf, headers, language
from service.web.streamgate import StreamGate


def create_app(config: Config | None = None, stores: Stores | None = None) -> Flask:
    """A ludolog app for ``config`` (default: from the environment), using ``stores`` if given.

    Building the app never talks to Redis, so gunicorn can start (and answer ``503 starting``)
    while the store is still loading. Configured from the environment, it refuses a weak
    secret key outside development (:func:`check_secret_key`).
    """
    if config is None and stores is None:
        config = Config()
        check_secret_key(config)
    config = config or (stores.config if stores is not None else Config())
    stores = stores or Stores(config)
    app = Flask(__name__, static_folder=None)  # the UI blueprint brings its own static files
    app.config.update(
        # Without a configured key there are no sessions (and so no cookie sign-in): a random
        # per-process key would sign users out whenever a request lands on another worker.
        SECRET_KEY=config.secret_key,
        MAX_CONTENT_LENGTH=config.max_body_bytes,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        # Secure on every request that came over https (service.web.headers); the setting forces it always.
        SESSION_COOKIE_SECURE=config.secure_cookies,
        # The cookie and its server-side session (service.store.sessions) expire together.
        PERMANENT_SESSION_LIFETIME=config.session_seconds,
        LUDOLOG=config,
    )
    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep the documented field order
    compress_responses(app)
    language.init_app(app)  # each request's language chosen first: whatever answers it (even a refusal) is in it
    api.init_app(app, stores)
    # Before the generic ConnectionError handler (BusyLoadingError subclasses it): Flask picks by MRO.
    app.register_error_handler(redis.exceptions.BusyLoadingError, handle_store_loading)
    for blueprint in (*api.BLUEPRINTS, *replay_ui.BLUEPRINTS):  # every route: the API's, then the pages'
        app.register_blueprint(blueprint)
    # One CSRF check for the API and the UI alike; the UI's forms are checked even before sign-in.
    csrf.init_app(app, form_blueprints={ui.name for ui in replay_ui.BLUEPRINTS}, refuse_page=replay_ui.forbidden_page)
    # Each live stream takes a slot of its client's address before Flask runs (inside the proxy fix: the client's
    # address is known by then).
    app.wsgi_app = StreamGate(app.wsgi_app, lambda: stores.open_streams)  # type: ignore[method-assign]
    trust_proxies(app, config.trusted_proxies)
    headers.init_app(app)  # Referrer-Policy and nosniff on every response; the session cookie Secure over https
    return app


def trust_proxies(app: Flask, proxies: Collection[str]) -> None:
    """Believe ``X-Forwarded-For`` and ``X-Forwarded-Proto`` only on requests whose peer is one of ``proxies``.

    With none listed (the default: ``make run`` and ``ludolog serve`` serve browsers directly) the headers are
    never read, since any client can send them: believed, they let a guesser rotate the address the sign-in
    and sign-up limits count (issue 29). Behind a proxy (LUDOLOG_TRUSTED_PROXIES, deploy/env.example), a
    request straight from it goes through werkzeug's ProxyFix with one hop each: the client is the last
    ``X-Forwarded-For`` entry, the one that proxy appended; entries before it are whatever the client sent.
    """
    if proxies:
        app.wsgi_app = TrustedProxyFix(app.wsgi_app, frozenset(proxies))  # type: ignore[method-assign]


class TrustedProxyFix:
    """WSGI middleware: werkzeug's ProxyFix (one proxy hop) for requests from a listed peer, none for others."""

    def __init__(self, wsgi_app: Callable[..., Iterable[bytes]], proxies: frozenset[str]) -> None:
        self.direct = wsgi_app
        self.fixed = ProxyFix(wsgi_app, x_for=1, x_proto=1)
        self.proxies = proxies

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        """Pass the request on, through ProxyFix only when its peer is a trusted proxy."""
        handler = self.fixed if environ.get("REMOTE_ADDR") in self.proxies else self.direct
        return handler(environ, start_response)


#: What is worth compressing: our pages, scripts, styles and JSON (a game's timeline is ~300 KB of sentences).
COMPRESSED_TYPES = ["text/html", "text/css", "text/javascript", "application/javascript", "application/json", "text/plain",
                    "image/svg+xml"]


def compress_responses(app: Flask) -> None:
    """Brotli or gzip for every text response the browser accepts it for (issue 22: a mobile game page sent
    287 KB of uncompressed JSON before its caption could show).

    flask-compress is the well-kept Flask extension for this (negotiates ``Accept-Encoding``, sets ``Vary``,
    keeps ETags distinct per encoding, compresses streamed responses chunk by chunk so an export still
    streams); writing our own after-request hook would repeat all of that. A proxy in front may compress
    instead: a response that already has a ``Content-Encoding`` is left alone.
    """
    app.config.update(
        COMPRESS_MIMETYPES=COMPRESSED_TYPES,
        COMPRESS_ALGORITHM=["br", "gzip", "deflate"],
        COMPRESS_ALGORITHM_STREAMING=["br", "deflate"],
        COMPRESS_BR_LEVEL=5,
        COMPRESS_MIN_SIZE=500,
        # Static files are streamed from disk: still answer If-None-Match / If-Modified-Since with 304.
        COMPRESS_STREAMING_ENDPOINT_CONDITIONAL=["replay_ui.static"],
    )
    Compress(app)
