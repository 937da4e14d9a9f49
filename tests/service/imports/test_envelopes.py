"""Every BGA envelope imports the same game: the archive answer, the replay page's g_gamelogs, the 2021
scrapers' nesting, a bare list of packets; pasted text becomes a log-only game."""

from __future__ import annotations

import json

import pytest

from engine.bga import parse_document, parse_log
from service.imports.importer import SOURCE_LOG_ONLY, SOURCE_RULES, prepare
from tests.engine.bga import samples
from tests.engine.bga.helpers import core, export_doc, playout
from tests.engine.bga.samples import TOKAIDO_B


def wrap(doc, variant):
    packets, players = doc["data"]["logs"], doc["data"]["players"]
    return {
        "archive": doc,
        "archive data only": {"logs": packets, "players": players},
        "gamelogs": {"data": {"data": packets}},
        "scraper": {"data": {"data": {"data": packets}}},
        "bare": packets,
    }[variant]


VARIANTS = ["archive", "archive data only", "gamelogs", "scraper", "bare"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_envelope_of_our_export_imports_the_same_puerto_rico_game(variant):
    events = playout(4, 4)
    prepared, report, error = prepare(parse_document(wrap(export_doc(events), variant)), partial=False, every=50)
    assert error is None and prepared is not None
    assert prepared.source == SOURCE_RULES and prepared.game == "puerto_rico"
    assert list(prepared.setup.players) == ["Anna", "Ben", "Cleo", "Dan"]
    assert core(prepared.events) == core(events)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_envelope_of_a_real_sample_imports_as_the_same_log_only_game(variant):
    doc = samples.doc(TOKAIDO_B)
    as_archive = {"status": 1, "data": {"logs": doc, "players": []}} if isinstance(doc, list) else doc
    if variant == "archive":
        wrapped = as_archive
    else:
        wrapped = wrap({"data": {"logs": as_archive["data"]["logs"], "players": []}}, variant)
        if variant == "archive data only":
            wrapped = {"logs": wrapped["logs"]}
    prepared, report, error = prepare(parse_document(wrapped), partial=False, every=50, filename="tokaido_161915629.json")
    assert error is None and prepared is not None and prepared.source == SOURCE_LOG_ONLY
    reference, _, _ = prepare(parse_document(doc), partial=False, every=50, filename="tokaido_161915629.json")
    assert [e.meta["lines"] for e in prepared.events[1:]] == [e.meta["lines"] for e in reference.events[1:]]
    assert prepared.setup == reference.setup and prepared.extra["result"] == reference.extra["result"]


def test_pasted_log_text_is_a_log_only_game():
    text = "Move 1 : 9:41:07\nAnna selected the Settler\nAnna got a new quarry\nMove 2 : 9:41:30\nBen passes\n"
    prepared, report, error = prepare(parse_log(text.encode()), partial=False, every=50)
    assert error is None and prepared.source == SOURCE_LOG_ONLY
    assert [e.meta["lines"] for e in prepared.events[1:]] == [["Anna selected the Settler", "Anna got a new quarry"], ["Ben passes"]]
    assert json.loads(json.dumps(prepared.log_record))["moves"][1]["time_text"] == "9:41:30"
