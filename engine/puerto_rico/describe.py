"""Game-log sentences: what a person would write about each action, as messages (:mod:`engine.core.messages`).

``message(state, action)`` speaks of the state *before* the action, so it can say what the
action costs or scores ("Anna builds a harbor for 5 doubloons"). :data:`TEMPLATES` are the sentences' English
templates, the source of the game's catalog; ``describe`` is the message in English.
"""

from __future__ import annotations

from engine.core.messages import Arg, Listing, Message, Template, Term, english, message
from engine.puerto_rico import builder, captain, trader
from engine.puerto_rico.components import BUILDING_NAMES, GOOD_NAMES, HARBOR, QUARRY, ROLE_NAMES
from engine.puerto_rico.mayor import BUILDING_SLOT
from engine.puerto_rico.notation import Action, declined
from engine.puerto_rico.state import HACIENDA_DRAW, PHASE_NAMES, State

GAME = "puerto_rico"

#: The English templates by id: the catalog's source (service/i18n/games/translations). Changing a text changes what
#: every translation translates: the catalogs' test then names the entries to update.
TEMPLATES: dict[str, Template] = {
    "puerto_rico.reshuffle": "The discarded plantations are shuffled into a new face-down stack",
    "puerto_rico.hacienda_draw": "{who} draws {plantation:a} with the hacienda",
    "puerto_rico.draw": "{plantation:A} is turned face up",
    "puerto_rico.role": "{who} chooses the {role}{bonus}{without}",
    "puerto_rico.role.bonus": (" and takes {n} doubloon from it", " and takes {n} doubloons from it"),
    "puerto_rico.role.without": ", declining the privilege colonist",
    "puerto_rico.plant": "{who} takes {plantation:a}{without}",
    "puerto_rico.quarry": "{who} takes a quarry{without}",
    "puerto_rico.hospice.without": ", declining the hospice colonist",
    "puerto_rico.hacienda": "{who} uses the hacienda to draw a face-down plantation",
    "puerto_rico.pass": "{who} passes",
    "puerto_rico.place": "{who} places a colonist on their {place}",
    "puerto_rico.build": ("{who} builds {building:a} for {n} doubloon{without}",
                          "{who} builds {building:a} for {n} doubloons{without}"),
    "puerto_rico.build.without": ", declining the university colonist",
    "puerto_rico.extra": "{who} takes an extra {good} barrel as craftsman",
    "puerto_rico.sell": ("{who} sells {good} for {n} doubloon", "{who} sells {good} for {n} doubloons"),
    "puerto_rico.load": "{who} ships {barrels} {good} on the {capacity}-ship {scored}",
    "puerto_rico.wharf": "{who} ships {barrels} {good} from the wharf {scored}",
    "puerto_rico.scored": ("for {n} VP", "for {n} VP"),
    "puerto_rico.scored.declining": ("for {n} VP, declining {which}", "for {n} VP, declining {which}"),
    "puerto_rico.declined.both": "the captain's and the harbor's bonus VP",
    "puerto_rico.declined.one_of_two": "one of its two bonus VP",
    "puerto_rico.declined.harbor": "the harbor's bonus VP",
    "puerto_rico.declined.captain": "the captain's bonus VP",
    "puerto_rico.keep": ("{who} keeps {kept} and returns {n} barrel to the supply",
                         "{who} keeps {kept} and returns {n} barrels to the supply"),
    "puerto_rico.kept": "{n} {good}",
    "puerto_rico.kept.nothing": "nothing",
    # The board's caption (replay_ui/games/puerto_rico.py): where the round stands.
    "puerto_rico.caption.round": "Round {round}",
    "puerto_rico.caption.choosing": "choosing a role",
    "puerto_rico.caption.phase": "{phase} phase",
    "puerto_rico.caption.governor": "governor {who}",
}

_EMPTY = ""


def good(index: int) -> Term:
    """Good ``index`` as a glossary term."""
    return Term(GAME, "good", GOOD_NAMES[index])


def plantation(index: int) -> Term:
    """The plantation of good ``index`` as a glossary term ("corn plantation")."""
    return Term(GAME, "plantation", f"{GOOD_NAMES[index]} plantation")


def building(index: int) -> Term:
    """Building ``index`` as a glossary term."""
    return Term(GAME, "building", BUILDING_NAMES[index])


def role(card: int) -> Term:
    """Role card ``card`` as a glossary term: both prospector cards read "prospector"."""
    return Term(GAME, "role", "prospector" if card >= 6 else ROLE_NAMES[card])


def phase(name: str) -> Term:
    """A phase (``state.PHASE_NAMES``) as a glossary term."""
    return Term(GAME, "phase", name)


def caption_message(state: State) -> tuple[Message, ...]:
    """The board's caption as messages: the round, the phase (or the role being chosen), the governor."""
    name = PHASE_NAMES[state.phase]
    parts = [message("puerto_rico.caption.round", round=state.round)]
    if name == "role":
        parts.append(message("puerto_rico.caption.choosing"))
    elif name != "over":
        parts.append(message("puerto_rico.caption.phase", phase=phase(name)))
    parts.append(message("puerto_rico.caption.governor", who=state.names[state.governor]))
    return tuple(parts)


def describe(state: State, action: Action) -> str:
    """One sentence about ``action`` taken in ``state``, in English."""
    return english(describe_message(state, action), TEMPLATES)


def describe_message(state: State, action: Action) -> Message:
    """One sentence about ``action`` taken in ``state``, as a message."""
    op = action[0]
    if op in ("draw", "reshuffle"):
        return _describe_chance(state, action)
    who = state.names[state.turn]
    return SENTENCES[op](state, action, who)


def _describe_chance(state: State, action: Action) -> Message:
    if action[0] == "reshuffle":
        return message("puerto_rico.reshuffle")
    if state.phase == HACIENDA_DRAW:
        return message("puerto_rico.hacienda_draw", who=state.names[state.turn], plantation=plantation(action[1]))
    return message("puerto_rico.draw", plantation=plantation(action[1]))


def _clause(wanted: bool, message_id: str) -> Arg:
    return message(message_id) if wanted else _EMPTY


def _role(state: State, action: Action, who: str) -> Message:
    coins = state.role_coins[action[1]]
    bonus = message("puerto_rico.role.bonus", n=coins) if coins else _EMPTY
    return message("puerto_rico.role", who=who, role=role(action[1]), bonus=bonus,
                   without=_clause(declined(action) > 0, "puerto_rico.role.without"))


def _plant(state: State, action: Action, who: str) -> Message:
    return message("puerto_rico.plant", who=who, plantation=plantation(action[1]),
                   without=_clause(declined(action) > 0, "puerto_rico.hospice.without"))


def _quarry(state: State, action: Action, who: str) -> Message:
    return message("puerto_rico.quarry", who=who, without=_clause(declined(action) > 0, "puerto_rico.hospice.without"))


def _hacienda(state: State, action: Action, who: str) -> Message:
    return message("puerto_rico.hacienda", who=who)


def _pass(state: State, action: Action, who: str) -> Message:
    return message("puerto_rico.pass", who=who)


def _place(state: State, action: Action, who: str) -> Message:
    slot = action[1]
    if slot >= BUILDING_SLOT:
        place = building(slot - BUILDING_SLOT)
    elif slot == QUARRY:
        place = Term(GAME, "tile", "quarry")
    else:
        place = plantation(slot)
    return message("puerto_rico.place", who=who, place=place)


def _build(state: State, action: Action, who: str) -> Message:
    index = action[1]
    cost = builder.price(state.players[state.turn], index, state.turn == state.chooser)
    return message("puerto_rico.build", who=who, building=building(index), n=cost,
                   without=_clause(declined(action) > 0, "puerto_rico.build.without"))


def _extra(state: State, action: Action, who: str) -> Message:
    return message("puerto_rico.extra", who=who, good=good(action[1]))


def _sell(state: State, action: Action, who: str) -> Message:
    price = trader.sale_price(state.players[state.turn], action[1], state.turn == state.chooser)
    return message("puerto_rico.sell", who=who, good=good(action[1]), n=price)


def _scored(state: State, barrels: int, declined_vp: int) -> Message:
    """``for 7 VP``, with the bonus declined_vp named: the captain's, the harbor's, or one of both."""
    player = state.players[state.turn]
    harbor = player.city[HARBOR] > 0
    privilege = state.turn == state.chooser and not state.captain_bonus_used
    points = barrels + harbor + privilege - declined_vp
    if not declined_vp:
        return message("puerto_rico.scored", n=points)
    if harbor and privilege:
        which = "puerto_rico.declined.both" if declined_vp == 2 else "puerto_rico.declined.one_of_two"
    else:
        which = "puerto_rico.declined.harbor" if harbor else "puerto_rico.declined.captain"
    return message("puerto_rico.scored.declining", n=points, which=message(which))


def _load(state: State, action: Action, who: str) -> Message:
    kind, capacity = action[1], action[2]
    i = captain.capacities(state).index(capacity)
    barrels = min(state.players[state.turn].goods[kind], capacity - state.ship_loads[i])
    return message("puerto_rico.load", who=who, barrels=barrels, good=good(kind), capacity=capacity,
                   scored=_scored(state, barrels, declined(action)))


def _wharf(state: State, action: Action, who: str) -> Message:
    barrels = state.players[state.turn].goods[action[1]]
    return message("puerto_rico.wharf", who=who, barrels=barrels, good=good(action[1]),
                   scored=_scored(state, barrels, declined(action)))


def _keep(state: State, action: Action, who: str) -> Message:
    kept = action[1]
    parts = tuple(message("puerto_rico.kept", n=count, good=good(g)) for g, count in enumerate(kept) if count)
    lost = sum(state.players[state.turn].goods) - sum(kept)
    kept_text: Arg = Listing(parts, "comma") if parts else message("puerto_rico.kept.nothing")
    return message("puerto_rico.keep", who=who, kept=kept_text, n=lost)


SENTENCES = {
    "role": _role, "plant": _plant, "quarry": _quarry, "hacienda": _hacienda, "pass": _pass, "place": _place,
    "build": _build, "extra": _extra, "sell": _sell, "load": _load, "wharf": _wharf, "keep": _keep,
}
