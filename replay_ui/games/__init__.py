"""Per-game glue for the UI: what the board renderer needs to know, read from the engine.

An adapter never decides anything about the rules: it reads the engine's component tables (so
the JS does not copy them), the state's own fields (round, phase, who is to act) and the engine's
scoring functions. Games without an adapter get :class:`GenericAdapter`, which the generic JSON
renderer in the browser uses.

The tables are the game's own: a game whose setup options may replace the component set (Amerigo,
Entdecker, Die goldene Stadt: ``Setup.options["components"]``) is drawn with the set it is played
with. An adapter gets that set from the setup through the same engine function the rules'
``initial_state`` calls (which validates it and caches it), so the UI neither checks a set again nor
copies a rule; a game without such options reads its player count from the setup.

A game's adapter lives in ``replay_ui/games/<game>.py`` as ``ADAPTER = <its class>``; its
board renderer in ``static/js/boards/<renderer>.js`` and, if it has one, its stylesheet in
``static/css/boards/<renderer>.css``. Nothing else needs editing to add a game's board.

What the browser reads (all optional; see :meth:`GenericAdapter.components`):

``components`` static tables for the board, from :meth:`GenericAdapter.components` (once per page,
               given the game's own :class:`~engine.Setup`), plus ``picker_groups`` (notation's
               first word → group title in the move picker), ``throw_label`` (what the move list calls the events of
               one chance draw it shows as one line, the marks' ``throw``: Amerigo's cube tower throw),
               ``turn_forms`` (the verb every legal action of a
               turn of many steps shares → the form in ``static/js/forms/`` that plays the whole turn at once),
               ``engine_strength`` (per engine level, the strength bench's figures against the game's bots:
               ``bot``, ``seats``, ``games``, ``win``, ``low``, ``high``; the seats card explains the levels with them),
               ``phase_label`` (what a run of moves
               is called: "Role", "Action"), ``score_hint`` (what the score chart adds up) and
               ``notice`` (a line shown above the board, e.g. that a layout is reconstructed)
``marks``      per move ``round``, ``phase`` (the group's name) and ``pick`` (the move opens a
               group: a jump-to entry); ``throw`` (one part of a chance draw made of several events, e.g. Amerigo's cube
               tower: consecutive moves with it are shown as one line, their texts joined)
``position``   per position ``caption`` (short phrases joined above the board: texts, or messages of the
               game's templates, which the timeline renders in the page's language) and any facts
               the board renderer wants
``result``     the final result in words: a label per breakdown column, and per seat each cell and the
               tie-break as a person reads them (:meth:`GenericAdapter.result`)

Every word an adapter gives is in the current locale (:func:`service.i18n.current_locale`: the request's, or the
timeline's language while it is folded): a game's term through its glossary (:func:`term`), any other phrase through
the site's catalog (``N_`` for a constant, ``_`` where it is given, whole phrases with named placeholders). The
component tables a board's script compares, or says through the glossaries itself (``gameTerms`` in
``static/js/i18n.js``), stay the engine's words (``phases``, ``roles``, ``goods``, ``terrain_names`` …); the names a
board shows as they come are worded here (Amerigo's ``action_names``, Entdecker's tile kinds' ``name``, Amerigo's
tokens' ``effect``, Die goldene Stadt's scoring cards' ``region_names`` and bonus cards).
"""

from __future__ import annotations

import copy
import importlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from engine import Setup
from engine.core.messages import Message
from service.i18n import _, current_locale
from service.i18n.games.catalogs import language_of, render_message
from service.i18n.games.glossary import term_word


class GenericAdapter:
    """What every game has: no board renderer, no round marks, scores only at the end."""

    renderer = "generic"
    #: The explorer's stages whose choices the game's glossary names: (stage prefix, glossary kind) pairs; a choice
    #: of another stage is shown as the counters key it.
    explorer_terms: tuple[tuple[str, str], ...] = ()

    def explorer_choice(self, stage: str, choice: str) -> str | None:
        """A choice of the explorer (as its counters key it: ``build scout``) in the current locale, game terms from
        the glossary; None where the page says it through :attr:`explorer_terms` or as it is keyed."""
        return None

    def components(self, setup: Setup) -> dict[str, Any]:
        """Static data for the board renderer of the game set up by ``setup`` (none for a generic game).

        ``setup`` is the game's own (``record.setup``: players and options) and has passed the rules'
        ``initial_state``; an adapter derives its tables from it through the engine (the component set
        the options name, or the default one), never from a default set alone.
        """
        return {}

    def marks(self, state: Any, action: Any) -> dict[str, Any]:
        """Grouping marks of ``action`` (as parsed by the rules) taken in ``state``: none for a generic game."""
        return {}

    def position(self, state: Any, names: tuple[str, ...]) -> dict[str, Any]:
        """Facts about a position for its caption: none for a generic game."""
        return {}

    def scores(self, state: Any) -> list[int] | None:
        """Every seat's score so far, or None when the game has no running score."""
        return None

    def result_labels(self) -> dict[str, str]:
        """Column names of the outcome's breakdown (``details``) in words, by key; unknown keys read as they are."""
        return {}

    def result_cell(self, key: str, value: int) -> str:
        """One breakdown cell in words (a game overrides this for flags such as "blocked")."""
        return str(value)

    def tiebreak_words(self, tiebreak: int, n_players: int) -> str:
        """A seat's tie-break in words; the generic game only has the number."""
        return str(tiebreak)

    def result(self, outcome: dict[str, Any]) -> dict[str, Any]:
        """The outcome's JSON in words: ``columns`` [{key, label}], per seat ``cells`` {key: text} and ``tiebreaks``.

        The places stay the engine's (``outcome["ranks"]``): this only says them for people.
        """
        details = outcome.get("details") or []
        labels = self.result_labels()
        keys = list(details[0]) if details else []
        n_players = len(outcome["scores"])
        return {
            "columns": [{"key": key, "label": labels.get(key, key.replace("_", " "))} for key in keys],
            "cells": [{key: self.result_cell(key, value) for key, value in seat.items()} for seat in details],
            "tiebreaks": [self.tiebreak_words(t, n_players) for t in outcome.get("tiebreaks") or []],
        }

    def start_round(self, state: Any) -> None:
        """Called before each move; adapters that track the round reset their per-round data."""


#: How each language writes an ordinal number (``n``: the number); English has its suffixes (:func:`ordinal`), a
#: language not here writes the number alone.
ORDINALS = {"hu": "{n}.", "de": "{n}.", "zh_Hant": "第{n}", "zh_Hans": "第{n}"}


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … for places and orders in words, in the current locale (hu, de: ``2.``; zh: ``第2``)."""
    locale = current_locale()
    if locale != "en":
        return ORDINALS.get(locale, "{n}").format(n=n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def term(game: str, kind: str, en: str) -> str:
    """``game``'s term of ``kind`` whose English is ``en`` (the engine's word) in the current locale, from the game's
    glossary (:mod:`service.i18n.games.glossary`); the English word where the glossary has none."""
    language = language_of(current_locale())
    return en if language == "en" else term_word(game, kind, en, language)


def said(message: Message) -> str:
    """A message of the game's templates (the engine's words for a token's effect, a region) in the current locale."""
    return render_message(message, language_of(current_locale()))


def upper_first(text: str) -> str:
    """``text`` with its first letter a capital (a term that starts a label: "Income"); the rest as it is."""
    return text[:1].upper() + text[1:]


def translated(table: dict[str, str]) -> dict[str, str]:
    """A table of catalog messages (marked ``N_``) with each value in the current locale."""
    return {key: _(value) for key, value in table.items()}


#: Every game's engine levels' strength, as the strength bench recorded it (see :func:`engine_strength`).
ENGINE_STRENGTH_FILE = Path(__file__).with_name("engine_strength.json")


@cache
def _strength_figures() -> dict[str, dict[str, list[dict[str, Any]]]]:
    figures: dict[str, dict[str, list[dict[str, Any]]]] = json.loads(ENGINE_STRENGTH_FILE.read_text())
    return figures


def engine_strength(game: str) -> dict[str, list[dict[str, Any]]]:
    """``game``'s engine levels' strength against its strategy bots, the seats card's figures: per level, each bot's
    ``games``, win share ``win`` and its 95 % Wilson interval ``low``-``high``, as ``bench.strength`` tables
    bench/results/strength.jsonl (``tests/bench/test_level_strength.py`` keeps :data:`ENGINE_STRENGTH_FILE` equal to
    it); a level without figures is not measured. One data file for every game: the figures are the bench's, not
    the adapter's (a copy: the caller may change it)."""
    return copy.deepcopy(_strength_figures().get(game, {}))


def adapter_for(game: str) -> GenericAdapter:
    """A fresh adapter for ``game`` (adapters may keep per-fold bookkeeping)."""
    if not game.isidentifier():
        return GenericAdapter()
    try:
        module = importlib.import_module(f"{__name__}.{game}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{game}":
            raise  # the adapter exists but is broken: say so rather than fall back quietly
        return GenericAdapter()
    adapter: GenericAdapter = module.ADAPTER()
    return adapter
