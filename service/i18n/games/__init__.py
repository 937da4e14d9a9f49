"""The games in their players' languages (issue 47): glossaries of the games' terms and the ``games`` catalogs of
their move sentences.

The engine describes a move as a message (a template id with arguments, :mod:`engine.core.messages`); this
package renders it in the reader's language: :func:`move_text` (a move's sentence, English exactly as the engine's
``describe``) and :func:`render_message`. :mod:`~service.i18n.games.glossary` reads the per-game glossaries (every
term with its source), :mod:`~service.i18n.games.catalogs` the ``.po`` catalogs of the templates.
"""

from service.i18n.games.catalogs import LANGUAGES, language_of, move_text, render_message

__all__ = ["LANGUAGES", "language_of", "move_text", "render_message"]
