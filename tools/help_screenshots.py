"""Take the screenshots of the help page ``/help/bga-logs`` again: ``.venv/bin/python tools/help_screenshots.py``.

They show ludolog's own pages only (never Board Game Arena's), taken in Debian's headless Chromium through
Playwright from a throwaway ludolog: an embedded Redis in a temporary folder and the app on a free port of
127.0.0.1, both gone when the script ends. Written to ``replay_ui/static/help/`` under the names the help page
uses (``replay_ui.bga_import.HELP_SHOTS``):

- ``bookmarklet.png``: the Import from BGA page with the button to drag;
- ``receive.png``: the tab the bookmark opens, showing a seeded Puerto Rico game's log before Import (the log is
  put in the tab's session storage, where the tab keeps a log it received, so no BGA page is needed);
- ``upload-form.png``: the home page's upload form, for the two ways by hand.

Each language's pages are taken too (issue 47: the pictures show the pages' words), under ``help/<tag>/`` (``help/hu/``,
``help/zh-Hant/`` …); English's are ``help/`` itself.

Each file must stay under 150 KB (they are committed); the script says each one's size and fails past it.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from werkzeug.serving import make_server  # noqa: E402  (after the path: run as a script from anywhere)

from engine import Setup, get_rules, listed_games, random_playout  # noqa: E402
from engine.bga import export_log  # noqa: E402
from engine.bga.mapping import mapping_for  # noqa: E402
from ludolog.app import create_app  # noqa: E402
from replay_ui.bga_import import HELP_SHOTS  # noqa: E402
from service.i18n import LANGUAGES  # noqa: E402
from service.runtime.config import Config  # noqa: E402
from service.runtime.redis_server import EmbeddedRedis  # noqa: E402
from service.store.context import Stores  # noqa: E402

OUT = ROOT / "replay_ui" / "static" / "help"
CHROMIUM = os.environ.get("LUDOLOG_CHROMIUM", "/usr/bin/chromium")
MAX_BYTES = 150 * 1024
VIEWPORT = {"width": 900, "height": 700}
#: The key under which the receiving tab keeps a log (replay_ui/static/js/bgareceive.js).
KEPT = "ludolog-bga-log"


@contextmanager
def throwaway_site() -> Iterator[str]:
    """A ludolog with an empty embedded Redis, served on a free port; yields its address."""
    with tempfile.TemporaryDirectory() as folder:
        redis_server = EmbeddedRedis(Path(folder)).start()
        config = Config(redis_url=redis_server.url, queue_redis_url=None, secret_key="screenshots-" + "x" * 32,
                        queue_name="ludolog-screenshots")
        server = make_server("127.0.0.1", 0, create_app(config, Stores(config)), threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_port}"
        finally:
            server.shutdown()
            thread.join(timeout=5)
            redis_server.stop()


def sample_game() -> str:
    """The game of the sample log: the first listed game that BGA also has (named through the registry, so that this
    tool, like all shared code, names no game)."""
    return next(name for name in listed_games() if mapping_for(name) is not None)


def sample_log() -> str:
    """Our BGA export of a seeded random game of :func:`sample_game`: a log the receiving tab can show."""
    events = random_playout(get_rules(sample_game()), Setup(("Anna", "Ben", "Cleo")), random.Random(7)).events
    return json.dumps(export_log(list(events)))


def shoot(page: Any, selector: str, name: str, tag: str) -> None:
    """Save the element ``selector`` of ``page`` as ``name`` (in ``tag``'s folder), and say (or refuse) its size."""
    folder = OUT if tag == "en" else OUT / tag
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    page.locator(selector).screenshot(path=str(path))
    size = path.stat().st_size
    print(f"{path.relative_to(ROOT)}: {size // 1024} KB")
    if size > MAX_BYTES:
        raise SystemExit(f"{name} is {size} bytes, over the {MAX_BYTES} allowed for a committed screenshot")


def take_all(page: Any, site: str, tag: str) -> None:
    """The three screenshots of language ``tag``, in the order of HELP_SHOTS."""
    bookmarklet, receive, upload_form = HELP_SHOTS
    lang = f"?lang={tag}"
    page.goto(f"{site}/import/bga{lang}")
    page.wait_for_selector("body[data-ready='true']")
    shoot(page, "main section", bookmarklet, tag)
    page.goto(f"{site}/import/bga/receive{lang}")
    kept = {"log": sample_log(), "table": None, "from": "https://boardgamearena.com"}
    page.evaluate("([key, kept]) => sessionStorage.setItem(key, JSON.stringify(kept))", [KEPT, kept])
    page.reload()
    page.wait_for_selector("#receive-preview:not([hidden])")
    shoot(page, "main section", receive, tag)
    page.goto(f"{site}/{lang}")
    page.wait_for_selector("body[data-ready='true']")
    shoot(page, "section[aria-labelledby='upload-h']", upload_form, tag)


def main() -> None:
    """Start the throwaway site and a browser, take the screenshots, stop both."""
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with throwaway_site() as site, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport=VIEWPORT, color_scheme="light")
            for language in LANGUAGES:
                take_all(page, site, language.tag)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
