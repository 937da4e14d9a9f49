"""Imports orchestrate; the stores write: game data through GameStore, upload records through UploadStore,
snapshots where snapshot_seqs says; failures become the upload record's error through one function."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.bga import BgaEnvelopeError, BgaPlayersError, BgaShapeError, BgaSyntaxError
from engine.core.errors import LogMismatchError
from service.imports.importer import UploadExpiredError, error_record, import_bytes
from service.store.games import MAIN, GameStore
from service.store.snapshots import SnapshotStore
from service.store.snapshotting import snapshot_seqs
from tests.engine.bga.helpers import export_bytes, playout
from workers.fold import fold_snapshots

ROOT = Path(__file__).resolve().parents[3]


def _names(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_imports_name_no_redis_key_and_send_no_redis_command() -> None:
    names = _names(ROOT / "service" / "imports" / "importer.py")
    assert not {"hset", "xadd", "eval", "set", "zadd", "delete", "pipeline", "sadd", "incr"} & names
    assert "service.store.keys" not in {n.rsplit(".", 1)[0] for n in names} and "service.store.keys" not in names


def test_an_import_stores_the_snapshots_the_fold_job_would_write(redis_client) -> None:
    events = playout(3, 11)
    outcome = import_bytes(redis_client, export_bytes(events), gid="g-snap", owner=None, every=20)
    assert outcome.status == "done"
    games, snapshots = GameStore(redis_client), SnapshotStore(redis_client)
    head = games.head("g-snap", MAIN)
    assert set(snapshots.seqs("g-snap", MAIN)) == snapshot_seqs(0, head, 20)
    assert fold_snapshots(games, snapshots, "g-snap", MAIN, 20)["written"] == 0


def test_snapshot_seqs_skip_seq_one_and_the_fork_point() -> None:
    assert snapshot_seqs(0, 1, 5) == set()
    assert snapshot_seqs(0, 12, 5) == {5, 10, 12}
    assert snapshot_seqs(0, 10, 5) == {5, 10}
    assert snapshot_seqs(7, 12, 5) == {10, 12}
    assert snapshot_seqs(10, 10, 5) == set()


@pytest.mark.parametrize(("error", "record"), [
    (BgaSyntaxError("broken JSON", details={"line": 1}),
     {"status": 400, "code": "bad_log", "message": "broken JSON", "details": {"line": 1}}),
    (BgaEnvelopeError("no log", details={"found": "object"}),
     {"status": 422, "code": "bad_log", "message": "no log", "details": {"found": "object"}}),
    (BgaShapeError("bad packet"), {"status": 422, "code": "bad_log", "message": "bad packet", "details": {}}),
    (BgaPlayersError("the log's players do not fit the pig rules: 1 player", details={"game": "pig"}),
     {"status": 422, "code": "bad_setup", "message": "the log's players do not fit the pig rules: 1 player"}),
    (UploadExpiredError("the uploaded file has expired"), {"status": 410, "code": "gone", "message": "the uploaded file has expired"}),
])
def test_each_import_error_becomes_the_record_the_ui_reads(error: Exception, record: dict) -> None:
    assert error_record(error) == record


def test_a_rules_disagreement_record_carries_move_line_and_rule() -> None:
    error = LogMismatchError("costs 5", move_id=3, line="Ben bought a harbor", rule="builder", seq=9, action="build 14")
    assert error_record(error) == {"status": 422, "code": "rules_disagree", "move_id": 3, "line": "Ben bought a harbor",
                                   "rule": "builder", "reason": "costs 5", "seq": 9, "action": "build 14", "message": str(error)}


def test_anything_else_is_no_import_error() -> None:
    with pytest.raises(TypeError):
        error_record(KeyError("x"))
