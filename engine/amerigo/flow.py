"""The game's skeleton: the phases and their throws, the round's end (setup's chance steps and the throws'
outcomes are :mod:`engine.amerigo.chance`).

Seed, "A JÁTÉK MENETE": five rounds of seven phases; a phase's cubes are thrown, "A tálcába
érkező minden kockát tegyetek az akciókör akciómezőjére" (the cubes landing in the tray go to
the action field); "Ha a tárolómező üres, vagy nem esik ki kocka a toronyból, akkor az adott
fázist hagyjátok ki" (an empty storage space, or no cube coming out, skips the phase); after
every player has acted the field's cubes go to their storage spaces; after the white phase
comes the interim scoring (pirates) and the next round's preparation, after round 5 the final
scoring.

Every function here returns a state that waits for a decision, for chance, or for nobody.
"""

from __future__ import annotations

from engine.amerigo import components as c
from engine.amerigo import scoring
from engine.amerigo.changes import sheets
from engine.amerigo.state import (
    NO_ACTION,
    OVER,
    PIRATE,
    TOWER,
    ZERO7,
    State,
    add_vectors,
)
from engine.amerigo.tower import next_colour
from engine.core.records import add_at, set_at

# --- phases and rounds --------------------------------------------------------------------------------------


def begin_phase(state: State, colour: int) -> State:
    """Phase ``colour``: its storage cubes and any stray cubes are thrown (Ruling 7); with nothing to throw
    the phase is skipped."""
    d = add_at(state.stray, colour, state.storage[colour])
    new = state.copy()
    new.colour = colour
    if d == ZERO7:  # nothing to throw
        return end_phase(new)
    tower = add_vectors(state.tower, d)
    new.storage = set_at(state.storage, colour, 0)
    new.stray = ZERO7
    new.tower = tower
    new.thrown = d
    new.throw_colour = next_colour(tower, 0)
    new.phase = TOWER
    return new


def end_phase(state: State) -> State:
    """The field's cubes to their storage spaces; the next phase, or the round's end after white."""
    new = state.copy()
    new.storage = add_vectors(state.storage, state.field)
    new.field = ZERO7
    new.turn_order = ()
    new.turn = 0
    new.phase_ap = 0
    new.action = NO_ACTION
    new.ap = 0
    if state.colour < 6:
        return begin_phase(new, state.colour + 1)
    state = new
    # The sheets before each automatic step are kept so that the log can say what each step changed.
    state = scoring.fight_pirates(state.evolve(before_fight=sheets(state)))
    if state.round == c.ROUNDS:
        return scoring.final_scoring(state.evolve(before_final=sheets(state))).evolve(phase=OVER)
    return state.evolve(round=state.round + 1, phase=PIRATE)
