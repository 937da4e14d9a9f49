"""Puerto Rico on Board Game Arena: planning the plantation draws a log does not state.

The plantations form a small system of their own (stack, discards, the face-up row);
:func:`plan_draws` searches it for draws under which every settler phase of the log is possible.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass
class Phase:
    """A settler phase as the log tells it: plantations taken from the row; hacienda draws (kind or None)."""

    takes: Counter[int] = field(default_factory=Counter)
    hacienda: list[tuple[int, int | None]] = field(default_factory=list)  # (note index, kind)


@dataclass
class DrawPlan:
    """Unstated draws chosen ahead: the face-up row draws in order, and hacienda draws by note index."""

    row: list[int]
    hacienda: dict[int, int]


_PLAN_BUDGET = 2_000
_PLAN_BEAM = 8


def _multisets(total: int, limits: Sequence[int], prefix: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """Every count vector over the remaining kinds summing to ``total`` within ``limits``."""
    if len(prefix) == len(limits) - 1:
        last = total
        return [prefix + (last,)] if last <= limits[-1] else []
    out = []
    for count in range(min(total, limits[len(prefix)]) + 1):
        out += _multisets(total - count, limits, prefix + (count,))
    return out


def plan_draws(n: int, start_stack: Sequence[int], phases: Sequence[Phase]) -> DrawPlan | None:
    """Row draws (and unstated hacienda draws) under which every settler phase of the log is possible.

    The plantations form a small system of their own (stack, discards, the face-up row): a depth-first
    search over each refill's multiset finds draws consistent with everything later in the log, where
    choosing refill by refill can paint itself into a corner (the kind needed next is in the discards,
    and only emptying the stack earlier would have reshuffled it back). None when no plan is found
    within the search budget (the importer then chooses draw by draw).
    """
    budget = [_PLAN_BUDGET]
    later: list[Counter[int]] = [Counter() for _ in range(len(phases) + 1)]
    for i in range(len(phases) - 1, -1, -1):
        later[i] = later[i + 1] + phases[i].takes + Counter(g for _, g in phases[i].hacienda if g is not None)

    def refill(stack: list[int], discards: list[int], k: int) -> list[tuple[list[int], list[int], list[int], tuple[int, ...]]]:
        """(draw order, stack after, discards after, row) for every possible refill."""
        options = []
        if sum(stack) >= k:
            for row in _multisets(k, stack):
                order = [g for g in range(5) for _ in range(row[g])]
                options.append((order, [a - b for a, b in zip(stack, row, strict=True)], list(discards), row))
        else:
            rest = min(k - sum(stack), sum(discards))
            for extra in _multisets(rest, discards):
                order = [g for g in range(5) for _ in range(stack[g])] + [g for g in range(5) for _ in range(extra[g])]
                row = tuple(a + b for a, b in zip(stack, extra, strict=True))
                options.append((order, [a - b for a, b in zip(discards, extra, strict=True)], [0] * 5, row))
        return options

    def search(i: int, stack: list[int], discards: list[int]) -> DrawPlan | None:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        need = phases[i].takes if i < len(phases) else Counter()
        future = later[i]
        candidates = [c for c in refill(stack, discards, n + 1) if all(c[3][g] >= need[g] for g in range(5))]
        # Until the next reshuffle every row comes from the stack as it is now: draw beyond this phase's
        # takes only from kinds the stack has to spare for the phases before that reshuffle.
        before = Counter[int]()
        for phase in phases[i: i + max(1, sum(stack) // (n + 1))]:
            before += phase.takes
        spare = [stack[g] - before[g] for g in range(5)]
        candidates.sort(key=lambda c: sum((c[3][g] - need[g]) * -spare[g] for g in range(5)))
        for order, stack_after, discards_after, row in candidates[:_PLAN_BEAM]:
            if i == len(phases):
                return DrawPlan(order, {})
            stack_now = list(stack_after)
            chosen: dict[int, int] = {}
            possible = True
            for index, good in phases[i].hacienda:
                pick = good if good is not None else max(range(5), key=lambda g: (stack_now[g] - future[g], -g))
                if stack_now[pick] <= 0:
                    possible = False
                    break
                stack_now[pick] -= 1
                if good is None:
                    chosen[index] = pick
            if not possible:
                continue
            left = [row[g] - need[g] for g in range(5)]
            rest = search(i + 1, stack_now, [d + x for d, x in zip(discards_after, left, strict=True)])
            if rest is not None:
                return DrawPlan(order + rest.row, {**chosen, **rest.hacienda})
            if budget[0] < 0:
                return None
        return None

    return search(0, list(start_stack), [0] * 5)
