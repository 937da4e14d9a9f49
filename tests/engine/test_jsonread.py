"""The one reader of stored JSON (engine.core.jsonread): typed reads that name the path of a refused field."""

from __future__ import annotations

import pytest

from engine.core.errors import SetupError, StateFormatError
from engine.core.jsonread import JsonReader, as_setup_error


def reader(data: object) -> JsonReader:
    return JsonReader(data, "bad test state")


def test_a_bad_leaf_deep_down_is_named_by_its_path():
    data = {"players": [{}, {}, {"plantations": [0, 1, 2, 3, 4, "x"]}]}
    field = reader(data).at("players").item(2).at("plantations")
    with pytest.raises(StateFormatError) as err:
        field.integers(None, 0, 11)
    assert str(err.value) == 'bad test state: players[2].plantations[5]: expected an int in 0..11, got "x"'


@pytest.mark.parametrize("value,low,high,expected", [
    (True, None, None, "expected an int, got true"),
    (-1, 0, None, "expected an int of at least 0, got -1"),
    (5, None, 4, "expected an int of at most 4, got 5"),
    (2.0, 0, 3, "expected an int in 0..3, got 2.0"),
])
def test_an_int_is_an_int_in_its_range(value, low, high, expected):
    with pytest.raises(StateFormatError, match=f"^bad test state: n: {expected}$"):
        reader({"n": value}).at("n").integer(low, high)
    assert reader({"n": 3}).at("n").integer(0, 3) == 3


def test_a_bool_is_true_or_false_not_a_number():
    assert reader({"b": False}).at("b").boolean() is False
    with pytest.raises(StateFormatError, match=r"^bad test state: b: expected true or false, got 0$"):
        reader({"b": 0}).at("b").boolean()


def test_a_string_is_one_of_its_choices():
    assert reader({"s": "MT"}).at("s").choice(("CO", "MT")) == 1
    with pytest.raises(StateFormatError, match=r'^bad test state: s: expected one of CO, MT, got "XX"$'):
        reader({"s": "XX"}).at("s").text(("CO", "MT"))
    with pytest.raises(StateFormatError, match=r"^bad test state: s: expected a string, got null$"):
        reader({"s": None}).at("s").text()


def test_lists_have_their_length_and_their_entries_type():
    assert reader([1, 2, 3]).integers(3) == (1, 2, 3)
    assert reader([True, False]).booleans() == (True, False)
    with pytest.raises(StateFormatError, match=r"^bad test state: expected a list of 3 ints, got \[1, 2\]$"):
        reader([1, 2]).integers(3)
    with pytest.raises(StateFormatError, match=r"^bad test state: \[1\]: expected true or false, got 1$"):
        reader([True, 1]).booleans()
    with pytest.raises(StateFormatError, match=r"^bad test state: names: expected a list of 2 to 4 strings, got \[\"a\"\]$"):
        reader({"names": ["a"]}).at("names").texts(low=2, high=4)
    with pytest.raises(StateFormatError, match=r'^bad test state: ids: lists "a" twice$'):
        reader({"ids": ["a", "b", "a"]}).at("ids").texts(unique=True)


def test_an_object_has_exactly_its_fields():
    assert reader({"a": 1, "b": 2}).fields(("a", "b")).at("b").integer() == 2
    assert reader({"a": 1, "c": 2}).fields(("a",), optional=("c",)).at("a").integer() == 1
    with pytest.raises(StateFormatError, match=r"^bad test state: p: expected the fields a, b: missing b; unknown z$"):
        reader({"p": {"a": 1, "z": 0}}).at("p").fields(("a", "b"))
    with pytest.raises(StateFormatError, match=r"^bad test state: p: expected an object, got \[\]$"):
        reader({"p": []}).at("p").fields(("a",))
    with pytest.raises(StateFormatError, match=r"^bad test state: p\.q: is missing$"):
        reader({"p": {}}).at("p").at("q")
    assert [(key, field.path) for key, field in reader({"p": {"x": 1}}).at("p").entries()] == [("x", "p.x")]


def test_nested_lists_become_tuples_and_only_plain_leaves_pass():
    assert reader([[1, [True, "a"]], []]).nested() == ((1, (True, "a")), ())
    with pytest.raises(StateFormatError, match=r"^bad test state: \[0\]\[1\]: expected ints, bools, strings"):
        reader([[1, 2.5]]).nested()


def test_a_refused_value_is_quoted_short():
    with pytest.raises(StateFormatError) as err:
        reader({"n": "y" * 500}).at("n").integer()
    assert str(err.value) == 'bad test state: n: expected an int, got "' + "y" * 76 + "..."
    with pytest.raises(StateFormatError, match=r"got <object object"):
        reader({"n": object()}).at("n").integer()


def test_a_component_set_refusal_is_a_setup_error_with_the_same_words():
    with pytest.raises(StateFormatError) as err:
        reader({"w": 40}).at("w").integer(2, 26)
    setup = as_setup_error(err.value)
    assert isinstance(setup, SetupError) and str(setup) == str(err.value)
