"""Verdicts a second look confirms: the played move and the best candidates compared on paired playouts.

The tree search (:mod:`engine.analysis.search`) is good at *finding* the promising moves but bad at
*measuring* them: UCB visits a move it does not like a handful of times, so the played move's win
chance read from its root child is mostly sampling error, and a mark from the difference of two
such point estimates is noise (issue 30). A verdict therefore takes up to four steps:

1. **Screening**: a share of the budget (:data:`TREE_SHARE`) goes to the ISMCTS tree, whose most
   visited moves become the candidates: at most :data:`CANDIDATES` for a choice, and at most
   :data:`JUDGED_CANDIDATES` where a played move is judged (with that few tree rollouts the order of the tree's
   visits is mostly chance, and a mark must rest on a rival that a second seed evaluates too: every move the tree
   tried, up to a dozen). The played move is added, and any move the caller names (``also``: the search player
   names its rollout policy's own move, so that it improves on that policy rather than only on the tree's picks).
   (Where the judging seat has no decision, another seat's, the whole budget goes to the tree's chances.)
   The tree is seeded by the analysis seed, so a second seed screens other candidates too, unless the game shares
   its screening (below): then by the position's own seed (``screen_seed``), so every seed evaluates the same
   candidates and only the paired samples differ.
2. **Paired evaluation with sequential halving**: each candidate is played at the root and the game
   played out with the rollout policy, sample by sample. Sample ``i`` uses one random stream seeded
   by (seed, ``i``) for *every* candidate: the same determinisation of what the seat cannot see and
   the same random numbers in the playout (common random numbers, so the candidates' results at one
   sample index are positively correlated and their *differences* vary far less than each result).
   The rest of the budget is spent in rounds of sequential halving (Karnin, Koren & Somekh 2013,
   "Almost optimal exploration in multi-armed bandits", ICML): each round gives every live candidate
   the same number of new samples, then the worse half is dropped, so the rollouts go where the top
   moves are close (a game may give every candidate more samples in the first round than its share, below).
   The played move is never dropped, so it ends with as many samples as the best. With a played move the other
   candidates are halved until *one* is left beside it: the last round is a duel of the played move and its
   strongest rival, which gets the largest sample (without a played move, the
   halving ends with the two best candidates, as plain sequential halving does).
3. **The verdict**: the played move's *loss* is the mean of the paired differences rival − played over
   their common samples, with a 95 % normal interval of that mean (the paired-difference interval of e.g.
   Law & Kelton, "Simulation Modeling and Analysis", on common random numbers). The variance estimate
   counts one pseudo-sample of spread 1, so a few identical differences do not give a zero-width interval.
   A mark is then given only when the interval's *low* end reaches the mark's threshold (:func:`mark_for`,
   after step 4 where it applies): the search is 97.5 % sure the move lost at least that much.
   The best move is the finalist with the better mean, **except that a played move the paired interval does
   not show to be worse (its loss interval reaches 0) is the best move**: an indifference zone in the sense
   of Bechhofer (1954, "A single-sample multiple decision procedure for ranking means of normal populations
   with known variances", Ann. Math. Statist. 25), whose zone here is the interval's own width. Between two
   moves the samples cannot tell apart, which one has the better mean is a coin flip that a second seed
   flips again; the played move is the one choice both seeds share, and "the engine found no better move"
   is all the samples can say. Without a played move (a fork's position, the search player) the better
   mean wins.
4. **Deciding a leaning duel**: a mark given from one short duel would often be a coin flip near its threshold:
   where the played move's loss *leans* towards a mark's threshold (:data:`MARK_THRESHOLDS`) but the interval does
   not confirm it (the mean reaches the threshold less :data:`DECIDE_BAND`, the low end does not reach the
   threshold), a second seed lands on either side. The duel then goes on, :data:`WIN_STEP` samples a move at a time
   on the same streams, until the interval confirms the mark or the mean falls back out of every band it was in,
   or each move has :data:`DECIDE_SAMPLES_FACTOR` budgets: a sequential test of "the loss reaches the threshold"
   that looks at the paired interval again after every step (sequential analysis after Wald, 1947, "Sequential
   Analysis"). The band makes the test two-sided in effect: a mean just below the threshold is decided too, as a
   second seed's mean just above it would be, rather than left to where a short sample happened to stop. Looking
   again and again raises the chance of a mark for a loss just below its threshold above the nominal 2.5 %
   (Armitage, McPherson & Rowe 1969, "Repeated significance tests on accumulating data", J. R. Statist. Soc. A
   132); the cap bounds the looks, and the reproducibility bench measures what the marks do, not the formula.
   Positions whose loss is clearly small (the mean below every band) or clearly marked stop at once, so the
   cost goes where a second look would disagree. Only a judged played move has a duel; the search player (no
   played move) is unchanged.

   **A game's own settings.** How many samples a mark needs to repeat depends on the game (how noisy its playouts
   are, how close its moves), so a game may name settings of its own for a judged played move (its declaration's
   ``analysis_verdict``, :data:`GAME_SETTINGS`): a higher cap for a leaning duel (``decide_samples_factor``), and a
   floor (``decide_min_factor``) below which a duel is played on, leaning or not, while its mean loss is positive and
   its low end has not reached the highest threshold, so a true loss whose first fifty samples happened to look small
   is not left there. Amerigo and Entdecker name a cap of four budgets, Amerigo a floor of one. Amerigo also shares
   its screening (``shared_screening``: its positions have up to 136 legal moves, far more than a tree of fifty
   rollouts tries, so two seeds' trees pick different candidates, and a mark one seed gives against a rival the other
   never evaluated is lost to the screening) and gives every candidate sixteen samples before the first cut
   (``first_round_samples``: the first round's share is two samples a move over thirteen moves, on which the halving
   dropped the rival a second seed needed: Karnin, Koren & Somekh's bound on the chance that the halving drops the
   best arm falls with the samples each arm gets per round, and two win shares of 0 or 1 rank nothing). Either alone
   repeated no more marks; the two together did (docs/PERFORMANCE.md, search version 11). Entdecker names both too,
   with forty-eight samples before the first cut: its few rivals (five or six ``start edge`` moves against a settler's
   ``start tile``) differ by less than sixteen samples can tell, and a rival dropped there leaves a duel against a
   weaker one, where the loss does not show. A game that names
   settings is judged under a version of its own (:func:`search_version`: the search version followed by the
   settings); the others keep the search version and their stored verdicts (docs/PERFORMANCE.md, search version 10).

The position's win chances (every seat's) come from the best move's samples, each with a Wilson interval. The
duel leaves the best move some fifty samples, too few for a chance a second look repeats (two seeds' estimates of
a 25 % chance from 50 samples differ by 0.10 on average), so the best move is then played out further, in steps of
:data:`WIN_STEP` samples on the same streams, until the mover's interval is at most :data:`WIN_HALF_WIDTH` (or the
game's own ``win_half_width``) either side or the best move has :data:`WIN_SAMPLES_FACTOR` times the budget:
sequential estimation to a fixed-width interval (Chow & Robbins 1965, "On the asymptotic theory of fixed-width
sequential confidence intervals for the mean", Ann. Math. Statist. 36). A decided position (every sample a win, or
none) stops at once; an open one costs up to a few budgets more. These samples come after the choice and do not
change it, nor the marks (a loss is measured over the samples both moves share, and every other move has no more
samples than the best had before), so a game's wider ``win_half_width`` changes its win chances' precision and
nothing else; a caller that needs only the choice (the search player) asks for no top-up (``narrow=False``).
Everything is deterministic for a given seed. Like the tree, a verdict for a seat depends only on that seat's view:
the hidden part of the state is used only through fresh determinisations.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.analysis.search import DEFAULT_ROLLOUTS, SEARCH_VERSION, Analysis, play_out, search
from engine.analysis.stats import Z95, wilson_interval
from engine.core.fold import Player
from engine.core.protocol import CHANCE, Action, Actor, Rules, State
from engine.players.offered import determinizer_for, policy_for

#: The share of the budget spent on the tree that picks the candidates; the rest goes to paired playouts.
TREE_SHARE = 0.25
#: The tree's most visited moves evaluated on paired playouts for a choice (the search player's; ``also`` comes on top).
CANDIDATES = 4
#: The tree's most visited moves evaluated beside a played move that is judged. Four (version 8) left the first seed's
#: rival unevaluated by the second in a third of the marks the second seed lost (in Amerigo, seven in ten); twelve
#: (version 9) is every legal move at most positions of every game but Amerigo's (docs/PERFORMANCE.md, version 9).
#: The search player's choice keeps :data:`CANDIDATES`: its strength was measured so.
JUDGED_CANDIDATES = 12
#: The mover's win chance is estimated to within this either side (95 % Wilson interval) where the cap allows. Two
#: seeds' estimates of a chance known to a half-width h differ by 2σ/√π ≈ 0.58 h on average (σ = h / 1.96, the
#: mean of the absolute difference of two normal estimates), 0.020 here, and less where a position is decided early
#: (measured at this width: 0.01–0.02 for every game, docs/PERFORMANCE.md). Issue 30 asks at most 0.03, which holds
#: up to h = 0.052 even where no position is decided early, so a game may name a wider one (``win_half_width``,
#: :data:`GAME_SETTINGS`, Puerto Rico's 0.05): the samples narrowing needs fall with its square.
WIN_HALF_WIDTH = 0.035
#: The best move's samples for its win chance stop at this many times the budget, however wide the interval.
WIN_SAMPLES_FACTOR = 4
#: Samples added to the best move at a time while its interval is too wide (and to a duel not yet decided).
WIN_STEP = 8
#: Loss thresholds of the marks (``?!`` inaccuracy, ``?`` mistake, ``??`` blunder), reached by the low end of the loss
#: interval: lichess's steps scaled to win probability (a 5-point drop is noticeable, 20 points usually decides a game).
INACCURACY, MISTAKE, BLUNDER = 0.05, 0.10, 0.20
#: The marks by name, as reports state them.
MARK_THRESHOLDS = {"?!": INACCURACY, "?": MISTAKE, "??": BLUNDER}
#: A duel whose loss leans towards a mark's threshold without the interval confirming it goes on to this many times
#: the budget samples per move at most (step 4 of the module docstring). One budget (version 7) left marks that a
#: second seed found again 59 % of the time on the leaning positions of Amerigo, Entdecker and Die goldene Stadt;
#: two budgets with :data:`DECIDE_BAND`, 66 %; four, 70 % but a quarter more CPU, past the speed target; eight, no
#: better than four (docs/PERFORMANCE.md, version 8).
DECIDE_SAMPLES_FACTOR = 2
#: A duel leans towards a threshold from this far below it: its mean reaches threshold − band.
DECIDE_BAND = 0.02
#: A duel whose mean loss is positive and confirms no mark is played on to this many times the budget samples per move
#: at least, leaning or not (0: only while it leans; step 4 of the module docstring).
DECIDE_MIN_FACTOR = 0.0
#: Every candidate has at least this many samples in the halving's first round, the later rounds keeping their shares
#: (0: the first round's share alone; step 2 of the module docstring).
FIRST_ROUND_SAMPLES = 0.0
#: 1: the tree that picks the candidates is seeded by the position alone (``screen_seed``), not by the analysis seed,
#: so that every seed evaluates the same candidates (0: by the analysis seed; step 1 of the module docstring).
SHARED_SCREENING = 0.0
#: The verdict settings a game may name for itself (its declaration's ``analysis_verdict``, a mapping of these names to values:
#: :func:`verdict_settings`), each the module's constant of its name in capitals unless named. How many samples a mark
#: needs to repeat under a second seed depends on the game (how noisy its playouts are, how close its moves), as its
#: budget does (``analysis_rollouts``). A game that names any is judged under a search version of its own
#: (:func:`search_version`); they apply to a judged played move only, never to the search player's choice. A wider
#: ``win_half_width`` makes the win chances less precise and the verdict cheaper, and changes nothing else.
GAME_SETTINGS = ("decide_samples_factor", "decide_min_factor", "first_round_samples", "shared_screening", "win_half_width")


@dataclass(frozen=True)
class MoveStats:
    """One evaluated move of the mover: its paired samples and what they say.

    ``win`` is the mover's mean win share over ``samples`` playouts, ``low``/``high`` its 95 % Wilson
    interval; ``loss`` the best move's mean minus this one's over their common samples (0 for the best),
    ``loss_low``/``loss_high`` the 95 % interval of that paired difference.
    """

    action: Action
    samples: int
    win: float
    low: float
    high: float
    loss: float
    loss_low: float
    loss_high: float


@dataclass(frozen=True)
class Verdict:
    """The verdict at one position (see the module docstring).

    ``win`` is every seat's win chance, ``win_low``/``win_high`` their 95 % intervals; ``moves`` the
    evaluated moves, the best first, then by rounds survived and mean (empty at chance, at the end, or
    when the judging seat is not the one to act); ``played`` the played move's stats when it was given
    and judged.
    """

    seat: int | None
    actor: Actor
    rollouts: int
    seed: int
    win: tuple[float, ...]
    win_low: tuple[float, ...]
    win_high: tuple[float, ...]
    moves: tuple[MoveStats, ...] = field(default=())
    played: MoveStats | None = None

    @property
    def best(self) -> MoveStats | None:
        """The best move by the paired evaluation, or None."""
        return self.moves[0] if self.moves else None


def mark_for(loss_low: float | None) -> str | None:
    """``??``, ``?``, ``?!`` or None for the low end of a played move's loss interval (:data:`MARK_THRESHOLDS`)."""
    if loss_low is None:
        return None
    if loss_low >= BLUNDER:
        return "??"
    if loss_low >= MISTAKE:
        return "?"
    return "?!" if loss_low >= INACCURACY else None


def leans(loss: float, loss_low: float, thresholds: Sequence[float]) -> bool:
    """True while a duel's paired loss leans towards one of ``thresholds`` unconfirmed: its mean reaches the threshold
    less :data:`DECIDE_BAND`, its interval's low end does not reach the threshold (step 4 of the module docstring)."""
    return any(loss_low < threshold <= loss + DECIDE_BAND for threshold in thresholds)


@dataclass(frozen=True)
class Settings:
    """The settings of a judged played move's verdict (:data:`GAME_SETTINGS`): the module's constants unless the game
    names its own."""

    decide_samples_factor: float = DECIDE_SAMPLES_FACTOR
    decide_min_factor: float = DECIDE_MIN_FACTOR
    first_round_samples: float = FIRST_ROUND_SAMPLES
    shared_screening: float = SHARED_SCREENING
    win_half_width: float = WIN_HALF_WIDTH


def game_settings(rules: Rules) -> dict[str, float]:
    """The verdict settings ``rules``' game declares for itself (its ``analysis_verdict``; empty where it names none).

    Raises ValueError for a name not in :data:`GAME_SETTINGS` or a value that is not a number of at least 0.
    """
    # read as objects: the compiled engine would otherwise check each value's declared type (float) itself, with a
    # TypeError for a string and no error at all for a bool, before the checks below could name the setting
    declared: dict[str, object] = dict(rules.declaration.analysis_verdict)
    named: dict[str, float] = {}
    for name, value in declared.items():
        if name not in GAME_SETTINGS:
            raise ValueError(f"unknown verdict setting {name!r} (known: {', '.join(GAME_SETTINGS)})")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise ValueError(f"verdict setting {name!r} must be a number of at least 0, not {value!r}")
        named[name] = value
    return named


def verdict_settings(rules: Rules) -> Settings:
    """The settings a played move of ``rules``' game is judged with: those the game names (:func:`game_settings`), else
    the module's constants."""
    return Settings(**{name: float(value) for name, value in game_settings(rules).items()})


def search_version(rules: Rules) -> str:
    """The version the verdicts of ``rules``' game are stored and benchmarked under: :data:`SEARCH_VERSION`, followed by
    the settings the game names for itself where it names any (``"9+decide_samples_factor=4"``). A game whose method
    changed never reads another method's verdicts, and a game whose method did not change keeps its own."""
    named = game_settings(rules)  # each value written as %g: the same string whether the engine is compiled or not
    return SEARCH_VERSION + "".join(f"+{name}={float(named[name]):g}" for name in sorted(named))


def sample_stream(seed: int, index: int) -> random.Random:
    """The random stream of sample ``index``: one for every candidate alike (common random numbers)."""
    return random.Random(seed * 1_000_003 + index + 1)


def paired_interval(differences: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high) of paired differences in [-1, 1]: a normal interval of the mean (see the module docstring).

    The variance estimate adds one pseudo-sample of spread 1 to the squared deviations, so that a few
    identical differences still give an interval of honest width; (0, -1, 1) with no samples.
    """
    count = len(differences)
    if count == 0:
        return 0.0, -1.0, 1.0
    mean = sum(differences) / count
    squares = sum((d - mean) ** 2 for d in differences)
    margin = z * math.sqrt((squares + 1.0) / count / count)
    return mean, max(-1.0, mean - margin), min(1.0, mean + margin)


class _Arm:
    """A candidate's samples: every seat's win share per sample index."""

    __slots__ = ("action", "order", "shares")

    def __init__(self, action: Action, order: int) -> None:
        self.action = action
        self.order = order
        self.shares: list[tuple[float, ...]] = []

    def mean(self, seat: int) -> float:
        return sum(s[seat] for s in self.shares) / len(self.shares) if self.shares else 0.0


def _sample(rules: Rules, state: State, seat: int | None, action: Action, policy: Player, seed: int,
            index: int, seats: int) -> tuple[float, ...]:
    """Every seat's win share after ``action`` in sample ``index``'s determinisation and random stream."""
    rng = sample_stream(seed, index)
    start = determinizer_for(rules)(state, seat, rng) if seat is not None else state
    shares = play_out(rules, rules.apply(start, action), policy, rng)
    return shares if shares is not None else (1.0 / seats,) * seats


def _fill(rules: Rules, state: State, seat: int | None, arm: _Arm, target: int, policy: Player, seed: int,
          seats: int) -> None:
    while len(arm.shares) < target:
        arm.shares.append(_sample(rules, state, seat, arm.action, policy, seed, len(arm.shares), seats))


def _halve(arms: list[_Arm], mover: int) -> list[_Arm]:
    """The better half (rounded up) of ``arms`` by the mover's mean, ties to the tree's order."""
    ranked = sorted(arms, key=lambda arm: (-arm.mean(mover), arm.order))
    return ranked[:(len(arms) + 1) // 2]


def _stats(arm: _Arm, best: _Arm, mover: int) -> MoveStats:
    """``arm``'s mean with its interval and its paired loss against ``best`` over their common samples."""
    count = len(arm.shares)
    win = arm.mean(mover)
    low, high = wilson_interval(win * count, count)
    if arm is best:
        return MoveStats(arm.action, count, win, low, high, 0.0, 0.0, 0.0)
    common = min(count, len(best.shares))
    loss, loss_low, loss_high = paired_interval(
        [best.shares[i][mover] - arm.shares[i][mover] for i in range(common)])
    return MoveStats(arm.action, count, win, low, high, loss, loss_low, loss_high)


def judge(rules: Rules, state: State, *, seat: int | None, rollouts: int = DEFAULT_ROLLOUTS, seed: int = 0,
          played: Action | None = None, policy: Player | None = None,
          narrow: bool = True, thresholds: Sequence[float] = tuple(MARK_THRESHOLDS.values()),
          also: Sequence[Action] = (), screen_seed: int | None = None) -> Verdict:
    """The verdict at ``state`` for ``seat`` (None: full information) with about ``rollouts`` playouts.

    ``played``, a legal action of the mover, is judged against the best; a duel whose loss leans past one of the
    ``thresholds`` without its interval confirming it is played on (at most :data:`DECIDE_SAMPLES_FACTOR` budgets
    a move). Where ``narrow``, the best move is then played out until the mover's win chance is known to
    :data:`WIN_HALF_WIDTH` either side, or the game's own ``win_half_width`` for a judged played move (at most
    :data:`WIN_SAMPLES_FACTOR` budgets). ``also``: legal actions of the mover to
    evaluate beside the tree's candidates (the search player adds its rollout policy's own move). ``screen_seed``: the
    position's own seed, which seeds the tree instead of ``seed`` where the game shares its screening. Raises ValueError
    for a budget below 1. See the module docstring.
    """
    actor = rules.current_actor(state)
    decides = actor is not None and actor != CHANCE and (seat is None or actor == seat)
    # Where the judging seat has no decision, the whole budget goes to the tree's estimate of the chances.
    tree_budget = max(1, int(rollouts * TREE_SHARE)) if decides else rollouts
    settings = verdict_settings(rules) if played is not None else Settings()
    tree_seed = screen_seed if settings.shared_screening > 0 and screen_seed is not None and decides else seed
    tree = search(rules, state, seat=seat, rollouts=tree_budget, seed=tree_seed, policy=policy)
    if not tree.actions:
        return _chances_only(tree, seat, rollouts, seed)
    mover = int(tree.actor)
    contenders, pinned = _arms(tree, played, also)
    evaluated = _with_pinned(contenders, pinned)
    halving = _Halving(rules, state, seat, policy or policy_for(rules), seed, len(tree.win), mover)
    target = halving.run(contenders, pinned, rollouts - tree.rollouts, int(settings.first_round_samples))
    finalists = [arm for arm in evaluated if len(arm.shares) == target]
    if pinned is not None and thresholds:
        halving.decide(finalists, pinned, thresholds, int(settings.decide_samples_factor * rollouts),
                       int(settings.decide_min_factor * rollouts))
    best = _best(finalists, pinned, mover)
    if narrow:
        halving.narrow(best, settings.win_half_width, WIN_SAMPLES_FACTOR * rollouts)
    return _verdict(seat, mover, rollouts, seed, evaluated, pinned, best, halving.seats)


def _chances_only(tree: Analysis, seat: int | None, rollouts: int, seed: int) -> Verdict:
    """The verdict where the tree lists no move of the mover: the tree's chances with their intervals."""
    visits = tree.rollouts
    intervals = [wilson_interval(p * visits, visits) if visits else (p, p) for p in tree.win]
    return Verdict(seat, tree.actor, rollouts, seed, tree.win, tuple(i[0] for i in intervals),
                   tuple(i[1] for i in intervals))


def _arms(tree: Analysis, played: Action | None, also: Sequence[Action] = ()) -> tuple[list[_Arm], _Arm | None]:
    """The tree's candidates (its most visited moves, the first one always, more of them where a played move is judged;
    then any of ``also`` not among them) and the played move's arm, if any."""
    screened = tree.actions[:CANDIDATES if played is None else JUDGED_CANDIDATES]
    contenders = [_Arm(a.action, order) for order, a in enumerate(screened) if a.visits or order == 0]
    for action in also:
        if all(arm.action != action for arm in contenders):
            contenders.append(_Arm(action, len(contenders)))
    pinned = next((arm for arm in contenders if arm.action == played), None)
    if played is not None and pinned is None:
        pinned = _Arm(played, len(contenders))
    return contenders, pinned


def _with_pinned(contenders: list[_Arm], pinned: _Arm | None) -> list[_Arm]:
    """``contenders`` and the played move's arm where it is not among them (it is never dropped)."""
    return contenders + ([pinned] if pinned is not None and pinned not in contenders else [])


class _Halving:
    """Sequential halving over paired samples at one position (see the module docstring, step 2)."""

    def __init__(self, rules: Rules, state: State, seat: int | None, player: Player, seed: int, seats: int,
                 mover: int) -> None:
        self.rules, self.state, self.seat, self.player = rules, state, seat, player
        self.seed, self.seats, self.mover = seed, seats, mover

    def run(self, contenders: list[_Arm], pinned: _Arm | None, budget: int, first: int = 0) -> int:
        """Spend ``budget`` playouts in equal rounds, halving the rivals after each; the last round's sample count.

        The rivals are the contenders other than the played move; the rounds go on until one rival is left beside
        the played move (two rivals without one), so the last round is the duel that decides the verdict. The first
        round gives every candidate ``first`` samples at least, the later rounds their own shares on top.
        """
        rivals = [arm for arm in contenders if arm is not pinned]
        rounds = _rounds(len(rivals), pinned is not None)
        per_round = budget // rounds
        target = 0
        for round_ in range(rounds):
            live = _with_pinned(rivals, pinned)
            share = max(1, per_round // len(live))
            target += max(share, first) if round_ == 0 else share
            for arm in live:
                _fill(self.rules, self.state, self.seat, arm, target, self.player, self.seed, self.seats)
            if round_ < rounds - 1:
                rivals = _halve(rivals, self.mover)
        return target

    def decide(self, finalists: list[_Arm], pinned: _Arm, thresholds: Sequence[float], cap: int,
               floor: int = 0) -> None:
        """Play the duel of ``pinned`` and its rival on, :data:`WIN_STEP` samples each at a time, while the paired loss
        leans towards a threshold its interval does not confirm (:func:`leans`), up to ``cap`` samples each: a mark
        then rests on the evidence, not on where a short sample happened to stop. Below ``floor`` samples it goes on
        also unleaning while the mean loss is positive and the low end has not reached the highest threshold."""
        rival = next((arm for arm in finalists if arm is not pinned), None)
        if rival is None:
            return
        while len(pinned.shares) < cap:
            loss = _stats(pinned, rival, self.mover)
            if not leans(loss.loss, loss.loss_low, thresholds) and (
                    len(pinned.shares) >= floor or loss.loss <= 0.0 or loss.loss_low >= max(thresholds)):
                return
            target = min(cap, len(pinned.shares) + WIN_STEP)
            for arm in (rival, pinned):
                _fill(self.rules, self.state, self.seat, arm, target, self.player, self.seed, self.seats)

    def narrow(self, arm: _Arm, half_width: float, cap: int) -> None:
        """Play ``arm`` out further until the mover's Wilson interval is ``half_width`` either side, or ``cap`` samples."""
        while len(arm.shares) < cap:
            count = len(arm.shares)
            low, high = wilson_interval(arm.mean(self.mover) * count, count)
            if high - low <= 2 * half_width:
                return
            _fill(self.rules, self.state, self.seat, arm, min(cap, count + WIN_STEP), self.player, self.seed,
                  self.seats)


def _rounds(rivals: int, duel: bool) -> int:
    """Rounds of halving until one rival is left for a duel with the played move, else until two are (at least 1)."""
    left = 1 if duel else 2
    rounds = 1
    while rivals > left:
        rivals = (rivals + 1) // 2
        rounds += 1
    return rounds


def _verdict(seat: int | None, mover: int, rollouts: int, seed: int, evaluated: list[_Arm], pinned: _Arm | None,
             best: _Arm, seats: int) -> Verdict:
    """The verdict from the evaluated arms: every move's stats, the best first, the chances from the best's samples."""
    ranked = sorted(evaluated, key=lambda arm: (arm is not best, -len(arm.shares), -arm.mean(mover), arm.order))
    moves = tuple(_stats(arm, best, mover) for arm in ranked)
    win = tuple(best.mean(s) for s in range(seats))
    count = len(best.shares)
    intervals = [wilson_interval(p * count, count) for p in win]
    judged = next((m for m in moves if pinned is not None and m.action == pinned.action), None)
    return Verdict(seat, mover, rollouts, seed, win, tuple(i[0] for i in intervals), tuple(i[1] for i in intervals),
                   moves, judged)


def _best(finalists: list[_Arm], pinned: _Arm | None, mover: int) -> _Arm:
    """The finalist with the better mean, or the played move where the paired interval does not show it worse."""
    leader = min(finalists, key=lambda arm: (-arm.mean(mover), arm.order))
    if pinned is None or leader is pinned:
        return leader
    return pinned if _stats(pinned, leader, mover).loss_low <= 0.0 else leader
