"""Static tables of Amerigo: the default component set, as plain literals.

The layout of this data is a **documented reconstruction**, not the printed components: the
Hungarian rulebook (see :mod:`engine.amerigo`) gives the counts, the cannon and gold tracks
(0-12), the progress track's end value (15 VP), the completion table, the production token
values and every progress token's effect; everything marked (R) in the digest
(``docs/games/amerigo.md`` § Component data) is our reconstruction: the 16 island tiles, the neutral
and village tile shapes and values, the VP spaces of the progress and special-action tracks,
the time marker values, the marks of the production tokens and the kinds of a few progress
tokens. The (R) data reproduce every worked example of the rulebook.

A game may play with another component set: :mod:`engine.amerigo.component_set` reads
``Setup.options["components"]`` over these defaults and validates it.
"""

from __future__ import annotations

from typing import Final

#: The seven cube colours in phase order; colour k is phase k's colour and action.
COLOURS: Final[tuple[str, ...]] = ("blue", "black", "red", "brown", "green", "yellow", "white")
BLUE: Final = 0
BLACK: Final = 1
RED: Final = 2
BROWN: Final = 3
GREEN: Final = 4
YELLOW: Final = 5
WHITE: Final = 6
#: Cubes per colour in the game (49 in all).
CUBES_PER_COLOUR: Final = 7

#: The five goods, with the letter that marks their goods spaces on an island tile.
GOODS: Final[tuple[str, ...]] = ("cotton", "tobacco", "sugar", "coconut", "coffee")
GOOD_LETTERS: Final = "CTSKF"
#: Goods tokens per good (40 in all).
GOODS_TOKENS_PER_GOOD: Final = 8

ROUNDS: Final = 5
#: The value of the top time marker in rounds 1-5: markers 5, 4, 3, 2 over a printed 1 (Ruling 1).
TIME_VALUES: Final = (5, 4, 3, 2, 1)
#: Pirate markers (seed: six markers, five on the pirate spaces, one in the box unseen); values (R).
PIRATES: Final = (0, 0, 1, 2, 3, 4)
PIRATE_SPACES: Final = 5

CANNON_MAX: Final = 12  # seed: "de legfeljebb a 12-esig"
GOLD_MAX: Final = 12  # seed: "Ha az összesített aranya meghaladná a 12-t"
POSTS_PER_PLAYER: Final = 12
SHIPS_PER_PLAYER: Final = 2
CHESTS: Final = 5
BIG_ISLAND: Final = 20  # seed: "A 20 vagy több földmezőből álló szigetet 'nagy szigeteknek' hívjuk"
DISCOVERY_VP: Final = 3
COMPLETION_VP: Final = 3
END_OF_TRACK_GOLD: Final = 2
CHEST_GOLD: Final = 3
#: Completion scoring per number of one player's posts on the island (1..6), times the time marker.
COMPLETION_TABLE: Final = (1, 3, 6, 10, 15, 21)

# The cube tower's probability model (R), as exact fractions: a thrown cube comes out with
# probability 13/20; a cube already inside is knocked out with 1 - (23/25)^n, n the cubes thrown;
# at setup each of the 49 cubes comes out with 3/5.
P_PASS: Final = (13, 20)
Q_STAY: Final = (23, 25)
P_SETUP: Final = (3, 5)

#: Island tiles (R), 7 x 7 spaces: ``~`` water, ``A`` anchor (water), ``.`` land, ``P`` trading-post
#: space (land), goods spaces (land) ``C`` cotton, ``T`` tobacco, ``S`` sugar, ``K`` coconut, ``F`` coffee.
ISLAND_TILES: dict[str, tuple[str, ...]] = {
    "I01": ("~~~.~~~", "AP..C.~", "~..S..~", "~.....~", "~.K..PA", "~.P..~~", "~~A~~~~"),
    "I02": ("~~A~~~~", "~.P.T.~", "~.....~", "~F...S.", "~.....~", "~P..~P~", "~A~~~A~"),
    "I03": ("~~~~A~~", "~..CP.~", "~....PA", "..K...~", "~....~~", "~P..F~~", "~A~~~~~"),
    "I04": ("~A~~~A~", "~P.~.P~", "~..~.K~", "~.T.~.~", "~..PA~~", "~~.S~~~", "~~~.~~~"),
    "I05": ("~~~.~~~", "~A..F~~", "~P...~~", "~..K.~~", "~~~~~PA", "~AP.S.~", "~~~~~~~"),
    "I06": ("~A~~~~~", "~P.~A~~", "~.C~P.~", "~..~T..", "~~~...~", "~~AP..~", "~~~~~~~"),
    "I07": ("~~~~~~~", "~~A~~~~", "~.P..~~", "...C.S~", "~...~~~", "~AP.~~~", "~~~~~~~"),
    "I08": ("~~~~~~~", "~..PAA~", "~F..~P~", "~..~~K~", "~~~...~", "~~~.SPA", "~~~.~~~"),
    "I09": ("~~~.~~~", "~A~.~~~", "~P..S~~", "~...T~~", "~~P.~PA", "~~A~~.~", "~~~~~~~"),
    "I10": ("~~~~~~~", "~AP.~~~", "~~..~~~", ".S.K~~~", "~P.~~PA", "~A~.CT~", "~~~~~~~"),
    "I11": ("~~~~~~~", "~K.~~A~", "~PA~.P~", "~~~~F..", "~.T~~~~", "~P.~~~~", "~A~~~~~"),
    "I12": ("~~~~~~~", "~..~~~~", "~.PC~~~", "~~A~~~~", "~~~~.T~", "~~~.P.~", "~~~.A~~"),
    "I13": ("~~~~~~~", "~.~~~~~", "~PA~.K~", "~F~~P~~", "~~~AA~~", "~.CP~~~", "~~~~~~~"),
    "I14": ("~~~.~~~", "~~~.~~~", "~~~.P~~", "~A~~A~~", "~P.~~~~", "~T.~~~~", "~~~~~~~"),
    "I15": ("~~~~~~~", "~A~~~~~", "~P.~.F~", "~C~~P~~", "~~~AA~~", "~~.P.~~", "~~~~~~~"),
    "I16": ("~~~~~~~", "~~~~~~~", "~.FP~~~", "~.~A~~~", "~~~~~~~", "~~~~P.~", "~~~~A~~"),
}
TILE_SIZE: Final = 7

#: Tile shapes: cells (row, col) seen from the built side.
SHAPES: dict[str, tuple[tuple[int, int], ...]] = {
    "M1": ((0, 0),),
    "D2": ((0, 0), (0, 1)),
    "I3": ((0, 0), (0, 1), (0, 2)),
    "L3": ((0, 0), (1, 0), (1, 1)),
    "I4": ((0, 0), (0, 1), (0, 2), (0, 3)),
    "O4": ((0, 0), (0, 1), (1, 0), (1, 1)),
    "T4": ((0, 0), (0, 1), (0, 2), (1, 1)),
    "L4": ((0, 0), (1, 0), (2, 0), (2, 1)),
    "J4": ((0, 1), (1, 1), (2, 1), (2, 0)),
    "S4": ((0, 1), (0, 2), (1, 0), (1, 1)),
    "Z4": ((0, 0), (0, 1), (1, 1), (1, 2)),
    "P5": ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0)),
    "L5": ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1)),
    "T5": ((0, 0), (0, 1), (0, 2), (1, 1), (2, 1)),
    "U5": ((0, 0), (0, 2), (1, 0), (1, 1), (1, 2)),
    "V5": ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2)),
    "R6": ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)),
    "P6": ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (3, 0)),
    "F6": ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0)),
}

#: Neutral landscape tiles (R), 37: (shape, count, VP on a small island, VP on a big island).
#: Taking or building one costs its size in AP (seed: "Egy semleges tájlap ára 1-6 AP, a méretétől függően").
NEUTRAL_TILES: tuple[tuple[str, int, int, int], ...] = (
    ("M1", 4, 1, 2),
    ("D2", 6, 2, 3),
    ("I3", 3, 3, 5), ("L3", 4, 3, 5),
    ("I4", 2, 4, 7), ("O4", 2, 4, 7), ("T4", 2, 4, 7), ("L4", 1, 4, 7), ("J4", 1, 4, 7), ("S4", 1, 4, 7), ("Z4", 1, 4, 7),
    ("P5", 2, 6, 9), ("L5", 1, 6, 9), ("T5", 1, 6, 9), ("U5", 1, 6, 9), ("V5", 1, 6, 9),
    ("R6", 2, 7, 11), ("P6", 1, 7, 11), ("F6", 1, 7, 11),
)
#: Village tiles (R), 16 per player: (shape, count, VP small, VP big); 1 AP to take, 1 AP to build.
VILLAGE_TILES: tuple[tuple[str, int, int, int], ...] = (
    ("M1", 3, 1, 1),
    ("D2", 5, 1, 2),
    ("I3", 2, 2, 3), ("L3", 3, 2, 3),
    ("O4", 1, 2, 4), ("T4", 1, 2, 4), ("L4", 1, 2, 4),
)

#: Progress track (R): last space and the VP spaces (position → VP); the end value 15 is the seed's.
PROGRESS_TRACK: tuple[int, tuple[tuple[int, int], ...]] = (20, ((3, 1), (6, 3), (10, 6), (15, 10), (20, 15)))
#: Special-action (order) track (R): last space and the VP spaces. Space 0 is white; spaces 1..last-1
#: repeat blue, black, red, brown, green, yellow; the last space allows any colour.
ORDER_TRACK: tuple[int, tuple[tuple[int, int], ...]] = (13, ((4, 1), (7, 3), (10, 6), (13, 10)))

#: Progress tokens: (id, kind, effect) with kind "permanent", "once" or "end" (digest § Progress tokens).
PROGRESS_TOKENS: tuple[tuple[str, str, str], ...] = (
    ("PT01", "permanent", "+2 AP when performing black"),
    ("PT02", "permanent", "+2 AP when performing red"),
    ("PT03", "permanent", "+2 AP when performing brown"),
    ("PT04", "permanent", "+2 AP when performing green"),
    ("PT05", "permanent", "+2 AP when performing yellow"),
    ("PT06", "permanent", "+2 AP when performing white (order move)"),
    ("PT07", "permanent", "+1 AP when performing blue or black"),
    ("PT08", "permanent", "+1 AP when performing red or green"),
    ("PT09", "permanent", "+1 AP when performing brown or yellow"),
    ("PT10", "once", "blue: each ship +8 AP this action"),
    ("PT11", "permanent", "pirates +2 against every other player"),
    ("PT12", "permanent", "failing against the pirates costs only half the VP, rounded up"),
    ("PT13", "permanent", "+2 gold after fully repelling the pirates"),
    ("PT14", "permanent", "red: may take two neutral tiles per phase"),
    ("PT15", "permanent", "when choosing, red cubes count as green and green as red"),
    ("PT16", "once", "white order move: put the disc on top of the first player's disc"),
    ("PT17", "once", "+3 gold"),
    ("PT18", "once", "+5 gold"),
    ("PT19", "permanent", "+1 gold per trading post founded"),
    ("PT20", "permanent", "taking gold gives one per two cubes, rounded up"),
    ("PT21", "once", "instead of an action: VP equal to the cubes in the action field"),
    ("PT22", "end", "final scoring: 1 VP per trading post founded"),
    ("PT23", "end", "final scoring: 7 VP"),
    ("PT24", "end", "final scoring: VP equal to the gold track"),
)
#: AP bonuses of the permanent tokens PT01-PT09, per token: the colours they apply to and the AP.
AP_BONUSES: dict[str, tuple[tuple[int, ...], int]] = {
    "PT01": ((BLACK,), 2), "PT02": ((RED,), 2), "PT03": ((BROWN,), 2), "PT04": ((GREEN,), 2),
    "PT05": ((YELLOW,), 2), "PT06": ((WHITE,), 2),
    "PT07": ((BLUE, BLACK), 1), "PT08": ((RED, GREEN), 1), "PT09": ((BROWN, YELLOW), 1),
}
#: Progress spaces on the storage board: four on the left, four on the right.
PROGRESS_SPACES: Final[tuple[str, ...]] = ("L1", "L2", "L3", "L4", "R1", "R2", "R3", "R4")

#: Production token values; per good: unmarked 2 x "2", 2 x "3", 2 x "4"; marked 3+: "2", "3"; marked 4: "3", "4"
#: (per good 3 x "2", 4 x "3", 3 x "4" as the seed counts them; the marks are (R)).
PRODUCTION_VALUES: Final[tuple[int, ...]] = (2, 3, 4)
PRODUCTION_TOKENS: Final[dict[int, tuple[int, int, int]]] = {
    2: (2, 2, 2),  # per good, tokens of value 2, 3, 4 in a 2-player game
    3: (3, 3, 2),  # ... with the tokens marked 3+ added
    4: (3, 4, 3),  # ... and the tokens marked 4: all 50
}
#: Production spaces filled each round by player count (R); the board has 10.
PRODUCTION_SPACES: Final[dict[int, int]] = {2: 6, 3: 8, 4: 10}

#: Island grid (rows, columns of island tiles) and which short frames are used, by player count.
GRID: Final[dict[int, tuple[int, int]]] = {2: (3, 3), 3: (3, 4), 4: (4, 4)}
