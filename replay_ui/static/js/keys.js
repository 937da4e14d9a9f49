// Keyboard helpers the replay pages share.
//
// One-key shortcuts (arrows, Home, End, R) can be turned off with the "one-key shortcuts" checkbox
// (WCAG 2.1.4: speech users and people who slip on the keyboard would otherwise trigger them); the
// choice is kept in this browser. Jump selects go where they point on Enter (or a pick with the
// mouse), not on every arrow key that passes an option on the way (WCAG 3.2.2).

const SHORTCUTS_KEY = "ludolog.shortcuts";

/** Wire the page's shortcut checkbox (if any); returns a function telling whether shortcuts are on now. */
export function bindShortcutSwitch(id = "shortcuts-on") {
  const box = document.getElementById(id);
  if (!box) return () => true;
  box.checked = localStorage.getItem(SHORTCUTS_KEY) !== "off";
  box.addEventListener("change", () => localStorage.setItem(SHORTCUTS_KEY, box.checked ? "on" : "off"));
  return () => box.checked;
}

const NAVIGATION_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "PageUp", "PageDown", "Home", "End"]);

/** Call `go(value)` when the user settles on an option of `select`: Enter, or a choice not made by arrow keys. */
export function onSelectChosen(select, go) {
  let byArrows = false;
  select.addEventListener("keydown", (event) => {
    if (NAVIGATION_KEYS.has(event.key)) byArrows = true;
    else if (event.key === "Enter") {
      event.preventDefault();
      byArrows = false;
      if (select.value) go(select.value);
    }
  });
  select.addEventListener("change", () => {
    if (byArrows) { byArrows = false; return; }  // wait for Enter
    if (select.value) go(select.value);
  });
}
