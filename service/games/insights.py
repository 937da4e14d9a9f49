"""Your mistakes (issue 49, item 3): a user's analysed decisions by phase and stage, beside every analysed player's.

What is counted: a game's **main line** judged in the **full view at seed 0** (the analysis the game page asks for
by default), at whatever budget first completed it; every decision whose played move was judged counts for its seat:
one decision, a mistake when its mark is ``?`` or ``??`` (:func:`engine.analysis.verdict.mark_for`: the low end of the
loss interval reaches 0.10), a blunder for ``??``, and its loss (the best move's win chance less the played move's).
Each decision is filed under its phase or role as the game names it in the mover's view and its stage (which third of
the game), as puzzles are (:func:`service.games.puzzles.theme_of`, :func:`~service.games.puzzles.stage_of`).

When counted: the analysis job that completes such an analysis queues :func:`count_analysis` (``workers.insights``),
which summarises the game once and settles every claim on it (``ludolog insights rebuild``: the analyses that ended
before, :func:`rebuild`); a claim made, answered or deleted settles its claimant
at once (:func:`settle_claim`). Nothing is recomputed from the verdicts when the insights are read.

Who sees what (:func:`insights_of`): a user's own insights count every game they claimed; anyone else's count and
list only their public games (the counters' ``public`` scope), so a private or unlisted game's positions are never
listed to another viewer. The all-players figures are those of every seat of every analysed public game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis

from engine import CHANCE, apply_event, start
from engine.analysis.verdict import mark_for
from engine.core.played import STAGES, stage_of
from engine.core.protocol import Rules, State
from service.games.analysis import analysis_budget, decisions, said, stored_results
from service.games.puzzles import theme_of
from service.store.claims import CONFIRMED, Claim, ClaimStore
from service.store.errors import NotFoundError
from service.store.games import MAIN, GameStore
from service.store.insights import ALL, LOSS_UNIT, PUBLIC, SEPARATOR, InsightStore, figures_from
from service.store.records import GameRecord

#: The analysis insights count: the main line's, in the full view, at this seed.
COUNTED_VIEW, COUNTED_SEED = "full", 0
#: The worst moves listed (and kept per game and seat).
WORST_SHOWN = 10
#: The marks counted as mistakes, and the one counted as a blunder too.
MISTAKES, BLUNDER = ("?", "??"), "??"


def counts_for_insights(bid: str, view: str, seed: int) -> bool:
    """True for the analysis insights count (see the module docstring)."""
    return bid == MAIN and view == COUNTED_VIEW and seed == COUNTED_SEED


@dataclass(frozen=True)
class Judged:
    """One judged decision of a seat: where, its phase and stage, the loss of the move played and its mark."""

    seq: int
    seat: int
    phase: str
    stage: str
    loss: float
    mark: str | None
    #: The played and the best move as stored (notation, and the sentence as a message: rendered when read).
    played: dict[str, Any]
    best: dict[str, Any]


def _judged(seq: int, seat: int, state: State, rules: Rules, result: dict[str, Any], head: int) -> Judged | None:
    played = next((m for m in result["moves"] if m["action"] == result.get("played")), None)
    if played is None or not result["moves"]:
        return None
    loss = max(0.0, float(played["loss"]))
    return Judged(seq, seat, theme_of(rules, state, seat), stage_of(seq, head), loss, mark_for(played["loss_ci"][0]),
                  _said(played), _said(result["moves"][0]))


def _said(move: dict[str, Any]) -> dict[str, Any]:
    return {name: move[name] for name in ("action", "message", "text") if name in move}


def judged_decisions(games: GameStore, client: redis.Redis, gid: str, rollouts: int) -> list[Judged] | None:
    """Every judged decision of the game's main line at this budget (full view, seed 0); None while its analysis is
    not complete."""
    record = games.game(gid)
    _, positions = decisions(games, gid, MAIN)
    stored = stored_results(client, record, rollouts, COUNTED_VIEW, COUNTED_SEED).get_many(games.branches(gid), MAIN,
                                                                                            positions)
    if len(stored) < len(positions):
        return None
    events = games.events(gid, MAIN)
    head = events[-1].seq
    rules, state = start(events[0])
    found: list[Judged] = []
    for event in events[1:]:
        seq = event.seq - 1
        actor = rules.current_actor(state)
        if seq in stored and actor is not None and actor != CHANCE:
            judged = _judged(seq, int(actor), state, rules, stored[seq], head)
            if judged is not None:
                found.append(judged)
        state = apply_event(rules, state, event, check=False)
    return found


def _add(counters: dict[str, int], dimension: str, key: str, judged: Judged) -> None:
    for measure, value in (("n", 1), ("m", judged.mark in MISTAKES), ("b", judged.mark == BLUNDER),
                           ("l", round(judged.loss * LOSS_UNIT))):
        field = f"{dimension}{SEPARATOR}{key}{SEPARATOR}{measure}"
        counters[field] = counters.get(field, 0) + int(value)


def summary_of(record: GameRecord, rollouts: int, judged: list[Judged]) -> dict[str, Any]:
    """The game's summary as stored (:meth:`service.store.insights.InsightStore.record_game`): per seat its counters
    and its :data:`WORST_SHOWN` worst moves (member ``gid@seq`` and loss), with what the page shows of each."""
    seats: dict[str, dict[str, Any]] = {}
    for one in judged:
        per = seats.setdefault(str(one.seat), {"counters": {}, "worst": [], "moves": {}})
        _add(per["counters"], "all", "all", one)
        _add(per["counters"], "phase", one.phase, one)
        _add(per["counters"], "stage", one.stage, one)
    for seat, per in seats.items():
        worst = sorted((j for j in judged if str(j.seat) == seat and j.loss > 0), key=lambda j: (-j.loss, j.seq))
        per["worst"] = [[f"{record.id}@{j.seq}", round(j.loss, 4)] for j in worst[:WORST_SHOWN]]
        per["moves"] = {str(j.seq): {"phase": j.phase, "stage": j.stage, "mark": j.mark, "played": j.played,
                                     "best": j.best} for j in worst[:WORST_SHOWN]}
    return {"gid": record.id, "game": record.game, "visibility": record.visibility, "rollouts": rollouts,
            "players": list(record.setup.players), "seats": seats}


def settle_claim(insights: InsightStore, claim: Claim) -> bool:
    """Bring the claimant's counters in line with the claim as stored now (after any change of it)."""
    return insights.settle(claim)


def count_analysis(games: GameStore, client: redis.Redis, insights: InsightStore, claims: ClaimStore, gid: str,
                   rollouts: int) -> bool:
    """Summarise the game's completed analysis (once) and settle every claim on it; False when the analysis is not
    complete or the game was summarised already (its claims are settled all the same)."""
    record = games.game(gid)
    judged = judged_decisions(games, client, gid, rollouts)
    recorded = judged is not None and insights.record_game(summary_of(record, rollouts, judged))
    for claim in claims.on_game(gid):
        insights.settle(claim)
    return recorded


def rebuild(games: GameStore, client: redis.Redis, insights: InsightStore, claims: ClaimStore, *,
            rollouts: int | None = None, progress: Callable[[int, int], None] | None = None, batch: int = 200) -> int:
    """Count every game whose main line has a complete analysis (full view, seed 0) at ``rollouts`` (default: its
    game's default budget) and no summary yet: the analyses that ended before the insights were kept, or whose job was
    lost. Oldest first; safe to stop and run again (a game is summarised once). Returns how many were counted now."""
    total, counted, offset = games.game_count(), 0, 0
    while gids := games.game_ids(newest_first=False, limit=batch, offset=offset):
        for gid in gids:
            counted += _rebuild_one(games, client, insights, claims, gid, rollouts)
        offset += len(gids)
        if progress:
            progress(min(offset, total), total)
    return counted


def _rebuild_one(games: GameStore, client: redis.Redis, insights: InsightStore, claims: ClaimStore, gid: str,
                 rollouts: int | None) -> bool:
    try:
        record = games.game(gid)
        if record.is_log_only or insights.game(gid) is not None:
            return False
        return count_analysis(games, client, insights, claims, gid, rollouts or analysis_budget(record.game))
    except NotFoundError:  # deleted meanwhile
        return False


# -- reading ----------------------------------------------------------------------------------------------------------
def _figures(sums: dict[str, int] | None) -> dict[str, Any]:
    """Decisions, mistakes and blunders per 100 decisions, and the average loss, of summed counters."""
    n = (sums or {}).get("n", 0)
    if not sums or not n:
        return {"decisions": 0, "mistakes": 0, "mistakes_per_100": None, "blunders_per_100": None,
                "average_loss": None}
    return {"decisions": n, "mistakes": sums["m"], "mistakes_per_100": round(100 * sums["m"] / n, 2),
            "blunders_per_100": round(100 * sums["b"] / n, 2), "average_loss": round(sums["l"] / LOSS_UNIT / n, 4)}


def _rows(mine: dict[str, dict[str, int]], everyone: dict[str, dict[str, int]], order: list[str]) -> list[dict[str, Any]]:
    keys_ = [key for key in order if key in mine] + sorted(key for key in mine if key not in order)
    return [{"key": key, **_figures(mine[key]), "everyone": _figures(everyone.get(key))} for key in keys_]


def _game_figures(summary: dict[str, Any], seat: int) -> dict[str, Any]:
    """One claimed game's figures: overall, by phase and by stage (beside nothing: one game is no comparison)."""
    mine = figures_from(summary["seats"].get(str(seat), {}).get("counters", {}))
    return _figures(mine.get("all", {}).get("all")) | {
        "by_phase": _rows(mine.get("phase", {}), {}, []), "by_stage": _rows(mine.get("stage", {}), {}, list(STAGES))}


def _worst(insights: InsightStore, user: str, scope: str, game: str, summaries: dict[str, dict[str, Any]],
           seats: dict[str, int]) -> list[dict[str, Any]]:
    found = []
    for gid, seq, loss in insights.worst(user, scope, game, WORST_SHOWN):
        move = summaries.get(gid, {}).get("seats", {}).get(str(seats.get(gid)), {}).get("moves", {}).get(str(seq))
        if move is not None:
            found.append({"gid": gid, "bid": MAIN, "seq": seq, "loss": round(loss, 4), "phase": move["phase"],
                          "stage": move["stage"], "mark": move["mark"], "played": said(move["played"]),
                          "best": said(move["best"]), "played_action": move["played"]["action"],
                          "best_action": move["best"]["action"]})
    return found


def insights_of(games: GameStore, insights: InsightStore, claims: ClaimStore, user: str,
                viewer: str | None) -> dict[str, Any]:
    """A user's insights as ``viewer`` may see them (see the module docstring): per game kind their figures overall,
    by phase and by stage beside every analysed player's, their worst moves, and each claimed game's figures."""
    scope = ALL if viewer == user else PUBLIC
    counted = insights.counted(user, scope)
    summaries = insights.games(sorted(counted))
    names = {c.gid: c.player for c in claims.of_user(user) if c.status == CONFIRMED}
    records = {record.id: record for record in games.games(sorted(summaries))}
    titles = {gid: record.title for gid, record in records.items()}
    if scope == PUBLIC:  # a game no longer public (were a route ever to change that) is listed to its players alone
        summaries = {gid: s for gid, s in summaries.items() if gid in records and records[gid].visibility == "public"}
    kinds: dict[str, list[str]] = {}
    for gid, summary in summaries.items():
        kinds.setdefault(summary["game"], []).append(gid)
    shown = []
    for game in sorted(kinds):
        mine, everyone = insights.user(user, scope, game), insights.everyone(game)
        shown.append({
            "game": game, "overall": _figures(mine.get("all", {}).get("all")),
            "everyone": _figures(everyone.get("all", {}).get("all")) | {"games": insights.everyone_games(game)},
            "by_phase": _rows(mine.get("phase", {}), everyone.get("phase", {}), []),
            "by_stage": _rows(mine.get("stage", {}), everyone.get("stage", {}), list(STAGES)),
            "worst": _worst(insights, user, scope, game, summaries, counted),
            "games": [{"gid": gid, "title": titles.get(gid, ""), "seat": counted[gid], "player": names.get(gid),
                       "visibility": summaries[gid]["visibility"], **_game_figures(summaries[gid], counted[gid])}
                      for gid in kinds[game]],
        })
    return {"user": user, "scope": scope, "games": shown}
