"""Templates rendered to the text a person saw in BGA's log panel."""

from __future__ import annotations

import pytest

from engine.bga import parse_log, render_notification, render_template, strip_html
from tests.engine.bga import samples
from tests.engine.bga.samples import GAIA, TOKAIDO_A


def _rendered(name: str, packet_id: int) -> list[str]:
    log = parse_log(samples.raw(name))
    packet = next(p for p in log.packets if p.packet_id == packet_id)
    return [text for n in packet.notifications if (text := render_notification(n))]


def test_tokaido_nested_template_with_html_args() -> None:
    # Packet 1: "Colors of ${players} ... ${change_preferences}", players given as coloured
    # HTML and change_preferences as a nested {"log": "<a …>${label}</a>", "args": …}.
    assert _rendered(TOKAIDO_A, 1) == [
        "Colors of agila13, annie3, Bhaichata have been chosen according to their preferences. Change my preferences.",
    ]


def test_tokaido_i18n_values_are_used_as_they_are() -> None:
    # "${player_name} travels as ${name} ${nametr}" with i18n ["nametr"]: already English.
    lines = _rendered(TOKAIDO_A, 5)
    assert "Frank77 travels as Chuubei the messenger" in lines
    assert "Bhaichata travels as Jirocho the yakuza" in lines


def test_tokaido_last_move() -> None:
    lines = _rendered(TOKAIDO_A, 226)
    assert lines[0] == "Bhaichata pays 2 coins for a meal (Sushi) and scores 6 points"
    assert "annie3 earns 10 points for his donations to the Temple" in lines
    assert lines[-1] == "End of game : Bhaichata wins!"


def test_gaia_html_in_the_template_is_stripped() -> None:
    log = parse_log(samples.raw(GAIA))
    lines = [render_notification(n) for p in log.packets for n in p.notifications if n.log.startswith("${player_name} wins the auction")]
    assert lines == ["AlabeSons wins the auction for [RACE3], spending [VP0]", "felipetoito wins the auction for [RACE9], spending [VP0]"]


def test_silent_notifications_render_empty() -> None:
    note = parse_log(samples.raw(TOKAIDO_A)).packets[0].notifications[1]
    assert note.type == "gameStateChange"
    assert render_notification(note) == ""


@pytest.mark.parametrize(
    ("log", "args", "expected"),
    [
        ("${a} and ${b}", {"a": "x"}, "x and ${b}"),  # a missing argument stays visible
        ("${a}", [], "${a}"),  # list args name nothing
        ("${a}", None, "${a}"),
        ("${n} coins", {"n": 3}, "3 coins"),
        ("${n}", {"n": 2.0}, "2"),
        ("${n}", {"n": 2.5}, "2.5"),
        ("${b}", {"b": True}, "true"),
        ("[${x}]", {"x": None}, "[]"),
        ("${l}", {"l": [1, "a", 2]}, "1,a,2"),
        ("${o}", {"o": {"no": "log"}}, "${o}"),
        ("${o}", {"o": {"log": "${p} wins", "args": {"p": "<b>Ann</b>"}}}, "Ann wins"),
        ("${o}", {"o": {"log": "${p}", "args": "garbage"}}, "${p}"),
        ("${a}", {"a": "${b}", "b": "no"}, "${b}"),  # values are not scanned again
        ("${ bad }", {" bad ": 1}, "${ bad }"),
        ("", {"a": 1}, ""),
    ],
)
def test_render_template(log: str, args: object, expected: str) -> None:
    assert render_template(log, args) == expected


def test_deep_nesting_stops_rendering_instead_of_recursing() -> None:
    value: dict[str, object] = {"log": "end", "args": {}}
    for _ in range(5000):
        value = {"log": "(${v})", "args": {"v": value}}
    text = render_template("${v}", {"v": value})
    assert text.startswith("(((") and "${v}" in text


@pytest.mark.parametrize(
    ("html", "text"),
    [
        ("<b>Ann</b> &amp; <i>Bo</i>", "Ann & Bo"),
        ("a<br>b", "a b"),
        ("a<div>b</div>c", "a b c"),
        ("  lots \n of\t space ", "lots of space"),
        ("x <script>alert(1)</script>y", "x y"),
        ("&lt;b&gt; is literal", "<b> is literal"),
        ("a < b", "a < b"),
        ("tail <", "tail <"),
        ("<![weird", ""),  # a bogus comment left open hides the rest, as in a browser
        ("<!-- note -->seen", "seen"),
        ("caf&eacute; &#9733;", "café ★"),
    ],
)
def test_strip_html(html: str, text: str) -> None:
    assert strip_html(html) == text


def test_repeated_and_nested_arguments_cannot_blow_up() -> None:
    # Each level names the level below 40 times: 40**8 copies if rendered naively.
    value: dict[str, object] = {"log": "x" * 100, "args": {}}
    for _ in range(8):
        value = {"log": "${v}" * 40, "args": {"v": value}}
    text = render_template("${v}", {"v": value})
    assert len(text) < 100_000
    assert "${v}" in text  # what was not expanded stays visible
    big = "y" * 100_000
    text = render_template("${a}" * 10_000, {"a": big})
    assert len(text) < 1_000_000 and text.startswith("y") and text.endswith("${a}")


def test_ordinary_repetition_is_rendered() -> None:
    assert render_template("${p} gives ${p} a gift", {"p": "Ann"}) == "Ann gives Ann a gift"
