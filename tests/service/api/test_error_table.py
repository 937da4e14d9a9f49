"""Errors are mapped to HTTP once, at the edge: the layers below carry no status, the API's table does."""

from __future__ import annotations

import pytest

import engine
from service.api.errors import ERROR_TABLE, status_of
from service.store import errors as store_errors

EXPECTED = {
    store_errors.NotFoundError: (404, "not_found"),
    store_errors.ConflictError: (409, "conflict"),
    store_errors.InvalidRequestError: (400, "bad_request"),
    store_errors.ForbiddenError: (403, "forbidden"),
    store_errors.IdempotencyKeyReusedError: (422, "idempotency_key_reused"),
    engine.NotationError: (400, "bad_notation"),
    engine.IllegalActionError: (422, "illegal_action"),
    engine.SetupError: (422, "bad_setup"),
}


def _store_error_classes() -> list[type[store_errors.StoreError]]:
    return [c for c in vars(store_errors).values() if isinstance(c, type) and issubclass(c, store_errors.StoreError)]


@pytest.mark.parametrize("kind", _store_error_classes(), ids=lambda kind: kind.__name__)
def test_store_errors_say_what_went_wrong_not_how_to_answer(kind: type[store_errors.StoreError]) -> None:
    error = kind("no game 'x'", game="x")
    assert not hasattr(error, "status") and not hasattr(error, "code")
    assert error.message == str(error) == "no game 'x'" and error.details == {"game": "x"}


@pytest.mark.parametrize("kind", _store_error_classes(), ids=lambda kind: kind.__name__)
def test_every_store_error_has_its_own_row(kind: type[Exception]) -> None:
    assert kind in {row[0] for row in ERROR_TABLE}


@pytest.mark.parametrize("kind", sorted(EXPECTED, key=lambda kind: kind.__name__), ids=lambda kind: kind.__name__)
def test_the_table_gives_the_documented_status(kind: type[Exception]) -> None:
    error = kind.__new__(kind)  # the mapping looks at the class only
    assert status_of(error) == EXPECTED[kind]


def test_a_more_specific_row_comes_before_its_base() -> None:
    """First match wins, so no row may sit below a row of one of its base classes."""
    for i, (kind, _, _) in enumerate(ERROR_TABLE):
        above = [base for base, _, _ in ERROR_TABLE[:i] if issubclass(kind, base)]
        assert above == [], f"{kind.__name__} is shadowed by {above}"
