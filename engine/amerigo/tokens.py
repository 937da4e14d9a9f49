"""Progress tokens: their indices, who owns which, and the AP bonuses they give.

A player's ``tokens`` hold indices into :data:`components.PROGRESS_TOKENS`; once tokens
(PT10, PT16, PT17, PT18, PT21) are also listed in ``used`` after use ("A jelzőt használat után
képpel lefelé kell fordítani": the token is turned face down after use).
"""

from __future__ import annotations

from typing import Final

from engine.amerigo import components as c
from engine.amerigo.state import Player

TOKEN_IDS: Final = tuple(t[0] for t in c.PROGRESS_TOKENS)
TOKEN_INDEX = {token: i for i, token in enumerate(TOKEN_IDS)}
TOKEN_KINDS = tuple(t[1] for t in c.PROGRESS_TOKENS)
TOKEN_EFFECTS = tuple(t[2] for t in c.PROGRESS_TOKENS)
# The token indices, one Final name each (compiled: a constant, not a dictionary lookup at every use).
PT01: Final = 0
PT02: Final = 1
PT03: Final = 2
PT04: Final = 3
PT05: Final = 4
PT06: Final = 5
PT07: Final = 6
PT08: Final = 7
PT09: Final = 8
PT10: Final = 9
PT11: Final = 10
PT12: Final = 11
PT13: Final = 12
PT14: Final = 13
PT15: Final = 14
PT16: Final = 15
PT17: Final = 16
PT18: Final = 17
PT19: Final = 18
PT20: Final = 19
PT21: Final = 20
PT22: Final = 21
PT23: Final = 22
PT24: Final = 23
#: The once tokens that turn into gold, and how much.
GOLD_TOKENS: Final = {PT17: 3, PT18: 5}

#: Per colour, the AP bonus each token gives (PT01-PT09).
_BONUS_BY_COLOUR: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    tuple((TOKEN_INDEX[t], ap) for t, (colours, ap) in c.AP_BONUSES.items() if colour in colours) for colour in range(7)
)


def owns(player: Player, token: int) -> bool:
    """Whether ``player`` owns ``token``."""
    return token in player.tokens


def unused(player: Player, token: int) -> bool:
    """Whether ``player`` owns once token ``token`` still face up."""
    return token in player.tokens and token not in player.used


def ap_bonus(player: Player, colour: int) -> int:
    """AP the player's tokens add when performing ``colour`` (Ruling 2: the colour actually performed)."""
    if not player.tokens:
        return 0
    return sum(ap for token, ap in _BONUS_BY_COLOUR[colour] if token in player.tokens)


def token_name(token: int) -> str:
    """``PT05``."""
    return TOKEN_IDS[token]
