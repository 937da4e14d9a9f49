"""Game-log sentences: what a person would write about each action, as messages (:mod:`engine.core.messages`).

``describe_message(state, action, after)`` speaks of the state *before* the action, so it can say what the
action costs or scores ("Anna builds a neutral D2 tile at 12,5 for 2 AP, scoring 3 VP"); ``after``, the
state the event leads to, lets it add what followed by itself (see :mod:`engine.amerigo.changes`).
:data:`TEMPLATES` are the sentences' English templates, the source of the game's catalog; ``describe`` is the
message in English.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.amerigo import components as c
from engine.amerigo.board import Board, frame_side
from engine.amerigo.building import build_action, placement_of, shape_cells
from engine.amerigo.changes import changes_notes
from engine.amerigo.choose import gold_income
from engine.amerigo.notation import BUILD_AT_CORNER, Action, node_text
from engine.amerigo.sailing import distances, node_of
from engine.amerigo.scoring import time_value
from engine.amerigo.state import (
    CHANCE_PHASES,
    CHOOSE,
    EMPTY,
    OVER,
    PHASE_NAMES,
    PIRATE,
    PRODUCTION,
    PROGRESS,
    State,
    order_of,
)
from engine.amerigo.tokens import PT19, ap_bonus, owns
from engine.core.messages import Arg, Listing, Message, Template, Term, english, message

ACTION_NAMES = ("sailing", "cannons", "planning", "progress", "building", "production tokens", "special action")
GAME = "amerigo"

#: The English templates by id: the catalog's source (service/i18n/games/translations).
TEMPLATES: dict[str, Template] = {
    "amerigo.with_changes": "{sentence}; {changes}",
    "amerigo.colour_action": "{colour} ({action})",
    "amerigo.frame": "{frame} ({side})",
    "amerigo.side.top_left_corner": "top-left corner",
    "amerigo.side.top_right_corner": "top-right corner",
    "amerigo.side.bottom_left_corner": "bottom-left corner",
    "amerigo.side.bottom_right_corner": "bottom-right corner",
    "amerigo.side.top_side": "top side",
    "amerigo.side.bottom_side": "bottom side",
    "amerigo.side.left_side": "left side",
    "amerigo.side.right_side": "right side",
    "amerigo.layout": "Island tile {tile} is laid at row {row}, column {col}{turned}",
    "amerigo.layout.turned": (", turned {n} quarter turn clockwise", ", turned {n} quarter turns clockwise"),
    "amerigo.pirate": "A pirate marker of strength {strength} is turned face up (the pirates now total {total})",
    "amerigo.progress": "Progress token {token} ({effect}) is laid on space {space}",
    "amerigo.production": "A {good} production token of value {value} is laid on production space {space}",
    "amerigo.order": "The order discs are stacked {names} from the top: {first} starts",
    "amerigo.tower.setup": ("{n} {colour} cube lands in the tray and goes to storage",
                            "{n} {colour} cubes land in the tray and go to storage"),
    "amerigo.tower.none": "No {colour} cube comes out of the tower",
    "amerigo.tower": ("{n} {colour} cube comes out of the tower into the action field",
                      "{n} {colour} cubes come out of the tower into the action field"),
    "amerigo.stray": ("{n} {colour} cube falls out of the tower at the wrong time",
                      "{n} {colour} cubes fall out of the tower at the wrong time"),
    "amerigo.special": "{who} uses the white special action as {action} with {ap} AP",
    "amerigo.choose.white": "{who} chooses white (order move) with {ap} AP",
    "amerigo.choose": "{who} chooses {action} with {ap} AP",
    "amerigo.gold": "{who} takes {gold} gold instead of an action",
    "amerigo.use.PT21": ("{who} uses PT21 and scores {n} VP instead of an action",
                         "{who} uses PT21 and scores {n} VPs instead of an action"),
    "amerigo.use.PT10": "{who} uses PT10: each ship gets 8 more AP",
    "amerigo.use.PT16": "{who} uses PT16 and puts the order disc on top of {first}'s",
    "amerigo.cash.chest": "{who} returns a treasure chest for 3 gold",
    "amerigo.cash": "{who} cashes {token} for {gold} gold",
    "amerigo.spend": "{who} spends 1 gold for 1 more AP (now {ap})",
    "amerigo.ships.one": "{who} puts both ships on the frame, on {frame}",
    "amerigo.ships": "{who} puts both ships on the frame, on {frame} and {frame2}",
    "amerigo.sail.stay": "{who} leaves ship {ship} where it is, at {where}",
    "amerigo.sail": ("{who} sails ship {ship} {n} space to {anchor}{where}", "{who} sails ship {ship} {n} spaces to {anchor}{where}"),
    "amerigo.sail.anchor": "the anchor at ",
    "amerigo.sail.back": "{who} sails ship {ship} out and back to the anchor at {where}",
    "amerigo.found.none": "{who} founds no trading post there",
    "amerigo.found.discovers": "{who} founds a trading post at {where} and discovers the island (3 VP){gold}",
    "amerigo.found": "{who} founds a trading post at {where}{gold}",
    "amerigo.found.gold": " and gets 1 gold (PT19)",
    "amerigo.track_end.gold": " and gets 2 gold at the track's end",
    "amerigo.track_end.later": " (2 gold at the track's end once the progress tokens are taken)",
    "amerigo.progress_end.gold": " and gets 2 gold at the progress track's end",
    "amerigo.cannons.none": "{who} loads no cannon and leaves the cannon disc at {now}{gold}",
    "amerigo.cannons": ("{who} loads {n} cannon (now {now}){gold}", "{who} loads {n} cannons (now {now}){gold}"),
    "amerigo.advance.none": "{who} leaves the progress disc where it is (at {now}){gold}",
    "amerigo.advance": ("{who} advances {n} space on the progress track (now at {now}){gold}",
                        "{who} advances {n} spaces on the progress track (now at {now}){gold}"),
    "amerigo.take": "{who} takes progress token {token} ({effect}){gold}",
    "amerigo.move.none": "{who} leaves the order disc where it is{gold}",
    "amerigo.move": ("{who} moves the order disc {n} space to space {now}{gold}",
                     "{who} moves the order disc {n} spaces to space {now}{gold}"),
    "amerigo.plan": "{who} plans a {tile} tile for {ap} AP",
    "amerigo.build": "{who} builds a {tile} tile at {row},{col} for {ap} AP, scoring {vp} VP{taking}",
    "amerigo.build.taking": " and takes {goods}",
    "amerigo.buy": "{who} buys a {good} production token for {ap} AP",
    "amerigo.end": "{who} ends the action{unused}",
    "amerigo.end.unused": ", leaving {ap} AP unused",
    # What an event set off (engine/amerigo/changes.py).
    "amerigo.changes.step": "{step}: {players}",
    "amerigo.changes.round_end": "round {round} ends and the pirates (strength {strength}) attack: {players}",
    "amerigo.changes.final": "the final scoring: {players}",
    "amerigo.step.island": "the island is complete",
    "amerigo.step.islands": ("{n} islands are complete", "{n} islands are complete"),
    "amerigo.step.starting_gold": "the players take their starting gold",
    "amerigo.step.gold_to_vp": "gold above 12 becomes VP",
    "amerigo.step.in_all": "in all",
    "amerigo.player.changes": "{who} {changes}",
    "amerigo.player.loses_nothing": "{who} loses nothing",
    "amerigo.player.gains_nothing": "{who} gains nothing",
    "amerigo.amount.vp": ("{sign}{n} VP", "{sign}{n} VP"),
    "amerigo.amount.gold": ("{sign}{n} gold", "{sign}{n} gold"),
    "amerigo.amount.chests": ("{sign}{n} chest", "{sign}{n} chests"),
    "amerigo.amount.cannons": ("{sign}{n} cannon", "{sign}{n} cannons"),
    # The board's caption (replay_ui/games/amerigo.py): the round, the phase, the AP, the action under way.
    "amerigo.caption.setup": "Setup",
    "amerigo.caption.step": "{step}",
    "amerigo.caption.game_over": "Game over",
    "amerigo.caption.final_done": "final scoring done",
    "amerigo.caption.round": "Round {round}",
    "amerigo.caption.preparation": "preparation",
    "amerigo.caption.phase": "{colour} phase ({action})",
    "amerigo.caption.ap": "{ap} AP",
    "amerigo.caption.performing": "{who} performing {action}, {ap} AP left",
    "amerigo.caption.throwing": "throwing the cubes",
    "amerigo.caption.time": "time marker {value}",
    # The progress tokens' effects (components.PROGRESS_TOKENS), by token id.
    **{f"amerigo.token.{token}": effect for token, _, effect in c.PROGRESS_TOKENS},
}


def _colour(colour: int) -> Term:
    return Term(GAME, "colour", c.COLOURS[colour])


def _good(good: int) -> Term:
    return Term(GAME, "good", c.GOODS[good])


def _colour_action(colour: int) -> Message:
    return message("amerigo.colour_action", colour=_colour(colour), action=Term(GAME, "action", ACTION_NAMES[colour]))


def _token(index: int) -> tuple[str, Message]:
    """A progress token's id (``PT05``) and its effect."""
    token = c.PROGRESS_TOKENS[index][0]
    return token, message(f"amerigo.token.{token}")


#: The phases between two rounds, captioned as the round's preparation.
PREPARATION_STEPS = (PIRATE, PROGRESS, PRODUCTION)


def caption_message(state: State) -> tuple[Message, ...]:
    """The board's caption as messages: the round, its phase and AP, the action under way, the time marker."""
    step = state.phase
    named_step = message("amerigo.caption.step", step=Term(GAME, "phase", PHASE_NAMES[step]))
    if state.round == 0:
        return message("amerigo.caption.setup"), named_step
    if step == OVER:
        return message("amerigo.caption.game_over"), message("amerigo.caption.final_done")
    round_ = message("amerigo.caption.round", round=state.round)
    if step in PREPARATION_STEPS:
        return round_, message("amerigo.caption.preparation"), named_step
    parts = [round_, message("amerigo.caption.phase", colour=_colour(state.colour),
                             action=Term(GAME, "action", ACTION_NAMES[state.colour]))]
    if step == CHOOSE or step not in CHANCE_PHASES:
        parts.append(message("amerigo.caption.ap", ap=state.phase_ap))
        if state.action >= 0:
            parts.append(message("amerigo.caption.performing", who=state.names[state.seat],
                                 action=Term(GAME, "action", ACTION_NAMES[state.action]), ap=state.ap))
    else:
        parts.append(message("amerigo.caption.throwing"))
    parts.append(message("amerigo.caption.time", value=time_value(state)))
    return tuple(parts)


def frame_words(board: Board, frame: int) -> Message:
    """``F3 (top side)``: a frame space's name and where it lies (:func:`engine.amerigo.board.frame_name`)."""
    name, cells = board.frames[frame]
    side = frame_side(tuple(divmod(cell, board.width) for cell in cells), board.height, board.width)
    return message("amerigo.frame", frame=name, side=message("amerigo.side." + side.replace("-", "_").replace(" ", "_")))


def describe(state: State, action: Action, after: State) -> str:
    """One sentence about ``action`` taken in ``state`` (leading to ``after``), in English."""
    return english(describe_message(state, action, after), TEMPLATES)


def describe_message(state: State, action: Action, after: State) -> Message:
    """One sentence about ``action`` taken in ``state`` (leading to ``after``), every change of VP, gold,
    chests and cannons included."""
    op = action[0]
    chance = _CHANCE.get(op)
    if chance is not None:
        return _with_changes(chance(state, action), changes_notes(state, after, {}))
    sentence = _PLAYER[op](state, action, state.names[state.seat])
    return _with_changes(sentence, changes_notes(state, after, {state.seat: claims(state, action)}))


def _with_changes(sentence: Message, notes: tuple[Message, ...]) -> Message:
    return message("amerigo.with_changes", sentence=sentence, changes=Listing(notes, "semicolon")) if notes else sentence


def claims(state: State, action: Action) -> dict[str, int]:
    """What the player's own sentence says the action gives or costs them (VP, gold, chests, cannons)."""
    op = action[0]
    me = state.me
    if op == "gold":
        return {"gold": gold_income(state)}
    if op == "use" and action[1] == "PT21":
        return {"vp": sum(state.field)}
    if op == "cash":
        return {"gold": 3, "chests": -1} if action[1] == "chest" else {"gold": 3 if action[1] == "PT17" else 5}
    if op == "spend":
        return {"gold": -1}
    if op == "found":
        island = _found_island(state)
        return {"vp": 0 if state.discovered[island] else c.DISCOVERY_VP, "gold": 1 if owns(me, PT19) else 0}
    if op == "cannons":
        return {"cannons": action[1], "gold": c.END_OF_TRACK_GOLD if _cannon_gold(state, action) else 0}
    if op == "move":
        return {"gold": c.END_OF_TRACK_GOLD if _order_gold(state, action) else 0}
    if op == "advance":
        return {"gold": c.END_OF_TRACK_GOLD if _advance_gold(state, action) == "now" else 0}
    if op == "take":
        return {"gold": c.END_OF_TRACK_GOLD if _take_ends_with_gold(state) else 0}
    if op in ("build", BUILD_AT_CORNER):
        return {"vp": _tile_vp(state, action)}
    return {}


def _layout(state: State, action: Action) -> Message:
    turned: Arg = message("amerigo.layout.turned", n=action[4]) if action[4] else ""
    return message("amerigo.layout", tile=action[3], row=action[1] + 1, col=action[2] + 1, turned=turned)


def _pirate(state: State, action: Action) -> Message:
    return message("amerigo.pirate", strength=action[1], total=sum(state.pirates) + action[1])


def _progress(state: State, action: Action) -> Message:
    token, effect = _token(action[2])
    return message("amerigo.progress", token=token, effect=effect, space=c.PROGRESS_SPACES[action[1]])


def _production(state: State, action: Action) -> Message:
    return message("amerigo.production", good=_good(action[2]), value=action[3], space=action[1] + 1)


def _order(state: State, action: Action) -> Message:
    names = tuple(state.names[s] for s in action[1])
    return message("amerigo.order", names=Listing(names, "comma"), first=names[0])


def _tower(state: State, action: Action) -> Message:
    colour, k = _colour(action[1]), action[2]
    if state.round == 0:
        return message("amerigo.tower.setup", n=k, colour=colour)
    if k == 0:
        return message("amerigo.tower.none", colour=colour)
    return message("amerigo.tower", n=k, colour=colour)


def _stray(state: State, action: Action) -> Message:
    return message("amerigo.stray", n=action[2], colour=_colour(action[1]))


_CHANCE: dict[str, Callable[[State, Action], Message]] = {
    "layout": _layout, "pirate": _pirate, "progress": _progress, "production": _production, "order": _order,
    "tower": _tower, "stray": _stray,
}


def _choose(state: State, action: Action, who: str) -> Message:
    ap = state.phase_ap + ap_bonus(state.me, action[1])
    if action[0] == "special":
        return message("amerigo.special", who=who, action=_colour_action(action[1]), ap=ap)
    if action[1] == c.WHITE:
        return message("amerigo.choose.white", who=who, ap=ap)
    return message("amerigo.choose", who=who, action=_colour_action(action[1]), ap=ap)


def _gold(state: State, action: Action, who: str) -> Message:
    return message("amerigo.gold", who=who, gold=gold_income(state))


def _use(state: State, action: Action, who: str) -> Message:
    if action[1] == "PT21":
        return message("amerigo.use.PT21", who=who, n=sum(state.field))
    if action[1] == "PT10":
        return message("amerigo.use.PT10", who=who)
    return message("amerigo.use.PT16", who=who, first=state.names[order_of(state)[0]])


def _cash(state: State, action: Action, who: str) -> Message:
    if action[1] == "chest":
        return message("amerigo.cash.chest", who=who)
    return message("amerigo.cash", who=who, token=action[1], gold=3 if action[1] == "PT17" else 5)


def _spend(state: State, action: Action, who: str) -> Message:
    return message("amerigo.spend", who=who, ap=state.ap + 1)


def _ships(state: State, action: Action, who: str) -> Message:
    board = state.board
    assert board is not None
    if action[1] == action[2]:
        return message("amerigo.ships.one", who=who, frame=frame_words(board, action[1]))
    return message("amerigo.ships", who=who, frame=frame_words(board, action[1]), frame2=frame_words(board, action[2]))


def _sail(state: State, action: Action, who: str) -> Message:
    board = state.board
    assert board is not None
    start = state.me.ships[action[1] - 1]
    end = node_of(board, action[2], action[3])
    where: Arg = frame_words(board, action[3]) if action[2] < 0 else node_text(action[2], action[3])
    if start == end:
        return message("amerigo.sail.stay", who=who, ship=action[1], where=where)
    steps = distances(board, start, state.ap).get(end, 0)
    anchor: Arg = message("amerigo.sail.anchor") if end < board.cells and board.terrain[end] == 1 else ""
    return message("amerigo.sail", who=who, ship=action[1], n=steps, anchor=anchor, where=where)


def _sail_back(state: State, action: Action, who: str) -> Message:
    board = state.board
    assert board is not None
    node = state.me.ships[action[1] - 1]
    return message("amerigo.sail.back", who=who, ship=action[1], where=node_text(*divmod(node, board.width)))


def _found(state: State, action: Action, who: str) -> Message:
    board = state.board
    assert board is not None
    if action[0] == "decline":
        return message("amerigo.found.none", who=who)
    post = board.anchor_post[state.me.ships[state.sailed]]
    island = board.island_of[post]
    where = f"{post // board.width},{post % board.width}"
    gold: Arg = message("amerigo.found.gold") if owns(state.me, PT19) else ""
    if not state.discovered[island]:
        return message("amerigo.found.discovers", who=who, where=where, gold=gold)
    return message("amerigo.found", who=who, where=where, gold=gold)


def _found_island(state: State) -> int:
    board = state.board
    assert board is not None
    return board.island_of[board.anchor_post[state.me.ships[state.sailed]]]


def _cannon_gold(state: State, action: Action) -> bool:
    return bool(state.me.cannons + action[1] == c.CANNON_MAX and state.ap > action[1])


def _order_gold(state: State, action: Action) -> bool:
    return bool(state.me.order_pos + action[1] == state.components.order_last and state.ap > action[1])


def _advance_gold(state: State, action: Action) -> str:
    """End-of-track gold for a progress move: "now", "later" (after the tokens it makes due), or ""."""
    if state.me.progress + action[1] != state.components.progress_last or state.ap <= action[1]:
        return ""
    components = state.components
    due = sum(1 for space, _ in components.progress_vp if state.me.progress < space <= state.me.progress + action[1])
    return "later" if due and any(t != EMPTY for t in state.progress_spaces) else "now"


def _take_ends_with_gold(state: State) -> bool:
    """This token is the last one due, and the progress move that made it due reached the track's end."""
    left = sum(1 for t in state.progress_spaces if t != EMPTY) - 1
    return state.track_gold and (state.tokens_due == 1 or left == 0)


def _track_end_gold(due: bool) -> Arg:
    return message("amerigo.track_end.gold") if due else ""


def _cannons(state: State, action: Action, who: str) -> Message:
    now = state.me.cannons + action[1]
    gold = _track_end_gold(_cannon_gold(state, action))
    if action[1] == 0:  # legal ("0..min(AP, 12 − cannons)"): the action ends with the disc where it is
        return message("amerigo.cannons.none", who=who, now=now, gold=gold)
    return message("amerigo.cannons", who=who, n=action[1], now=now, gold=gold)


def _advance(state: State, action: Action, who: str) -> Message:
    now = state.me.progress + action[1]
    when = _advance_gold(state, action)
    gold: Arg = message("amerigo.track_end.gold" if when == "now" else "amerigo.track_end.later") if when else ""
    if action[1] == 0:  # legal (brown: "0..min(AP, last − position)"): the action ends with the disc where it is
        return message("amerigo.advance.none", who=who, now=now, gold=gold)
    return message("amerigo.advance", who=who, n=action[1], now=now, gold=gold)


def _take(state: State, action: Action, who: str) -> Message:
    gold: Arg = message("amerigo.progress_end.gold") if _take_ends_with_gold(state) else ""
    token, effect = _token(action[1])
    return message("amerigo.take", who=who, token=token, effect=effect, gold=gold)


def _move(state: State, action: Action, who: str) -> Message:
    now = state.me.order_pos + action[1]
    gold = _track_end_gold(_order_gold(state, action))
    if action[1] == 0:
        return message("amerigo.move.none", who=who, gold=gold)
    return message("amerigo.move", who=who, n=action[1], now=now, gold=gold)


def _plan(state: State, action: Action, who: str) -> Message:
    kind = state.components.kinds[state.components.kind_index(action[1])]
    return message("amerigo.plan", who=who, tile=action[1], ap=kind.take_cost)


def _build(state: State, action: Action, who: str) -> Message:
    """The square named is the anchor cell (covered by the tile), in either notation."""
    board = state.board
    assert board is not None
    components = state.components
    placement = placement_of(components, action)
    kind = components.kinds[placement[0]]
    cells = shape_cells(state, *placement)
    vp = _tile_vp(state, action)
    goods = tuple(_good(board.goods[cell]) for cell in cells if board.goods[cell] >= 0)
    taking: Arg = message("amerigo.build.taking", goods=Listing(goods, "all_and")) if goods else ""
    row, col = build_action(components, placement)[3:]
    return message("amerigo.build", who=who, tile=action[1], row=row, col=col, ap=kind.build_cost, vp=vp, taking=taking)


def _tile_vp(state: State, action: Action) -> int:
    """The VP the tile itself scores: its value on a big or a small island."""
    board = state.board
    assert board is not None
    placement = placement_of(state.components, action)
    kind = state.components.kinds[placement[0]]
    cells = shape_cells(state, *placement)
    return kind.vp_big if board.islands[board.island_of[cells[0]]].big else kind.vp_small


def _buy(state: State, action: Action, who: str) -> Message:
    return message("amerigo.buy", who=who, good=_good(action[1]), ap=action[2])


def _end(state: State, action: Action, who: str) -> Message:
    unused: Arg = message("amerigo.end.unused", ap=state.ap) if state.ap else ""
    return message("amerigo.end", who=who, unused=unused)


_PLAYER: dict[str, Callable[[State, Action, str], Message]] = {
           "choose": _choose, "special": _choose, "gold": _gold, "use": _use, "cash": _cash, "spend": _spend,
           "ships": _ships, "sail": _sail, "back": _sail_back, "found": _found, "decline": _found, "cannons": _cannons, "advance": _advance,
           "take": _take, "move": _move, "plan": _plan, "build": _build, BUILD_AT_CORNER: _build, "buy": _buy,
           "end": _end}
