"""Which language a pasted log seems to be written in, when it reads as no log (issue 47).

Board Game Arena writes the log text a person copies (the log panel, the game review page) in that person's language;
the importer reads only BGA's English text (``Move N :`` headers, the English phrases of a game's lines). A German or
Hungarian review text is no log it can read, and saying which language it seems to be in, with where a log in any
language can be had instead (the archive JSON, the bookmarklet: both carry BGA's templates, which are the same in
every language), helps more than "not a log".

The method, small enough to check by hand (:func:`seems_written_in`):

1. Each language has its marks: a few dozen of its commonest short words (articles, conjunctions, prepositions,
   pronouns) and the words of BGA's log lines (the verbs "chooses", "takes", "builds", "gets", and "round", "move",
   "player", "points"), and the letters only it writes among the languages here (German ``ß ä``, Hungarian ``ő ű``).
   A word listed for two languages marks neither: it cannot tell them apart. Scripts are marks of their own: kana is
   Japanese, Hangul Korean, Cyrillic Russian, and Han characters without kana Chinese.
2. Every non-empty line is looked at once: it counts for each language it shows a mark of.
3. The language that marks the most lines is the one the text seems to be in, if it marks at least
   :data:`MIN_LINES` lines and :data:`MIN_SHARE` of them, more lines than English and more than any other language.
   Otherwise (English, a tie, too few marks) no language is named.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Final

#: Each language's marks: (BCP 47 tag, English name, its words, its own letters).
_LANGUAGES: Final[tuple[tuple[str, str, str, str], ...]] = (
    ("en", "English", "the and of to his her their from for with is are was has have chose chooses selected takes took "
                      "gets got receives built builds bought buys ships sells sold passes round move player points "
                      "victory plantation colonist colonists doubloon doubloons end turn new this not", ""),
    ("de", "German", "der die das und ein eine einen einem eines den dem des ist sind hat haben wählt wählte nimmt nahm "
                     "erhält erhielt bekommt baut baute kauft kaufte verschifft verkauft für mit von auf aus zum zur "
                     "sein seine seinen ihre ihren nicht zug runde spieler siegpunkte siegpunkt dublonen dublone "
                     "kolonisten kolonist plantage gebäude rolle phase ende neue als", "ßä"),
    ("hu", "Hungarian", "az és egy egyet ez ezt nem van volt meg el ki be fel választotta választja választ kapott kap "
                        "kapja vett vesz épített épít megépítette hajóra szállított eladott lépés lépése forduló "
                        "fordulóban kör körben játékos játékosok pontot pont győzelmi dublont dublon telepest telepes "
                        "ültetvényt ültetvény épületet szerepet mint", "őű"),
    ("fr", "French", "le les et une des du au aux il elle prend choisit reçoit construit achète vend expédie avec pour "
                     "sur est son sa ses tour joueur points ronde nouvelle coup", "èêœ"),
    ("es", "Spanish", "el los las y una del con por para elige recibe construye toma compra vende envía su sus es turno "
                      "jugador puntos ronda nueva movimiento", "ñ¿¡"),
    ("it", "Italian", "il lo gli della dello sceglie riceve costruisce prende compra vende spedisce turno giocatore "
                      "punti nuova mossa ha", ""),
    ("pt", "Portuguese", "o os um uma do da dos das com escolhe recebe constrói pega compra vende envia seu sua "
                         "jogador pontos rodada nova jogada", "ãõ"),
    ("nl", "Dutch", "het een en van voor kiest neemt krijgt bouwt koopt verkoopt verscheept zijn haar beurt speler "
                    "punten ronde nieuwe zet niet", ""),
    ("pl", "Polish", "i w z na się wybiera otrzymuje buduje bierze kupuje sprzedaje gracz tura punkty runda nowa ruch "
                     "oraz jest", "ąęłśźżćń"),
)
#: The language of a script: (BCP 47 tag, English name, the script's characters as a regular expression class).
_SCRIPTS: Final[tuple[tuple[str, str, str], ...]] = (
    ("ja", "Japanese", "\u3040-\u30ff"),
    ("ko", "Korean", "\uac00-\ud7af\u1100-\u11ff"),
    ("ru", "Russian", "\u0400-\u04ff"),
    ("zh", "Chinese", "\u4e00-\u9fff"),
)
#: The English name of every language a text may be said to be in, by tag.
LANGUAGE_NAMES: Final[dict[str, str]] = {tag: name for tag, name, *_ in (*_LANGUAGES, *_SCRIPTS)}
#: The fewest lines, and the smallest share of the text's lines, the winning language must mark.
MIN_LINES: Final = 2
MIN_SHARE: Final = 0.25

_WORD = re.compile(r"[^\W\d_]+")
_SCRIPT_RES: Final = {tag: re.compile(f"[{chars}]") for tag, _, chars in _SCRIPTS}


def _own_words() -> dict[str, frozenset[str]]:
    """Each language's words, less those another language lists too (a shared word tells nothing)."""
    listed = {tag: frozenset(words.split()) for tag, _, words, _ in _LANGUAGES}
    seen = Counter(word for words in listed.values() for word in words)
    return {tag: frozenset(word for word in words if seen[word] == 1) for tag, words in listed.items()}


_WORDS: Final = _own_words()
_LETTERS: Final = {tag: frozenset(letters) for tag, _, _, letters in _LANGUAGES}


def languages_of_line(line: str) -> set[str]:
    """The languages ``line`` shows a mark of (a word, a letter or a script of each)."""
    lowered = line.casefold()
    words = set(_WORD.findall(lowered))
    found = {tag for tag, own in _WORDS.items() if words & own or _LETTERS[tag] & set(lowered)}
    scripts = {tag for tag, script in _SCRIPT_RES.items() if script.search(line)}
    if "ja" in scripts:
        scripts.discard("zh")  # Japanese writes Han characters too; kana is its own
    return found | scripts


def seems_written_in(text: str) -> str | None:
    """The BCP 47 tag of the language ``text`` seems to be written in, if it is not English; None if it seems English
    or cannot be told (see the module's docstring for the method)."""
    lines = [line for line in text.splitlines() if line.strip()]
    counts = Counter(tag for line in lines for tag in languages_of_line(line))
    ranked = counts.most_common()
    if not ranked:
        return None
    tag, marked = ranked[0]
    runner_up = ranked[1][1] if len(ranked) > 1 else 0
    if tag == "en" or marked == runner_up or marked < MIN_LINES or marked < MIN_SHARE * len(lines):
        return None
    return tag
