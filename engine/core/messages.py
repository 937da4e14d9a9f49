"""Messages: what the engine says to people, as a template id with arguments, never as words (issue 47).

A move's sentence is a :class:`Message`: a stable template id (``puerto_rico.build``) and named arguments, as
Board Game Arena's logs carry ``log``, ``args`` and ``i18n``. An argument is a plain value (a player's name, a
number, a board coordinate), a :class:`Term` (a game's word that the reader's glossary translates: a role, a
building, a good), a :class:`Listing` (arguments joined as a list) or another message (a clause). A game's English
templates are the catalog's source: rendered with them (:func:`english`) a message reads exactly as the game's
sentences always did, and that text is what ``describe`` returns (exports, notation checks and the API's
``action`` strings never see a message). The service renders the same message in the reader's language with
that language's templates and glossary (``service/i18n/games``).

A template is a :meth:`str.format` template of named fields. A field may ask for a form of its argument:

``{x:a}`` / ``{x:A}``   with the English indefinite article, "a harbor", "an office" (``A``: "A harbor")
``{x:cap}``             :meth:`str.capitalize`, what the English sentences did at a sentence's start
``{x:az}`` / ``{x:Az}``  with the Hungarian definite article, "a kikötő", "az egyetem" (``Az``: "A kikötő")

A template may also be a tuple of plural forms: the message's argument ``n`` picks one by the language's plural
rule (English: the first form for 1, else the second).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from string import Formatter
from typing import Final, TypeAlias

#: An argument: a value, a game's term, a list, or a clause.
Arg: TypeAlias = "str | int | Term | Listing | Message"
#: A template: one text, or its plural forms.
Template: TypeAlias = "str | tuple[str, ...]"


@dataclass(frozen=True)
class Term:
    """A game's word, translated by the reader's glossary: ``game``'s term of ``kind`` whose English is ``en``.

    ``en`` is the engine's own English word (``Term("puerto_rico", "building", "harbor")``): the glossary is keyed
    by it, and English renders it as it is.
    """

    game: str
    kind: str
    en: str


@dataclass(frozen=True)
class Listing:
    """Arguments said as a list: joined with the ``core.list.<style>`` templates of the reader's language.

    Styles: ``comma`` ("1 corn, 2 sugar"), ``and`` ("a, b and c"), ``all_and`` ("a and b and c"), ``plus``
    ("a + b"). An empty listing renders as the empty text.
    """

    items: tuple[Arg, ...]
    style: str = "comma"


@dataclass(frozen=True)
class Message:
    """A sentence or a clause: a template id and its named arguments (in a stable order: messages compare equal
    when they say the same)."""

    id: str
    args: tuple[tuple[str, Arg], ...] = ()

    def arg(self, name: str) -> Arg:
        """The argument named ``name``; KeyError if the message has none."""
        for key, value in self.args:
            if key == name:
                return value
        raise KeyError(name)


def message(message_id: str, **args: Arg) -> Message:
    """``Message(message_id, args)`` with the arguments given by name."""
    return Message(message_id, tuple(args.items()))


#: The list joiners every language's catalog has: (between items, before the last item).
CORE_TEMPLATES: Final[dict[str, Template]] = {
    "core.list.comma": ", ",
    "core.list.and": ", ",
    "core.list.and.last": " and ",
    "core.list.all_and": " and ",
    "core.list.plus": " + ",
    "core.list.semicolon": "; ",
    "core.text": "{text}",
}


@dataclass(frozen=True)
class Language:
    """What rendering needs of a language: its templates, its words for terms, its plural rule."""

    template: Callable[[str], Template]
    term: Callable[[Term], str]
    plural: Callable[[int], int]


def english_plural(n: int) -> int:
    """English (and German, Hungarian) plural forms: the first for one, the second otherwise."""
    return 0 if n == 1 else 1


def render(msg: Message, language: Language) -> str:
    """``msg`` in ``language``: its template with every argument rendered and put in its field."""
    template = language.template(msg.id)
    if isinstance(template, tuple):
        count = msg.arg("n")
        index = language.plural(count if isinstance(count, int) else 0)
        template = template[min(index, len(template) - 1)]
    args = dict(msg.args)
    out = []
    for literal, field, spec in _parsed(template):
        out.append(literal)
        if field is not None:
            out.append(with_form(render_arg(args[field], language), spec))
    return "".join(out)


def render_arg(value: Arg, language: Language) -> str:
    """One argument as text in ``language``."""
    if isinstance(value, Message):
        return render(value, language)
    if isinstance(value, Term):
        return language.term(value)
    if isinstance(value, Listing):
        return _join([render_arg(item, language) for item in value.items], value.style, language)
    return str(value)


def _join(items: list[str], style: str, language: Language) -> str:
    between = _text(language.template(f"core.list.{style}"))
    if style == "and" and len(items) > 1:
        return between.join(items[:-1]) + _text(language.template("core.list.and.last")) + items[-1]
    return between.join(items)


def _text(template: Template) -> str:
    return template if isinstance(template, str) else template[0]


_FORMATTER: Final = Formatter()
_PARSED: dict[str, tuple[tuple[str, str | None, str], ...]] = {}


def _parsed(template: str) -> tuple[tuple[str, str | None, str], ...]:
    """``template``'s (literal, field, form) parts, parsed once."""
    found = _PARSED.get(template)
    if found is None:
        found = tuple((literal, field, spec or "") for literal, field, spec, _ in _FORMATTER.parse(template))
        _PARSED[template] = found
    return found


def fields(template: Template) -> set[str]:
    """The names of the fields a template (every plural form of it) fills."""
    forms = template if isinstance(template, tuple) else (template,)
    return {field for form in forms for _, field, _ in _parsed(form) if field is not None}


def forms_asked(template: Template) -> set[str]:
    """The forms (``a``, ``cap`` …) a template asks of its fields."""
    forms = template if isinstance(template, tuple) else (template,)
    return {spec for form in forms for _, field, spec in _parsed(form) if field is not None and spec}


_HU_VOWELS: Final = "aáeéiíoóöőuúüű"


def _english_article(text: str) -> str:
    return ("an " if text[:1] in "aeiou" else "a ") + text


def _hungarian_article(text: str) -> str:
    """"az" before a vowel and before a number read with one (1 egy, 5 öt, 50 ötven …), else "a"."""
    first = text[:1].lower()
    return ("az " if first in _HU_VOWELS or first in "15" else "a ") + text


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


#: The forms a template may ask of a field (see the module docstring).
FORMS: Final[dict[str, Callable[[str], str]]] = {
    "": lambda text: text,
    "a": _english_article,
    "A": lambda text: _upper_first(_english_article(text)),
    "cap": lambda text: text.capitalize(),
    "az": _hungarian_article,
    "Az": lambda text: _upper_first(_hungarian_article(text)),
}


def with_form(text: str, form: str) -> str:
    """``text`` in the form a template's field asked for; ValueError for a form nobody defined."""
    make = FORMS.get(form)
    if make is None:
        raise ValueError(f"unknown form {form!r} (known: {', '.join(sorted(f for f in FORMS if f))})")
    return make(text)


def english(msg: Message, templates: Mapping[str, Template]) -> str:
    """``msg`` in English: the game's English ``templates`` (the catalog's source) and the terms' own words."""

    def template(message_id: str) -> Template:
        found = templates.get(message_id)
        return found if found is not None else CORE_TEMPLATES[message_id]

    return render(msg, Language(template, lambda term: term.en, english_plural))


def text_message(text: str) -> Message:
    """A sentence the game has not made a message of: shown as it is, untranslated, in every language."""
    return Message("core.text", (("text", text),))
