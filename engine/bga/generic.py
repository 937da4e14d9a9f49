"""The generic ``ludologAction`` notes: how a game without a BGA mapping of its own is written and read.

Our export writes one ``ludologAction`` note per event (``args.ludolog_action``, the notation;
``args.ludolog_actor``, the seat or ``"chance"``; ``args.description``); the import reads them
back, one checked event per note.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.bga.history import REFUSED, SKIPPED, USED, HistoryBuilder, LogImport, LogNote, Progress
from engine.core.errors import LogMismatchError, NotationError
from engine.core.events import Event
from engine.core.protocol import Action, Rules, Setup, State


def _notation_of(note: LogNote, seq: int) -> Any:
    """The action a note states: a public one's, or a hidden event's from the first private channel that has it.

    A hidden event is written on the channel of every seat that may see it (``ludolog_seq``
    says which event), so only the first copy counts; other private notes have no rules effect.
    """
    if not note.private:
        return note.args.get("ludolog_action")
    hidden_seq = note.args.get("ludolog_seq")
    return note.args.get("ludolog_action") if hidden_seq == seq + 1 else None


def import_generic(rules: Rules, setup: Setup, notes: Sequence[LogNote], progress: Progress | None = None,
                   keep_every: int = 0) -> LogImport:
    """Read back the ``ludologAction`` notes of our own export: one event per note, checked."""
    builder = HistoryBuilder(rules, setup, keep_every=keep_every)
    result = LogImport(rules.name, setup, builder.events, builder.report, kept_states=builder.kept_states)
    total = len(notes)
    for done, note in enumerate(notes, start=1):
        notation = _notation_of(note, len(builder.events))
        if not isinstance(notation, str):
            builder.note_row(note, SKIPPED, "private notification: kept, no rules effect" if note.private else "no action in it")
        else:
            actor = note.args.get("ludolog_actor")
            try:
                try:
                    action = rules.parse_action(notation)
                except NotationError as exc:
                    raise LogMismatchError(str(exc), move_id=note.move_id, line=note.text, rule="notation", index=note.index,
                                           seq=len(builder.events) + 1, action=notation) from None
                event = builder.act(actor, action, note)
            except LogMismatchError as exc:
                builder.note_row(note, REFUSED, exc.reason)
                result.error = exc
                break
            builder.note_row(note, USED, "action", seq=event.seq, action=event.action)
        if progress is not None and (done % 200 == 0 or done == total):
            progress(done, total)
    result.state = builder.state
    return result


def generic_note(rules: Rules, state: State, event: Event, action: Action, names: Sequence[str],
                  ids: Sequence[int]) -> dict[str, Any]:
    """The ``ludologAction`` note of ``event``: its notation, actor and sentence (games without a mapping)."""
    args: dict[str, Any] = {"ludolog_action": event.action, "ludolog_actor": event.actor,
                            "description": rules.describe(state, action)}
    if isinstance(event.actor, int):
        args.update(player_name=names[event.actor], player_id=ids[event.actor])
    return {"type": "ludologAction", "log": "${description}", "args": args}
