"""The listing indexes (service/store/listing.py) on the real embedded Redis: every filter and combination against
a brute-force oracle, visibility, cursor paging while games are added, and the indexes kept in step with the games."""

from __future__ import annotations

import itertools
import random
import threading

import pytest

from engine import Setup, game_created
from service.store import keys, listing
from service.store.games import GameRecord, GameStore
from service.store.listing import ListingQuery, index_keys, normalise
from service.store.results import GameResult
from tests.helpers import PATIENCE_SECONDS, pig_ending_events

NAMES = ["Zoé", "zoe", "Zed", "Ánna", "Ben", "Cléo", "Dan", "Éve"]
OWNERS = [None, "alice", "bob"]
TITLES = ["Friday night", "Big game", "Café rematch", "friday rematch"]


def _make_games(store: GameStore, count: int, rng: random.Random) -> list[GameRecord]:
    """Live and imported games; some finished (imported from a log that ends, or ended live), won by one or two."""
    made = []
    for n in range(count):
        players = rng.sample(NAMES, 2)
        owner = rng.choice(OWNERS)
        visibility = rng.choice(["public", "public", "unlisted", "private"]) if owner else "public"
        title = rng.choice(TITLES)
        result = rng.choice([None, GameResult((players[0],)), GameResult(tuple(players))])
        if n % 7 == 6:  # a log-only log (no rules here), finished when its log states final ranks
            made.append(store.create_imported(
                f"log{n}", "tokaido", "", Setup(tuple(players)), [game_created("tokaido", "", Setup(tuple(players)))],
                owner=owner, visibility=visibility, source="bga-log", title=title, extra={"table_id": 1000 + n % 4},
                result=result))
        elif n % 3 == 0:
            made.append(store.create_imported(
                f"imp{n}", "pig", "1", Setup(tuple(players)), [_created(players)], owner=owner, visibility=visibility,
                source="bga", title=title, extra={"imported": {"format": "bga", "table_id": 1000 + n % 4}}, result=result))
        else:
            gid = store.create_game("pig", "1", Setup(tuple(players)), owner=owner, visibility=visibility,
                                    title=title, gid=f"live{n}").id
            if result is not None:  # ended live after it was listed: it moves between the result indexes
                store.record_result(gid, result)
            made.append(store.game(gid))
    return made


def _created(players: list[str]):
    return game_created("pig", "1", Setup(tuple(players)))


def _oracle(records: list[GameRecord], query: ListingQuery) -> list[str]:
    """The games a listing must answer, by checking every record (what the indexes spare us)."""
    def matches(r: GameRecord) -> bool:
        visible = r.visibility == "public" or (query.user is not None and r.owner == query.user)
        player = query.player is None or any(normalise(p).startswith(normalise(query.player)) for p in r.setup.players)
        source = query.source is None or r.source == listing.SOURCE_ALIASES[query.source]
        table = query.table is None or listing.table_id_of(r) == query.table
        words = all(normalise(w) in listing.title_terms(r.title) for w in query.words)
        result = query.result is None or (r.result is not None) == (query.result == "finished")
        winners = () if r.result is None else r.result.winners
        winner = query.winner is None or any(normalise(w).startswith(normalise(query.winner)) for w in winners)
        return (visible and player and source and table and words and result and winner
                and query.game in (None, r.game) and query.owner in (None, r.owner))
    ordered = records[::-1] if query.newest_first else records
    return [r.id for r in ordered if matches(r)]


def _all_pages(store: GameStore, query: ListingQuery) -> list[str]:
    """Follow ``next`` to the end."""
    ids: list[str] = []
    after = None
    for _ in range(1000):
        page = store.index.find(ListingQuery(**{**query.__dict__, "after": after}))
        ids += page.ids
        if page.next is None:
            return ids
        after = page.next
    raise AssertionError("paging did not end")


FILTERS = {
    "game": ["pig", "tokaido"], "player": ["zo", "ZOE", "zé", "ann", "x"], "owner": ["alice", "bob"],
    "source": ["live", "imported", "log-only"], "table": ["1000", "1003", "9"], "words": [("friday",), ("cafe", "rematch")],
    "result": ["finished", "unfinished"], "winner": ["zo", "ÉVE", "x"],
}


def _queries() -> list[dict[str, object]]:
    """Every filter alone and every pair of filters, each with a couple of values."""
    out: list[dict[str, object]] = [{}]
    for name, values in FILTERS.items():
        out += [{name: v} for v in values]
    for (a, va), (b, vb) in itertools.combinations(FILTERS.items(), 2):
        out.append({a: va[0], b: vb[0]})
        out.append({a: va[-1], b: vb[1]})
    out.append({"player": "zo", "owner": "alice", "source": "live", "words": ("friday",)})
    out.append({"player": "an", "winner": "an", "result": "finished", "source": "imported"})
    out.append({"player": "be", "result": "unfinished", "owner": "bob", "words": ("rematch",)})
    return out


@pytest.fixture
def store(redis_client) -> GameStore:
    return GameStore(redis_client)


def test_every_filter_and_combination_matches_the_oracle(store):
    records = _make_games(store, 60, random.Random(20))
    for filters, user, newest, limit in itertools.product(_queries(), [None, "alice", "bob"], [True, False], [7]):
        query = ListingQuery(user=user, newest_first=newest, limit=limit, **filters)  # type: ignore[arg-type]
        assert _all_pages(store, query) == _oracle(records, query), (filters, user, newest)


def test_a_first_page_is_the_newest_games_and_next_continues_it(store):
    records = _make_games(store, 12, random.Random(1))
    public = [r.id for r in reversed(records) if r.visibility == "public"]
    first = store.index.find(ListingQuery(limit=3))
    assert first.ids == public[:3]
    assert store.index.find(ListingQuery(limit=3, after=first.next)).ids == public[3:6]


def test_names_are_found_whatever_their_case_and_accents(store):
    gid = store.create_game("pig", "1", Setup(("Zoé Ångström", "Ben")), owner=None).id
    for typed in ("z", "zo", "ZOE", "zoé a", "Zoe ANGSTROM"):
        assert store.index.find(ListingQuery(player=typed)).ids == [gid], typed
    assert store.index.find(ListingQuery(player="zoa")).ids == []


def test_visibility_private_to_the_owner_unlisted_only_to_the_owner(store):
    public = store.create_game("pig", "1", Setup(("A", "B")), owner="alice").id
    unlisted = store.create_game("pig", "1", Setup(("A", "B")), owner="alice", visibility="unlisted").id
    private = store.create_game("pig", "1", Setup(("A", "B")), owner="alice", visibility="private").id
    for filters in ({}, {"player": "a"}, {"owner": "alice"}, {"game": "pig"}):
        assert set(store.index.find(ListingQuery(**filters)).ids) == {public}  # type: ignore[arg-type]
        assert set(store.index.find(ListingQuery(user="bob", **filters)).ids) == {public}  # type: ignore[arg-type]
        assert set(store.index.find(ListingQuery(user="alice", **filters)).ids) == {public, unlisted, private}  # type: ignore[arg-type]


def test_changing_visibility_or_title_moves_the_game_between_indexes(store):
    gid = store.create_game("pig", "1", Setup(("A", "B")), owner="alice", title="Old name").id
    store.set_game_fields(gid, visibility="private", title="New name")
    assert store.index.find(ListingQuery()).ids == []
    assert store.index.find(ListingQuery(user="alice", words=("old",))).ids == []
    assert store.index.find(ListingQuery(user="alice", words=("new",))).ids == [gid]
    store.set_game_fields(gid, visibility="public")
    assert store.index.find(ListingQuery(words=("new",))).ids == [gid]
    assert store.index.missing(store.game(gid)) == []


def test_a_match_far_down_the_walked_index_is_reached_by_following_next(store, monkeypatch):
    monkeypatch.setattr(listing, "SCAN_BUDGET", 5)
    wanted = store.create_game("pig", "1", Setup(("Rare", "B")), owner="carol").id
    for _ in range(15):  # two big indexes that share only the oldest game
        store.create_game("pig", "1", Setup(("Rare", "B")), owner=None)
        store.create_game("pig", "1", Setup(("X", "B")), owner="carol")
    first = store.index.find(ListingQuery(player="rare", owner="carol", limit=2))
    assert first.ids == [] and first.next is not None  # the budget ran out: an empty page that says where to go on
    assert _all_pages(store, ListingQuery(player="rare", owner="carol", limit=2)) == [wanted]


@pytest.mark.parametrize("filters", [{}, {"player": "an", "words": ("night",)}, {"result": "unfinished", "owner": "dora"}])
def test_paging_by_cursor_is_stable_while_games_are_added(store, filters):
    def game(writer: GameStore) -> str:
        return writer.create_game("pig", "1", Setup(("Anna", "B")), owner="dora", title="Friday night").id

    before = [game(store) for _ in range(40)]
    added: list[str] = []
    stop, adding = threading.Event(), threading.Event()

    def insert() -> None:
        writer = GameStore(store.redis)
        while not stop.is_set() and len(added) < 200:
            added.append(game(writer))
            adding.set()

    thread = threading.Thread(target=insert)
    thread.start()
    try:
        seen: list[str] = []
        page = store.index.find(ListingQuery(limit=4, **filters))
        seen += page.ids
        # On a busy machine the walk could end before the writer thread first ran: it goes on only once games are
        # being added, so that pages after the first are read while the index grows.
        assert adding.wait(timeout=PATIENCE_SECONDS), "the writer thread added no game"
        while page.next is not None:
            page = store.index.find(ListingQuery(limit=4, after=page.next, **filters))
            seen += page.ids
    finally:
        stop.set()
        thread.join()
    assert added  # games really were added meanwhile
    # No game is repeated, and every game there before the walk began is seen, in order: none is skipped.
    assert len(seen) == len(set(seen))
    assert [gid for gid in seen if gid in set(before)] == list(reversed(before))


def test_imported_game_is_indexed_by_table_source_and_title(store):
    record = store.create_imported("t1", "pig", "1", Setup(("Ánna", "Ben")), [_created(["Ánna", "Ben"])], owner="bob",
                                   visibility="public", source="bga", title="Pig #4242 Ánna vs Ben",
                                   extra={"imported": {"format": "bga", "table_id": 4242}})
    assert store.index.missing(record) == []
    assert store.index.find(ListingQuery(table="4242", source="imported", words=("anna",), player="an")).ids == ["t1"]


def test_a_fork_and_its_deletion_leave_the_listing_as_it_was(store):
    gid = store.create_game("pig", "1", Setup(("A", "B")), owner="alice").id
    fork = store.fork(gid, "main", 1, owner="bob")
    assert store.index.find(ListingQuery()).ids == [gid]
    assert store.index.missing(store.game(gid)) == []
    store.delete_branch(gid, fork.id)
    assert store.index.find(ListingQuery(player="a", result="unfinished")).ids == [gid]
    assert store.index.missing(store.game(gid)) == [] and store.index.misplaced(store.game(gid)) == []


def test_every_index_key_carries_the_index_hash_tag(store):
    record = store.create_imported("t2", "pig", "1", Setup(("A", "B")), [_created(["A", "B"])], owner="bob",
                                   visibility="public", source="bga", title="x y",
                                   extra={"imported": {"table_id": 1}})
    assert all(keys.INDEX_TAG in key for key in index_keys(record))


def test_a_real_bga_import_is_found_by_its_table_source_and_players(redis_client):
    from service.imports.importer import import_bytes
    from tests.helpers import ROOT

    sample = ROOT.parent / "shared" / "samples" / "bga" / "tokaido_100004927.json"
    if not sample.exists():
        pytest.skip(f"BGA sample missing: {sample}")
    outcome = import_bytes(redis_client, sample.read_bytes(), gid="tok1", owner="alice", filename=sample.name)
    assert outcome.status == "done", outcome.error
    store = GameStore(redis_client)
    record = store.game("tok1")
    assert store.index.missing(record) == []
    first_player = record.setup.players[0]
    query = ListingQuery(table="100004927", source="log-only", player=first_player[:3], owner="alice")
    assert store.index.find(query).ids == ["tok1"]


def test_a_game_whose_main_line_ends_moves_to_finished_and_a_forks_end_does_not(store):
    gid = store.create_game("pig", "1", Setup(("Zoé", "Ben"), {"target": 1}), owner="alice").id
    other = store.create_game("pig", "1", Setup(("Ann", "Zed"), {"target": 1}), owner="alice").id
    events = pig_ending_events()
    store.append(gid, "main", events[:-1], 1)
    fork = store.fork(gid, "main", 5, owner="bob")
    store.append(gid, fork.id, events[-1:], 5, ends=GameResult(("Zoé",)))  # a what-if line's end: not the game's
    assert store.game(gid).result is None
    assert store.index.find(ListingQuery(result="unfinished")).ids == [other, gid]
    store.append(gid, "main", events[-1:], 5, ends=GameResult(("Zoé",)))
    assert store.game(gid).result == GameResult(("Zoé",))
    assert store.index.find(ListingQuery(result="finished")).ids == [gid]
    assert store.index.find(ListingQuery(result="unfinished")).ids == [other]
    assert store.index.find(ListingQuery(winner="ZOE", player="b")).ids == [gid]
    assert store.index.find(ListingQuery(winner="ben")).ids == []
    store.record_result(gid, GameResult(("Zoé",)))  # recorded again (a retry, the reconciler): nothing moves
    assert store.index.missing(store.game(gid)) == [] and store.index.misplaced(store.game(gid)) == []


def test_a_result_and_a_visibility_change_at_once_never_leave_a_private_game_listed(store):
    """Both rewrite the meta and move the game between indexes from what they read: WATCHed, neither indexes the
    game from a record the other has already changed."""
    for n in range(15):
        gid = store.create_game("pig", "1", Setup(("Zoé", "Ben")), owner="alice", title=f"race {n}").id
        barrier = threading.Barrier(2)

        def finish(gid: str = gid, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            GameStore(store.redis).record_result(gid, GameResult(("Ben",)))

        def hide(gid: str = gid, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            GameStore(store.redis).set_game_fields(gid, visibility="private")

        threads = [threading.Thread(target=finish), threading.Thread(target=hide)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        record = store.game(gid)
        assert record.visibility == "private" and record.result == GameResult(("Ben",))
        assert store.redis.zscore(keys.listing_index_for("public"), gid) is None, n
        assert store.index.missing(record) == [] and store.index.misplaced(record) == []
    assert store.index.find(ListingQuery(result="finished")).ids == []
    assert len(store.index.find(ListingQuery(user="alice", winner="ben")).ids) == 15


def test_an_import_whose_log_ends_the_game_is_finished_and_one_cut_short_is_not(redis_client):
    from service.games.demo import demo_playout
    from service.imports.importer import export_jsonl, import_bytes
    from service.store.results import result_of

    playout = demo_playout("golden_city", 1)
    done = import_bytes(redis_client, export_jsonl(playout.events).encode(), gid="whole", owner="alice")
    cut = import_bytes(redis_client, export_jsonl(playout.events[:-3]).encode(), gid="cut", owner="alice")
    assert done.status == "done" and cut.status == "done", (done.error, cut.error)
    store = GameStore(redis_client)
    whole = store.game("whole")
    expected = result_of(playout.rules, playout.state, whole.setup.players)
    assert expected is not None and expected.winners and whole.result == expected
    assert store.game("cut").result is None
    assert store.index.find(ListingQuery(result="finished", source="imported")).ids == ["whole"]
    assert store.index.find(ListingQuery(result="unfinished")).ids == ["cut"]
    assert store.index.find(ListingQuery(winner=expected.winners[0][:3])).ids == ["whole"]


def test_a_log_only_log_stating_its_final_ranks_is_finished_won_by_those_ranked_first(redis_client):
    from service.imports.importer import import_bytes
    from tests.helpers import ROOT

    sample = ROOT.parent / "shared" / "samples" / "bga" / "tokaido_100004927.json"
    if not sample.exists():
        pytest.skip(f"BGA sample missing: {sample}")
    assert import_bytes(redis_client, sample.read_bytes(), gid="tok2", owner="alice", filename=sample.name).status == "done"
    store = GameStore(redis_client)
    record = store.game("tok2")
    stated = record.extra["result"]
    assert stated and record.result == GameResult(tuple(r["name"] for r in stated if r["rank"] == 1))
    (winner, *_) = record.result.winners
    assert store.index.find(ListingQuery(result="finished", source="log-only", winner=winner.upper())).ids == ["tok2"]


def test_log_only_results_without_ranks_go_by_the_best_score():
    from service.store.results import log_only_result

    assert log_only_result(None) is None
    assert log_only_result([{"name": "A", "score": 3, "rank": None}, {"name": "B", "score": 5, "rank": None}]) == GameResult(("B",))
    assert log_only_result([{"name": "A", "score": None, "rank": None}]) == GameResult(())
    assert log_only_result([{"name": "A", "score": 3, "rank": 1}, {"name": "B", "score": 3, "rank": 1}]) == GameResult(("A", "B"))


def test_demo_games_are_listed_finished(store):
    from service.games.demo import load_demo

    made = load_demo(store, per_game=1)
    assert made and sorted(store.index.find(ListingQuery(result="finished", limit=50)).ids) == sorted(made)
    assert all(store.game(gid).result.winners for gid in made)  # type: ignore[union-attr]
