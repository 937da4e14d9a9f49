"""Progress tokens: their indices, who owns which, and the AP bonuses they give.

A player's ``tokens`` hold indices into :data:`components.PROGRESS_TOKENS`; once tokens
(PT10, PT16, PT17, PT18, PT21) are also listed in ``used`` after use ("A jelzőt használat után
képpel lefelé kell fordítani": the token is turned face down after use).
"""

from __future__ import annotations

from engine.amerigo import components as c
from engine.amerigo.state import Player

TOKEN_IDS = tuple(t[0] for t in c.PROGRESS_TOKENS)
TOKEN_INDEX = {token: i for i, token in enumerate(TOKEN_IDS)}
TOKEN_KINDS = tuple(t[1] for t in c.PROGRESS_TOKENS)
TOKEN_EFFECTS = tuple(t[2] for t in c.PROGRESS_TOKENS)
(PT01, PT02, PT03, PT04, PT05, PT06, PT07, PT08, PT09, PT10, PT11, PT12,
 PT13, PT14, PT15, PT16, PT17, PT18, PT19, PT20, PT21, PT22, PT23, PT24) = range(24)
#: The once tokens that turn into gold, and how much.
GOLD_TOKENS = {PT17: 3, PT18: 5}

#: Per colour, the AP bonus each token gives (PT01-PT09).
_BONUS_BY_COLOUR: tuple[tuple[tuple[int, int], ...], ...] = tuple(
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
