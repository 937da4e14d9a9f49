"""Best-effort reading of a BGA log pasted as text (the log panel or the game review page).

The review page groups the lines a person saw under headers like ``Move 12 : 9:41:07``.
That is all we can rely on: no player ids, no channels, no arguments. The result is a
log-only :class:`~engine.bga.model.BgaLog` marked ``source="text"``: one public packet
per move, one notification (type ``textLine``) per non-empty line, kept verbatim.
Lines before the first header are kept too, under a move with no id, rather than lost.
The players are read from BGA's opening line (``Colors of A, B, C have been chosen ...``)
when it is there, else guessed from the names most lines start with.
"""

from __future__ import annotations

import re
from collections import Counter

from engine.bga.model import BgaLog, Notification, Packet, Player

# The time part is taken greedily and stripped afterwards: a lazy group followed by
# "\s*" would be quadratic on a line with a long run of spaces.
_MOVE_HEADER = re.compile(r"\s*Move\s+(\d{1,9})\s*:(.*)", re.IGNORECASE | re.DOTALL)
_COLORS_CHOSEN = re.compile(r"Colors of (.+?) have been chosen", re.IGNORECASE)
_TABLE = re.compile(r"(?:table=|Table #?\s*)(\d{3,19})\b", re.IGNORECASE)
_TIME_ONLY = re.compile(r"\s*[\d/.,:\- ]{4,30}(?:\s?[AaPp]\.?[Mm]\.?)?\s*")
_NAME = re.compile(r"[^\s,:;.!?()]{2,40}")
# Words a line may start with that are no player's name.
_NOT_NAMES = frozenset({"the", "a", "an", "end", "round", "turn", "phase", "game", "move", "all", "everyone", "each", "new",
                        "final", "start", "scoring", "score", "you", "player", "players", "it", "this", "there"})
_MAX_PLAYERS = 12

#: Notification type given to each line of a text log.
TEXT_LINE_TYPE = "textLine"
#: Channel given to the packets of a text log (there is no real table channel to name).
TEXT_CHANNEL = "text"


def looks_like_text_log(text: str) -> bool:
    """True if ``text`` has at least one ``Move N :`` header line."""
    return any(_MOVE_HEADER.fullmatch(line) for line in text.splitlines())


def parse_text_log(text: str) -> BgaLog:
    """A log-only :class:`BgaLog` of ``text``'s lines, grouped under their ``Move N :`` headers."""
    groups: list[tuple[int | None, str | None, list[tuple[int, str]]]] = [(None, None, [])]
    for line_no, line in enumerate(text.splitlines(), start=1):
        header = _MOVE_HEADER.fullmatch(line)
        if header:
            groups.append((int(header.group(1)), header.group(2).strip() or None, []))
        elif _TIME_ONLY.fullmatch(line) and len(groups) > 1 and groups[-1][1] is None and not groups[-1][2]:
            # The review page puts a move's time on the line below its header when copied from the browser.
            groups[-1] = (groups[-1][0], line.strip(), [])
        elif line.strip():
            groups[-1][2].append((line_no, line.strip()))
    if not groups[0][2]:
        groups.pop(0)  # no preamble
    packets = tuple(_packet(packet_id, *group) for packet_id, group in enumerate(groups, start=1))
    texts = [line for _, _, lines in groups for _, line in lines]
    players = tuple(Player(id=seat + 1, name=name) for seat, name in enumerate(players_of_lines(texts)))
    table = _TABLE.search(text)
    return BgaLog(table_id=int(table.group(1)) if table else None, players=players, packets=packets, result=None, game_name=None,
                  source="text", envelope="text")


def players_of_lines(lines: list[str]) -> list[str]:
    """The players of a pasted log: those BGA's colour line names, else the names at least a tenth of the lines
    (and three or more) start with, most frequent first."""
    for line in lines:
        chosen = _COLORS_CHOSEN.search(line)
        if chosen:
            names = [n.strip() for n in re.split(r",\s*|\s+and\s+", chosen.group(1)) if n.strip()]
            if 1 < len(names) <= _MAX_PLAYERS:
                return names
    starts: Counter[str] = Counter()
    for line in lines:
        first = _NAME.match(line)
        if first and first.group(0).casefold() not in _NOT_NAMES:
            starts[first.group(0)] += 1
    enough = max(3, len(lines) // 10)
    return [name for name, count in starts.most_common(_MAX_PLAYERS) if count >= enough]


def _packet(packet_id: int, move_id: int | None, time_text: str | None, lines: list[tuple[int, str]]) -> Packet:
    """One public packet holding a move's lines; each notification's uid names its source line."""
    notes = tuple(
        Notification(
            uid=f"line-{line_no}",
            type=TEXT_LINE_TYPE,
            log=line,
            args={},
            private=False,
            move_id=move_id,
            packet_id=packet_id,
            time=None,
        )
        for line_no, line in lines
    )
    return Packet(
        channel=TEXT_CHANNEL,
        is_private=False,
        player_id=None,
        packet_id=packet_id,
        packet_type="text",
        move_id=move_id,
        time=None,
        notifications=notes,
        time_text=time_text,
    )
