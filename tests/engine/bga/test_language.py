"""Which language a text that reads as no log seems to be in (engine/bga/language.py): German and Hungarian review
pages are told apart from English and from each other, and a text too short or too mixed to tell names none."""

from __future__ import annotations

import pytest

from engine.bga.language import LANGUAGE_NAMES, languages_of_line, seems_written_in
from tests.engine.bga.review_languages import ENGLISH_UNREADABLE, GERMAN_REVIEW, HUNGARIAN_REVIEW


@pytest.mark.parametrize(("text", "language"), [(GERMAN_REVIEW, "de"), (HUNGARIAN_REVIEW, "hu")])
def test_a_review_page_in_another_language_is_told(text: str, language: str) -> None:
    assert seems_written_in(text) == language


@pytest.mark.parametrize("text", [ENGLISH_UNREADABLE, "hello, this is not a log", "", "Zug 1 : 20:15:07"])
def test_english_and_too_little_name_no_language(text: str) -> None:
    assert seems_written_in(text) is None


def test_a_word_two_languages_share_marks_neither() -> None:
    assert languages_of_line("de la") == set(), "'de' and 'la' are Spanish, Portuguese, Dutch … alike"
    assert languages_of_line("Anna wählt den Siedler") == {"de"}
    assert languages_of_line("Anna az ültetvényest választotta") == {"hu"}


def test_scripts_name_their_language() -> None:
    assert seems_written_in("Anna 選擇了開拓者\nBen 選擇了市長\n") == "zh"
    assert seems_written_in("Anna は開拓者を選びました\nBen は市長を選びました\n") == "ja"


def test_a_tie_between_two_languages_names_neither() -> None:
    assert seems_written_in("Anna wählt den Siedler\nAnna az ültetvényest választotta\n") is None


def test_every_language_has_a_name() -> None:
    assert {"de", "hu", "zh"} <= set(LANGUAGE_NAMES) and LANGUAGE_NAMES["de"] == "German"
