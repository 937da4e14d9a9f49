"""Rendering BGA log templates to the plain text a person saw in the log panel.

BGA's client fills each ``${name}`` of a notification's ``log`` from its ``args``,
renders nested ``{"log": …, "args": …}`` values the same way, and shows the result as
HTML. Archive logs fetched with ``translated=true`` already hold translated text in the
values that ``args.i18n`` lists, so those need no lookup: they are used as they are.
We return plain text (tags removed, entities unescaped, whitespace collapsed); escaping
for display is the UI's job.
"""

from __future__ import annotations

import html
import re
from typing import Any

from engine.bga.model import Notification

_PLACEHOLDER = re.compile(r"\$\{([A-Za-z0-9_]+)\}")
_WHITESPACE = re.compile(r"\s+")
# The rest of a tag after "<": quoted attribute values may hold ">". Possessive
# quantifiers, so that a tag left open fails at once instead of backtracking.
_TAG_BODY = re.compile(r"""(?:[^>"']++|"[^"]*+"|'[^']*+')*+>""")
_TAG_NAME = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)")

# Nested templates deeper than this are not rendered further (their placeholder stays
# visible): real logs nest one or two levels, and a hostile upload must not recurse.
MAX_NESTING = 8

# Elements whose start or end separates words on screen; without a space here
# "a<br>b" would read "ab".
_BREAKING_TAGS = frozenset({"br", "p", "div", "li", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "ul", "ol"})
# Elements whose text is never shown.
_HIDDEN_TAGS = frozenset({"script", "style", "template"})


def render_notification(notification: Notification) -> str:
    """The text a person saw for ``notification`` (empty for a silent one)."""
    return render_template(notification.log, notification.args)


def render_template(log: str, args: Any) -> str:
    """Fill ``log``'s ``${name}`` placeholders from ``args`` and strip HTML, giving plain text.

    A placeholder with no usable value stays visible as ``${name}``, so a gap in a log is
    seen rather than hidden or fatal.
    """
    return strip_html(fill_template(log, args))


def fill_template(log: str, args: Any) -> str:
    """Fill ``log``'s placeholders from ``args`` (HTML kept), rendering nested templates recursively.

    Substitution is a single pass: text coming from a value is never scanned for
    placeholders again, as in BGA's client.
    """
    if not isinstance(log, str) or "${" not in log:
        return log if isinstance(log, str) else ""
    return _fill(log, args, 0, _Budget(_OUTPUT_SLACK + _EXPANSION * (len(log) + _text_size(args))))


class _Budget:
    """How many more characters (and placeholder visits) one rendering may produce.

    A template can name the same argument many times, and nested templates can do so
    at every level, so a few kilobytes of hostile JSON could otherwise expand to
    gigabytes or take exponential time. Real lines repeat an argument once or twice,
    so a small multiple of the notification's own size never bites; past it, the
    remaining placeholders stay visible as ``${name}``.
    """

    __slots__ = ("remaining",)

    def __init__(self, remaining: int) -> None:
        self.remaining = remaining


_EXPANSION = 3
_OUTPUT_SLACK = 256


def _fill(log: str, args: Any, depth: int, budget: _Budget) -> str:
    """:func:`fill_template` within ``budget``, at nesting ``depth``."""
    named = args if isinstance(args, dict) else {}

    def substitute(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in named or budget.remaining <= 0:
            return match.group(0)
        budget.remaining -= 1
        text = _value_text(named[name], depth, budget)
        if text is None or len(text) > budget.remaining:
            return match.group(0)
        budget.remaining -= len(text)
        return text

    return _PLACEHOLDER.sub(substitute, log)


def _value_text(value: Any, depth: int, budget: _Budget) -> str | None:
    """The text BGA's client shows for one argument value; None when it shows nothing meaningful."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):  # JavaScript prints booleans in lower case
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return _number_text(value)
    if value is None:
        return ""
    if isinstance(value, dict):
        if isinstance(value.get("log"), str) and depth < MAX_NESTING:
            return _fill(value["log"], value.get("args"), depth + 1, budget)
        return None
    if isinstance(value, list):
        # JavaScript's Array.toString: items joined by commas; containers inside are not text.
        parts = [_value_text(item, depth, budget) if not isinstance(item, (list, dict)) else None for item in value]
        return None if any(p is None for p in parts) else ",".join(p or "" for p in parts)
    return None


def _text_size(value: Any) -> int:
    """Characters of text in a JSON value (strings, keys, numbers), walked without recursion."""
    size = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            size += len(item)
        elif isinstance(item, dict):
            size += sum(len(k) for k in item if isinstance(k, str))
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif item is not None:
            size += 8  # a number or boolean prints in a few characters
    return size


def _number_text(value: int | float) -> str:
    """A number as JavaScript would print it (``3`` not ``3.0``)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    return str(value)


def strip_html(text: str) -> str:
    """``text`` as a browser shows it: tags removed, entities unescaped, whitespace collapsed.

    Runs in linear time whatever the input: ``html.parser`` goes quadratic on some
    unclosed markup (``'<a href="' * 20000`` takes half a minute), and uploads are
    hostile input of up to several megabytes.
    """
    if "<" in text:
        text = _drop_tags(text)
    if "&" in text:
        text = html.unescape(text)  # after dropping tags, so "&lt;b&gt;" stays text
    return _WHITESPACE.sub(" ", text).strip()


def _drop_tags(fragment: str) -> str:
    """The text outside tags, comments and hidden elements; each step moves forward, so the scan is linear."""
    parts: list[str] = []
    pos = 0
    while True:
        start = fragment.find("<", pos)
        if start < 0:
            parts.append(fragment[pos:])
            break
        following = fragment[start + 1 : start + 2]
        if not (following.isascii() and following.isalpha()) and following not in ("/", "!", "?"):
            parts.append(fragment[pos : start + 1])  # a lone "<" is text, as in "a < b"
            pos = start + 1
            continue
        parts.append(fragment[pos:start])
        end = _markup_end(fragment, start)
        if end < 0:
            break  # markup left open runs to the end, and a browser shows none of it
        name = _TAG_NAME.match(fragment, start)
        closing_tag, tag = (name.group(1), name.group(2).lower()) if name else ("", "")
        if tag in _BREAKING_TAGS:
            parts.append(" ")
        elif tag in _HIDDEN_TAGS and not closing_tag:
            hidden_end = re.compile(rf"</{tag}\s*>", re.IGNORECASE).search(fragment, end)
            if hidden_end is None:
                break
            end = hidden_end.end()
        pos = end
    return "".join(parts)


def _markup_end(fragment: str, start: int) -> int:
    """Index just past the tag or comment starting at ``start``; -1 if it is never closed."""
    if fragment.startswith("<!--", start):
        close = fragment.find("-->", start + 4)
        return close + 3 if close >= 0 else -1
    body = _TAG_BODY.match(fragment, start + 1)
    if body is not None:
        return body.end()
    close = fragment.find(">", start + 1)  # an unbalanced quote: end at the next ">"
    return close + 1 if close >= 0 else -1
