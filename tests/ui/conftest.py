"""Fixtures of the UI tests: an app with the UI blueprint on the embedded Redis, demo games,
a real HTTP server in a thread, and headless Debian Chromium driven by Playwright."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from werkzeug.serving import make_server

from ludolog.app import create_app
from service.games.demo import load_demo
from service.runtime.config import Config
from service.runtime.redis_server import EmbeddedRedis
from service.store.context import Stores

#: Debian's "old headless shell" (package chromium-headless-shell): the same Chromium built for headless use only, without
#: the browser's windows, profile services and UI that the full browser's headless mode still starts (Playwright's own
#: headless Chromium is this shell too). Pages render alike; a test costs about a third less of Chromium's CPU (issue 48,
#: docs/PERFORMANCE.md). Where only the full browser is installed, the tests run on it.
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
#: The full browser, for what the headless shell lacks: a notification service (there a granted notifications
#: permission still reads "denied"). Used by the tests that need it only (``full_browser``).
FULL_CHROMIUM = os.environ.get("LUDOLOG_CHROMIUM") or "/usr/bin/chromium"
CHROMIUM = os.environ.get("LUDOLOG_CHROMIUM") or (HEADLESS_SHELL if Path(HEADLESS_SHELL).exists() else FULL_CHROMIUM)
#: The features Playwright itself disables (its chromiumSwitches.ts, the version pinned here): Chromium keeps only the
#: *last* ``--disable-features`` it is given, so ours must repeat them. tests/ui/test_browser_launch.py checks that it
#: does, against the switch Playwright really passes.
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding", "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying",
    "AimEnabled", "PreconnectToSearch", "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion",
)
#: Chromium (from about 140) loads its address bar's suggestion popups as web pages (chrome://omnibox-popup.top-chrome)
#: in a renderer of their own for every window, although a headless window has no address bar: about 0.4 s of CPU for
#: each page a test opens, some 60 % of what a fresh page costs, and a fifth of the whole suite's CPU. (Measured
#: 2026-11-27: a fresh context and a blank page, 0.61 s of Chromium's CPU with them, 0.11 s without.)
UNUSED_BROWSER_UI = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + UNUSED_BROWSER_UI)]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
#: The bound of a browser test's wait for its page (a selector, a function, an address). A wait ends as soon as the
#: page gets there, so a passing test pays nothing for a generous bound; a page that never gets there fails with
#: Playwright's message naming what was awaited. Ten seconds was too little on a machine seven times oversubscribed.
BROWSER_WAIT_MS = 120_000
DEMO_PR = "demo-puerto-rico-1"


def build_app(redis_url: str) -> Flask:
    """A ludolog app with the UI (registered here if the factory does not do it yet)."""
    config = Config(redis_url=redis_url, queue_redis_url=None, secret_key="ui-test-secret", queue_name="ludolog-ui-test")
    app = create_app(config, Stores(config))
    if "replay_ui" not in app.blueprints:
        from replay_ui import blueprint

        app.register_blueprint(blueprint)
    app.testing = True
    return app


@dataclass(frozen=True)
class StoredKey:
    """One Redis key as DUMP gives it: enough to RESTORE it unchanged, its time to live included."""

    name: bytes
    ttl_ms: int
    payload: bytes


@pytest.fixture(scope="session")
def demo_keys(redis_server: EmbeddedRedis) -> list[StoredKey]:
    """Every key that loading the demo games writes, played and stored once per test process.

    Playing the four demo games again for each UI test cost more than the test's own work; each test
    gets the same keys restored on its emptied Redis instead (``app``), so a test that writes changes
    only its own copy and the next one starts from the demo games again."""
    client = redis.Redis.from_url(redis_server.url)
    client.flushall()
    load_demo(Stores(Config(redis_url=redis_server.url)).games, per_game=1)
    names = client.keys("*")
    pipe = client.pipeline(transaction=False)
    for name in names:
        pipe.pttl(name)
        pipe.dump(name)
    answers = pipe.execute()
    client.flushall()
    client.close()
    return [StoredKey(name, max(ttl, 0), payload) for name, ttl, payload in zip(names, answers[::2], answers[1::2], strict=True)]


def restore(client: redis.Redis, keys: list[StoredKey]) -> None:
    """Write ``keys`` back as they were dumped (a time to live of 0 means none)."""
    pipe = client.pipeline(transaction=False)
    for key in keys:
        pipe.restore(key.name, key.ttl_ms, key.payload, replace=True)
    pipe.execute()


@pytest.fixture
def app(redis_server: EmbeddedRedis, redis_client: redis.Redis, demo_keys: list[StoredKey]) -> Flask:
    """A fresh app on an emptied Redis, with the demo games loaded."""
    app = build_app(redis_server.url)
    restore(redis_client, demo_keys)
    return app


@dataclass
class LiveServer:
    """The app served over real HTTP on 127.0.0.1."""

    url: str
    app: Flask
    _server: Any = field(repr=False, default=None)


@pytest.fixture
def live_server(app: Flask) -> Iterator[LiveServer]:
    """``app`` behind werkzeug's threaded server on a free port, for the browser."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield LiveServer(f"http://127.0.0.1:{server.server_port}", app, server)
    server.shutdown()
    thread.join(timeout=5)


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Any]:
    """Playwright, started once per test process: both browsers below are launched from it."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as pw:
        yield pw


def _launched(driver: Any, executable: str) -> Any:
    """Debian's Chromium at ``executable``, headless (never a downloaded one); skips when it is not installed."""
    if not shutil.which(executable) and not Path(executable).exists():
        pytest.skip(f"no Chromium at {executable} (apt-get install chromium chromium-headless-shell)")
    return driver.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)


@pytest.fixture(scope="session")
def browser(playwright_driver: Any) -> Iterator[Any]:
    """Debian's headless Chromium: its headless shell where installed (:data:`CHROMIUM`)."""
    browser = _launched(playwright_driver, CHROMIUM)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def full_browser(playwright_driver: Any) -> Iterator[Any]:
    """Debian's full Chromium, headless, for a test of what the headless shell lacks (notifications)."""
    browser = _launched(playwright_driver, FULL_CHROMIUM)
    yield browser
    browser.close()


@dataclass
class Watched:
    """A page with every console error, page error and dialog it produced."""

    page: Any
    errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def assert_clean(self) -> None:
        """No console error and no uncaught exception happened, and no dialog opened."""
        assert not self.errors, self.errors
        assert not self.dialogs, self.dialogs


@pytest.fixture
def watched(browser: Any) -> Iterator[Watched]:
    """A fresh browser context (own cookies) and page at a laptop's size, watched for errors."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.set_default_timeout(BROWSER_WAIT_MS)
    watched = Watched(page)
    page.on("console", lambda msg: watched.errors.append(f"console {msg.type}: {msg.text}") if msg.type == "error" else None)
    page.on("pageerror", lambda exc: watched.errors.append(f"page error: {exc}"))

    def on_dialog(dialog: Any) -> None:
        watched.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", on_dialog)
    yield watched
    context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """test-artifacts/ (gitignored), for screenshots."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
