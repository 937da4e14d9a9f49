// What every page shares: the theme switch (light or dark, remembered in a cookie that the server reads, so a page is
// drawn in the chosen theme from its first paint; without a choice the system's), and `?` for the list of keyboard
// shortcuts (Esc closes it; off, like every one-key shortcut, when the "one-key shortcuts" switch is off).

const THEME_COOKIE = "ludolog-theme";
const SHORTCUTS_KEY = "ludolog.shortcuts";  // as keys.js keeps the one-key shortcuts switch
const ONE_YEAR = 365 * 24 * 3600;
const root = document.documentElement;

function currentTheme() {
  return root.dataset.theme || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
}

function showThemeSwitch() {
  document.getElementById("theme-toggle")?.setAttribute("aria-pressed", String(currentTheme() === "dark"));
}

function toggleTheme() {
  const next = currentTheme() === "dark" ? "light" : "dark";
  root.dataset.theme = next;
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${THEME_COOKIE}=${next}; path=/; max-age=${ONE_YEAR}; SameSite=Lax${secure}`;
  showThemeSwitch();
}

function typingIn(target) {
  return Boolean(target.closest && target.closest("input:not([type=checkbox]), textarea, select, [contenteditable]"));
}

function openShortcutsOnQuestionMark(event) {
  const help = document.getElementById("shortcuts-help");
  if (event.key !== "?" || !help || help.open || typingIn(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
  if (localStorage.getItem(SHORTCUTS_KEY) === "off") return;
  event.preventDefault();
  help.showModal();
}

document.getElementById("theme-toggle")?.addEventListener("click", toggleTheme);
matchMedia("(prefers-color-scheme: dark)").addEventListener("change", showThemeSwitch);
showThemeSwitch();
document.addEventListener("keydown", openShortcutsOnQuestionMark);
document.getElementById("shortcuts-help-close")?.addEventListener("click", () => document.getElementById("shortcuts-help").close());
