"""BGA's icon tokens written as words for the log-only page."""

from __future__ import annotations

from engine.bga import has_tokens, readable_tokens


def test_resources_read_as_amounts_and_runs_of_icons_get_commas() -> None:
    line = "felipetoito spends [POWER3][QIC1][ORE1][GOLD2] to build a [BUILDING4]"
    assert readable_tokens(line, "gaiaproject") == "felipetoito spends 3 power, 1 QIC, 1 ore, 2 credits to build a mine"
    assert readable_tokens("AlabeSons pays [KNOWLEDGE4] to move up on [RESEARCH5]", "gaiaproject") == \
        "AlabeSons pays 4 knowledge to move up on research track 5"


def test_gaia_buildings_follow_the_upgrade_costs_of_the_log() -> None:
    # The sample log: "spends [GOLD6][ORE2] to upgrade to a [BUILDING5]" (trading station: 6 credits without a neighbour, 2 ore).
    words = {n: readable_tokens(f"[BUILDING{n}]", "gaiaproject") for n in (4, 5, 6, 7, 8, 9)}
    assert words == {4: "mine", 5: "trading station", 6: "research lab", 7: "academy", 8: "academy", 9: "planetary institute"}


def test_unknown_tokens_stay_readable_and_other_games_say_gold() -> None:
    assert readable_tokens("[WIDGET_X12] and [RACE3]") == "widget x 12 and faction 3"
    assert readable_tokens("[GOLD1]") == "1 gold" and readable_tokens("[VP0]") == "0 VP"
    assert readable_tokens("a [b] [lower1] stays") == "a [b] [lower1] stays"
    assert has_tokens("x [VP2]") and not has_tokens("Move [2]")
