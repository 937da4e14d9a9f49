"""Hypothesis mutations of the real samples and of our own exports, uploaded through the API and imported:
never a 5xx, never an exception out of the import job, and never a half-stored game (a finished import
stored the whole game; a failed one stored nothing)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.imports.importer import content_digest, export_identity, game_id_for, run_import
from service.store import keys
from tests.engine.bga import samples
from tests.engine.bga.helpers import export_doc, playout
from tests.engine.bga.samples import ALL

pytestmark = pytest.mark.filterwarnings("ignore::hypothesis.errors.NonInteractiveExampleWarning")

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                                         HealthCheck.function_scoped_fixture])
_BASES: dict[str, Any] = {}
ODD_VALUES = [None, 0, -1, 1.5, True, "", "x", "99999999999999999999999", [], {}, {"log": "${a}", "args": {"a": "${a}"}}]
FIELDS = ["channel", "packet_id", "move_id", "time", "data", "packet_type"]
NOTE_FIELDS = ["type", "log", "args", "uid"]
ARG_NAMES = ["player_id", "player_name", "rol_type", "plantation_type", "building_type", "capacity", "kept", "nbr", "id", "args"]


def base(name: str) -> Any:
    """A decoded document, shared: examples deep-copy it before changing it."""
    if name not in _BASES:
        _BASES[name] = samples.doc(name) if name in ALL else export_doc(playout(3 if name == "pr3" else 4, 5))
    return _BASES[name]


def packets(doc: Any) -> list[Any]:
    return doc["data"]["logs"] if isinstance(doc, dict) else doc


documents = st.sampled_from([*ALL, "pr3", "pr4"])


@st.composite
def mutated(draw: Any) -> bytes:
    doc = copy.deepcopy(base(draw(documents)))
    plist = packets(doc)
    kind = draw(st.sampled_from(["truncate", "delete", "shuffle", "wrong_type", "huge", "wrong_arg"]))
    if kind == "truncate":
        raw = json.dumps(doc).encode()
        return raw[: draw(st.integers(0, len(raw)))]
    if kind == "delete":
        for _ in range(draw(st.integers(1, 5))):
            if plist:
                del plist[draw(st.integers(0, len(plist) - 1))]
    elif kind == "shuffle":
        i, j = draw(st.integers(0, len(plist) - 1)), draw(st.integers(0, len(plist) - 1))
        if draw(st.booleans()):
            plist[i]["move_id"], plist[j]["move_id"] = plist[j]["move_id"], plist[i]["move_id"]
        else:
            plist[i]["packet_id"], plist[j]["packet_id"] = plist[j]["packet_id"], plist[i]["packet_id"]
    elif kind == "wrong_type":
        packet = plist[draw(st.integers(0, len(plist) - 1))]
        if packet.get("data") and draw(st.booleans()):
            note = packet["data"][draw(st.integers(0, len(packet["data"]) - 1))]
            note[draw(st.sampled_from(NOTE_FIELDS))] = draw(st.sampled_from(ODD_VALUES))
        else:
            packet[draw(st.sampled_from(FIELDS))] = draw(st.sampled_from(ODD_VALUES))
    elif kind in ("huge", "wrong_arg"):
        notes = [n for p in plist for n in p.get("data") or [] if isinstance(n.get("args"), dict)]
        note = notes[draw(st.integers(0, len(notes) - 1))]
        huge = "${player_name}" * 20_000 if draw(st.booleans()) else "A" * 300_000
        value = huge if kind == "huge" else draw(st.sampled_from(ODD_VALUES))
        if kind == "huge" and draw(st.booleans()):
            note["log"] = value
        else:
            note["args"][draw(st.sampled_from(ARG_NAMES))] = value
    return json.dumps(doc).encode()


def game_keys(redis_client: Any, gid: str) -> list[bytes]:
    return redis_client.keys(f"ll:g:{{{gid}}}*")


@FUZZ
@given(raw=mutated(), partial=st.booleans())
def test_mutated_uploads_never_5xx_and_never_half_store(client, users, redis_client, raw, partial):
    response = client.post(f"/api/uploads?partial={'true' if partial else 'false'}", data=raw, headers=users.auth("alice"))
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    if response.status_code not in (200, 202):  # 200: the same upload again, already here
        assert response.get_json()["error"]["code"] in ("bad_json", "unknown_envelope", "bad_log", "too_large")
        return
    status = run_import(redis_client, response.get_json()["id"])
    # Our own export is known by what it says, a BGA log by its bytes (service.imports.importer.submit_upload).
    gid = game_id_for(content_digest(export_identity(raw) or raw, partial=partial, owner="alice"))
    if status["status"] == "failed":
        assert status["error"] and status["game"] is None
        assert game_keys(redis_client, gid) == []
        return
    if status["linked"]:  # a mutation that kept an earlier example's public BGA table: linked to that game, nothing stored
        assert status["status"] == "done" and status["game"] != gid and game_keys(redis_client, gid) == []
        gid = status["game"]
    assert status["status"] == "done" and status["game"] == gid
    head = int(redis_client.hget(keys.branch_head_for(gid), "main"))
    stored = redis_client.xrange(keys.events_for(gid, "main"))  # an entry ``<last seq>-<count>`` holds count events
    assert sum(int(i.split(b"-")[1]) for i, _ in stored) == int(stored[-1][0].split(b"-")[0]) == head == status["events"]
    assert redis_client.exists(keys.game_meta_for(gid)) and redis_client.zscore(keys.games_index(), gid) is not None
    events = client.get(f"/api/games/{gid}/branches/main/events?limit=5000")
    assert events.status_code == 200 and len(events.get_json()["events"]) == head
    if status["kind"] == "rules":
        state = client.get(f"/api/games/{gid}/branches/main/state")
        assert state.status_code == 200, state.get_json()
        assert head == 1 or int(redis_client.zrevrange(keys.snapshot_seqs_for(gid, "main"), 0, 0)[0]) == head
