"""The languages offered, the choice from ``Accept-Language``, the current locale and the locale's formats."""

from __future__ import annotations

import datetime as dt

import pytest

from service.i18n import (
    LOCALES,
    _,
    bcp47,
    current_locale,
    format_date,
    format_duration,
    format_list,
    format_number,
    locale_id,
    negotiate,
    ngettext,
    script_catalog,
    use_locale,
)


@pytest.mark.parametrize(("header", "expected"), [
    ("hu-HU,hu;q=0.9,en-US;q=0.8", "hu"),
    ("de-AT", "de"),
    ("zh-TW,zh;q=0.9", "zh_Hant"),
    ("zh-HK", "zh_Hant"),
    ("zh-MO", "zh_Hant"),
    ("zh-Hant-TW", "zh_Hant"),
    ("zh-CN,zh;q=0.9", "zh_Hans"),
    ("zh-SG", "zh_Hans"),
    ("zh", "zh_Hans"),
    ("zh-Hans-HK", "zh_Hans"),
    ("fr-FR,fr;q=0.9,de;q=0.5,en;q=0.3", "de"),
    ("en;q=0.4,hu;q=0.8", "hu"),
    ("hu;q=0,de", "de"),
    ("fr", "en"),
    ("*", "en"),
    ("", "en"),
    ("hu;q=bad,de;q=0.5", "de"),
])
def test_accept_language_picks_an_offered_locale(header: str, expected: str) -> None:
    assert negotiate(header) == expected


def test_the_two_spellings_convert_both_ways() -> None:
    assert [bcp47(locale) for locale in LOCALES] == ["en", "hu", "de", "zh-Hant", "zh-Hans"]
    assert [locale_id(bcp47(locale)) for locale in LOCALES] == list(LOCALES)
    assert locale_id("ZH-hant") == "zh_Hant" and locale_id("fr") is None and locale_id(None) is None


def test_the_current_locale_is_english_outside_and_restored_after_use() -> None:
    assert current_locale() == "en" and _("Sign in") == "Sign in"
    with use_locale("de"):
        assert current_locale() == "de" and _("Sign in") == "Anmelden"
        with use_locale("zh_Hant"):
            assert _("Sign in") == "登入"
        assert _("Sign in") == "Anmelden"
    assert current_locale() == "en"
    with pytest.raises(ValueError, match="not offered"):
        use_locale("fr").__enter__()


def test_placeholders_and_plurals_are_filled_in_each_language() -> None:
    with use_locale("hu"):
        assert _("Signed in as <strong>%(user)s</strong>", user="anna") == "Bejelentkezve: <strong>anna</strong>"
        assert "anna" in _("The user name %(name)s is taken already.", name="anna")
        assert ngettext("%(num)d game shown.", "%(num)d games shown.", 3).startswith("3 ")
    with use_locale("en"):
        assert ngettext("%(num)d game shown.", "%(num)d games shown.", 1) == "1 game shown."


def test_dates_numbers_durations_and_lists_follow_the_locale() -> None:
    day = dt.date(2026, 11, 29)
    assert format_date(day, locale="de") == "29.11.2026"
    assert format_date(day, locale="hu") == "2026. nov. 29."
    assert format_date(day, locale="zh_Hant") == "2026年11月29日"
    assert format_number(12345.5, locale="de") == "12.345,5"
    assert format_number(12345.5, locale="hu") == "12\xa0345,5"
    assert format_duration(3 * 3600, locale="de") == "3 Stunden"
    assert format_duration(3 * 3600, locale="hu") == "3 óra"
    assert format_duration(3 * 3600, locale="zh_Hans") == "3小时"
    assert format_list(["Ann", "Bob", "Cy"], locale="hu") == "Ann, Bob és Cy"
    with use_locale("de"):
        assert format_list(["Ann", "Bob"]) == "Ann und Bob"


def test_the_scripts_catalog_holds_the_scripts_messages_only() -> None:
    hungarian = script_catalog("hu")
    assert hungarian["locale"] == "hu" and hungarian["plurals"] == 2
    assert hungarian["messages"]["Uploading…"] != "Uploading…"
    assert "Skip to content" not in hungarian["messages"]  # a template's, not a script's
    assert isinstance(hungarian["messages"]["%(num)d game shown."], list)
    assert script_catalog("zh_Hant")["plurals"] == 1
    assert script_catalog("en")["messages"] == {}
