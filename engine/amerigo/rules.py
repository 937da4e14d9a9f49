"""The Amerigo rules object: the engine protocol over the phase modules.

Every apply resolves automatic steps (throws with nothing to throw, skipped phases, pirates,
actions with nothing left to decide) before returning, so a state always waits for a decision,
for chance, or for nobody (the game is over).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from engine.amerigo import building, chance, choose, explore, planning, sailing, scoring, serialize, tracks
from engine.amerigo.component_set import component_set
from engine.amerigo.describe import TEMPLATES, describe_message
from engine.amerigo.explain import explain
from engine.amerigo.notation import CASH_CHEST, END, SPEND, USE_PT10, USE_PT16, Action, format_action, parse_action
from engine.amerigo.rollout import rollout_player
from engine.amerigo.settle import settle
from engine.amerigo.state import CHANCE_PHASES, OVER, Phase, State, initial_state
from engine.amerigo.strategy import strategy_players
from engine.amerigo.turns import apply_cash, apply_spend, end_action
from engine.core.declaration import Declaration
from engine.core.phased import PhasedRules, Turns, Words, apply_table
from engine.core.protocol import GameRules, Setup

LEGAL: Final[dict[int, Callable[[State], list[Action]]]] = {
    Phase.CHOOSE: choose.legal_actions,
    Phase.PLACE_SHIPS: sailing.legal_place,
    Phase.SAIL: sailing.legal_sail,
    Phase.FOUND: sailing.legal_found,
    Phase.CANNONS: tracks.legal_cannon,
    Phase.ADVANCE: tracks.legal_advance,
    Phase.TAKE_TOKEN: tracks.legal_token,
    Phase.MOVE_ORDER: tracks.legal_order,
    Phase.PLAN: planning.legal_plan,
    Phase.BUILD: building.legal_build,
    Phase.BUY: planning.legal_buy,
}
DECISIONS: Final[dict[int, Callable[[State, Action], State]]] = {
    Phase.CHOOSE: choose.apply,
    Phase.PLACE_SHIPS: sailing.apply_place,
    Phase.SAIL: sailing.apply_sail,
    Phase.FOUND: sailing.apply_found,
    Phase.CANNONS: tracks.apply_cannons,
    Phase.ADVANCE: tracks.apply_advance,
    Phase.TAKE_TOKEN: tracks.apply_take,
    Phase.MOVE_ORDER: tracks.apply_move,
    Phase.PLAN: planning.apply_plan,
    Phase.BUILD: building.apply_build,
    Phase.BUY: planning.apply_buy,
}


def apply_decision(state: State, action: Action) -> State:
    """A player's decision, then whatever follows by itself."""
    op = action[0]
    if op == "cash" or action == CASH_CHEST:
        return apply_cash(state, action)
    if action == SPEND:
        state = apply_spend(state)
    elif action == END:
        return end_action(state)
    elif action == USE_PT10:
        state = sailing.apply_pt10(state)
    elif action == USE_PT16:
        return tracks.apply_pt16(state)
    else:
        state = DECISIONS[state.phase](state, action)
    return settle(state)


#: Chance steps apply their outcome; every decision goes through :func:`apply_decision`.
APPLY = apply_table(dict.fromkeys(LEGAL, apply_decision), CHANCE_PHASES, chance.apply)


def apply(state: State, action: Action) -> State:
    """The state after ``action``, by the phase table, as the rules object applies it: the strategy bots play
    through it."""
    return APPLY[state.phase](state, action)


#: Amerigo as the tools read it (:mod:`engine.core.declaration`).
DECLARATION: Final = Declaration(
    name="amerigo", title="Amerigo",
    # 2 (issue 16): a ship may sail out and back to its anchor and found there. Version 1's games replay
    # unchanged (version 2 only adds actions).
    version="2", min_players=2, max_players=4, known_options=("components",),
    # Demo games are played by the rollout policy rather than a uniform random player (which leaves the map empty).
    demo_player=rollout_player, rollout_player=rollout_player, strategy_players=strategy_players(apply),
    # Its own verdict settings (engine.analysis.verdict.GAME_SETTINGS): a duel still leaning at two budgets a move goes
    # on to four, and a duel whose rival looks better at all is played to one budget a move before it may stop. At
    # version 9, 36 of its 50 marks were found again by a second seed (72 %) (docs/PERFORMANCE.md, search version 10).
    # Its positions have up to 136 legal moves, more than a short tree tries, so every seed screens the position's own
    # candidates (the tree seeded by the position), and each candidate has 16 samples before the halving's first cut
    # rather than 2: at version 10, 46 of its 60 marks were found again (77 %) (search version 11).
    analysis_verdict={"decide_samples_factor": 4, "decide_min_factor": 1, "first_round_samples": 16, "shared_screening": 1},
    # What a second opinion repeated (docs/PERFORMANCE.md, "Verdicts a second look confirms"; the small samples at 50
    # rollouts of issue 46): tests/bench/test_budget_figures.py keeps these equal to bench/results/verdicts.jsonl.
    analysis_measured={200: (647, 64, 14, 13, 583)},
    explorer_choices=explore.choices,
)


class AmerigoRules(PhasedRules[State, Action]):
    """Amerigo for 2 to 4 players, after the Hungarian rulebook (see the package docstring).

    Its engine phases (wait points) are the state's ``phase`` (the rulebook's colour phases are
    ``colour``); the seat to act is the ``turn``-th of the turn order; the view hides the tower's contents.
    """

    def seat_of(self, state: State) -> int:
        """The seat whose turn it is in the current turn order."""
        return state.turn_order[state.turn]

    def initial_state(self, setup: Setup) -> State:
        """The rulebook's setup; the game opens with chance laying the island tiles."""
        return initial_state(self.seated_players(setup), component_set(setup.options.get("components")))

    def check(self, state: State, action: Action) -> None:
        """Raise IllegalActionError unless legal; a build in any of its equivalent spellings (any rotation 0-3, or
        the old corner notation) is checked as the placement it names."""
        super().check(state, building.listed_form(state, action))

    def legal_actions(self, state: State) -> Sequence[Action]:
        """Every legal action of the seat to act, as a tuple, in a stable order; () for chance and at the end."""
        return tuple(super().legal_actions(state))


#: How the game's turns go, and how its moves are written and told (:mod:`engine.core.phased`).
TURNS: Final = Turns(LEGAL, APPLY, CHANCE_PHASES, chance.outcomes, OVER, scoring.outcome)
WORDS: Final = Words(parse_action, format_action, explain, TEMPLATES, message_after=describe_message)
#: The game's rules object (typed as the protocol, so that mypy checks it keeps the contract).
RULES: GameRules[State, Action] = AmerigoRules(DECLARATION, TURNS, WORDS, serialize.SNAPSHOTS)
