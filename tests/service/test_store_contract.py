"""Contract of the event store, against the real embedded Redis (never a mock)."""

from __future__ import annotations

import threading

import pytest

from engine import CHANCE, Setup, action_event
from service.store import keys
from service.store.annotations import AnnotationStore
from service.store.errors import ConflictError, ForbiddenError, InvalidRequestError, NotFoundError
from service.store.games import MAIN, GameStore, IdempotencyKey
from service.store.users import UserStore


@pytest.fixture
def store(redis_client):
    return GameStore(redis_client)


@pytest.fixture
def gid(store):
    return store.create_game("pig", "1", Setup(("Ann", "Bob")), owner="ann", seed="s").id


def rolls(n):
    return [action_event(0, 0, "roll") for _ in range(n)]


def seqs(events):
    return [e.seq for e in events]


def test_a_new_game_holds_game_created_at_seq_1(store, gid):
    first = store.first_event(gid)
    assert (first.seq, first.type, first.data["game"]) == (1, "game_created", "pig")
    assert first.data["setup"]["players"] == ["Ann", "Bob"]
    assert store.head(gid, MAIN) == 1
    assert store.game(gid).owner == "ann"


def test_every_key_of_a_game_carries_its_hash_tag(store, gid, redis_client):
    store.append(gid, MAIN, rolls(2), 1)
    store.fork(gid, MAIN, 2, owner="bob", bid="f1")
    AnnotationStore(redis_client).add(gid, MAIN, 2, "bob", "nice")
    game_keys = [k.decode() for k in redis_client.keys("*") if gid.encode() in k]
    assert game_keys and all(f"{{{gid}}}" in k for k in game_keys)


def test_append_numbers_events_after_the_expected_seq(store, gid):
    result = store.append(gid, MAIN, rolls(3), 1)
    assert (result.first_seq, result.last_seq, result.duplicate) == (2, 4, False)
    assert seqs(store.events(gid, MAIN)) == [1, 2, 3, 4]


def test_a_stale_expected_seq_is_refused_and_appends_nothing(store, gid):
    store.append(gid, MAIN, rolls(1), 1)
    with pytest.raises(ConflictError) as err:
        store.append(gid, MAIN, rolls(2), 1)
    assert err.value.details["head"] == 2  # the API answers it 409 (service.api.errors.ERROR_TABLE)
    assert store.head(gid, MAIN) == 2 and len(store.events(gid, MAIN)) == 2


def test_the_same_idempotency_key_twice_stores_one_event(store, gid):
    first = store.append(gid, MAIN, rolls(1), 1, idempotency_key=IdempotencyKey("ann", "abc"))
    again = store.append(gid, MAIN, rolls(1), 1, idempotency_key=IdempotencyKey("ann", "abc"))
    assert (again.first_seq, again.last_seq, again.duplicate) == (first.first_seq, first.last_seq, True)
    assert seqs(store.events(gid, MAIN)) == [1, 2]


def test_concurrent_writers_never_both_win(store, gid):
    """8 threads race to append with the head they read: no gap, no duplicate, losers get 409."""
    wins, losses = [], []

    def writer():
        for _ in range(25):
            head = store.head(gid, MAIN)
            try:
                store.append(gid, MAIN, rolls(1), head)
                wins.append(head)
            except ConflictError:
                losses.append(head)

    threads = [threading.Thread(target=writer) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert store.head(gid, MAIN) == 1 + len(wins)
    assert seqs(store.events(gid, MAIN)) == list(range(1, 2 + len(wins)))
    assert len(wins) + len(losses) == 200 and len(set(wins)) == len(wins)


def test_range_reads_page_through_a_long_branch(store, gid):
    for head in range(1, 4501, 500):
        store.append(gid, MAIN, rolls(500), head)
    assert store.head(gid, MAIN) == 4501
    assert seqs(store.events(gid, MAIN, after=4490)) == list(range(4491, 4502))
    assert seqs(store.events(gid, MAIN, after=100, limit=3)) == [101, 102, 103]
    assert seqs(store.events_between(gid, MAIN, 1999, 2003)) == [2000, 2001, 2002, 2003]
    assert len(store.events(gid, MAIN)) == 4501


def test_a_fork_reads_its_parent_up_to_the_fork_point_then_its_own(store, gid):
    store.append(gid, MAIN, rolls(5), 1)  # main: 1..6
    fork = store.fork(gid, MAIN, 3, owner="bob", name="what if")
    assert (fork.parent, fork.fork_seq, fork.owner, store.head(gid, fork.id)) == (MAIN, 3, "bob", 3)
    store.append(gid, fork.id, [action_event(0, CHANCE, "d6")], 3)
    events = store.events(gid, fork.id)
    assert seqs(events) == [1, 2, 3, 4] and events[-1].action == "d6"
    assert store.redis.xlen(keys.events_for(gid, fork.id)) == 1, "copy on write: only its own event is stored"
    assert seqs(store.events(gid, MAIN)) == [1, 2, 3, 4, 5, 6]


def test_forks_nest_to_any_depth(store, gid):
    store.append(gid, MAIN, rolls(3), 1)
    parent, at = MAIN, 4
    for depth in range(6):
        branch = store.fork(gid, parent, at, owner="bob", bid=f"d{depth}")
        store.append(gid, branch.id, rolls(2), at)
        parent, at = branch.id, at + 1  # fork the next one in the middle of this one's own events
    events = store.events(gid, parent)
    assert seqs(events) == list(range(1, at + 2))
    assert [s.branch for s in store.segments(gid, parent)] == [MAIN] + [f"d{i}" for i in range(6)]
    assert set(store.branches(gid)) == {MAIN} | {f"d{i}" for i in range(6)}


def test_a_fork_point_must_be_inside_the_parent(store, gid):
    with pytest.raises(InvalidRequestError, match="expected 1 to 1"):
        store.fork(gid, MAIN, 5, owner="bob")
    with pytest.raises(NotFoundError):
        store.fork(gid, "nope", 1, owner="bob")


def test_unknown_games_and_branches_are_not_found(store, gid):
    with pytest.raises(NotFoundError, match="no game 'zzz'"):
        store.game("zzz")
    with pytest.raises(NotFoundError, match="no branch 'zzz'"):
        store.append(gid, "zzz", rolls(1), 1)
    with pytest.raises(NotFoundError):
        store.events("zzz", MAIN)


def test_creating_a_game_with_a_taken_id_is_refused_and_changes_nothing(store):
    store.create_game("pig", "1", Setup(("A", "B")), owner="ann", gid="g1", title="first")
    with pytest.raises(ConflictError, match="exists already"):
        store.create_game("pig", "1", Setup(("X", "Y", "Z")), owner="eve", gid="g1", title="second")
    record = store.game("g1")
    assert (record.owner, record.title, record.setup.players) == ("ann", "first", ("A", "B"))
    assert seqs(store.events("g1", MAIN)) == [1]


def test_games_are_listed_newest_first(store):
    ids = [store.create_game("pig", "1", Setup(("A", "B")), owner=None).id for _ in range(3)]
    assert store.game_ids()[:3] == ids[::-1]


def test_annotations_add_edit_delete_and_undo(redis_client, gid):
    notes = AnnotationStore(redis_client)
    note = notes.add(gid, MAIN, 1, "bob", "good start", "!")
    edited = notes.edit(gid, note.id, "bob", text="a fine start", expected_version=1)
    assert (edited.text, edited.glyph, edited.version) == ("a fine start", "!", 2)
    deleted = notes.delete(gid, note.id, "bob")
    assert deleted.deleted and notes.all(gid) == []
    restored = notes.undo(gid, note.id, "bob")
    assert not restored.deleted and restored.text == "a fine start"
    back = notes.undo(gid, note.id, "bob")
    assert back.text == "good start" and back.version == 1
    assert len(notes.get(gid, note.id).history) == 1


def test_annotation_rules(redis_client, gid):
    notes = AnnotationStore(redis_client)
    note = notes.add(gid, MAIN, 1, "bob", glyph="?!")
    with pytest.raises(ForbiddenError):
        notes.edit(gid, note.id, "eve", text="mine now")
    with pytest.raises(ConflictError):
        notes.edit(gid, note.id, "bob", text="x", expected_version=7)
    with pytest.raises(InvalidRequestError, match="glyph"):
        notes.add(gid, MAIN, 1, "bob", glyph="?!?")
    with pytest.raises(InvalidRequestError, match="needs a comment or a glyph"):
        notes.add(gid, MAIN, 1, "bob", "   ")
    with pytest.raises(InvalidRequestError, match="no change to undo"):
        notes.undo(gid, note.id, "bob")
    assert notes.add(gid, MAIN, 1, "bob", "<script>alert(1)</script>").text == "<script>alert(1)</script>"


def test_users_tokens_and_passwords(redis_client):
    users = UserStore(redis_client)
    token = users.add("ann", password="correct horse")
    assert users.user_for_token(token) == "ann" and users.user_for_token(token + "x") is None
    assert token not in {v.decode(errors="ignore") for k in redis_client.keys("*") for v in [redis_client.dump(k) or b""]}
    assert users.check_password("ann", "correct horse") and not users.check_password("ann", "wrong horse")
    with pytest.raises(ConflictError):
        users.add("ann")
    with pytest.raises(InvalidRequestError):
        users.add("a b")
