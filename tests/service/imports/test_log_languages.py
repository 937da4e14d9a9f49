"""Issue 47 item 7: a pasted review text in another language than English is refused (400, nothing stored) with a
message that names the language it seems to be in and points to the archive JSON and the bookmarklet; English text
that is no log still gets the formats a paste may be in."""

from __future__ import annotations

import io

import pytest

from tests.engine.bga.review_languages import ENGLISH_UNREADABLE, GERMAN_REVIEW, HUNGARIAN_REVIEW
from tests.service.api.helpers import assert_error


def _stored(redis_client) -> set[bytes]:
    """The keys of uploads and games in the store."""
    return {key for key in redis_client.scan_iter() if b"upload" in key or b"game" in key}


@pytest.mark.parametrize(("text", "language", "name"), [(GERMAN_REVIEW, "de", "German"),
                                                        (HUNGARIAN_REVIEW, "hu", "Hungarian")])
def test_a_review_text_in_another_language_is_refused_naming_it(client, users, redis_client, text, language, name):
    before = _stored(redis_client)
    response = client.post("/api/uploads", data={"file": (io.BytesIO(text.encode()), "pasted.txt")}, headers=users.auth("alice"),
                           content_type="multipart/form-data")
    error = assert_error(response, 400, "log_language")
    assert error["message"].startswith(f"This log seems to be in {name}: ")
    assert "archive JSON" in error["message"] and "bookmarklet" in error["message"]
    assert error["details"] == {"language": language, "language_name": name, "help": "/help/bga-logs#review-language"}
    assert _stored(redis_client) == before, "nothing is stored"


def test_english_text_that_is_no_log_gets_the_formats_as_before(client, users):
    error = assert_error(client.post("/api/uploads", data=ENGLISH_UNREADABLE, headers=users.auth("alice")), 400, "bad_json")
    assert error["message"].startswith("not a log we can read: expected BGA JSON") and "Move N" in error["message"]


def test_the_refusal_s_help_link_says_so_in_the_reader_s_language(client, users):
    error = assert_error(client.post("/api/uploads", data=HUNGARIAN_REVIEW, headers=users.auth("alice")), 400,
                         "log_language")
    path, anchor = error["details"]["help"].split("#")
    page = client.get(path, query_string={"lang": "hu"})
    assert page.status_code == 200 and f'id="{anchor}"' in page.text
    assert "A ludolog a visszajátszás szövegét csak angolul olvassa" in page.text
