"""Messages kept in storage: a sentence stored as its message (template id and arguments, as JSON) and rendered when
it is read, in the reader's language (issue 47).

What the analysis stores of each move it judged (:func:`service.games.analysis.stored_form`) is the move's message,
not its English sentence: a verdict stored once is read by people of every language. An entry stored before that
holds only an English ``text``, which is shown as it is (:func:`stored_text`).

The JSON of a message: ``{"id": template id, "args": {name: argument}}``; an argument is a string or a number as it
is, a term ``{"term": [game, kind, en]}``, a listing ``{"list": [arguments], "style": style}`` or a clause (a message).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.messages import Arg, Listing, Message, Term
from service.i18n.games.catalogs import render_message


def message_json(msg: Message) -> dict[str, Any]:
    """``msg`` as JSON (see the module's docstring), the arguments in their order."""
    return {"id": msg.id, "args": {name: _arg_json(value) for name, value in msg.args}}


def _arg_json(value: Arg) -> Any:
    if isinstance(value, Message):
        return message_json(value)
    if isinstance(value, Term):
        return {"term": [value.game, value.kind, value.en]}
    if isinstance(value, Listing):
        return {"list": [_arg_json(item) for item in value.items], "style": value.style}
    return value


def message_from_json(data: Mapping[str, Any]) -> Message:
    """The message :func:`message_json` wrote; ValueError for JSON that is no message."""
    if not isinstance(data.get("id"), str) or not isinstance(data.get("args"), dict):
        raise ValueError(f"not a stored message: {data!r:.80}")
    return Message(data["id"], tuple((name, _arg_from_json(value)) for name, value in data["args"].items()))


def _arg_from_json(value: Any) -> Arg:
    if isinstance(value, dict):
        if "term" in value:
            game, kind, en = value["term"]
            return Term(game, kind, en)
        if "list" in value:
            return Listing(tuple(_arg_from_json(item) for item in value["list"]), value["style"])
        return message_from_json(value)
    if isinstance(value, str | int):
        return value
    raise ValueError(f"not a stored message argument: {value!r:.80}")


def stored_text(entry: Mapping[str, Any], locale: str | None) -> str:
    """The sentence of a stored ``entry`` in ``locale``'s language: its ``message`` rendered; an entry stored before
    messages were (an English ``text`` and no message) as it is."""
    stored = entry.get("message")
    if stored is None:
        return str(entry.get("text") or "")
    return render_message(message_from_json(stored), locale)
