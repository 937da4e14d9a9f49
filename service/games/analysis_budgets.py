"""How sure an analysis is at its budget: the repository's measurements of what a second opinion repeats.

A game's default budget (:func:`service.games.analysis.analysis_budget`) is the one at which its verdicts were
measured to meet the reproducibility targets (docs/PERFORMANCE.md, "Verdicts a second look confirms"). Below it the
marks and best moves are less sure, and the panel says so before and after the run, with the figures measured at that
budget where the repository has them: how many of the judged moves got a mark at all (at a small budget the intervals
are wide, so the engine cannot tell most moves apart, keeps the played one as best and misses mistakes), of the moves
one seed marked ``??`` how many the other marked ``??`` or ``?``, and in how many decisions both named the same best
move. The figures are the reproducibility bench's
(``python -m bench.reproducibility --table [--rollouts R]``, over bench/results/verdicts.jsonl, under the game's
current search version); ``tests/bench/test_budget_figures.py`` checks that they are still what that file says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import get_rules
from service.games.analysis import analysis_budget


@dataclass(frozen=True)
class Measured:
    """Two seeds' verdicts on the same decisions: how many decisions, the verdicts (of either seed) with any mark, the
    ``??`` marks (either seed's) and how many of them the other seed marked ``??`` or ``?``, and how many decisions had
    the same best move under both."""

    decisions: int
    marked: int
    blunders: int
    blunders_kept: int
    best_agrees: int

    def as_json(self) -> dict[str, int | None]:
        """The figures as the report gives them, with the shares in whole percent."""
        return {"decisions": self.decisions, "verdicts": 2 * self.decisions, "marked": self.marked,
                "blunders": self.blunders, "blunders_kept": self.blunders_kept, "best_agrees": self.best_agrees,
                "marked_pct": _pct(self.marked, 2 * self.decisions),
                "blunders_kept_pct": _pct(self.blunders_kept, self.blunders),
                "best_agrees_pct": _pct(self.best_agrees, self.decisions)}


def measured(game: str, rollouts: int) -> Measured | None:
    """The measurement of ``game``'s verdicts at ``rollouts``, as the game declares it (its ``analysis_measured``,
    under its current search version: docs/PERFORMANCE.md), or None where the repository has none."""
    figures = get_rules(game).declaration.analysis_measured.get(rollouts)
    return Measured(*figures) if figures else None


def _pct(part: int, whole: int) -> int | None:
    return round(100 * part / whole) if whole else None


def budget_note(game: str, rollouts: int) -> dict[str, Any]:
    """What the report says of its budget: the game's default, whether this one is below it (``small``), and the
    measured figures at this budget and at the default (null where the repository has none)."""
    default = analysis_budget(game)
    here, at_default = measured(game, rollouts), measured(game, default)
    return {"default": default, "small": rollouts < default, "measured": here.as_json() if here else None,
            "at_default": at_default.as_json() if at_default else None}
