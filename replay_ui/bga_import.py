"""Bringing a game from Board Game Arena: the bookmarklet, the page that receives its log, and the help page.

The bookmark holds a short loader (:func:`loader_url`) that adds ludolog's bookmarklet script to BGA's page with
``integrity`` set to the script's sha384 (Subresource Integrity), computed here once when the module loads. The
script's address carries the same digest (``/import/bga/bookmarklet.<version>.js``), so a bookmark made today
keeps loading today's script and a changed script needs the bookmark dragged again (its old address answers
404, which the loader reports). The script is served with ``Access-Control-Allow-Origin: *``: a cross-origin
script with ``integrity`` is fetched in CORS mode, and without the header the browser refuses to run it.

The log itself never reaches ludolog's server from BGA's page: the script opens ``/import/bga/receive`` in a new
tab and posts the log to it (``postMessage``); that page accepts it only from an origin of
``LUDOLOG_BGA_ORIGINS``, shows what it holds (read in the browser, ``static/js/bgasummary.js``, with the games
that get full rules rendered into the page by :func:`rules_games`) and sends it to ludolog only when the user
presses Import, through ``POST /api/uploads``.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from flask import Response, abort, current_app, render_template, url_for
from flask.typing import ResponseReturnValue

from engine import listed_games, registered_games
from engine.bga.mapping import bga_name, marks_of
from replay_ui.accounts import signed_in_user
from replay_ui.blueprint import blueprint, page_blueprint
from service.games.titles import game_label
from service.i18n import bcp47, current_locale
from service.web.context import api

#: This module's pages, registered by the app factory with the UI's others (replay_ui.BLUEPRINTS).
bp = page_blueprint("bga_import", __name__)

SCRIPT = Path(__file__).resolve().parent / "static" / "bga" / "bookmarklet.js"
#: The screenshots of the help page, in the order it shows them (``tools/help_screenshots.py`` takes them).
HELP_SHOTS = ("bookmarklet.png", "receive.png", "upload-form.png")


@dataclass(frozen=True)
class Bookmarklet:
    """The bookmarklet script as served: its bytes, its SRI digest and the version its address names."""

    body: bytes
    integrity: str
    version: str

    @classmethod
    def read(cls, path: Path) -> Bookmarklet:
        """The script at ``path`` with its sha384 (base64, as SRI writes it) and a version from the same digest."""
        body = path.read_bytes()
        digest = hashlib.sha384(body).digest()
        return cls(body, "sha384-" + base64.b64encode(digest).decode(), digest.hex()[:16])


#: Read once, when the app starts: the digest every loader embeds must be that of the file served.
BOOKMARKLET = Bookmarklet.read(SCRIPT)


def loader_source(script_url: str, integrity: str, import_page: str) -> str:
    """The JavaScript a bookmark holds: add the script with its integrity, and remove the tag once it has run.

    If the script cannot load (a new version, so the bookmark's address is gone; a digest that no longer matches;
    or a page whose Content-Security-Policy refuses scripts of other sites) it says so, naming the page to drag the
    new bookmark from.
    """
    return ("(function(){var d=document,s=d.createElement('script');"
            f"s.src='{script_url}';s.integrity='{integrity}';s.crossOrigin='anonymous';"
            "s.onload=function(){s.remove();};"
            "s.onerror=function(){s.remove();alert('ludolog: the bookmarklet could not load its script: ludolog has a new "
            f"version (drag the bookmark again from {import_page}) or this page refuses scripts of other sites.');}};"
            "(d.head||d.documentElement).appendChild(s);})();void 0")


def loader_url() -> str:
    """The bookmark's ``javascript:`` address, for this server's own origin."""
    script = url_for("bga_import.bookmarklet_script", version=BOOKMARKLET.version, _external=True)
    page = url_for("bga_import.bga_import_page", _external=True)
    return "javascript:" + quote(loader_source(script, BOOKMARKLET.integrity, page), safe="(){};=,.'/:?&+!*-_~@$")


@bp.get("/import/bga")
def bga_import_page() -> ResponseReturnValue:
    """The bookmarklet to drag to the bookmarks bar, and what it does."""
    return render_template("bga_import.html", loader=loader_url(), version=BOOKMARKLET.version)


@bp.get("/import/bga/bookmarklet.<version>.js")
def bookmarklet_script(version: str) -> ResponseReturnValue:
    """The script of this version (any other: 404, which the loader reports), readable from any origin."""
    if version != BOOKMARKLET.version:
        abort(404)
    response = Response(BOOKMARKLET.body, mimetype="text/javascript")
    response.headers["Access-Control-Allow-Origin"] = "*"
    response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def rules_games() -> list[dict[str, object]]:
    """The games an upload replays with full rules, as the receiving tab tells them apart in the browser: our name
    (our export's setup note states it), BGA's name (a log or BGA's page states it), the label people read, and the
    argument names only that game's notifications carry (for a log that names no game, as the archive's answer).

    Every registered game, as the upload's own ``detect_game`` takes them, so both say the same of a log.
    """
    return [{"game": game, "bga": bga_name(game), "label": game_label(game), "marks": list(marks_of(game))}
            for game in registered_games()]


@bp.get("/import/bga/receive")
def bga_receive_page() -> ResponseReturnValue:
    """The tab the bookmarklet opens: it takes the log from an origin of LUDOLOG_BGA_ORIGINS, shows it, imports it."""
    origins = list(current_app.config["LUDOLOG"].bga_origins)
    return render_template("bga_receive.html", origins=origins, games=rules_games(), signed_in=signed_in_user() is not None)


def games_offered() -> tuple[list[str], list[str]]:
    """(games with full rules here, log-only games stored here), as people read their names: from the registry
    and from the games people have imported, so the help page never lists a game by hand."""
    with_rules = listed_games()
    log_only = sorted(api().games.log_only_game_names() - set(with_rules))
    return [game_label(g) for g in with_rules], [game_label(g) for g in log_only]


@bp.get("/help/bga-logs")
def bga_logs_help() -> ResponseReturnValue:
    """How to get a log out of Board Game Arena: the bookmarklet first, then by hand."""
    with_rules, log_only = games_offered()
    return render_template("help_bga_logs.html", with_rules=with_rules, log_only=log_only, shots=help_shots())


def help_shots() -> list[str]:
    """The help page's screenshots (paths under the static folder) in the page's language: the pictures show the
    pages' words, so each language has its own (``tools/help_screenshots.py`` takes them); English's where one is
    missing."""
    tag = bcp47(current_locale())
    folder = Path(blueprint.static_folder or "") / "help"
    return [f"help/{tag}/{name}" if tag != "en" and (folder / tag / name).is_file() else f"help/{name}" for name in HELP_SHOTS]
