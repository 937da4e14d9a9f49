"""The pseudo-locale ``en-XA`` (issue 47 item 6): every catalog text in it is the English one, its letters accented
and the whole wrapped in ⟦ ⟧ (``Your turn`` → ``⟦Ýöûŕ ţûŕñ⟧``), as Android's and Chromium's pseudo-locale of the
same name does.

A page shown in it says at a glance which of its words went through a catalog: text still plain English did not (a
string built in code, a script's literal, an adapter's label). The browser walk of every page
(``tests/ui/test_pseudo_locale.py``) fails on any such text. Data stays as it is (a player's name inside a translated
sentence stays ``Anna``), and so do the placeholders a translation must keep (``%(user)s``, ``{who}``,
``{plantation:a}``), markup and character references. The locale is offered only by name (``?lang=en-XA``): no menu
lists it, and dates and numbers are English.
"""

from __future__ import annotations

import re
from typing import Any

from babel.messages.catalog import Catalog

#: The pseudo-locale's BCP 47 tag (the edges: ``?lang=``, ``<html lang>``) and Babel's id (inside).
PSEUDO_TAG = "en-XA"
PSEUDO_LOCALE = "en_XA"
#: What wraps every pseudo-translated text: its start and end are visible, so a text cut short or glued from
#: fragments shows.
OPEN, CLOSE = "⟦", "⟧"
_PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ACCENTED = "àƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÀƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ"
_ACCENT = str.maketrans(_PLAIN, _ACCENTED)
#: The parts of a message a translation keeps as they are: Python's and the scripts' ``%(name)s`` placeholders, the
#: engines' ``{name}`` and ``{name:a}``, markup tags and character references.
_KEPT = re.compile(r"%\([^)]*\)[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]|%%|%[sd]|\{[^{}]*\}|<[^<>]*>|&#?\w+;")


def pseudo(text: str) -> str:
    """``text`` in the pseudo-locale: accented outside its placeholders, markup and references, then wrapped; an
    empty text stays empty."""
    if not text:
        return text
    pieces, start = [], 0
    for kept in _KEPT.finditer(text):
        pieces.append(text[start:kept.start()].translate(_ACCENT))
        pieces.append(kept.group(0))
        start = kept.end()
    pieces.append(text[start:].translate(_ACCENT))
    return OPEN + "".join(pieces) + CLOSE


def pseudo_template(template: str | tuple[str, ...]) -> str | tuple[str, ...]:
    """An engine's template (one text, or its plural forms) in the pseudo-locale."""
    return pseudo(template) if isinstance(template, str) else tuple(pseudo(form) for form in template)


def pseudo_catalog(source: Catalog) -> Catalog:
    """A catalog of the pseudo-locale with ``source``'s messages (any complete catalog of the domain: only its
    English ids are read), each pseudo-translated; English plural forms."""
    found = Catalog(locale="en", domain=source.domain)
    for message in source:
        if not message.id:
            continue
        found.add(message.id, _pseudo_string(message.id), locations=message.locations, context=message.context)
    return found


def _pseudo_string(message_id: Any) -> str | tuple[str, ...]:
    if isinstance(message_id, tuple | list):
        return tuple(pseudo(str(form)) for form in message_id)
    return pseudo(str(message_id))
