"""The ``games`` catalogs' upkeep (issue 47): the template file from the engines, the catalogs kept in step with
it, and simplified Chinese derived from traditional.

Usage (from the repository root, in the project's venv):

``python tools/games_catalog.py pot``
    write ``service/i18n/games/translations/games.pot`` from the engines' English templates (every listed game's
    ``rules.templates`` and the core's list joiners): the catalog's source
``python tools/games_catalog.py update``
    bring every language's ``games.po`` in step with the ``.pot`` (Babel's update: a new template id arrives
    untranslated, a changed English text marks its translation fuzzy, a gone id becomes obsolete)
``python tools/games_catalog.py simplified``
    write the zh_Hans catalog from the zh_Hant one, converted with OpenCC's ``t2s`` tables (the ``opencc``
    package: ``pip install opencc`` into the venv first, it is no dependency of the project), then :data:`REVIEWED`
    applied: the words a review of the conversion changed
``python tools/games_catalog.py check-glossary``
    list the glossary entries whose zh-Hans word is not OpenCC's conversion of the zh-Hant word and carries no
    ``zh-Hans-note`` saying why the review changed it

The conversion is run by hand when the traditional catalog changes, and its result committed and reviewed: the
service never runs OpenCC.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.pofile import read_po, write_po  # noqa: E402

from engine import get_rules, listed_games  # noqa: E402
from engine.core.messages import CORE_TEMPLATES, Template  # noqa: E402
from service.i18n.games.catalogs import CATALOG_DIRS, DOMAIN, TRANSLATIONS, catalog_path  # noqa: E402
from service.i18n.games.glossary import glossaries  # noqa: E402

POT = TRANSLATIONS / f"{DOMAIN}.pot"
#: The review of OpenCC's t2s output for the catalog: a traditional text → the simplified text kept instead of OpenCC's.
REVIEWED: dict[str, str] = {"蓋著": "盖着", "大砲": "大炮"}


def english_templates() -> dict[str, Template]:
    """Every English template by id: the core's, then each listed game's."""
    templates: dict[str, Template] = dict(CORE_TEMPLATES)
    for name in listed_games():
        templates.update(get_rules(name).templates)
    return templates


def template_catalog() -> Catalog:
    """The ``.pot``: one entry per template id (its context), the English text as ``msgid``."""
    catalog = Catalog(domain=DOMAIN, project="ludolog", msgid_bugs_address="", charset="utf-8")
    for message_id, template in sorted(english_templates().items()):
        catalog.add(template if isinstance(template, str) else (template[0], template[1]), context=message_id)
    return catalog


def write_pot() -> None:
    """Write the template file."""
    with POT.open("wb") as file:
        write_po(file, template_catalog(), width=0, omit_header=False)


def update() -> None:
    """Bring each language's catalog in step with the template file."""
    template = template_catalog()
    for language in CATALOG_DIRS:
        path = catalog_path(language)
        with path.open("rb") as file:
            catalog = read_po(file, locale=CATALOG_DIRS[language], domain=DOMAIN)
        catalog.update(template, no_fuzzy_matching=True)
        with path.open("wb") as file:
            write_po(file, catalog, width=0, ignore_obsolete=False)


def _t2s() -> object:
    import opencc  # installed by hand for this tool only: the conversion is done here once and committed

    return opencc.OpenCC("t2s")


def simplified(text: str, converter: object) -> str:
    """``text`` in simplified script: OpenCC's conversion with :data:`REVIEWED`'s changes."""
    converted: str = converter.convert(text)  # type: ignore[attr-defined]
    for traditional, kept in REVIEWED.items():
        converted = converted.replace(converter.convert(traditional), kept)  # type: ignore[attr-defined]
    return converted


def write_simplified() -> None:
    """Write the zh_Hans catalog from the zh_Hant one."""
    converter = _t2s()
    with catalog_path("zh-Hant").open("rb") as file:
        source = read_po(file, locale="zh_Hant", domain=DOMAIN)
    target = Catalog(locale="zh_Hans", domain=DOMAIN, project="ludolog", charset="utf-8", fuzzy=False,
                     last_translator=source.last_translator, language_team="zh-Hans", copyright_holder="ludolog",
                     header_comment="# The games' templates in simplified Chinese: the zh_Hant catalog converted with OpenCC's t2s\n"
                                    "# tables by tools/games_catalog.py simplified, and reviewed (its REVIEWED table).")
    for entry in source:
        if not entry.id:
            continue
        string = entry.string
        converted = tuple(simplified(s, converter) for s in string) if isinstance(string, tuple | list) else (
            simplified(string, converter))
        target.add(entry.id, converted, context=entry.context)
    path = catalog_path("zh-Hans")
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, target, width=0)


def unreviewed_glossary_words() -> list[str]:
    """Glossary entries whose zh-Hans word differs from OpenCC's conversion without a note saying why."""
    converter = _t2s()
    found = []
    for glossary in glossaries().values():
        for kind, terms in glossary.terms.items():
            for en, entries in terms.items():
                traditional, simple = entries.get("zh-Hant"), entries.get("zh-Hans")
                if traditional is None or simple is None:
                    continue
                expected = converter.convert(traditional.word)  # type: ignore[attr-defined]
                if simple.word != expected and not simple.note:
                    found.append(f"{glossary.game} {kind} {en!r}: {simple.word!r}, OpenCC says {expected!r}")
    return found


def main(argv: list[str]) -> int:
    """Run the command ``argv`` names (see the module docstring)."""
    commands = {"pot": write_pot, "update": update, "simplified": write_simplified}
    if argv == ["check-glossary"]:
        found = unreviewed_glossary_words()
        print("\n".join(found) or "every zh-Hans word is OpenCC's conversion or says why not", file=sys.stderr)
        return 1 if found else 0
    if len(argv) != 1 or argv[0] not in commands:
        print(__doc__)
        return 2
    commands[argv[0]]()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
