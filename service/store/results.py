"""A game's result as listings know it: whether its main line has ended, and who won.

The main line is the game as it was played or imported: forks are "what if" lines and never make a game
finished. Main only grows (a takeback forks), so once finished a game stays finished and its result never
changes; the store records it when the append that ends main is stored (live play, a demo), or with the game
(an import whose log ends the game), and the reconciler checks it against main's head state.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.protocol import Outcome, Rules, State

#: ``result`` filter values → whether the games asked for are finished.
RESULT_FILTERS = {"finished": True, "unfinished": False}


@dataclass(frozen=True)
class GameResult:
    """How a finished game ended: the names of the players who share first place (none when a log names none)."""

    winners: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """JSON-safe form (what the game's meta hash keeps)."""
        return {"winners": list(self.winners)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameResult:
        """The result from :meth:`to_json`'s form."""
        return cls(tuple(str(name) for name in data.get("winners", ())))

    @classmethod
    def from_outcome(cls, outcome: Outcome, players: Sequence[str]) -> GameResult:
        """The result of an engine outcome, its winning seats named as in the game's setup."""
        return cls(tuple(players[seat] for seat in outcome.winners if 0 <= seat < len(players)))


def encode_result(result: GameResult | None) -> str:
    """The meta hash's ``result`` field: '' while the game goes on, else the result's JSON."""
    return "" if result is None else json.dumps(result.to_json(), separators=(",", ":"))


def decode_result(text: str | None) -> GameResult | None:
    """The result a meta hash's ``result`` field holds (None: not finished, or a game stored before results)."""
    if not text or text == "null":
        return None
    return GameResult.from_json(json.loads(text))


def result_of(rules: Rules, state: State, players: Sequence[str]) -> GameResult | None:
    """The result of a game whose main line is at ``state``: None while someone (or chance) is still to act."""
    if rules.current_actor(state) is not None:
        return None
    outcome = rules.outcome(state)
    return GameResult() if outcome is None else GameResult.from_outcome(outcome, players)


def log_only_result(rows: Iterable[Mapping[str, Any]] | None) -> GameResult | None:
    """The result of a log-only game from the final results its log states (None when it states none).

    The winners are the players the log ranks first; a log that gives scores but no ranks, those with the best score.
    """
    if rows is None:
        return None
    rows = list(rows)
    ranked = [r for r in rows if r.get("rank") is not None]
    if ranked:
        return GameResult(tuple(str(r["name"]) for r in ranked if r["rank"] == 1))
    scored = [r for r in rows if r.get("score") is not None]
    best = max((r["score"] for r in scored), default=None)
    return GameResult(tuple(str(r["name"]) for r in scored if r["score"] == best))
