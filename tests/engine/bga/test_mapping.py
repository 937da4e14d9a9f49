"""One registry: a game's BGA mapping is found through the game registry, by the game's name."""

from __future__ import annotations

from pathlib import Path

import engine.bga
import engine.bga.puerto_rico
from engine import EngineError, get_rules
from engine.bga.mapping import bga_name, game_for_bga_name, mapped_games, mapping_for, recognised_game
from engine.core.errors import LogMismatchError
from engine.core.registry import registered_games


def test_a_games_mapping_is_the_package_named_after_it() -> None:
    assert mapping_for("puerto_rico") is engine.bga.puerto_rico
    assert mapped_games() == {"puerto_rico": engine.bga.puerto_rico}


def test_a_game_without_a_mapping_gets_none_and_keeps_its_own_name() -> None:
    for game in ("amerigo", "entdecker", "golden_city"):
        assert mapping_for(game) is None and bga_name(game) == game
    assert mapping_for("not a module name") is None


def test_bga_names_are_read_from_the_mappings() -> None:
    assert bga_name("puerto_rico") == "puertorico"
    known = registered_games()
    assert game_for_bga_name("PuertoRico", known) == "puerto_rico"
    assert game_for_bga_name("golden-city", known) == "golden_city"
    assert game_for_bga_name("tokaido", known) is None


def test_a_mapping_recognises_its_own_notifications() -> None:
    assert recognised_game({"rol_type": "mayor", "player_id": 1}) == "puerto_rico"
    assert recognised_game({"player_id": 1}) is None


def test_no_second_list_of_games_in_the_package() -> None:
    """The mapping is found by name: no dict of game names → modules anywhere in engine/bga."""
    for path in Path(engine.bga.__file__).parent.rglob("*.py"):
        text = path.read_text()
        assert "ADAPTERS" not in text and '"engine.bga.puerto_rico"' not in text, path.name
    assert get_rules("puerto_rico").name in mapped_games()


def test_a_log_mismatch_is_an_engine_error_and_a_value_error() -> None:
    error = LogMismatchError("no such building", move_id=12, line="Ben bought a fortress", rule="builder")
    assert isinstance(error, EngineError) and isinstance(error, ValueError)
    assert error.to_json()["move_id"] == 12 and "move 12" in str(error)
