"""Die goldene Stadt for the UI: the board's sites with screen positions, round and phase marks, letters so far.

Everything about the game is read from ``engine.golden_city``: the game's component set (sites,
roads, rivers, rewards, goods, scoring and bonus cards, houses: the default set, or the one its
``Setup.options["components"]`` names, through :func:`engine.golden_city.component_set.component_set`
as the rules' setup reads it), the state's fields and the scoring module. The only thing added here
is presentation: where each site is drawn. Sites of the default board are drawn where they lie on it
(the island seen from above, mountains north, meadow east, forest south, desert west, the Golden City
in the middle), so a set made of default sites keeps the island's picture; a set with sites of its own
is laid out in rings by kind (harbours outside, the city parts inside) with its roads between them.
The board renderer (``static/js/boards/golden_city.js``) draws what it is given.
"""

from __future__ import annotations

import math
from typing import Any

from engine import Setup
from engine.golden_city import scoring
from engine.golden_city.component_set import KINDS, REWARDS, ComponentSet, component_set
from engine.golden_city.components import DEFAULT_COMPONENTS, TERRAIN_NAMES, TERRAINS
from engine.golden_city.describe import caption_message, region_phrase
from engine.golden_city.state import (
    BID,
    BUILD,
    LAYOUT,
    OVER,
    PHASE_NAMES,
    RESHUFFLE,
    REVEAL,
    SETUP_DEAL,
    SETUP_GOODS,
    State,
)
from replay_ui.games import GenericAdapter, engine_strength, said, term, translated, upper_first
from service.i18n import N_, _, ngettext

#: The move picker's groups, by the notation's first word.
PICKER_GROUPS = {
    "bid": N_("Bid for a landscape pair"), "build": N_("Build a house (site, cards paid)"), "pass": N_("Or"),
    "draw": N_("Reward: a landscape card"), "decline": N_("Or do without"), "bonus": N_("Reward: keep a bonus card"),
    "goods": N_("Reward: take a goods card"), "box": N_("Goods limit: return a card to the box"),
    "discard": N_("Hand limit: discard down to 5"),
}

#: The angle (degrees, 0 = east, clockwise on screen) of each inland region's centre.
REGION_ANGLE = {"MT": -90.0, "ME": 0.0, "FO": 90.0, "DE": 180.0}
#: Harbours of a region, in order (angle offset, radius): the coast runs clockwise.
HARBOUR_SLOTS = ((-40, 244), (-21, 250), (0, 252), (22, 246))
#: Suburbs by their number in the region (offset, radius); regions with 7 suburbs use their own table.
SUBURB_SLOTS_8 = {1: (-31, 200), 2: (-11, 206), 3: (11, 202), 4: (-35, 146), 5: (-7, 164), 6: (-21, 122),
                  7: (7, 124), 8: (33, 166)}
SUBURB_SLOTS_7 = {1: (-31, 200), 2: (-9, 206), 3: (14, 200), 4: (-35, 146), 5: (-11, 168), 6: (2, 124), 7: (33, 166)}
OUTER_RADIUS, INNER_RADIUS = 80, 38
RIVER_ANGLES = {"R-NE": -45.0, "R-SE": 45.0, "R-SW": 135.0, "R-NW": -135.0}
#: How far out (map units) a river's label sits on its diagonal: in the sea's corner of the 544-unit square.
RIVER_LABEL_RADIUS = 330
#: Where a set with sites of its own draws each kind: a ring of this radius, the sites evenly round it.
RING_RADIUS = {"harbour": 240, "suburb": 165, "outer": 88, "inner": 40}
#: Every site of the default board: id -> (kind, terrain); a set made only of these is drawn on the island.
DEFAULT_PLACES = {site["id"]: (site["kind"], site["terrain"]) for site in DEFAULT_COMPONENTS["sites"]}


def _polar(angle: float, radius: float) -> tuple[float, float]:
    rad = math.radians(angle)
    return round(radius * math.cos(rad), 1), round(radius * math.sin(rad), 1)


def _position(sid: str, kind: str, terrain: str) -> tuple[float, float]:
    """Screen position of a default-board site, from its id (``HA05``, ``ME4``, ``C-FO-O2``, ``C-DE-I``)."""
    if kind == "harbour":
        index = int(sid[2:]) - 1
        region = ("MT", "ME", "FO", "DE")[index // 4]
        offset, radius = HARBOUR_SLOTS[index % 4]
        return _polar(REGION_ANGLE[region] + offset, radius)
    if kind == "suburb":
        count = sum(1 for s in DEFAULT_COMPONENTS["sites"] if s["kind"] == "suburb" and s["terrain"] == terrain)
        offset, radius = (SUBURB_SLOTS_8 if count == 8 else SUBURB_SLOTS_7)[int(sid[2:])]
        return _polar(REGION_ANGLE[terrain] + offset, radius)
    if kind == "outer":
        return _polar(REGION_ANGLE[terrain] + (-22.5 if sid.endswith("1") else 22.5), OUTER_RADIUS)
    return _polar(REGION_ANGLE[terrain], INNER_RADIUS)


def _sites(comp: ComponentSet) -> list[dict[str, Any]]:
    """Every site of ``comp`` (id, kind, terrain, river, reward, neighbours), in the set's order."""
    return [{"id": sid, "kind": KINDS[comp.kinds[i]], "terrain": TERRAINS[comp.terrains[i]],
             "river": comp.river_ids[comp.rivers[i]] if comp.rivers[i] >= 0 else None,
             "reward": REWARDS[comp.rewards[i]], "neighbours": list(comp.neighbour_ids[i])}
            for i, sid in enumerate(comp.site_ids)]


def on_island(comp: ComponentSet) -> bool:
    """Whether every site of ``comp`` is a site of the default board (same id, kind and terrain)."""
    return all(DEFAULT_PLACES.get(sid) == (KINDS[comp.kinds[i]], TERRAINS[comp.terrains[i]])
               for i, sid in enumerate(comp.site_ids))


def board_sites(comp: ComponentSet) -> list[dict[str, Any]]:
    """Every site of ``comp`` with its screen position: on the island, or in rings by kind."""
    sites = _sites(comp)
    island = on_island(comp)
    rings: dict[str, list[str]] = {}
    for site in sites:
        rings.setdefault(site["kind"], []).append(site["id"])
    placed = []
    for site in sites:
        if island:
            x, y = _position(site["id"], site["kind"], site["terrain"])
        else:
            ring = rings[site["kind"]]
            x, y = _polar(-90.0 + 360.0 * ring.index(site["id"]) / len(ring), RING_RADIUS[site["kind"]])
        placed.append({**site, "x": x, "y": y})
    return placed


def rivers(comp: ComponentSet) -> list[dict[str, Any]]:
    """Each river of the island as a line from the coast to the city, between the two regions it divides.

    Only a set drawn on the island has them: in rings, the river suburbs are marked on their own.
    """
    if not on_island(comp):
        return []
    # Labels go out to the sea's corners, where no harbour or reward caption is (just off the coast they
    # covered HA01 and HA09).
    return [{"id": rid, "from": _polar(RIVER_ANGLES[rid], 236), "to": _polar(RIVER_ANGLES[rid], 102),
             "label": _polar(RIVER_ANGLES[rid], RIVER_LABEL_RADIUS)} for rid in comp.river_ids if rid in RIVER_ANGLES]


def regions(comp: ComponentSet) -> list[dict[str, Any]]:
    """The island's four inland regions (terrain and the angle of its centre), when the set is drawn on it."""
    return [{"terrain": terrain, "angle": angle} for terrain, angle in REGION_ANGLE.items()] if on_island(comp) else []


def _scoring_cards(comp: ComponentSet) -> dict[str, Any]:
    return {card: {"back": comp.scoring_back[card], "good": comp.goods[comp.scoring_good[card]],
                   "regions": list(comp.scoring_regions[card]),
                   "region_names": [said(region_phrase(r)) for r in comp.scoring_regions[card]]}
            for card in comp.scoring_ids}


GAME = "golden_city"
#: What each bonus card scores, by its effect (a terrain's card: :data:`BONUS_TERRAIN`).
BONUS_TEXT = {
    "goods": N_("3 letters per goods card"), "coins": N_("2 letters per coin"),
    "city": N_("1 letter per house in the Golden City"), "river": N_("2 letters per house on a river"),
}
BONUS_TERRAIN = N_("1 letter per %(terrain)s suburb or city part")
#: The line above the board: the default component set's, or a custom set's (drawn on the island, or in rings).
NOTICE_DEFAULT = N_("Board layout reconstructed from the rulebook (sites, roads, rewards, goods and scoring cards "
                    "are a documented reconstruction); the rules are the rulebook's.")
NOTICE_CUSTOM_ISLAND = N_("Played with a custom component set from the game's setup (what it leaves out keeps the "
                          "rulebook reconstruction).")
NOTICE_CUSTOM_RINGS = N_("Played with a custom component set from the game's setup (what it leaves out keeps the "
                         "rulebook reconstruction); its sites are drawn in rings by kind.")


def _bonus_cards(comp: ComponentSet) -> dict[str, str]:
    texts = {}
    for card, (effect, terrain) in comp.bonus_effect.items():
        known = BONUS_TEXT.get(effect)
        texts[card] = _(known) if known else _(BONUS_TERRAIN, terrain=term(GAME, "terrain", TERRAIN_NAMES[terrain]))
    return texts


def _notice(comp: ComponentSet) -> str:
    """The line above the board, for the component set ``comp``."""
    if comp.is_default:
        return _(NOTICE_DEFAULT)
    return _(NOTICE_CUSTOM_ISLAND if on_island(comp) else NOTICE_CUSTOM_RINGS)


def shown_phase(state: State) -> int:
    """The phase a position belongs to: a reshuffle (the draw pile just ran out) belongs to the phase it interrupts."""
    return state.resume if state.phase == RESHUFFLE else state.phase


class GoldenCityAdapter(GenericAdapter):
    """Marks each move with its round and phase; a building turn opens a group; scores are letters so far."""

    renderer = "golden_city"

    def explorer_choice(self, stage: str, choice: str) -> str | None:
        """A house built, by the site's kind and landscape ("build on a mountains suburb", a harbour, the Golden
        City), or a bonus card kept, the glossary's words (:mod:`engine.golden_city.explore`)."""
        verb, _space, what = choice.partition(" ")
        if verb == "bonus":
            return _("%(card)s %(id)s", card=term(GAME, "card", "bonus card"), id=what)
        if verb != "build":
            return None
        if what == "inner city":
            return _("build in the %(city)s", city=term(GAME, "site", "golden city"))
        if what == "HA":
            return _("build on a %(site)s", site=term(GAME, "site", "harbour"))
        if what in TERRAINS:
            return _("build on a %(terrain)s %(site)s", terrain=term(GAME, "terrain", TERRAIN_NAMES[TERRAINS.index(what)]),
                     site=term(GAME, "site", "suburb"))
        return None

    def components(self, setup: Setup) -> dict[str, Any]:
        """The static tables the board draws with: the game's component set, for its number of players."""
        comp = component_set(setup.options.get("components"))
        return {
            "sites": board_sites(comp),
            "rivers": rivers(comp),
            "regions": regions(comp),
            "terrains": list(TERRAINS),
            "terrain_names": list(TERRAIN_NAMES),
            "kinds": list(KINDS),
            "rewards": list(REWARDS),
            "goods": list(comp.goods),
            "goods_cards": {card: [g for i, g in enumerate(comp.goods) if comp.goods_of_card[card] >> i & 1]
                            for card in comp.goods_card_ids},
            "scoring_cards": _scoring_cards(comp),
            "bonus_cards": _bonus_cards(comp),
            "houses": comp.houses.get(len(setup.players), 0),
            "key_cards": comp.key_cards,
            "phases": list(PHASE_NAMES),
            "phase_label": _("Phase"),
            "score_hint": _("trade letters so far; bonus cards are added at the end"),
            "picker_groups": translated(PICKER_GROUPS),
            "engine_strength": engine_strength(GAME),
            "notice": _notice(comp),
        }

    def marks(self, state: State, action: Any) -> dict[str, Any]:
        """The round the move belongs to and its phase; the round's reveal, its first bid and each building
        turn open a group (a jump-to entry)."""
        phase = shown_phase(state)
        if phase in (SETUP_DEAL, SETUP_GOODS):
            return {}
        if phase in (REVEAL, LAYOUT):
            return {"round": state.round, "phase": _("Scoring card and layout"), "pick": phase == REVEAL}
        if phase == BID:
            first = state.displacements == 0 and all(seat < 0 for seat in state.bids)
            return {"round": state.round, "phase": upper_first(term(GAME, "phase", "bidding")), "pick": first}
        return {"round": state.round, "phase": upper_first(term(GAME, "phase", "building")),
                "pick": phase == BUILD and state.built == 0}

    def position(self, state: State, names: tuple[str, ...]) -> dict[str, Any]:
        """Round, phase, start player and the scoring card, for the caption above the board."""
        phase = shown_phase(state)
        if phase in (SETUP_DEAL, SETUP_GOODS):
            return {"caption": list(caption_message(state, phase)), "phase": PHASE_NAMES[phase]}
        return {"caption": list(caption_message(state, phase)), "phase": PHASE_NAMES[phase], "round": state.round}

    def scores(self, state: State) -> list[int]:
        """Letters so far; at the end, with the bonus cards (the final score)."""
        if state.phase == OVER:
            return list(scoring.outcome(state).scores)
        return [p.letters for p in state.players]

    def result_labels(self) -> dict[str, str]:
        """The breakdown's columns in words."""
        return {"letters": _("letters"), "bonus": _("bonus cards"), "city_houses": _("houses in the Golden City"),
                "coins": _("coins"), "blocked": _("blocked")}

    def result_cell(self, key: str, value: int) -> str:
        """"blocked" is a flag: a blocked player is last whatever their letters."""
        if key == "blocked":
            return _("blocked: last") if value else _("no")
        return str(value)

    def tiebreak_words(self, tiebreak: int, n_players: int) -> str:
        """Equal letters: most houses in the Golden City, then most coins (the engine packs both in one number)."""
        houses, coins = divmod(tiebreak, 1000)
        return _("%(houses)s, then %(coins)s",
                 houses=ngettext("%(num)d house in the city", "%(num)d houses in the city", houses),
                 coins=ngettext("%(num)d coin", "%(num)d coins", coins))


ADAPTER = GoldenCityAdapter
