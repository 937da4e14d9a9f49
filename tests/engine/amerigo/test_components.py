"""The component set: the default reconstruction, a custom set through Setup.options["components"], its errors."""

from __future__ import annotations

import pytest

from engine import Setup, SetupError
from engine.amerigo import RULES
from engine.amerigo import components as c
from engine.amerigo.component_set import DEFAULT_SET, component_set, orientations, rotate_tile
from tests.engine.amerigo.helpers import NAMES, choice, legal, play, started


def test_default_set_matches_the_digest_counts():
    """Digest § Components: 16 island tiles (241 land, 44 post spaces, 8 goods spaces per good), 37 neutral tiles, 16
    village tiles per player, 24 progress tokens, 50 production tokens (per good 3 x "2", 4 x "3", 3 x "4": seed)."""
    tiles = [rows for _, rows in DEFAULT_SET.island_tiles]
    assert len(tiles) == 16
    assert sum(ch not in "~A" for rows in tiles for row in rows for ch in row) == 241
    assert sum(row.count("P") for rows in tiles for row in rows) == 44
    for letter in c.GOOD_LETTERS:
        assert sum(row.count(letter) for rows in tiles for row in rows) == 8
    assert sum(DEFAULT_SET.kinds[k].copies for k in DEFAULT_SET.neutral_kinds) == 37
    assert sum(DEFAULT_SET.kinds[k].copies for k in DEFAULT_SET.village_kinds) == 16
    assert len(c.PROGRESS_TOKENS) == 24 and c.PRODUCTION_TOKENS[4] == (3, 4, 3)
    assert [DEFAULT_SET.kinds[k].take_cost for k in DEFAULT_SET.neutral_kinds] == [len(c.SHAPES[s]) for s, *_ in c.NEUTRAL_TILES]


def test_tile_rotation_turns_clockwise():
    """Digest: a tile turned k quarter turns clockwise has local'(r, c) = local(6 − c, r)."""
    rows = c.ISLAND_TILES["I01"]
    turned = rotate_tile(rows, 1)
    assert all(turned[r][col] == rows[6 - col][r] for r in range(7) for col in range(7))
    assert rotate_tile(rows, 4) == rows
    assert len(orientations(c.SHAPES["O4"])) == 1 and len(orientations(c.SHAPES["L4"])) == 4


def test_a_custom_component_set_is_played_with():
    """Brief: setup accepts another component set through Setup.options["components"]."""
    custom = {"village_tiles": [["M1", 2, 5, 9]], "progress_track": {"last": 6, "vp": [[2, 1], [6, 4]]}}
    base = started(2, options={"components": custom})
    assert base.components.custom is not None and base.players[0].villages == (2,)
    state = play(choice(2, field={"red": 3}, base=base), "choose red")
    assert [a for a in legal(state) if a.startswith("plan village")] == ["plan village M1"]
    assert base.components.progress_last == 6 and base.components.progress_vp == ((2, 1), (6, 4))
    assert component_set(custom) is base.components  # one object per distinct set


@pytest.mark.parametrize("components,message", [
    ({"islands": {}}, "islands: unknown field"),
    ("tiles", "components: must be an object"),
    ({"island_tiles": {"X": ["~~~~~~~"] * 6}}, "island_tiles.X: expected a list of 7 strings"),
    ({"island_tiles": {"X": ["~~~~~~~"] * 6 + ["~~~~~~Q"]}}, "island_tiles.X: unknown characters"),
    ({"island_tiles": {"X": [".~~~~~~"] + ["~~~~~~~"] * 6}}, "outer ring must be water except the four ports"),
    ({"island_tiles": {"X": ["~~~~~~~", "~A.~~~~"] + ["~~~~~~~"] * 5}}, "anchor at \\(1,1\\) must touch exactly one P"),
    ({"island_tiles": {"X": ["~~~~~~~", "~.....~", "~.~~~.~", "~.~~~.~", "~.~~~.~", "~.....~", "~~~~~~~"]}},
     "its water must be connected"),
    ({"island_tiles": {"X": ["~~~.~~~", "~~~.~~~", "~~~.~~~", "~~~.~~~", "~~~.~~~", "~~~.~~~", "~~~.~~~"]}},
     "a land region may touch at most one port"),
    ({"shapes": {"X": [[0, 0], [0, 2]]}}, "shapes.X: cells must be orthogonally connected"),
    ({"shapes": {"X": [[1, 1]]}}, "shapes.X: cells must start at row 0"),
    ({"neutral_tiles": [["Q9", 1, 1, 1]]}, "neutral_tiles\\[0\\]: unknown shape 'Q9'"),
    ({"village_tiles": [["M1", 0, 1, 1]]}, "village_tiles\\[0\\]\\[1\\]: expected an int of at least 1, got 0"),
    ({"village_tiles": [["M1", 1, 1, 1], ["M1", 2, 1, 1]]}, "each shape may appear once"),
    ({"order_track": {"last": 1, "vp": []}}, "order_track.last: expected an int of at least 2, got 1"),
    ({"progress_track": {"last": 9, "vp": [[5, 1], [3, 2]]}}, "progress_track.vp: spaces must be strictly increasing"),
])
def test_a_bad_component_set_names_the_field_and_why(components, message):
    """Brief: a bad component set raises a SetupError naming the field and why."""
    with pytest.raises(SetupError, match=message):
        RULES.initial_state(Setup(NAMES[2], {"components": components}))


def test_too_few_island_tiles_for_the_player_count():
    """Digest: 9 / 12 / 16 tiles for 2 / 3 / 4 players."""
    tiles = {name: list(rows) for name, rows in list(c.ISLAND_TILES.items())[:10]}
    RULES.initial_state(Setup(NAMES[2], {"components": {"island_tiles": tiles}}))
    with pytest.raises(SetupError, match="island_tiles: 3 players need 12 island tiles, the set has 10"):
        RULES.initial_state(Setup(NAMES[3], {"components": {"island_tiles": tiles}}))
