"""Downloads of log-only games (issue 29): the file as uploaded, its owner's only; its lines as text or JSON lines as a
viewer may read them (another seat's private lines never in a download); the API's errors for everything else."""

from __future__ import annotations

import json

from service.store import keys
from tests.engine.bga import samples
from tests.engine.bga.samples import TOKAIDO_A
from tests.service.api.helpers import assert_error


def _private_lines(client, users, gid: str) -> dict[int, list[str]]:
    """Each seat's private lines, as the owner (alice) reads them from the log's JSON."""
    players = client.get(f"/api/games/{gid}/log").get_json()["players"]
    out = {}
    for seat in (p["seat"] for p in players):
        view = client.get(f"/api/games/{gid}/log?view={seat}", headers=users.auth("alice")).get_json()
        out[seat] = [li["text"] for m in view["moves"] for li in m["lines"] if li["private"]]
    return out


def test_the_owner_downloads_the_log_as_uploaded_and_nobody_else(client, users, upload, redis_client):
    raw = samples.raw(TOKAIDO_A)
    gid = upload(raw)["game"]
    response = client.get(f"/api/games/{gid}/log/original", headers=users.auth("alice"))
    assert response.status_code == 200 and response.data == raw
    assert response.mimetype == "application/json"
    assert response.headers["Content-Disposition"] == f'attachment; filename="{gid}-bga-log.json"'
    assert_error(client.get(f"/api/games/{gid}/log/original", headers=users.auth("bob")), 403, "forbidden")
    assert_error(client.get(f"/api/games/{gid}/log/original"), 403, "forbidden")
    assert_error(client.get("/api/games/nope/log/original", headers=users.auth("alice")), 404)
    redis_client.delete(keys.original_log_for(gid))  # a game imported before the original was kept
    error = assert_error(client.get(f"/api/games/{gid}/log/original", headers=users.auth("alice")), 404, "not_found")
    assert "/log/export" in error["message"]


def test_log_lines_download_in_the_viewers_view_never_with_another_seats_private_lines(client, users, upload):
    gid = upload(samples.raw(TOKAIDO_A))["game"]
    private = _private_lines(client, users, gid)
    assert sum(map(len, private.values())) == 7
    public = client.get(f"/api/games/{gid}/log").get_json()
    public_texts = {li["text"] for m in public["moves"] for li in m["lines"]}
    secrets = {text for lines in private.values() for text in lines if text not in public_texts}
    assert secrets, "the sample's private lines say something the public ones do not"

    for fmt in ("text", "jsonl"):
        response = client.get(f"/api/games/{gid}/log/export?format={fmt}")  # anyone: the spectator's lines
        assert response.status_code == 200, response.get_data(as_text=True)
        assert response.headers["Content-Disposition"].startswith(f'attachment; filename="{gid}-log.')
        body = response.get_data(as_text=True)
        assert not [s for s in secrets if s in body], f"{fmt}: a private line in the spectator's download"
    rows = [json.loads(line) for line in client.get(f"/api/games/{gid}/log/export?format=jsonl").get_data(as_text=True).splitlines()]
    assert [r["players"] for r in rows[:1]] == [public["players"]]
    assert [[li["text"] for li in r["lines"]] for r in rows[1:]] == [[li["text"] for li in m["lines"]] for m in public["moves"]]

    seat = next(s for s, lines in private.items() if lines)
    own = client.get(f"/api/games/{gid}/log/export?format=jsonl&view={seat}", headers=users.auth("alice")).get_data(as_text=True)
    mine = [li["text"] for line in own.splitlines()[1:] for li in json.loads(line)["lines"] if li["private"]]
    assert mine == private[seat], "a seat's download has its own private lines"
    others = {text for s, lines in private.items() if s != seat for text in lines} - set(private[seat]) - public_texts
    assert not [text for text in others if text in own], "another seat's private line in a seat's download"


def test_log_download_errors(client, users, upload):
    gid = upload(samples.raw(TOKAIDO_A))["game"]
    assert_error(client.get(f"/api/games/{gid}/log/export?view=0", headers=users.auth("bob")), 403, "forbidden")
    assert_error(client.get(f"/api/games/{gid}/log/export?view=0"), 403, "forbidden")
    assert_error(client.get(f"/api/games/{gid}/log/export?view=9", headers=users.auth("alice")), 400, "invalid")
    assert_error(client.get(f"/api/games/{gid}/log/export?format=pdf"), 400)
    assert_error(client.get(f"/api/games/{gid}/log/export?view=%D9%A1"), 400)
    assert_error(client.get(f"/api/games/{gid}/log/export?colour=red"), 400)
    game = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Ben"]}, headers=users.auth("alice")).get_json()
    for path in ("log/original", "log/export"):
        assert_error(client.get(f"/api/games/{game['id']}/{path}", headers=users.auth("alice")), 422, "not_log_only")
