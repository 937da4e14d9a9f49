"""Annotations: anyone who can read annotates; only the author edits, deletes and undoes."""

from __future__ import annotations

from service.api.schemas import AnnotationListSchema, AnnotationSchema
from tests.service.api.helpers import assert_error, assert_matches


def _add(client, users, gid, who="bob", **fields):
    body = {"branch": "main", "seq": 3, "text": "good roll"} | fields
    return client.post(f"/api/games/{gid}/annotations", json=body, headers=users.auth(who))


def test_anyone_who_can_read_annotates(client, users, new_game):
    gid = new_game()["id"]
    response = _add(client, users, gid, glyph="!?")
    assert response.status_code == 201
    note = response.get_json()
    assert_matches(AnnotationSchema, note)
    got = (note["author"], note["branch"], note["seq"], note["text"], note["glyph"], note["version"])
    assert got == ("bob", "main", 3, "good roll", "!?", 1)
    assert response.headers["Location"] == f"/api/games/{gid}/annotations/{note['id']}"
    listed = client.get(f"/api/games/{gid}/annotations").get_json()
    assert_matches(AnnotationListSchema, listed)
    assert [a["id"] for a in listed["annotations"]] == [note["id"]]
    assert client.get(f"/api/games/{gid}/annotations?branch=main").get_json() == listed
    assert_error(client.get(f"/api/games/{gid}/annotations?branch=nope"), 404)
    assert_error(client.post(f"/api/games/{gid}/annotations", json={"branch": "main", "seq": 3, "text": "x"}), 401)


def test_annotation_targets_are_checked(client, users, new_game):
    gid = new_game()["id"]
    assert_error(_add(client, users, gid, seq=4), 400, "invalid")
    assert_error(_add(client, users, gid, seq=0), 400, "invalid")
    assert_error(_add(client, users, gid, branch="nope"), 404, "not_found")
    assert_error(_add(client, users, gid, glyph="!!!"), 400, "invalid")
    assert_error(_add(client, users, gid, text="  "), 400, "bad_request")  # neither a comment nor a glyph
    assert_error(_add(client, users, gid, colour="red"), 400, "invalid")
    assert client.get(f"/api/games/{gid}/annotations").get_json()["annotations"] == []


def test_text_is_stored_and_returned_verbatim(client, users, new_game):
    gid = new_game()["id"]
    text = '<script>alert("x")</script><img src=x onerror=alert(1)> & "quotes" \u00e9'
    aid = _add(client, users, gid, text=text).get_json()["id"]
    response = client.get(f"/api/games/{gid}/annotations/{aid}")
    assert response.get_json()["text"] == text
    assert response.mimetype == "application/json"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_only_the_author_edits_deletes_and_undoes(client, users, new_game):
    gid = new_game()["id"]
    aid = _add(client, users, gid).get_json()["id"]
    url = f"/api/games/{gid}/annotations/{aid}"
    assert_error(client.patch(url, json={"text": "mine now"}, headers=users.auth("alice")), 403, "forbidden")
    assert_error(client.delete(url, headers=users.auth("carol")), 403, "forbidden")
    assert_error(client.post(url + "/undo", headers=users.auth("alice")), 403, "forbidden")
    assert_error(client.patch(url, json={"text": "anonymous"}), 401)
    assert client.get(url).get_json()["version"] == 1


def test_edit_delete_undo_with_versions(client, users, new_game):
    gid = new_game()["id"]
    aid = _add(client, users, gid, glyph="!").get_json()["id"]
    url, bob = f"/api/games/{gid}/annotations/{aid}", users.auth("bob")
    edited = client.patch(url, json={"text": "great roll", "expected_version": 1}, headers=bob)
    assert edited.status_code == 200
    assert (edited.get_json()["text"], edited.get_json()["glyph"], edited.get_json()["version"]) == ("great roll", "!", 2)
    error = assert_error(client.patch(url, json={"text": "late", "expected_version": 1}, headers=bob), 409, "conflict")
    assert error["details"]["version"] == 2
    cleared = client.patch(url, json={"glyph": None}, headers=bob).get_json()
    assert cleared["glyph"] is None and cleared["version"] == 3
    assert_error(client.patch(url, json={}, headers=bob), 400, "invalid")
    assert_error(client.delete(url + "?expected_version=2", headers=bob), 409, "conflict")
    deleted = client.delete(url + "?expected_version=3", headers=bob)
    assert deleted.status_code == 200 and deleted.get_json()["deleted"] is True
    assert client.get(f"/api/games/{gid}/annotations").get_json()["annotations"] == []
    assert_error(client.post(url + "/undo", json={"expected_version": 3}, headers=bob), 409, "conflict")
    restored = client.post(url + "/undo", headers=bob)
    assert restored.status_code == 200 and restored.get_json()["deleted"] is False
    assert [a["id"] for a in client.get(f"/api/games/{gid}/annotations").get_json()["annotations"]] == [aid]
    history = client.get(url).get_json()["history"]
    assert [h["text"] for h in history] == ["good roll", "great roll", "great roll"]


def test_unknown_annotation_is_404(client, users, new_game):
    gid = new_game()["id"]
    assert_error(client.get(f"/api/games/{gid}/annotations/nope"), 404, "not_found")
    assert_error(client.patch(f"/api/games/{gid}/annotations/nope", json={"text": "x"}, headers=users.auth("bob")), 404)
    assert_error(client.delete(f"/api/games/{gid}/annotations/nope", headers=users.auth("bob")), 404)
    assert_error(client.get("/api/games/nope/annotations"), 404)


def test_a_fork_inherits_the_comments_on_the_moves_it_shares(client, users, new_game):
    """With inherited=true, a fork lists the parent's comments up to the fork point, then its own."""
    gid = new_game()["id"]
    before = _add(client, users, gid, seq=2, text="on a shared move").get_json()
    after = _add(client, users, gid, seq=3, text="on main only").get_json()
    fork = client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": 2, "name": "what if"},
                       headers=users.auth("bob")).get_json()
    own = _add(client, users, gid, branch=fork["branch"], seq=fork["seq"], text="on the fork").get_json()
    listed = client.get(f"/api/games/{gid}/annotations?branch={fork['branch']}&inherited=true").get_json()
    assert [a["id"] for a in listed["annotations"]] == [before["id"], own["id"]]
    plain = client.get(f"/api/games/{gid}/annotations?branch={fork['branch']}").get_json()
    assert [a["id"] for a in plain["annotations"]] == [own["id"]]
    on_main = client.get(f"/api/games/{gid}/annotations?branch=main&inherited=true").get_json()
    assert [a["id"] for a in on_main["annotations"]] == [before["id"], after["id"]]
