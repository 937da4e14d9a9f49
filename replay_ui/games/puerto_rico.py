"""Puerto Rico for the UI: component tables for the board, round and role marks, running scores.

Everything here is read from ``engine.puerto_rico``: the components module's tables (the game has
one component set; its setup only picks the player count), the state's fields and the scoring
module's functions. The board renderer (``static/js/boards/puerto_rico.js``) gets the tables as
JSON so it never copies them.
"""

from __future__ import annotations

from typing import Any

from engine import Setup
from engine.puerto_rico import components as pr
from engine.puerto_rico import scoring
from engine.puerto_rico.describe import caption_message
from engine.puerto_rico.notation import PLACE_ACTIONS, format_action
from engine.puerto_rico.state import PHASE_NAMES, State
from replay_ui.games import GenericAdapter, engine_strength, term, translated
from service.i18n import N_, _

GAME = "puerto_rico"
#: The move picker's groups, by the notation's first word: how a player thinks of the choices.
PICKER_GROUPS = {
    "role": N_("Choose a role"), "plant": N_("Take a plantation"), "quarry": N_("Take a plantation"),
    "hacienda": N_("Take a plantation"), "place": N_("Place a colonist"),
    "build": N_("Build (what you can afford, at your price)"), "extra": N_("Take an extra barrel"),
    "sell": N_("Sell a barrel"), "load": N_("Load a ship"), "wharf": N_("Ship with the wharf"),
    "keep": N_("Barrels to keep"), "pass": N_("Or"),
}
#: Turns of many steps with nothing to decide between the steps, played from one form (``static/js/forms/``): the
#: verb every legal action shares → the form. The mayor places all of a player's colonists at once.
TURN_FORMS = {"place": "mayor"}


def _role_label(card: int) -> str:
    """Both prospector cards read "prospector" on the table (the engine's word: the board's script says it in the
    page's language)."""
    return "prospector" if card >= pr.PROSPECTOR else pr.ROLE_NAMES[card]


class PuertoRicoAdapter(GenericAdapter):
    """Marks each move with its round and role; scores are chips + buildings + bonuses so far."""

    renderer = "puerto_rico"
    explorer_terms = (("round ", "role"), ("building ", "building"))

    def __init__(self) -> None:
        self._role: str | None = None
        self._round = 0
        self._taken: dict[int, int] = {}  # role card -> seat that chose it this round

    def components(self, setup: Setup) -> dict[str, Any]:
        """The static tables the board draws with, for the game's number of players."""
        players = len(setup.players)
        counts = pr.SETUP[players]
        return {
            "goods": list(pr.GOOD_NAMES),
            "tiles": list(pr.TILE_NAMES),
            "prices": list(pr.PRICES),
            "barrels": list(pr.BARRELS),
            "roles": [_role_label(c) for c in range(pr.ROLE_CARDS[players])],
            "role_ids": list(pr.ROLE_NAMES[: pr.ROLE_CARDS[players]]),
            "buildings": [b._asdict() for b in pr.BUILDINGS],
            "ship_capacities": list(counts.ship_capacities),
            "trading_house_spaces": pr.TRADING_HOUSE_SPACES,
            "island_spaces": pr.ISLAND_SPACES,
            "city_spaces": pr.CITY_SPACES,
            "quarries": pr.QUARRIES,
            "vp_chips": counts.vp_chips,
            "phases": list(PHASE_NAMES),
            "phase_label": _("Role"),
            "score_hint": _("chips + buildings + bonuses so far"),
            "picker_groups": translated(PICKER_GROUPS),
            "engine_strength": engine_strength(GAME),
            "turn_forms": TURN_FORMS,
            # the mayor's form sends each colonist as the engine's own step: slot s (a tile kind, then a building) is
            # placed by this notation
            "place_actions": [format_action(action) for action in PLACE_ACTIONS],
        }

    def start_round(self, state: State) -> None:
        """A new round forgets the role being played."""
        if state.round != self._round:
            self._round, self._role, self._taken = state.round, None, {}

    def marks(self, state: State, action: Any) -> dict[str, Any]:
        """The round the move belongs to and the role whose phase it is part of."""
        self.start_round(state)
        # Parsed actions are tuples whose first item is the notation's verb: ("role", card, ...).
        if action and action[0] == "role":
            card = action[1]
            self._role = term(GAME, "role", _role_label(card))
            self._taken[card] = state.turn
            return {"round": state.round, "phase": self._role, "pick": True}
        return {"round": state.round, "phase": self._role}

    def position(self, state: State, names: tuple[str, ...]) -> dict[str, Any]:
        """Round, phase, governor and the seat to act, for the caption above the board."""
        # Only cards the state still shows as taken: at the end of a round they all return.
        taken = [self._taken.get(card) if is_taken else None for card, is_taken in enumerate(state.roles_taken)]
        return {"round": state.round, "phase": PHASE_NAMES[state.phase], "governor": state.governor, "turn": state.turn,
                "taken": taken, "caption": list(caption_message(state))}

    def scores(self, state: State) -> list[int]:
        """Per seat: VP chips + building VP + bonuses of occupied large buildings, as if it ended now."""
        totals = []
        for player in state.players:
            parts = scoring.details(player)
            totals.append(parts["chips"] + parts["buildings"] + parts["bonus"])
        return totals

    def result_labels(self) -> dict[str, str]:
        """The breakdown's columns as the rulebook's final scoring names them."""
        return {"chips": _("VP chips"), "buildings": _("building VP"), "bonus": _("large-building bonus")}

    def tiebreak_words(self, tiebreak: int, n_players: int) -> str:
        """Equal VP: "the player with the most doubloons and goods together wins"."""
        return _("%(count)s doubloons and goods", count=tiebreak)


ADAPTER = PuertoRicoAdapter
