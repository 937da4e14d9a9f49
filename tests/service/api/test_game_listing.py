"""GET /api/games over the listing indexes: the new filters, order, cursor paging, the offset cap, bad input."""

from __future__ import annotations

from service.api.schemas import GameListSchema
from tests.service.api.helpers import assert_error, assert_matches


def _ids(client, query: str, headers=None) -> list[str]:
    body = client.get(f"/api/games?{query}", headers=headers or {}).get_json()
    assert_matches(GameListSchema, body)
    return [g["id"] for g in body["games"]]


def test_filters_combine_and_order_flips(client, users, new_game):
    zoe = new_game(players=["Zoé", "Ben"], title="Friday café")["id"]
    bob = new_game("bob", players=["Zed", "Ben"], title="Friday")["id"]
    hidden = new_game(players=["Zoé", "Ben"], title="Friday", visibility="private")["id"]
    assert _ids(client, "player=ZOE") == [zoe]
    assert _ids(client, "player=zo", users.auth("alice")) == [hidden, zoe]
    assert _ids(client, "player=z&owner=bob") == [bob]
    assert _ids(client, "q=friday&order=oldest") == [zoe, bob]
    assert _ids(client, "q=cafe%20friday&source=live&game=pig") == [zoe]
    assert _ids(client, "source=imported") == [] and _ids(client, "table=12") == []
    assert _ids(client, "q=a%20friday%20!") == [bob, zoe]  # a one-letter word and punctuation are not terms


def test_cursor_pages_to_the_end(client, users, new_game):
    made = [new_game()["id"] for _ in range(5)]
    seen, cursor = [], ""
    while True:
        body = client.get(f"/api/games?limit=2{cursor}").get_json()
        seen += [g["id"] for g in body["games"]]
        if body["next"] is None:
            break
        cursor = f"&cursor={body['next']}"
    assert seen == made[::-1]


def test_bad_listing_input_is_a_400_naming_the_field(client):
    for bad in ("cursor=abc", "offset=201", "order=new", "table=x", "player="):
        response = client.get(f"/api/games?{bad}")
        assert_error(response, 400, "invalid")
        assert bad.split("=")[0] in response.get_data(as_text=True)


def test_openapi_documents_the_listing_parameters(client):
    params = {p["name"] for p in client.get("/api/openapi.json").get_json()["paths"]["/api/games"]["get"]["parameters"]}
    assert {"game", "player", "owner", "source", "table", "q", "order", "cursor", "limit", "offset"} <= params
