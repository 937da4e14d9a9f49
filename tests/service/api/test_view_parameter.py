"""The ``view`` parameter is read by one parser everywhere (issue 29): digits of other scripts, too many digits or
a seat the game does not have are a 400 naming ``view``, never a 500, and a download's name is sent safely."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from service.web.viewnames import ViewError, parse_view
from tests.service.api.helpers import Users, assert_error, branch_url

#: Views ``str.isdigit`` calls digits: superscript two, Arabic-Indic one, fullwidth one; and 5,000 nines.
NOT_SEATS = ["%C2%B2", "%D9%A1", "%EF%BC%91", "9" * 5000, "01x", "-1", "2"]


@pytest.mark.parametrize("text", ["²", "١", "１", "9" * 5000, "2", "-1", "+1", " 1", "1_0", "Full", ""])
def test_parse_view_refuses_what_names_no_seat(text: str) -> None:
    with pytest.raises(ViewError) as caught:
        parse_view(text, 2)
    assert caught.value.message.startswith("view ") and len(caught.value.message) < 120


def test_parse_view_reads_words_and_ascii_seats() -> None:
    assert [parse_view(t, 3) for t in ("full", "spectator", "0", "2", "01")] == ["full", "spectator", "0", "2", "1"]
    assert parse_view("full", 3, words=("full",)) == "full"
    with pytest.raises(ViewError):
        parse_view("spectator", 3, words=("full",))


@pytest.mark.parametrize("view", NOT_SEATS)
@pytest.mark.parametrize("what", ["state", "events", "legal", "export"])
def test_api_routes_refuse_a_view_that_names_no_seat(client: FlaskClient, users: Users, new_game, what: str, view: str) -> None:
    gid = new_game()["id"]
    error = assert_error(client.get(f"{branch_url(gid, 'main', what)}?view={view}", headers=users.auth("alice")), 400)
    assert "view" in error["message"], error


@pytest.mark.parametrize("view", NOT_SEATS)
@pytest.mark.parametrize("what", ["timeline.json", "states.json"])
def test_page_endpoints_refuse_a_view_that_names_no_seat(client: FlaskClient, new_game, what: str, view: str) -> None:
    gid = new_game()["id"]
    response = client.get(f"/games/{gid}/b/main/{what}?view={view}")
    assert response.status_code == 400, response.get_data(as_text=True)[:200]


@pytest.mark.parametrize("view", NOT_SEATS)
def test_the_game_page_opens_whatever_the_view(client: FlaskClient, new_game, view: str) -> None:
    gid = new_game()["id"]
    response = client.get(f"/games/{gid}/b/main?view={view}")
    assert response.status_code == 200 and response.mimetype == "text/html"


def test_an_export_names_its_file_in_ascii_and_in_rfc_5987_form(client: FlaskClient, users: Users, new_game) -> None:
    gid = new_game()["id"]
    response = client.get(f"{branch_url(gid, 'main', 'export')}?view=1&format=text", headers=users.auth("alice"))
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == (f'attachment; filename="{gid}-main-1.txt"; '
                                                       f"filename*=UTF-8''{gid}-main-1.txt")


def test_attachment_header_is_latin_1_whatever_the_name() -> None:
    from service.api.uploads import attachment

    header = attachment('spiel "١" \r\nX: y.txt')
    header.encode("ascii")
    assert header == ("attachment; filename=\"spiel_______X__y.txt\"; "
                      "filename*=UTF-8''spiel%20%22%D9%A1%22%20%0D%0AX%3A%20y.txt")
