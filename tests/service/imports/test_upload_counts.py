"""An upload's status tells one consistent story (issue 29): its progress counts the log's entries read, its
summary the moves and the chance draws stored, and those add up to the events of the game it made."""

from __future__ import annotations

import json
import random

from engine import CHANCE, Setup, get_rules, random_playout
from engine.bga import export_log

REVIEW_TEXT = ("https://boardgamearena.com/gamereview?table=100004927\nMove 1 : 7/7/2020, 1:53:04 PM\n"
               "Colors of agila13, annie3 have been chosen according to their preferences.\n"
               "Move 2 : 1:53:30 PM\nagila13 chooses a traveler\nMove 3 : 1:54:02 PM\nannie3 chooses a traveler\n")


def test_moves_and_draws_add_up_to_the_events_stored_and_the_progress_is_complete(client, upload):
    events = random_playout(get_rules("golden_city"), Setup(("Anna", "Ben", "Cleo")), random.Random(2)).events
    draws = sum(1 for e in events if e.actor == CHANCE)
    assert draws > 0, "the game must draw by chance for this test to tell moves from events"
    status = upload(json.dumps(export_log(events)).encode())
    assert status["status"] == "done", status["error"]
    summary = status["summary"]
    assert summary["draws"] == draws and summary["moves"] == len(events) - 1 - draws, summary
    assert status["events"] == len(events) == 1 + summary["moves"] + summary["draws"]
    stored = client.get(f"/api/games/{status['game']}/branches/main/events?limit=1000").get_json()
    assert len(stored["events"]) == status["events"]
    assert status["progress"]["done"] == status["progress"]["total"] > 0


def test_a_log_only_game_counts_its_moves_and_no_draws(upload):
    status = upload(REVIEW_TEXT.encode())
    assert status["status"] == "done" and status["kind"] == "log-only"
    assert status["summary"]["moves"] == status["events"] - 1 > 0 and status["summary"]["draws"] == 0
    assert status["progress"]["done"] == status["progress"]["total"] > 0


def test_the_summary_counts_each_log_entry_the_progress_read_once(upload):
    """Puerto Rico's importer (haciendas whose line states a draw too, bonus lines): the progress counts every log
    entry (not the decisions), and the summary's entries, used, skipped and refused, are those same entries, each
    once, where the report's rows had said "479 lines used" of "447 log entries read"."""
    events = random_playout(get_rules("puerto_rico"), Setup(("Anna", "Ben", "Cleo")), random.Random(7)).events
    document = export_log(events)
    entries = sum(len(packet["data"]) for packet in document["data"]["logs"])
    status = upload(json.dumps(document).encode())
    assert status["status"] == "done", status["error"]
    summary = status["summary"]
    assert status["progress"] == {"done": entries, "total": entries}, (status["progress"], entries)
    assert summary["entries"] == entries == summary["used"] + summary["skipped"] + summary["refused"], summary
    assert summary["moves"] + summary["draws"] == len(events) - 1


def test_a_log_only_games_progress_counts_its_entries_not_its_steps(upload):
    status = upload(REVIEW_TEXT.encode())
    assert status["summary"]["entries"] == status["progress"]["total"] == len(status["report"]) > 0, status
