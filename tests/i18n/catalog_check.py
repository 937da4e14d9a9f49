"""What the catalog tests share: the site's messages as ``make messages`` extracts them now, and each language's
catalog as the service reads it."""

from __future__ import annotations

import re
import subprocess
import sys
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from service.i18n.catalogs import po_path

ROOT = Path(__file__).resolve().parents[2]
#: Every language but English, the catalogs' source (Babel's ids).
TRANSLATED = ("hu", "de", "zh_Hant", "zh_Hans")
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%%")
TAG = re.compile(r"</?([a-z][a-z0-9]*)\b")


@cache
def extracted(tmp: Path) -> Catalog:
    """The site's messages as the code has them now (babel.cfg, with the keywords the Makefile's ``messages`` uses)."""
    pot = tmp / "messages.pot"
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run([str(pybabel), "-q", "extract", "-F", "babel.cfg", "-k", "t", "-k", "tn:1,2", "-k", "tParts", "-k", "N_",
                    "--add-location=file", "-o", str(pot), "replay_ui", "service"], cwd=ROOT, check=True)
    with pot.open("rb") as file:
        return read_po(file)


@cache
def catalog(locale: str) -> Catalog:
    """``locale``'s catalog of the site, read from its ``.po`` as the service reads it."""
    with po_path(locale).open("rb") as file:
        return read_po(file, locale=locale)


def forms(message: Message) -> list[str]:
    """A message's translations: one, or one per plural form."""
    return [str(s) for s in message.string] if isinstance(message.string, tuple | list) else [str(message.string)]


def ids(message: Message) -> list[str]:
    """A message's English: its id, or its singular and plural."""
    return [str(i) for i in message.id] if isinstance(message.id, tuple | list) else [str(message.id)]


def placeholders(text: str) -> set[str]:
    """The ``%(name)s`` placeholders (and literal ``%%``) of a message."""
    return set(PLACEHOLDER.findall(text))


def tags(text: str) -> list[str]:
    """The HTML tags a message holds (``<kbd>``, ``<a href=…>``), in order."""
    return sorted(TAG.findall(text))
