// Short letters for a game's words (a good, an event) on the board, so that a colour or an icon is never the only
// thing saying which: the English letters a renderer chose, or in another language the first letters of the glossary's
// word (one Chinese character), unique among the words drawn together.

/** Letters for each of `names` (the engine's English words): `english[name]` where `word(name)` is still the English
 *  word, else the word's first letter and another of its letters, the first pair not taken by an earlier name. */
export function lettersFor(names, word, english) {
  const taken = new Set();
  return Object.fromEntries(names.map((name) => {
    const chars = Array.from(word(name));
    if (chars.join("") === name) return [name, english[name] || name.slice(0, 2)];
    const options = /\p{Script=Han}/u.test(chars[0]) ? chars
      : chars.slice(1).filter((c) => /\p{L}/u.test(c)).map((next) => chars[0].toUpperCase() + next);
    const found = options.find((option) => !taken.has(option)) || chars[0];
    taken.add(found);
    return [name, found];
  }));
}
