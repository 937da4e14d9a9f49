// The scripts' texts in the page's language (issue 47). Every text a module shows goes through `t` (or `tn` for a
// count); `make messages` extracts them into the site's catalogs, and the page names its language's catalog (JSON, at
// an address that changes with its content: cached for a year) in <meta name="i18n-catalog">. This module waits for
// it before any module that imports it runs (a top-level await; the page preloads it), so `t` is synchronous.
//
//   import { t, tn, locale } from "./i18n.js";
//   t("Upload");                                       // the catalog's text, or the English where it has none
//   t("Move %(n)s of %(total)s", { n: 3, total: 40 }); // named placeholders, Python's format as in the templates
//   tn("%(num)d game", "%(num)d games", count);        // the count's plural form; %(num)d is the count
//   formatNumber(12345.5); formatDateTime(epochSeconds); // the page's language's way (Intl)
//   const tg = gameTerms("puerto_rico");              // a game's words, from its glossary (the rulebook's)
//   tg("role", "mayor");                               // "polgármester", "市長"; the English key where none
//   tg.count(3, "component", "doubloon");              // "3 doubloons", "3 dublon": a term counted
//   tg.heading("component", "cargo ship");             // "Cargo ships", "Kereskedőhajó": a box's title

/** The page's language, a BCP 47 tag (`<html lang>`: "en", "hu", "de", "zh-Hant", "zh-Hans"). */
export const locale = document.documentElement.lang || "en";

async function loadCatalog() {
  const address = document.querySelector('meta[name="i18n-catalog"]')?.content;
  if (!address) return { plurals: 2, messages: {} };
  try {
    const response = await fetch(address, { credentials: "same-origin" });
    if (response.ok) return await response.json();
  } catch { /* offline or refused: the English texts below still read */ }
  return { plurals: 2, messages: {} };
}

const catalog = await loadCatalog();

/** `text` with its placeholders filled from `args` and `%%` made `%`, as Python's `%` does (with no `args`: as it is). */
function fill(text, args) {
  if (!args) return text;
  return text.replace(/%%|%\((\w+)\)[sd]/g, (whole, name) => {
    if (whole === "%%") return "%";
    return name in args ? String(args[name]) : whole;
  });
}

/** `id` (an English message) in the page's language, its `%(name)s` placeholders filled from `args`. */
export function t(id, args) {
  const found = catalog.messages[id];
  return fill(typeof found === "string" ? found : id, args);
}

/** `id` in the page's language as a list of strings and nodes, for a sentence with an element in it: a placeholder
 *  whose value is a Node (a link, say) is that node, the others text. `el("p", {}, ...tParts("See %(game)s.", { game: link }))`
 *  keeps the word order the translator chose. */
export function tParts(id, args) {
  const found = catalog.messages[id];
  const text = typeof found === "string" ? found : id;
  return text.split(/(%\(\w+\)[sd])/).filter(Boolean).map((part) => {
    const name = /^%\((\w+)\)[sd]$/.exec(part)?.[1];
    if (!name || !(name in args)) return part;
    return args[name] instanceof Node ? args[name] : String(args[name]);
  });
}

/** The form of a message for `count` (`%(num)d` is the count, other placeholders from `args`). The catalog's plural
 * rule: one form (Chinese) or two, the first for exactly 1 (English, German, Hungarian). */
export function tn(singular, plural, count, args) {
  const forms = catalog.messages[singular];
  const values = { num: count, ...args };
  if (Array.isArray(forms)) return fill(forms[catalog.plurals === 1 || count === 1 ? 0 : 1], values);
  return fill(count === 1 ? singular : plural, values);
}

/** A game's terms in the page's language: `tg(kind, en)` is the word of the game's glossary
 *  (service/i18n/games/glossary/<game>.toml: buildings, goods, roles, tiles, phases as the rulebook prints them) for the
 *  engine's English word `en`, or `en` itself where there is none (English, a custom component set's own names).
 *  `tg.many(kind, en, english)` is the glossary's word, or in English `english` (the plural, `en` + "s", unless
 *  given: the glossaries' languages say the word itself where English says the plural or a shorter word),
 *  `tg.count(n, kind, en, plural, singular)` says `n` of it ("3 doubloons", "3 dublon"; English's words `plural` and
 *  `singular` where they are not `en` + "s" and `en`), `tg.heading(kind, en, plural)` is `tg.many` with a capital (a
 *  box's title). The scripts' catalog carries every game's terms under `games`. */
export function gameTerms(game) {
  const terms = catalog.games?.[game] || {};
  const tg = (kind, en) => terms[kind]?.[en] ?? en;
  tg.many = (kind, en, english = `${en}s`) => terms[kind]?.[en] ?? english;
  tg.count = (n, kind, en, plural, singular = en) =>
    t("%(n)s %(term)s", { n, term: tg.many(kind, en, n === 1 ? singular : plural) });
  tg.heading = (kind, en, plural) => capitalised(tg.many(kind, en, plural));
  return tg;
}

let titles = null;

/** A game's title by its id (`puerto_rico` → "Puerto Rico"): a proper name, the same in every language, as the page's
 *  `data-game-titles` gives every game with rules; another game's id with spaces for underscores, capitalised. */
export function gameTitle(game) {
  titles ??= JSON.parse(document.body?.dataset.gameTitles || "{}");
  return titles[game] ?? capitalised(String(game).replaceAll("_", " "));
}

/** `text` with its first letter a capital (a heading; scripts without capitals are left as they are). */
export function capitalised(text) {
  const [first = "", ...rest] = Array.from(text);
  return first.toLocaleUpperCase(locale) + rest.join("");
}

/** A number the page's language's way (digit grouping, decimal sign). */
export function formatNumber(value, options) {
  return new Intl.NumberFormat(locale, options).format(value);
}

/** A moment (seconds since the epoch) as a date and time the page's language's way, in the reader's time zone. */
export function formatDateTime(epochSeconds, options = { dateStyle: "medium", timeStyle: "short" }) {
  return new Intl.DateTimeFormat(locale, options).format(new Date(epochSeconds * 1000));
}

/** Names joined the page's language's way: "Ann, Bob and Cy", "Ann, Bob és Cy", "Ann、Bob和Cy". */
export function formatList(items) {
  return new Intl.ListFormat(locale, { style: "long", type: "conjunction" }).format(items);
}
