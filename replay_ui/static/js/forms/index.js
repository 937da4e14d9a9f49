// Turns of many steps played from one form (issue 46 item 5). A game's UI adapter names, per verb, the form that plays
// a whole turn whose legal actions all share that verb (`turn_forms` in its components: Puerto Rico's `place` → the
// mayor's form), and ./<form>.js is loaded on demand, so adding a form edits nothing here. A form builds the turn on a
// copy of the state (the board shows it as it is built) and hands back the engine's own steps, which the picker sends
// in order, each with its expected seq (picker.js `playSteps`).

const NAME = /^[a-z][a-z0-9_]*$/;
const loaded = new Map();

/** The form module for a turn whose legal `actions` all share one verb that `forms` names, else null. */
export async function turnFormFor(forms, actions) {
  if (!forms || !actions.length) return null;
  const verbs = new Set(actions.map((a) => a.action.split(" ")[0]));
  const name = verbs.size === 1 ? forms[[...verbs][0]] : null;
  if (!name || !NAME.test(name)) return null;
  if (!loaded.has(name)) loaded.set(name, import(`./${name}.js`));
  return loaded.get(name);
}
