"""Game-log sentences: what a person would write about each action, as messages (:mod:`engine.core.messages`).

``describe_message(state, action, after)`` speaks of the state *before* the action, so it can say what the action
costs; for an action that ends the turn it also says what the turn's end brought (reserve tiles, islands scored),
found in ``after``, the state the action leads to. :data:`TEMPLATES` are the sentences' English templates, the
source of the game's catalog; ``describe`` is the message in English.
"""

from __future__ import annotations

from engine.core.messages import Arg, Listing, Message, Template, Term, english, message
from engine.entdecker import flow
from engine.entdecker.component_set import EVENT_BACK
from engine.entdecker.components import SIDE_NAMES, UNIT_NAMES
from engine.entdecker.notation import Action
from engine.entdecker.state import (
    BACK,
    BUY,
    EXPLORE,
    NATIVES,
    NATIVES_CHIP,
    OVER,
    PLACE,
    SCORE_CHIP,
    SETUP_BACK,
    SPIN,
    START,
    TILE,
    State,
)
from engine.entdecker.turn import RUINS, RUINS_VP, start_fee

GAME = "entdecker"

#: How people call the default topologies (a custom set's codes are shown in lower case).
TOPOLOGY_WORDS = {
    "SEA": "open sea", "ISLET": "sea with an islet", "CAPE": "headland", "CORNER": "coast corner",
    "TWIN": "pair of headlands", "ISTHMUS": "land bridge", "STRAIT": "strait", "BAY": "bay", "FJORD": "fjord",
    "LAND": "land",
}
#: The events a '?' tile shows, as the sentences say them (by event index: components.EVENT_NAMES).
EVENT_IDS = ("storm", "hostile", "friendly", "pirates", "ruins", "treasure")
SIDE_WORDS = ("north", "east", "south", "west")

#: The English templates by id: the catalog's source (service/i18n/games/translations).
TEMPLATES: dict[str, Template] = {
    "entdecker.tile": "{tile}",
    "entdecker.tile.a": "{tile:a}",
    "entdecker.tile.with": "{tile} with {event}",
    "entdecker.with.storm": "a storm",
    "entdecker.with.hostile": "hostile natives",
    "entdecker.with.friendly": "friendly natives",
    "entdecker.with.pirates": "pirates",
    "entdecker.with.ruins": "ruins",
    "entdecker.with.treasure": "a treasure",
    "entdecker.land.none": "all sea",
    "entdecker.land.all": "land all round",
    "entdecker.land.to": "land to the {sides}",
    "entdecker.spin": "Round {round}: the income wheel stops at {gold}; every player gains {gold} gold (up to {cap})",
    "entdecker.back.event": "a '?' back",
    "entdecker.back.plain": "a plain back",
    "entdecker.back.setup": "Stack {stack} ({tiles} tiles) is set out showing {back} on top",
    "entdecker.back.now": "Stack {stack} now shows {back} on top",
    "entdecker.turn_over": "{who} turns over {tile}",
    "entdecker.chip.natives": "The friendly natives give {who} a discovery chip worth {value}",
    "entdecker.chip.island": "{who} draws a discovery chip worth {value} for the island at ({x}, {y})",
    "entdecker.chip": "A discovery chip worth {value} is drawn",
    "entdecker.start_edge": "{who} sets sail from the {side} edge into ({x}, {y})",
    "entdecker.where.region": "water region {region} of the tile at ({x}, {y})",
    "entdecker.where.tile": "the tile at ({x}, {y})",
    "entdecker.start_tile": "{who} starts the ship from {where}",
    "entdecker.start_tile.fee": "{who} starts the ship from {where}, paying {fee} gold to the bank for {owner}'s {unit} there",
    "entdecker.pass": "{who} has nowhere to start from and passes",
    "entdecker.buy": ("{who} buys {n} tile for {n} gold", "{who} buys {n} tiles for {n} gold"),
    "entdecker.draw": "{who} draws from stack {stack} ({back})",
    "entdecker.draw.event": "a '?' tile",
    "entdecker.draw.plain": "a plain tile",
    "entdecker.place": "{who} places {tile} at ({x}, {y}), {land}{effect}",
    "entdecker.effect.storm": "; the storm ends the expedition at once",
    "entdecker.effect.hostile": "; a unit built here costs double",
    "entdecker.effect.friendly": "; friendly natives greet the crew",
    "entdecker.effect.pirates": "; pirates take {gold} gold",
    "entdecker.effect.ruins": "; the ruins are worth 3 points",
    "entdecker.effect.treasure": "; the treasure brings {gold} gold",
    "entdecker.build": "{who} builds a {unit} on {on} for {cost} gold{hostile}",
    "entdecker.on": "({x}, {y})",
    "entdecker.on.part": "({x}, {y}), on the {part} land part",
    "entdecker.part.islet": "islet",
    "entdecker.build.hostile": " (double: hostile natives)",
    "entdecker.takeback": "{who} takes back the scout at ({x}, {y})",
    "entdecker.end": "{who} ends the expedition{unused}",
    "entdecker.end.unused": (", leaving {n} paid draw unused", ", leaving {n} paid draws unused"),
    "entdecker.take_chip": "{who} accepts a discovery chip from the friendly natives",
    "entdecker.decline_chip": "{who} declines the friendly natives' chip",
    "entdecker.aftermath": "{sentence}; {notes}",
    "entdecker.reserve": ("{n} reserve tile fills the enclosed holes", "{n} reserve tiles fill the enclosed holes"),
    "entdecker.points": "points: {gains}",
    "entdecker.gain": "{who} +{points}",
    "entdecker.over": "the game is over",
    # The board's caption (replay_ui/games/entdecker.py): the round and what the position waits for.
    "entdecker.caption.round": "Round {round}",
    "entdecker.caption.setup": "Setting out the stacks",
    "entdecker.caption.spin": "the income wheel spins",
    "entdecker.caption.start": "{who} chooses where to start",
    "entdecker.caption.buy": "{who} buys tiles",
    "entdecker.caption.explore": "{who} explores ({n} paid draws left)",
    "entdecker.caption.tile": "{who} turns over a tile from stack {stack}",
    "entdecker.caption.back": "stack {stack} shows its next back",
    "entdecker.caption.place": "{who} places {tile}",
    "entdecker.caption.natives": "{who} meets friendly natives",
    "entdecker.caption.natives_chip": "{who} takes the natives' chip",
    "entdecker.caption.score_chip": "an island is scored",
}


def tile_words(state: State, kind: int) -> Message:
    """ "a headland with hostile natives", "open sea", "a coast corner"."""
    info = state.components.kinds[kind]
    name = TOPOLOGY_WORDS.get(info.topology, info.topology.lower())
    tile = message("entdecker.tile" if name in ("open sea", "land") else "entdecker.tile.a", tile=Term(GAME, "tile", name))
    if info.event < 0:
        return tile
    return message("entdecker.tile.with", tile=tile, event=message(f"entdecker.with.{EVENT_IDS[info.event]}"))


def caption_message(state: State) -> tuple[Message | str, ...]:
    """The board's caption as messages: the round (or the setting out) and what the position waits for."""
    phase = state.phase
    parts: list[Message | str] = [message("entdecker.caption.setup") if phase == SETUP_BACK else message("entdecker.caption.round",
                                                                                       round=state.round)]
    who = state.names[state.turn]
    if phase == SPIN:
        parts.append(message("entdecker.caption.spin"))
    elif phase in _CAPTION_OF_TURN:
        parts.append(message(_CAPTION_OF_TURN[phase], who=who))
    elif phase == EXPLORE:
        parts.append(message("entdecker.caption.explore", who=who, n=state.draws_left))
    elif phase == TILE:
        parts.append(message("entdecker.caption.tile", who=who, stack=state.stack + 1))
    elif phase == BACK:
        parts.append(message("entdecker.caption.back", stack=state.stack + 1))
    elif phase == PLACE:
        parts.append(message("entdecker.caption.place", who=who, tile=tile_words(state, state.tile)) if state.tile >= 0
                     else "")
    elif phase == SCORE_CHIP:
        parts.append(message("entdecker.caption.score_chip"))
    return tuple(parts)


#: Captions that only name the player whose turn it is, by phase.
_CAPTION_OF_TURN = {START: "entdecker.caption.start", BUY: "entdecker.caption.buy", NATIVES: "entdecker.caption.natives",
                    NATIVES_CHIP: "entdecker.caption.natives_chip"}


def _side(direction: int) -> Term:
    return Term(GAME, "side", SIDE_WORDS[direction])


def _land_sides(land: int) -> Message:
    sides = tuple(_side(d) for d in range(4) if land >> d & 1)
    if not sides:
        return message("entdecker.land.none")
    if len(sides) == 4:
        return message("entdecker.land.all")
    return message("entdecker.land.to", sides=Listing(sides, "all_and"))


def describe(state: State, action: Action, after: State) -> str:
    """One sentence about ``action`` taken in ``state`` (leading to ``after``), in English."""
    return english(describe_message(state, action, after), TEMPLATES)


def describe_message(state: State, action: Action, after: State) -> Message:
    """One sentence about ``action`` taken in ``state`` (leading to ``after``), with what the turn's end brought."""
    op = action[0]
    sentence = SENTENCES[op](state, action, state.names[state.turn])
    notes = _aftermath(state, action, after)
    return message("entdecker.aftermath", sentence=sentence, notes=Listing(notes, "semicolon")) if notes else sentence


def _spin(state: State, action: Action, who: str) -> Message:
    return message("entdecker.spin", round=state.round, gold=action[1], cap=state.components.gold_max)


def _back(state: State, action: Action, who: str) -> Message:
    back = message("entdecker.back.event" if action[2] == EVENT_BACK else "entdecker.back.plain")
    if state.phase == SETUP_BACK:
        return message("entdecker.back.setup", stack=action[1] + 1, tiles=state.stacks[action[1]], back=back)
    return message("entdecker.back.now", stack=action[1] + 1, back=back)


def _tile(state: State, action: Action, who: str) -> Message:
    return message("entdecker.turn_over", who=who, tile=tile_words(state, state.components.key_index[action[1]]))


def _chip(state: State, action: Action, who: str) -> Message:
    if state.phase == NATIVES_CHIP:
        return message("entdecker.chip.natives", who=who, value=action[1])
    if state.phase == SCORE_CHIP:
        seat = state.chip_queue[0]
        x, y = state.components.xy(state.islands[0].first)
        return message("entdecker.chip.island", who=state.names[seat], value=action[1], x=x, y=y)
    return message("entdecker.chip", value=action[1])


def _start_edge(state: State, action: Action, who: str) -> Message:
    return message("entdecker.start_edge", who=who, side=_side(action[3]), x=action[1], y=action[2])


def _start_tile(state: State, action: Action, who: str) -> Message:
    x, y, g = action[1], action[2], action[3]
    cell = state.components.cell(x, y)
    regions = len(state.components.faces[state.board[cell]].regions)
    where = (message("entdecker.where.region", region=g, x=x, y=y) if regions > 1
             else message("entdecker.where.tile", x=x, y=y))
    fee = start_fee(state, cell)
    if fee:
        owner = state.names[state.units[cell] >> 6]
        unit = Term(GAME, "unit", UNIT_NAMES[state.units[cell] >> 4 & 3])
        return message("entdecker.start_tile.fee", who=who, where=where, fee=fee, owner=owner, unit=unit)
    return message("entdecker.start_tile", who=who, where=where)


def _pass(state: State, action: Action, who: str) -> Message:
    return message("entdecker.pass", who=who)


def _buy(state: State, action: Action, who: str) -> Message:
    return message("entdecker.buy", who=who, n=action[1])


def _draw(state: State, action: Action, who: str) -> Message:
    back = message("entdecker.draw.event" if state.tops[action[1]] == EVENT_BACK else "entdecker.draw.plain")
    return message("entdecker.draw", who=who, stack=action[1] + 1, back=back)


def _effect(state: State, event: int) -> Arg:
    """What the placed tile's event does at once, as the placement's sentence ends ("" for none)."""
    if event < 0:
        return ""
    effect = EVENT_IDS[event]
    gold = state.gold[state.turn]
    if effect == "pirates":
        return message("entdecker.effect.pirates", gold=gold - gold // 2)
    if effect == "treasure":
        return message("entdecker.effect.treasure", gold=min(3, state.components.gold_max - gold))
    return message(f"entdecker.effect.{effect}")


def _place(state: State, action: Action, who: str) -> Message:
    x, y, r = action[1], action[2], action[3]
    code = state.tile * 4 + r
    info = state.components.kinds[state.tile]
    return message("entdecker.place", who=who, tile=tile_words(state, state.tile), x=x, y=y,
                   land=_land_sides(state.components.faces[code].land), effect=_effect(state, info.event))


def _build(state: State, action: Action, who: str) -> Message:
    part = action[2]
    cell = state.ship[1]
    x, y = state.components.xy(cell)
    face = state.components.faces[state.board[cell]]
    on = message("entdecker.on", x=x, y=y)
    if len(face.parts) > 1:
        sides = "".join(SIDE_NAMES[d] for d in range(4) if face.parts[part] >> d & 1)
        on = message("entdecker.on.part", x=x, y=y, part=sides or message("entdecker.part.islet"))
    hostile: Arg = message("entdecker.build.hostile") if flow.is_hostile(state, cell) else ""
    return message("entdecker.build", who=who, unit=Term(GAME, "unit", UNIT_NAMES[action[1]]), on=on,
                   cost=flow.unit_cost(state, action[1]), hostile=hostile)


def _takeback(state: State, action: Action, who: str) -> Message:
    return message("entdecker.takeback", who=who, x=action[1], y=action[2])


def _end(state: State, action: Action, who: str) -> Message:
    unused: Arg = message("entdecker.end.unused", n=state.draws_left) if state.draws_left else ""
    return message("entdecker.end", who=who, unused=unused)


def _take_chip(state: State, action: Action, who: str) -> Message:
    return message("entdecker.take_chip", who=who)


def _decline_chip(state: State, action: Action, who: str) -> Message:
    return message("entdecker.decline_chip", who=who)


SENTENCES = {
    "spin": _spin, "back": _back, "tile": _tile, "chip": _chip, "start_edge": _start_edge, "start_tile": _start_tile,
    "pass": _pass, "buy": _buy, "draw": _draw, "place": _place, "build": _build, "takeback": _takeback, "end": _end,
    "take_chip": _take_chip, "decline_chip": _decline_chip,
}


def _aftermath(state: State, action: Action, after: State) -> tuple[Message, ...]:
    """What the end of the turn brought when ``action`` ended it: reserve tiles laid, points scored, the end."""
    if state.phase == SETUP_BACK:
        return ()
    ended = after.phase in (SPIN, OVER, SCORE_CHIP) or (after.phase == START and after.turn != state.turn)
    if not ended:
        return ()
    notes = []
    filled = sum(1 for before, now in zip(state.board, after.board, strict=True) if before != now) - (action[0] == "place")
    if filled > 0:
        notes.append(message("entdecker.reserve", n=filled))
    gains = [after.score[seat] - state.score[seat] for seat in range(state.n)]
    if action[0] == "place" and state.components.kinds[state.tile].event == RUINS:
        gains[state.turn] -= RUINS_VP  # already said by the placement's own sentence
    if any(gains):
        scored = tuple(message("entdecker.gain", who=state.names[s], points=g) for s, g in enumerate(gains) if g)
        notes.append(message("entdecker.points", gains=Listing(scored, "comma")))
    if after.phase == OVER:
        notes.append(message("entdecker.over"))
    return tuple(notes)
