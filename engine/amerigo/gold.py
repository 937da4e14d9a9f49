"""Gold: gaining it (the track stops at 12, every further gold is 1 VP), spending it for AP, cashing
treasure chests and the once gold tokens.

Seed: "Ha az összesített aranya meghaladná a 12-t, akkor minden plusz aranyért kap 1 győzelmi pontot"
(gold above 12 becomes 1 VP each); "Minden elköltött aranyért a játékos 1 plusz akcióponthoz jut"
(each gold spent gives 1 more AP); a chest "bármikor eltávolíthatja a játékból, amiért 3 aranyat
kap" (may be returned at any time for 3 gold).
"""

from __future__ import annotations

from engine.amerigo import components as c
from engine.amerigo.state import Player


def gain_gold(player: Player, amount: int) -> Player:
    """``player`` after gaining ``amount`` gold; overflow above 12 becomes VP at once (Ruling 14: any gold)."""
    if amount <= 0:
        return player
    total = player.gold + amount
    new = player.copy()
    if total <= c.GOLD_MAX:
        new.gold = total
    else:
        new.gold = c.GOLD_MAX
        new.vp = player.vp + total - c.GOLD_MAX
    return new


def lose_vp(player: Player, amount: int) -> Player:
    """``player`` after losing ``amount`` VP; VP never go below 0 ("a 0/50-es mezőre hagyja")."""
    new = player.copy()
    new.vp = max(0, player.vp - amount)
    return new
