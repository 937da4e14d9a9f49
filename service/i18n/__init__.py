"""The site in its players' languages (issue 47): the locales offered, the catalogs of the site's strings and of the
games' terms, the current locale and the locale's formats. The engine stays free of wording: it describes moves as
messages (a template id with arguments) that this package renders in the reader's language.

What the rest of the code calls (all in the current locale, which the web layer sets per request and
:func:`use_locale` sets for a job or a test):

- ``_("Sign in")`` / :func:`gettext`, with named placeholders: ``_("Signed in as %(user)s", user=name)``;
  :func:`ngettext` for counts (``%(num)d`` is the count); :func:`dgettext` for another domain (``games``);
  :func:`N_` marks a constant for the catalog, translated where it is shown.
- :func:`current_locale` (Babel's spelling, ``zh_Hant``), :func:`bcp47` for the edges (``zh-Hant``),
  :data:`LANGUAGES` (tag, locale, the language's own name), :func:`negotiate` (``Accept-Language``).
- :func:`format_datetime`, :func:`format_date`, :func:`format_number`, :func:`format_percent`,
  :func:`format_duration`, :func:`format_list`: CLDR's patterns through Babel (also Jinja globals of the same names).
- Templates: ``{{ _("Sign in") }}``, ``{{ _("Signed in as %(user)s", user=ui_user) }}``,
  ``{% trans count=n %}{{ count }} game{% pluralize %}{{ count }} games{% endtrans %}`` (Jinja's i18n extension,
  new style: a literal ``%`` is written ``%%``).
- Scripts: ``import { t, tn } from "./i18n.js"``; ``t("Move %(n)s", { n: 3 })``,
  ``tn("%(num)d game", "%(num)d games", n)`` (``replay_ui/static/js/i18n.js``).
- A new string: write it through one of these, run ``make messages`` (extracts, updates every ``.po``), translate it
  in each ``service/i18n/translations/<locale>/LC_MESSAGES/messages.po``; ``tests/i18n`` fails while one is missing.
"""

from service.i18n.catalogs import register_domain, script_catalog, translations
from service.i18n.current import current_locale, reset_locale, set_locale, use_locale
from service.i18n.formats import (
    format_date,
    format_datetime,
    format_duration,
    format_list,
    format_number,
    format_percent,
)
from service.i18n.locales import DEFAULT_LOCALE, LANGUAGES, LOCALES, Language, bcp47, language_of, locale_id, negotiate
from service.i18n.translate import N_, _, dgettext, gettext, ngettext

__all__ = [
    "DEFAULT_LOCALE", "LANGUAGES", "LOCALES", "Language", "N_", "_", "bcp47", "current_locale", "dgettext",
    "format_date", "format_datetime", "format_duration", "format_list", "format_number", "format_percent", "gettext", "language_of",
    "locale_id", "negotiate", "ngettext", "register_domain", "reset_locale", "script_catalog",
    "set_locale", "translations", "use_locale",
]
