// Players' initials, so that a piece says whose it is without its colour (WCAG 1.4.1: in grayscale,
// or to a colour-blind player, two players' houses or ships must still differ).

/** One short tag per player: the first letter of the name, or more letters where two names share it. */
export function initialsOf(names) {
  const tags = names.map((name) => Array.from(name || "?")[0].toUpperCase());
  return tags.map((tag, seat) => {
    if (tags.filter((t) => t === tag).length === 1) return tag;
    const letters = Array.from(names[seat] || "?");
    for (let n = 2; n <= letters.length; n++) {
      const longer = letters.slice(0, n).join("");
      if (names.filter((other) => Array.from(other).slice(0, n).join("") === longer).length === 1) return longer[0].toUpperCase() + longer.slice(1);
    }
    return `${tag}${seat + 1}`;
  });
}
