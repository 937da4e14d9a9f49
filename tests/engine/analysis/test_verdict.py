"""Verdicts (engine.analysis.verdict): paired playouts, sequential halving, intervals, and marks a second look confirms.

The reproducibility of marks is a statistical property; here it is checked deterministically on fixed seeds:
a move that throws the game away is judged a blunder under every seed tried, a move that is the same as the
best one is never marked, and a merely worse move is never called a blunder.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from engine import CHANCE, Setup, get_rules
from engine.analysis import SEARCH_VERSION, judge, paired_interval, search_version
from engine.analysis.verdict import (
    CANDIDATES,
    DECIDE_BAND,
    DECIDE_SAMPLES_FACTOR,
    JUDGED_CANDIDATES,
    MARK_THRESHOLDS,
    TREE_SHARE,
    WIN_HALF_WIDTH,
    WIN_SAMPLES_FACTOR,
    Settings,
    Verdict,
    game_settings,
    leans,
    sample_stream,
    verdict_settings,
)
from engine.core.fold import draw_chance
from tests.games.pig import PIG, PigState

SEEDS = range(8)


class PigWithExtras:
    """Pig with two extra moves for the mover: ``resign`` (the others reach the target: a sure loss) and ``again``
    (the same as ``roll``, so it is exactly as good as rolling)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(PIG, name)

    def legal_actions(self, state: PigState) -> list[str]:
        actions = list(PIG.legal_actions(state))
        return [*actions, "resign", "again"] if "roll" in actions else actions

    def apply(self, state: PigState, action: str) -> PigState:
        if action == "again":
            return PIG.apply(state, "roll")
        if action == "resign":
            scores = tuple(score if seat == state.seat else state.target for seat, score in enumerate(state.scores))
            return state._replace(scores=scores)
        return PIG.apply(state, action)


EXTRAS = PigWithExtras()


def _pig(scores=(5, 5), turn_total=3) -> PigState:
    return PigState(tuple(scores), (1,) * len(scores), 0, turn_total, False, 20)


def test_the_same_seed_gives_the_same_verdict_and_another_seed_another_sample():
    first = judge(EXTRAS, _pig(), seat=0, rollouts=120, seed=3, played="hold")
    assert first == judge(EXTRAS, _pig(), seat=0, rollouts=120, seed=3, played="hold")
    assert first != judge(EXTRAS, _pig(), seat=0, rollouts=120, seed=4, played="hold")


def test_a_move_that_throws_the_game_away_is_a_blunder_under_every_seed():
    for seed in SEEDS:
        verdict = judge(EXTRAS, _pig(), seat=0, rollouts=200, seed=seed, played="resign")
        assert verdict.played is not None and verdict.played.action == "resign"
        assert verdict.played.win == 0.0
        assert verdict.played.loss_low >= 0.20, (seed, verdict.played)


def test_a_move_as_good_as_the_best_is_never_marked():
    """With nothing in hand, rolling is the best move (holding is not allowed); ``again`` is rolling too."""
    for seed in SEEDS:
        verdict = judge(EXTRAS, _pig(turn_total=0), seat=0, rollouts=200, seed=seed, played="again")
        assert verdict.played is not None and verdict.best is not None
        assert verdict.best.action == "again", "a move the samples cannot tell from the best is the best move"
        assert verdict.played.loss_low < 0.05, (seed, verdict.played)
        # The same move on the same random numbers: the very same playouts (common random numbers at work).
        assert verdict.played.loss == 0.0 and verdict.played.win == verdict.best.win


def test_a_merely_worse_move_is_not_called_a_blunder():
    """Rolling on at 19 to 15 with 1 in hand (holding wins at once) loses 0.16 with random playouts (6,000 of them, a
    throwaway count: roll 0.836, hold 1.0): a mistake at most, never a blunder, although the short duel's point loss
    reaches 0.20 under some seeds. (At 19 each the loss is 0.22, past the blunder's threshold: a verdict that plays the
    duel on rightly calls that one a blunder when its interval confirms it.)"""
    state = PigState((19, 15), (1, 1), 0, 1, False, 20)
    short_losses = []
    for seed in SEEDS:
        short = judge(PIG, state, seat=0, rollouts=200, seed=seed, played="roll", thresholds=())
        assert short.played is not None
        short_losses.append(short.played.loss)
        verdict = judge(PIG, state, seat=0, rollouts=200, seed=seed, played="roll")
        assert verdict.best is not None and verdict.best.action == "hold", seed
        assert verdict.played is not None and verdict.played.loss_low < 0.20, (seed, verdict.played)
    assert max(short_losses) >= 0.20, "the point estimate alone would have called it a blunder"


def test_the_played_move_gets_as_many_paired_samples_as_the_best_and_the_budget_is_kept():
    verdict = judge(EXTRAS, _pig(), seat=0, rollouts=200, seed=1, played="resign", narrow=False)
    assert verdict.best is not None and verdict.played is not None
    assert verdict.played.samples == verdict.best.samples == max(m.samples for m in verdict.moves)
    tree = int(200 * TREE_SHARE)
    assert tree + sum(m.samples for m in verdict.moves) <= 200
    assert len(verdict.moves) <= CANDIDATES + 1
    assert verdict.best.loss == 0.0 and (verdict.best.loss_low, verdict.best.loss_high) == (0.0, 0.0)
    assert verdict.win[0] == verdict.best.win and sum(verdict.win) == pytest.approx(1.0)
    for low, p, high in zip(verdict.win_low, verdict.win, verdict.win_high, strict=True):
        assert 0 <= low <= p <= high <= 1
    for move in verdict.moves:
        assert 0 <= move.low <= move.win <= move.high <= 1
        assert move.loss_low <= move.loss <= move.loss_high


def test_the_last_round_is_a_duel_of_the_played_move_and_its_strongest_rival():
    verdict = judge(EXTRAS, _pig(), seat=0, rollouts=300, seed=2, played="resign", narrow=False)
    assert verdict.played is not None and verdict.best is not None
    most = max(m.samples for m in verdict.moves)
    assert [m.action for m in verdict.moves if m.samples == most] == [verdict.best.action, "resign"]
    assert verdict.best.action != "resign" and len(verdict.moves) >= 3, "the others were halved down to one"


def test_the_best_move_is_the_played_one_unless_the_paired_interval_shows_it_worse():
    """Holding at 19 each with 1 in hand wins at once; rolling on is worse, but not always *shown* worse at a small
    budget. Whichever it is, the best move is the played one exactly where the loss interval reaches 0, so that
    two seeds which cannot tell the moves apart both name the move the player made."""
    state = PigState((19, 19), (1, 1), 0, 1, False, 20)
    named = set()
    for seed in range(16):
        verdict = judge(PIG, state, seat=0, rollouts=12, seed=seed, played="roll")
        assert verdict.played is not None and verdict.best is not None
        assert (verdict.best.action == "roll") == (verdict.played.loss_low <= 0.0), (seed, verdict.moves)
        named.add(verdict.best.action)
    assert named == {"roll", "hold"}, "both cases occur under these seeds"


def test_without_a_played_move_the_better_mean_is_the_best_move():
    state = PigState((19, 19), (1, 1), 0, 1, False, 20)
    verdict = judge(PIG, state, seat=0, rollouts=12, seed=0)
    assert verdict.played is None and verdict.best is not None
    assert verdict.best.win == max(m.win for m in verdict.moves if m.samples == verdict.best.samples)


def test_the_best_moves_chance_is_narrowed_to_the_half_width_or_the_cap():
    """The best move is played out further until the mover's interval is WIN_HALF_WIDTH either side (an open
    position: pig at 5 each takes more than the budget), a decided one stops at once, and the cap holds."""
    open_position = judge(EXTRAS, _pig(), seat=0, rollouts=200, seed=1, played="hold")
    best = open_position.best
    assert best is not None and best.samples > 200 * (1 - TREE_SHARE) / 2
    assert best.high - best.low <= 2 * WIN_HALF_WIDTH or best.samples == WIN_SAMPLES_FACTOR * 200
    assert (open_position.win_low[0], open_position.win_high[0]) == (best.low, best.high)
    capped = judge(EXTRAS, _pig(), seat=0, rollouts=20, seed=1, played="hold")
    assert capped.best is not None and capped.best.samples == WIN_SAMPLES_FACTOR * 20
    decided = judge(PIG, PigState((19, 19), (1, 1), 0, 1, False, 20), seat=0, rollouts=200, seed=1, played="hold")
    assert decided.best is not None and decided.best.win == 1.0 and decided.best.samples <= 100


def test_narrowing_the_chance_changes_neither_the_choice_nor_the_marks():
    for seed in range(6):
        for played in ("hold", "roll", "resign"):
            narrow = judge(EXTRAS, _pig(), seat=0, rollouts=120, seed=seed, played=played)
            plain = judge(EXTRAS, _pig(), seat=0, rollouts=120, seed=seed, played=played, narrow=False)
            assert narrow.best is not None and plain.best is not None and narrow.best.action == plain.best.action
            assert narrow.played is not None and plain.played is not None
            if narrow.played.action != narrow.best.action:
                assert (narrow.played.loss, narrow.played.loss_low) == (plain.played.loss, plain.played.loss_low)


def _duel_loss(verdict: Verdict) -> tuple[float, float, int]:
    """(mean, low end, samples) of the played move's paired loss against its rival in the final duel, whichever of
    the two the verdict names best."""
    played = verdict.played
    assert played is not None
    rival = max((m for m in verdict.moves if m.action != played.action), key=lambda m: m.samples)
    if verdict.best is not None and verdict.best.action == played.action:  # the rival's stats are against the played
        return -rival.loss, -rival.loss_high, played.samples
    return played.loss, played.loss_low, played.samples


def _leans(loss: float, low: float) -> list[float]:
    return [t for t in MARK_THRESHOLDS.values() if low < t <= loss + DECIDE_BAND]


def test_a_duel_leaning_past_a_threshold_is_played_on_until_decided():
    """Rolling on at 19 each with 1 in hand loses 0.22: just past the blunder's threshold, so a short duel
    leans past it under some seeds without confirming it, and a second seed would land on either side. Those duels go
    on until the interval confirms the mark, the mean falls back, or the cap; every other verdict is the short one.
    (No narrowing of the chances here: it would add samples to the best move that are not the duel's.)"""
    state = PigState((19, 19), (1, 1), 0, 1, False, 20)
    played_on = 0
    for seed in range(12):
        short = judge(PIG, state, seat=0, rollouts=120, seed=seed, played="roll", thresholds=(), narrow=False)
        decided = judge(PIG, state, seat=0, rollouts=120, seed=seed, played="roll", narrow=False)
        loss, low, samples = _duel_loss(short)
        if not _leans(loss, low):
            assert decided == short, seed
            continue
        played_on += 1
        loss, low, more = _duel_loss(decided)
        assert more > samples, seed
        assert more == DECIDE_SAMPLES_FACTOR * 120 or not _leans(loss, low), (seed, loss, low, more)
    assert played_on, "some seeds lean past a threshold"


def test_a_duel_leans_from_just_below_a_threshold_until_its_interval_confirms_it():
    """Step 4: a duel is played on while its mean reaches a threshold less the band and its interval's low end does not
    reach the threshold; a mean below every band, or a low end past the threshold, ends it."""
    assert leans(0.05 - DECIDE_BAND / 2, -0.02, (0.05,)), "just below the threshold, within the band"
    assert leans(0.07, 0.03, (0.05,)), "past the threshold, not confirmed"
    assert not leans(0.05 - 2 * DECIDE_BAND, -0.02, (0.05,)), "clearly small"
    assert not leans(0.07, 0.051, (0.05,)), "confirmed"
    assert leans(0.12, 0.06, (0.05, 0.10)), "the ?! confirmed, the ? not yet"
    assert not leans(0.12, 0.06, ()), "no thresholds, no duel"


def test_a_clear_blunder_or_a_clearly_small_loss_is_never_played_on():
    for seed in range(4):
        for played in ("resign", "again"):
            state = _pig(turn_total=0)
            short = judge(EXTRAS, state, seat=0, rollouts=120, seed=seed, played=played, thresholds=())
            assert judge(EXTRAS, state, seat=0, rollouts=120, seed=seed, played=played) == short


def test_without_a_played_move_there_is_no_duel_to_decide():
    state = PigState((19, 19), (1, 1), 0, 1, False, 20)
    for seed in range(4):
        assert judge(PIG, state, seat=0, rollouts=120, seed=seed) == judge(PIG, state, seat=0, rollouts=120, seed=seed,
                                                                             thresholds=())


def test_sequential_halving_drops_the_worse_candidates_early():
    verdict = judge(EXTRAS, _pig(), seat=0, rollouts=300, seed=2)
    assert verdict.played is None and len(verdict.moves) == 4
    counts = [m.samples for m in verdict.moves]
    assert counts[0] > counts[-1], counts
    assert "resign" not in [m.action for m in verdict.moves if m.samples == counts[0]]


class PigWithWaits(PigWithExtras):
    """Pig with extras and nine more moves, ``wait1``…``wait9``, each the same as holding: more moves than the
    tree's candidates."""

    def legal_actions(self, state: PigState) -> list[str]:
        actions = super().legal_actions(state)
        return [*actions, *(f"wait{i}" for i in range(1, 10))] if "roll" in actions else actions

    def apply(self, state: PigState, action: str) -> PigState:
        return super().apply(state, "hold" if action.startswith("wait") else action)


def test_a_move_given_in_also_is_evaluated_beside_the_trees_candidates():
    """The search player adds its rollout policy's own move this way (player version 5)."""
    rules, state = PigWithWaits(), _pig()
    alone = judge(rules, state, seat=0, rollouts=200, seed=3, narrow=False)
    screened = [m.action for m in alone.moves]
    left_out = next(a for a in rules.legal_actions(state) if a not in screened)
    verdict = judge(rules, state, seat=0, rollouts=200, seed=3, narrow=False, also=(left_out,))
    assert left_out in [m.action for m in verdict.moves] and len(verdict.moves) == len(screened) + 1
    again = judge(rules, state, seat=0, rollouts=200, seed=3, narrow=False, also=(screened[0],))
    assert again == alone, "a move already among the candidates changes nothing"


def test_a_judged_move_is_compared_with_a_dozen_of_the_trees_moves_a_choice_with_four():
    """Search version 9: a mark must rest on a rival a second seed evaluates too, so a played move is judged against
    every move the tree tried, up to :data:`JUDGED_CANDIDATES`; the search player's choice keeps :data:`CANDIDATES`."""
    rules, state = PigWithWaits(), _pig()
    legal = rules.legal_actions(state)
    assert len(legal) == JUDGED_CANDIDATES + 1 > CANDIDATES
    choice = judge(rules, state, seat=0, rollouts=200, seed=3, narrow=False)
    assert len(choice.moves) == CANDIDATES
    for seed in range(3):
        for played in legal:
            judged = judge(rules, state, seat=0, rollouts=200, seed=seed, narrow=False, played=played)
            evaluated = [move.action for move in judged.moves]
            assert played in evaluated and len(evaluated) == len(set(evaluated))
            # the tree tries every one of the 13 moves in its 50 rollouts: its twelve most visited, and the played
            # move on top when it was the thirteenth
            assert len(evaluated) in (JUDGED_CANDIDATES, JUDGED_CANDIDATES + 1)


def test_candidates_share_each_samples_random_stream():
    assert sample_stream(5, 3).random() == sample_stream(5, 3).random()
    assert sample_stream(5, 3).random() != sample_stream(5, 4).random() != sample_stream(6, 3).random()


def test_paired_interval_of_known_differences():
    mean, low, high = paired_interval([0.5, 1.0, 0.0, 0.5])
    assert mean == 0.5
    # squared deviations 0.5, plus the pseudo-sample's 1: sqrt(1.5 / 16) = 0.306 → ±0.600
    assert (round(low, 3), round(high, 3)) == (-0.1, 1.0)
    assert paired_interval([]) == (0.0, -1.0, 1.0)
    mean, low, high = paired_interval([0.0] * 100)
    assert mean == 0.0 and high == pytest.approx(1.96 * 0.01, abs=1e-3) and low == -high


def test_a_position_with_no_decision_for_the_seat_gets_chances_only():
    verdict = judge(PIG, _pig(), seat=1, rollouts=40, seed=0, played="roll")
    assert verdict.moves == () and verdict.played is None and len(verdict.win) == 2
    assert all(low <= p <= high for low, p, high in zip(verdict.win_low, verdict.win, verdict.win_high, strict=True))


def _golden_city_midgame(seed: int):
    rules = get_rules("golden_city")
    state = rules.initial_state(Setup(("a", "b", "c", "d")))
    rng = random.Random(seed)
    for _ in range(90):
        if rules.current_actor(state) is None:
            break
        if rules.current_actor(state) == CHANCE:
            state = rules.apply(state, draw_chance(rules.chance_outcomes(state), rng.random()))
        else:
            state = rules.apply(state, rng.choice(list(rules.legal_actions(state))))
    while rules.current_actor(state) == CHANCE:
        state = rules.apply(state, draw_chance(rules.chance_outcomes(state), rng.random()))
    return rules, state


def test_a_seats_verdict_is_the_same_whatever_it_cannot_see():
    rules, state = _golden_city_midgame(11)
    seat = rules.current_actor(state)
    other = rules.declaration.determinize(state, seat, random.Random(99))
    assert rules.view(other, seat) == rules.view(state, seat) and other != state
    played = rules.legal_actions(state)[-1]
    assert judge(rules, state, seat=seat, rollouts=16, seed=4, played=played) == judge(
        rules, other, seat=seat, rollouts=16, seed=4, played=played)


def test_a_game_naming_a_wider_win_half_width_gets_the_same_marks_and_moves_for_fewer_samples():
    """A game's ``win_half_width`` (Puerto Rico's 0.05, issue 49 item 7): the best move's chance is narrowed only to
    it, so the best move has fewer samples and a wider interval within it, and every other figure of the verdict (the
    best move, every move's samples and paired loss, the played move's mark) is what the default width gives."""
    wider = WithSettings(EXTRAS, win_half_width=0.06)
    for seed, played in ((1, "hold"), (2, "resign"), (3, "roll")):
        plain = judge(EXTRAS, _pig(), seat=0, rollouts=200, seed=seed, played=played)
        cheap = judge(wider, _pig(), seat=0, rollouts=200, seed=seed, played=played)
        assert plain.best is not None and cheap.best is not None and cheap.played is not None
        assert cheap.best.action == plain.best.action and cheap.played.action == plain.played.action
        assert (cheap.played.loss, cheap.played.loss_low, cheap.played.loss_high) == (
            plain.played.loss, plain.played.loss_low, plain.played.loss_high)
        assert cheap.moves[1:] == plain.moves[1:]
        assert cheap.best.samples < plain.best.samples, "an open position: the wider width stops sooner"
        assert 2 * WIN_HALF_WIDTH < cheap.best.high - cheap.best.low <= 2 * 0.06
    assert search_version(wider) == SEARCH_VERSION + "+win_half_width=0.06"


class WithSettings:
    """``rules`` declaring verdict settings of its own (``analysis_verdict``), as a game may."""

    def __init__(self, rules: Any, **settings: float) -> None:
        self.rules, self.declaration = rules, replace(rules.declaration, analysis_verdict=settings)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rules, name)


def test_a_game_may_name_verdict_settings_of_its_own_and_is_judged_under_a_version_of_its_own():
    """Search version 10 (for the games that name settings): how many samples a mark needs to repeat depends on the
    game, so a game may name its own; its verdicts are stored and benchmarked under the search version followed by
    them, and a game that names none keeps :data:`SEARCH_VERSION` and its stored verdicts."""
    assert verdict_settings(PIG) == Settings() and game_settings(PIG) == {} and search_version(PIG) == SEARCH_VERSION
    rules = WithSettings(PIG, decide_samples_factor=4, decide_min_factor=1)
    assert verdict_settings(rules) == Settings(decide_samples_factor=4.0, decide_min_factor=1.0)
    assert search_version(rules) == SEARCH_VERSION + "+decide_min_factor=1+decide_samples_factor=4"
    assert search_version(get_rules("golden_city")) == SEARCH_VERSION, "its verdicts are as at version 9"
    assert search_version(get_rules("puerto_rico")) == SEARCH_VERSION + "+win_half_width=0.05", "version 9's marks"
    for game in ("amerigo", "entdecker"):
        assert verdict_settings(get_rules(game)).decide_samples_factor > DECIDE_SAMPLES_FACTOR
        assert search_version(get_rules(game)).startswith(SEARCH_VERSION + "+")


@pytest.mark.parametrize("settings", [{"decide_band": 0.04}, {"decide_samples_factor": -1}, {"decide_min_factor": "1"},
                                      {"decide_samples_factor": True}])
def test_an_unknown_or_impossible_verdict_setting_is_refused(settings):
    with pytest.raises(ValueError):
        verdict_settings(WithSettings(PIG, **settings))
    with pytest.raises(ValueError):
        search_version(WithSettings(PIG, **settings))


def test_a_game_naming_a_longer_cap_plays_a_leaning_duel_on_further_and_nothing_else_changes():
    """``decide_samples_factor``: a duel still leaning at two budgets a move goes on to the game's cap; a duel decided
    before two budgets is the same verdict."""
    state = PigState((19, 19), (1, 1), 0, 1, False, 20)
    longer = WithSettings(PIG, decide_samples_factor=4)
    went_on = 0
    for seed in range(12):
        short = judge(PIG, state, seat=0, rollouts=60, seed=seed, played="roll", narrow=False)
        long = judge(longer, state, seat=0, rollouts=60, seed=seed, played="roll", narrow=False)
        _, _, samples = _duel_loss(short)
        if samples < DECIDE_SAMPLES_FACTOR * 60:
            assert long == short, seed
            continue
        loss, low, more = _duel_loss(long)
        went_on += more > samples
        assert more == 4 * 60 or not _leans(loss, low), (seed, loss, low, more)
    assert went_on, "some duel was still leaning at two budgets"


def test_a_game_naming_a_floor_plays_every_unconfirmed_duel_with_a_positive_loss_to_it():
    """``decide_min_factor``: below the floor a duel goes on, leaning or not, while its mean loss is positive and its
    low end has not reached the highest threshold; a duel whose rival looks no better stops as before."""
    floor = WithSettings(PigWithExtras(), decide_min_factor=1)
    for seed in range(6):
        for played in ("hold", "roll", "resign", "again"):
            short = judge(EXTRAS, _pig(), seat=0, rollouts=60, seed=seed, played=played, narrow=False)
            verdict = judge(floor, _pig(), seat=0, rollouts=60, seed=seed, played=played, narrow=False)
            top = max(MARK_THRESHOLDS.values())
            loss, low, samples = _duel_loss(short)
            if loss <= 0.0 or low >= top or samples >= 60:
                assert verdict == short, (seed, played)
            else:
                loss, low, samples = _duel_loss(verdict)
                assert samples >= 60 or loss <= 0.0 or low >= top, (seed, played, loss, low, samples)


def test_the_search_players_choice_ignores_the_games_verdict_settings():
    """The settings are a judged played move's: without one (the search player) the verdict is the shared method's."""
    state = PigState((19, 19), (1, 1), 0, 1, False, 20)
    rules = WithSettings(PIG, decide_samples_factor=8, decide_min_factor=2)
    for seed in range(4):
        assert judge(rules, state, seat=0, rollouts=60, seed=seed) == judge(PIG, state, seat=0, rollouts=60, seed=seed)


class PigWithManyWaits(PigWithExtras):
    """Pig with extras and thirty moves ``wait1``…``wait30``, each the same as holding: more moves than a short tree
    tries, so which of them become candidates depends on the tree's seed."""

    def legal_actions(self, state: PigState) -> list[str]:
        actions = super().legal_actions(state)
        return [*actions, *(f"wait{i}" for i in range(1, 31))] if "roll" in actions else actions

    def apply(self, state: PigState, action: str) -> PigState:
        return super().apply(state, "hold" if action.startswith("wait") else action)


def _evaluated(verdict: Verdict) -> set[Any]:
    return {move.action for move in verdict.moves}


def test_a_game_naming_a_shared_screening_has_every_seed_evaluate_the_positions_own_candidates():
    """``shared_screening``: the tree that picks the candidates is seeded by the position alone (``screen_seed``), not
    by the analysis seed, so a second seed evaluates the same candidate moves and only the paired samples differ;
    where the game does not name it, or no ``screen_seed`` is given, the analysis seed seeds the tree as before."""
    plain, shared, state = PigWithManyWaits(), WithSettings(PigWithManyWaits(), shared_screening=1), _pig()
    screens = [judge(plain, state, seat=0, rollouts=60, seed=seed, played="hold", narrow=False)
               for seed in range(6)]
    assert len({frozenset(_evaluated(v)) for v in screens}) > 1, "the seeds' own trees pick different candidates"
    for seed in range(6):
        verdict = judge(shared, state, seat=0, rollouts=60, seed=seed, played="hold", narrow=False,
                        screen_seed=4)
        assert _evaluated(verdict) == _evaluated(screens[4]), seed
        assert judge(plain, state, seat=0, rollouts=60, seed=seed, played="hold", narrow=False,
                     screen_seed=4) == screens[seed], "a game that does not name it ignores screen_seed"
        assert judge(shared, state, seat=0, rollouts=60, seed=seed, played="hold",
                     narrow=False) == screens[seed], "no screen_seed: the analysis seed seeds the tree"
    assert judge(shared, state, seat=0, rollouts=60, seed=4, played="hold", narrow=False,
                 screen_seed=4) == screens[4]


def test_a_game_naming_a_first_round_gives_every_candidate_that_many_samples_before_the_first_cut():
    """``first_round_samples``: every candidate has that many samples before the halving drops any, and the later
    rounds keep their shares of the budget on top. PigWithWaits at 200 rollouts: 150 for the halving, five rounds of
    30 (thirteen moves, then seven, four, three, two), so 2 + 4 + 7 + 10 + 15 = 38 samples for the duel's two moves
    and 2 for a move dropped at the first cut; with a first round of 16, 16 + 36 = 52 and 16."""
    plain, rules, state = PigWithWaits(), WithSettings(PigWithWaits(), first_round_samples=16), _pig()
    for seed in range(3):
        before = judge(plain, state, seat=0, rollouts=200, seed=seed, played="hold", narrow=False, thresholds=())
        after = judge(rules, state, seat=0, rollouts=200, seed=seed, played="hold", narrow=False, thresholds=())
        assert (min(m.samples for m in before.moves), max(m.samples for m in before.moves)) == (2, 38)
        assert (min(m.samples for m in after.moves), max(m.samples for m in after.moves)) == (16, 52)
        assert _evaluated(after) == _evaluated(before), "the same candidates, only more samples before the cut"


def test_amerigo_and_entdecker_share_their_screening_and_sample_every_candidate_before_the_first_cut():
    """Search version 11 for Amerigo and Entdecker (docs/PERFORMANCE.md): Amerigo's positions have up to 136 legal
    moves, so every seed screens the position's own candidates, each with 16 samples before the first cut; Entdecker's
    rivals differ by less than 16 samples can tell, so it names 48; the other games name neither."""
    amerigo, entdecker = verdict_settings(get_rules("amerigo")), verdict_settings(get_rules("entdecker"))
    assert (amerigo.shared_screening, amerigo.first_round_samples) == (1.0, 16.0)
    assert search_version(get_rules("amerigo")).endswith("+first_round_samples=16+shared_screening=1")
    assert (entdecker.shared_screening, entdecker.first_round_samples) == (1.0, 48.0)
    assert search_version(get_rules("entdecker")) == SEARCH_VERSION + (
        "+decide_samples_factor=4+first_round_samples=48+shared_screening=1")
    for game in ("puerto_rico", "golden_city"):
        settings = verdict_settings(get_rules(game))
        assert (settings.shared_screening, settings.first_round_samples) == (0.0, 0.0), game
