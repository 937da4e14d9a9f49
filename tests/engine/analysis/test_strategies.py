"""The strategy bots (Contract 1): legal, deterministic given their rng, far better than random play."""

from __future__ import annotations

import random

import pytest

from engine import CHANCE, Setup, get_rules
from engine.analysis.stats import win_shares
from engine.core.declaration import Declaration
from engine.core.fold import Player, draw_chance, uniform_player
from engine.players.offered import policy_for, strategy_players, strongest_player
from engine.players.picking import plan_of

GAMES = ("puerto_rico", "amerigo", "entdecker", "golden_city")
BOTS = [(game, name) for game in GAMES for name in strategy_players(get_rules(game))]


def play(game: str, players: list[Player], seed: int, *, check_plans: bool = False) -> tuple[float, ...]:
    """Every seat's win share in one game; with ``check_plans``, every step of a bot's plan is checked legal."""
    rules = get_rules(game)
    rng = random.Random(seed)
    state = rules.initial_state(Setup(tuple(f"P{i}" for i in range(len(players)))))
    while (actor := rules.current_actor(state)) is not None:
        if actor == CHANCE:
            state = rules.apply(state, draw_chance(rules.chance_outcomes(state), rng.random()))
            continue
        plan = plan_of(players[actor])
        planned = plan(state, random.Random(seed)) if check_plans and plan is not None else []
        if planned:
            for action in planned:
                assert action in rules.legal_actions(state), f"{rules.format_action(action)} planned but illegal"
                state = rules.apply(state, action)
            continue
        actions = list(rules.legal_actions(state))
        action = players[actor](state, actions, rng)
        assert action in actions, f"{rules.format_action(action)} is not legal"
        state = rules.apply(state, action)
    outcome = rules.outcome(state)
    assert outcome is not None
    return win_shares(outcome)


def test_every_game_has_at_least_two_strategy_bots():
    for game in GAMES:
        assert len(strategy_players(get_rules(game))) >= 2, game


@pytest.mark.parametrize(("game", "name"), BOTS)
def test_a_bot_plays_only_legal_actions_and_plans_only_legal_steps(game: str, name: str):
    bot = strategy_players(get_rules(game))[name]
    for seed in range(3):
        play(game, [bot, uniform_player, bot, uniform_player][:_seats(game)], seed, check_plans=True)


@pytest.mark.parametrize(("game", "name"), BOTS)
def test_a_bot_is_deterministic_given_its_rng(game: str, name: str):
    rules = get_rules(game)
    bot = strategy_players(rules)[name]
    state = rules.initial_state(Setup(tuple(f"P{i}" for i in range(_seats(game)))))
    rng = random.Random(3)
    for _ in range(60):
        actor = rules.current_actor(state)
        if actor is None:
            break
        if actor == CHANCE:
            state = rules.apply(state, draw_chance(rules.chance_outcomes(state), rng.random()))
            continue
        actions = list(rules.legal_actions(state))
        picks = {bot(state, actions, random.Random(seed)) for seed in (7, 7, 7)}
        assert len(picks) == 1
        state = rules.apply(state, picks.pop())


@pytest.mark.parametrize(("game", "name"), BOTS)
def test_a_bot_wins_most_games_against_random_players(game: str, name: str):
    """20 seeded games, the bot's seat rotating, against uniform-random players (par is 1/seats)."""
    bot = strategy_players(get_rules(game))[name]
    seats = 4
    games = 20
    won = sum(play(game, [bot if s == i % seats else uniform_player for s in range(seats)], 500 + i)[i % seats]
              for i in range(games))
    assert won / games >= 0.7


def test_the_strongest_player_is_a_strategy_bot_and_falls_back_to_the_rollout_policy():
    rules = get_rules("puerto_rico")
    assert strongest_player(rules) in strategy_players(rules).values()

    class NoBots:
        declaration = Declaration(name="no_bots", title="No bots", version="1", min_players=2, max_players=2,
                                  rollout_player=uniform_player)

    assert strategy_players(NoBots()) == {}  # type: ignore[arg-type]
    assert strongest_player(NoBots()) is policy_for(NoBots())  # type: ignore[arg-type]


def _seats(game: str) -> int:
    return 3 if game == "puerto_rico" else 4
