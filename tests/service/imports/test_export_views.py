"""``ludolog export --view``: a shared log hides what its reader may not see (issue 13, item 2)."""

from __future__ import annotations

import json

from service.games.demo import load_demo
from service.store.games import GameStore
from tests.service.imports.test_cli_worker import ludolog

GID = "demo-golden-city-1"


def test_export_as_a_spectator_or_a_seat_hides_the_others_draws(redis_server, redis_client):
    load_demo(GameStore(redis_client), per_game=1)
    full = ludolog(redis_server.url, "export", GID, "--format", "text")
    spectator = ludolog(redis_server.url, "export", GID, "--format", "text", "--view", "spectator")
    assert full.returncode == spectator.returncode == 0, spectator.stderr
    assert "(hidden)" not in full.stdout and "] deal " in full.stdout
    hidden = [line for line in spectator.stdout.splitlines() if "(hidden)" in line]
    assert hidden and all("draws a landscape card" in line or "keeps one face down" in line for line in hidden)
    assert len(full.stdout.splitlines()) == len(spectator.stdout.splitlines())  # every event is there, by its sentence
    seat = ludolog(redis_server.url, "export", GID, "--view", "0")
    channels = {packet["channel"] for packet in json.loads(seat.stdout)["data"]["logs"]}
    assert channels == {"/table/t1", "/player/p2000001"}
    wrong = ludolog(redis_server.url, "export", GID, "--view", "7")
    assert wrong.returncode != 0 and "--view '7'" in wrong.stderr
