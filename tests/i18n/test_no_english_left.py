"""No English text on a page or in a script outside the translation calls (issue 47), read from the sources.

Templates: each one's HTML, with its Jinja taken out (``{% trans %}`` blocks, ``{{ … }}`` expressions, tags and
comments), is read by an HTML parser; any text node or ``title``/``aria-label``/``placeholder``/``alt``/``label``/
``value`` attribute (a submit's) that still has a letter is English that no reader of another language can read. The
expressions themselves may not hold an English phrase (a quoted string of two words or more) outside ``_()``.

Scripts: every string or template literal a module shows (assigned to ``textContent``, ``title``, ``placeholder``, given
as an element's ``text``, ``title``, ``aria-label``, ``label`` or ``note``, or set with ``setAttribute``) must be the
message of a ``t``/``tn`` call. Names, notation and symbols that are the same in every language are allowed, each with
its reason.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "replay_ui" / "templates"
SCRIPTS = ROOT / "replay_ui" / "static" / "js"
LETTER = re.compile(r"[^\W\d_]")

#: Text that is the same in every language, with why.
ALLOWED_TEXT = {
    "ludolog": "the site's name",
    "SHA-256": "the hash's name, as every language writes it",
    "Esc": "a key's name as printed on keyboards",
    "Home": "a key's name as printed on keyboards",
    "End": "a key's name as printed on keyboards",
    "Shift": "a key's name as printed on keyboards",
    "R": "the key that steps a round",
    "R»": "the next-round button's glyph (its name is translated)",
}
#: Templates and scripts not yet translated (issue 47 goes on): each must still have English, so that the list shrinks
#: as they are done and none is forgotten.
TEMPLATES_LEFT: tuple[str, ...] = ()
SCRIPTS_LEFT: tuple[str, ...] = ()

_JINJA = [
    (re.compile(r"\{#.*?#\}", re.S), ""),
    (re.compile(r"\{%-?\s*block body_class\s*-?%\}.*?\{%-?\s*endblock\s*-?%\}", re.S), ""),  # class names
    (re.compile(r"\{%-?\s*trans\b.*?%\}.*?\{%-?\s*endtrans\s*-?%\}", re.S), "\x00"),
    (re.compile(r"\{%.*?%\}", re.S), ""),
    (re.compile(r"\{\{.*?\}\}", re.S), "\x00"),
]
CHECKED_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt", "label", "aria-valuetext")


def _without_jinja(source: str) -> str:
    for pattern, replacement in _JINJA:
        source = pattern.sub(replacement, source)
    return source


_ALLOWED = re.compile("|".join(rf"(?<!\w){re.escape(word)}(?!\w)" for word in sorted(ALLOWED_TEXT, key=len, reverse=True)))


def _english(text: str) -> bool:
    """Whether ``text`` (Jinja's output marked ``\x00``) has a letter outside the allowed names."""
    return bool(LETTER.search(_ALLOWED.sub(" ", text.replace("\x00", " "))))


class _TextFinder(HTMLParser):
    """Text nodes and checked attributes with English in them, outside scripts and styles."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        values = dict(attrs)
        for name in CHECKED_ATTRIBUTES + (("value",) if values.get("type") in ("submit", "button") else ()):
            if values.get(name) and _english(values[name] or ""):
                self.found.append(f"<{tag} {name}={values[name]!r}>")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and _english(data):
            self.found.append(" ".join(data.replace("\x00", "…").split()))


#: A string literal in Jinja code, and a phrase: two words or more with letters.
_JINJA_STRING = re.compile(r"""\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'""")
_PHRASE = re.compile(r"[^\W\d_]{2,}\s+\S*[^\W\d_]")
_CALL = re.compile(r"""(?:\b_|\bgettext|\bngettext)\(\s*$""")


def _english_in_expressions(source: str) -> list[str]:
    """Quoted phrases in ``{{ … }}`` and ``{% … %}`` that are not the message of a ``_()`` call."""
    found = []
    for code in re.findall(r"\{\{(.*?)\}\}|\{%(.*?)%\}", source, re.S):
        text = code[0] or code[1]
        for literal in _JINJA_STRING.finditer(text):
            if _PHRASE.search(literal.group(0)[1:-1]) and not _CALL.search(text[: literal.start()]):
                found.append(literal.group(0))
    return found


def _templates() -> list[str]:
    return sorted(p.name for p in TEMPLATES.glob("*.html"))


def template_english(name: str) -> list[str]:
    """The English left in template ``name``: text, attributes, and phrases in its expressions."""
    source = (TEMPLATES / name).read_text()
    finder = _TextFinder()
    finder.feed(_without_jinja(source))
    code = _JINJA[1][0].sub("", _JINJA[0][0].sub("", source))  # comments and {% trans %} blocks are no code
    return finder.found + _english_in_expressions(code)


@pytest.mark.parametrize("name", _templates())
def test_templates_have_no_english_outside_the_catalog(name: str) -> None:
    found = template_english(name)
    if name in TEMPLATES_LEFT:
        assert found, f"{name} has no English left: take it off TEMPLATES_LEFT"
    else:
        assert found == [], f"{name}: English outside _() / {{% trans %}}:\n" + "\n".join(found)


def test_the_template_scan_finds_english() -> None:
    """The scan itself: a text node, an attribute and a phrase in an expression are each found; translated ones not."""
    finder = _TextFinder()
    finder.feed(_without_jinja('<p title="Open it">Hello {{ name }}</p><p>{{ _("Fine") }}</p>{% trans %}Also fine{% endtrans %}'))
    assert finder.found == ["<p title='Open it'>", "Hello …"]
    assert _english_in_expressions("{{ 'Create account' if x else _('Sign in') }}") == ["'Create account'"]


# -- scripts -----------------------------------------------------------------------------------------------------------
_LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\$]|\\.|\$(?!\{)|\$\{(?:[^{}`]|`[^`]*`|\{[^{}]*\})*\})*`', re.S)
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
#: Where a script puts text before a reader's eyes; what follows it, to the end of its expression, is checked.
_SINKS = re.compile(
    r"""(?:\.textContent|\.innerText|\.title|\.placeholder|\.ariaLabel|\.alt)\s*[+]?=\s*"""
    r"""|(?<![\w$])(?:text|title|label|note|alt|placeholder|"aria-label"|"aria-valuetext"|"title")\s*:\s*"""
    r"""|setAttribute\(\s*["'](?:title|aria-label|aria-valuetext|placeholder|alt)["']\s*,\s*"""
)
#: Anywhere in a script: a phrase (two words of letters) in a literal is text for someone to read.
_PHRASE = re.compile(r"(?<![\w.#-])[A-Za-z]{2,}\s+[A-Za-z]{2,}")
#: Script literals that are the same in every language, or are no text, with why.
ALLOWED_LITERALS = {
    "—": "the dash that stands for nothing",
    "medium": "an Intl date style, no text",
    "short": "an Intl date style, no text",
    "long": "an Intl date style, no text",
    'plain text with "Move N :" lines': "bgasummary.js's list of the envelopes, the API's error details' own (data)",
    "game over": "Amerigo's last step as the engine names it (boards/amerigo.js compares it, never shows it)",
    "stack back": "an Entdecker phase as the engine names it (boards/entdecker.js compares it, never shows it)",
    "friendly natives": "an Entdecker phase as the engine names it (boards/entdecker.js compares it; the event's "
                        "word is the glossary's)",
    "natives chip": "an Entdecker phase as the engine names it (boards/entdecker.js compares it, never shows it)",
}


#: A game's glossary key in a script: ``tg("role", "mayor")`` (``gameTerms`` in ``static/js/i18n.js``), a literal among
#: its first arguments (``tg.count(n, "component", "doubloon", "doubloons")``): the page shows the glossary's word.
_GLOSSARY_KEY = re.compile(r"""\btg(?:\.\w+)?\((?:\s*(?:"[^"\n]*"|[\w.\[\]]+|`[^`\n]*`)\s*,)*\s*$""")


def _translated(before: str) -> bool:
    """Whether a literal that follows ``before`` is a ``t``/``tn`` message (the first argument, or ``tn``'s second) or
    a game's glossary key (an argument of ``tg``)."""
    if re.search(r"(?:\bt|\btn|\btParts)\(\s*$", before) or _GLOSSARY_KEY.search(before[-200:]):
        return True
    call = before.rfind("tn(")
    if call < 0:
        return False
    first = _LITERAL.match(before, call + 3 + (len(before[call + 3:]) - len(before[call + 3:].lstrip())))
    return bool(first) and re.fullmatch(r"\s*,\s*", before[first.end():]) is not None


def _expression_after(source: str, start: int) -> str:
    """The source from ``start`` to the end of its expression: a ``;``, a newline at depth 0, or a closing bracket."""
    depth, i = 0, start
    while i < len(source):
        ch = source[i]
        literal = _LITERAL.match(source, i)
        if literal:
            i = literal.end()
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif ch == ";" or (ch in ",\n" and depth == 0):
            break
        i += 1
    return source[start:i]


def _visible_text(literal: str) -> str:
    body = literal[1:-1]
    if literal.startswith("`"):
        body = re.sub(r"\$\{(?:[^{}`]|`[^`]*`|\{[^{}]*\})*\}", " ", body)
    return body.strip()


_REGEX = re.compile(r"/(?![/*])(?:[^/\\\n\[]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/[a-z]*")


def _without_comments(source: str) -> str:
    """``source`` with its comments blanked and its regular expressions made ``/re/`` (string literals kept whole, so
    ``"https://…"`` stays; a quote inside a regular expression no longer starts a string)."""
    out: list[str] = []
    i = 0
    while i < len(source):
        literal = _LITERAL.match(source, i)
        if literal:
            out.append(literal.group(0))
            i = literal.end()
            continue
        comment = _COMMENT.match(source, i)
        if comment:
            out.append(" ")
            i = comment.end()
            continue
        before = "".join(out).rstrip()[-1:]
        regex = _REGEX.match(source, i) if source[i] == "/" and (not before or before in "=(,:[!&|?{};") else None
        if regex:
            out.append("/re/")
            i = regex.end()
            continue
        out.append(source[i])
        i += 1
    return "".join(out)


def _shown(text: str) -> bool:
    return bool(LETTER.search(text)) and text not in ALLOWED_LITERALS and not _ALLOWED.fullmatch(text)


def script_english(source: str) -> list[str]:
    """The literals with letters a script shows without ``t``/``tn``: at a sink (``textContent = …``, an element's
    ``text``, a ``return``, …), or anywhere as a phrase, console messages aside."""
    source = _without_comments(source)
    found = []
    for sink in _SINKS.finditer(source):
        expression = _expression_after(source, sink.end())
        for literal in _LITERAL.finditer(expression):
            text = _visible_text(literal.group(0))
            if _shown(text) and not _translated(source[: sink.end()] + expression[: literal.start()]) \
                    and not re.search(r"[=!]==?\s*$|\b(?:case|in)\s*$|\[\s*$", expression[: literal.start()]):
                found.append(literal.group(0))
    for literal in _LITERAL.finditer(source):
        before = source[: literal.start()]
        text = _visible_text(literal.group(0))
        if _PHRASE.search(text) and text not in ALLOWED_LITERALS and not _translated(before) \
                and not re.search(r"console\.\w+\(\s*$|\bimport\b[^;]*$|\bfrom\s*$|\bclass\s*:\s*$|className\s*=\s*$"
                                  r"|style\.\w+\s*=\s*$", before[-200:]):
            found.append(literal.group(0))
    return sorted(set(found), key=found.index)


def _scripts() -> list[str]:
    return sorted(str(p.relative_to(SCRIPTS)) for p in SCRIPTS.rglob("*.js"))


@pytest.mark.parametrize("name", _scripts())
def test_scripts_show_no_english_outside_t(name: str) -> None:
    found = script_english((SCRIPTS / name).read_text())
    if name in SCRIPTS_LEFT:
        assert found, f"{name} shows no English any more: take it off SCRIPTS_LEFT"
    else:
        assert found == [], f"{name}: English shown without t():\n" + "\n".join(found)


def test_the_script_scan_finds_english() -> None:
    """The scan itself: each kind of sink is found, a ``t``/``tn`` message is not."""
    source = """
      status.textContent = "Uploading…";
      node.title = ok ? t("Fine") : `Not ${x} fine`;
      el("a", { href: url, text: "Go to the table" });
      el("p", { text: t("Seat %(n)s", { n }) });
      button.setAttribute("aria-label", "Close it");
      status.textContent = tn("%(num)d game", "%(num)d games", n);
      const kind = view === "full" ? t("All") : t("Some");  // a comparison's "full" is no text, nor is "this comment"
      console.warn("a message for developers");
      const words = ["one word", t("two words")];
      return `${n} new move${n === 1 ? "" : "s"}`;
      el("h3", { text: tg.heading("component", "cargo ship") }); node.title = tg.count(n, "good", names[k], "corn");
      el("span", { text: tg("role", role) + " cargo hold" });
    """
    assert script_english(source) == ['"Uploading…"', "`Not ${x} fine`", '"Go to the table"', '"Close it"', '" cargo hold"',
                                      '"one word"', '`${n} new move${n === 1 ? "" : "s"}`']
