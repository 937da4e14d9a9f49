"""Game labels come from the registry (issue 31, item 5): a game's rules say its title, nothing else lists it."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import engine
from service.games.titles import game_label, game_title


@pytest.mark.parametrize("name", engine.registered_games())
def test_a_registered_game_reads_as_its_rules_title(name):
    assert game_label(name) == engine.get_rules(name).title


def test_a_bga_name_reads_as_our_game_and_a_bga_only_game_as_its_own_words():
    assert game_label("puertorico") == "Puerto Rico"
    assert game_label("gaiaproject") == "Gaia Project"
    assert game_label("tokaido") == "Tokaido"
    assert game_label("some_game") == "Some game"
    assert game_label("") == "Unknown game"


def test_a_plugin_reads_as_the_title_its_rules_declare_not_as_its_name():
    """Every game's rules declare a title (engine.core.declaration): it is read, never probed for or made up."""
    pig = engine.get_rules("pig")
    rules = SimpleNamespace(**{key: getattr(pig, key) for key in ("version", "min_players", "max_players")})
    rules.name, rules.title = "a_plugin_game", "A Plugin's Game"
    engine.register(rules, listed=False)
    try:
        assert game_label("a_plugin_game") == "A Plugin's Game"
    finally:
        engine.unregister("a_plugin_game")


def test_a_title_names_the_game_by_its_rules_title():
    assert game_title("pig", ["Anna", "Ben"], table_id=7) == "Pig · Anna, Ben · BGA table 7"
