"""Shared fixtures: the test-only game is registered for every test session."""

from __future__ import annotations

import engine
from tests.games.pig import PIG

engine.register(PIG)
