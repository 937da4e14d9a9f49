"""The pseudo-locale ``en-XA`` (issue 47 item 6, :mod:`service.i18n.pseudo`): every catalog text accented and wrapped,
its placeholders, markup and references kept, so that a page in it shows which words went through no catalog (the
browser walk: ``tests/ui/test_pseudo_locale.py``)."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from service.i18n import gettext, use_locale
from service.i18n.catalogs import catalog
from service.i18n.games.catalogs import english_template, language_of, language_table
from service.i18n.locales import LANGUAGES
from service.i18n.pseudo import CLOSE, OPEN, PSEUDO_LOCALE, PSEUDO_TAG, pseudo
from service.runtime.redis_server import EmbeddedRedis
from tests.ui.conftest import build_app

_PLACEHOLDER = re.compile(r"%\([^)]*\)[a-z]|\{[^{}]*\}|<[^<>]*>")


def test_letters_are_accented_and_wrapped_and_what_a_translation_keeps_is_kept() -> None:
    assert pseudo("Your turn") == "⟦Ýöûŕ ţûŕñ⟧"
    assert pseudo("%(who)s builds {building:a} <b>now</b> &amp; 100%%") == \
        "⟦%(who)s ƀûîļðš {building:a} <b>ñöŵ</b> &amp; 100%%⟧"
    assert pseudo("") == ""


def test_every_site_message_keeps_its_placeholders_in_the_pseudo_catalog() -> None:
    found = catalog(PSEUDO_LOCALE)
    assert found is not None and len(found) > 600
    for message in found:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for source, text in zip(ids, strings, strict=True):
            assert text.startswith(OPEN) and text.endswith(CLOSE), text
            assert _PLACEHOLDER.findall(text) == _PLACEHOLDER.findall(source), (source, text)


def test_gettext_and_the_games_sentences_speak_it() -> None:
    with use_locale(PSEUDO_LOCALE):
        assert gettext("Round %(n)s", n=3) == "⟦Ŕöûñð 3⟧"
    table = language_table(language_of(PSEUDO_TAG))
    assert table.template("puerto_rico.pass") == pseudo(str(english_template("puerto_rico.pass")))


def test_it_is_offered_by_name_only(app: Flask) -> None:
    html = app.test_client().get(f"/?lang={PSEUDO_TAG}").get_data(as_text=True)
    assert f'<html lang="{PSEUDO_TAG}"' in html and OPEN in html
    assert PSEUDO_TAG not in [language.tag for language in LANGUAGES]
    assert f'value="{PSEUDO_TAG}"' not in html, "the language menu lists it"


@pytest.fixture
def app(redis_server: EmbeddedRedis) -> Flask:
    """The app with the UI, on the session's Redis."""
    return build_app(redis_server.url)
