"""The explorer (issue 49): what players of the public finished games chose at each stage, and how they fared.

A game is counted once, when it has ended (the fold job of its main line, the import job of an upload that ends it,
``ludolog explorer rebuild`` for games stored before): its main line is replayed once and each seat's main choices
are read from its actions. Which choices are a game's main ones:

- Puerto Rico: the role each seat chose, by round and by its place in the round's order (1 = the governor), and the
  first two buildings each seat built;
- Amerigo: the action each turn (a colour of the action field, its special action, gold, or scoring the cubes), by
  stage of the game (its first, middle and last third of moves);
- Entdecker: the tiles bought for an expedition and the pieces built (scout, fort, settlement), by stage;
- Die goldene Stadt: the landscape of each site built on (or the inner city) and the bonus cards kept, by stage.

A choice "won" when the seat that made it shared first place (``Outcome.ranks``). Only public games count, and only
public games are listed as having passed through a choice.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from engine import get_rules, registered_games
from engine.core.played import STAGES, Choice, PlayedMove
from engine.core.protocol import Rules, State
from service.store.errors import InvalidRequestError, NotFoundError
from service.store.explorer import ALL_PLAYERS, ExplorerStore, Pick
from service.store.games import MAIN, GameRecord, GameStore
from service.store.snapshots import fold_steps

#: The normal quantile of a 95 % interval.
Z95 = 1.959963984540054


def wilson_interval(wins: int, count: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (Wilson 1927) of a proportion ``wins``/``count``.

    With p = wins/count and n = count: (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n). Unlike the normal
    approximation it stays inside [0, 1] and is not empty at 0 or n wins; for no trials it is the whole [0, 1].
    """
    if count <= 0:
        return 0.0, 1.0
    p, n, z2 = wins / count, count, z * z
    centre = p + z2 / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    scale = 1 + z2 / n
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def explored_games() -> list[str]:
    """The games with an explorer: those whose declaration reads their main choices (``explorer_choices``)."""
    return [name for name in registered_games() if get_rules(name).declaration.explorer_choices is not None]


def _choices_of(game: str, moves: list[PlayedMove]) -> list[Choice]:
    read = get_rules(game).declaration.explorer_choices
    return read(moves) if read is not None else []


def counts_in_explorer(record: GameRecord) -> bool:
    """True for a game the explorer counts: public, finished, of a game with rules and a reader of its choices."""
    return record.visibility == "public" and record.result is not None and record.game in explored_games()


def _replay(rules: Rules, games: GameStore, record: GameRecord) -> tuple[list[PlayedMove], State]:
    moves: list[PlayedMove] = []
    state = rules.initial_state(record.setup)
    for step in fold_steps(rules, state, games.iter_events(record.id, MAIN)):
        actor = step.event.actor
        if step.action is not None and isinstance(actor, int) and step.event.action is not None:
            moves.append(PlayedMove(step.event.seq, step.before, actor, step.event.action))
        state = step.state
    return moves, state


def picks_of(games: GameStore, record: GameRecord) -> list[Pick] | None:
    """A finished game's choices with whether each chooser won; None when its main line has not ended."""
    rules = get_rules(record.game)
    moves, final = _replay(rules, games, record)
    outcome = rules.current_actor(final) is None and rules.outcome(final)
    if not outcome:
        return None
    ranks = outcome.ranks or tuple(1 if seat in outcome.winners else 2 for seat in range(len(record.setup.players)))
    return [Pick(stage, choice, seq, ranks[seat] == 1)
            for seq, seat, stage, choice in _choices_of(record.game, moves)]


def count_game(games: GameStore, explorer: ExplorerStore, gid: str) -> bool:
    """Count game ``gid`` in its explorer if it counts and is not counted yet; True if it was counted now."""
    record = games.game(gid)
    if not counts_in_explorer(record) or explorer.is_counted(record.game, gid):
        return False
    picks = picks_of(games, record)
    if picks is None:
        return False
    return explorer.count_game(record.game, gid, len(record.setup.players), picks)


@dataclass(frozen=True)
class ExplorerRow:
    """One choice at one stage: how often, how often its chooser won, and the 95 % Wilson interval of that rate."""

    stage: str
    choice: str
    count: int
    wins: int
    rate: float
    low: float
    high: float


def _natural(text: str) -> tuple[object, ...]:
    """Sort key that orders "round 10" after "round 9" and early, middle, late in the game's order."""
    if text in STAGES:
        return (STAGES.index(text),)
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text))


@dataclass(frozen=True)
class ExplorerTable:
    """A game's explorer for one player count: its stages in order, the one shown, and that stage's choices."""

    game: str
    players: str
    stages: list[str]
    stage: str | None
    rows: list[ExplorerRow]
    games: int


def explorer_table(explorer: ExplorerStore, game: str, players: str = ALL_PLAYERS,
                   stage: str | None = None) -> ExplorerTable:
    """The choices at ``stage`` (default: the first) of ``game`` over its counted games of ``players`` players, the
    most chosen first."""
    counts = explorer.choices(game, players)
    stages = sorted({c.stage for c in counts}, key=_natural)
    shown = stage if stage is not None else (stages[0] if stages else None)
    rows = [ExplorerRow(c.stage, c.choice, c.count, c.wins, c.wins / c.count, *wilson_interval(c.wins, c.count))
            for c in counts if c.stage == shown]
    rows.sort(key=lambda row: (-row.count, row.choice))
    return ExplorerTable(game, players, stages, shown, rows, explorer.games_counted(game))


def games_through(games: GameStore, explorer: ExplorerStore, game: str, players: str, stage: str,
                  choice: str) -> list[tuple[GameRecord, int]]:
    """The public games (and the seq of the move) that passed through ``choice`` at ``stage``, newest counted first."""
    found = explorer.games_through(game, players, stage, choice)
    records = {record.id: record for record in games.games([gid for gid, _ in found])}
    return [(records[gid], seq) for gid, seq in found if gid in records and records[gid].visibility == "public"]


def rebuild(games: GameStore, explorer: ExplorerStore, *, progress: Callable[[int, int], None] | None = None,
            batch: int = 200) -> int:
    """Count every public finished game not counted yet (the games stored before the explorer, or a job lost), oldest
    first; returns how many were counted now. Safe to stop and run again: a counted game is never counted twice."""
    total, counted, offset = games.game_count(), 0, 0
    while gids := games.game_ids(newest_first=False, limit=batch, offset=offset):
        for gid in gids:
            try:
                counted += count_game(games, explorer, gid)
            except NotFoundError:  # deleted meanwhile
                continue
        offset += len(gids)
        if progress:
            progress(min(offset, total), total)
    return counted


def check_explorer(game: str, players: str) -> None:
    """Refuse a game with no explorer (NotFoundError) or a player count it is not played with (InvalidRequestError)."""
    if game not in explored_games():
        raise NotFoundError(f"no explorer for game {game!r}", game=game)
    rules = get_rules(game)
    if players != ALL_PLAYERS and not rules.min_players <= int(players) <= rules.max_players:
        raise InvalidRequestError(f"{game} is played by {rules.min_players} to {rules.max_players} players, not {players}",
                                  players=players)


def explorer_query(explorer: ExplorerStore, game: str, players: str = ALL_PLAYERS,
                   stage: str | None = None) -> ExplorerTable:
    """:func:`explorer_table` for a request: the game and player count checked first (:func:`check_explorer`)."""
    check_explorer(game, players)
    return explorer_table(explorer, game, players, stage)


def table_json(table: ExplorerTable) -> dict[str, object]:
    """The table as the API answers it (each row without its stage: the table's)."""
    return {"game": table.game, "players": table.players, "games": table.games, "stages": table.stages,
            "stage": table.stage, "rows": [{"choice": r.choice, "count": r.count, "wins": r.wins, "rate": r.rate,
                                            "low": r.low, "high": r.high} for r in table.rows]}
